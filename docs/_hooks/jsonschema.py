"""MkDocs hook: the field reference of prio's JSON outputs (json-output.md), generated at build
time from the JSON Schemas in schemas/ (yunikorn-explain, -simulate, -preempt, -diff): the page
and the contract are one source and cannot disagree. Nothing is written into docs/."""
from __future__ import annotations

import json

from mkdocs.structure.files import File

COMMANDS = ("explain", "simulate", "preempt", "diff")


def _type(s: dict) -> str:
    if "const" in s:
        return f"`{json.dumps(s['const'])}`"
    if "anyOf" in s:
        return " or ".join(_type(x) for x in s["anyOf"])
    t = s.get("type")
    if t == "array":
        return "array"
    if t == "object" and s.get("properties") is None:
        return "map"
    if isinstance(t, list):
        return " or ".join(t)
    return t or "any"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def rows(s: dict, path: str, required: bool = True):
    """(field path, type, required, description) of `s` and everything below it."""
    if path and not (path.endswith("[]") and _type(s) == "object" and not s.get("description")):  # a list's element: its fields say it
        yield path, _type(s), required, s.get("description", "")
    variants = [x for x in s.get("anyOf", ()) if x.get("type") in ("object", "array")]
    for v in variants or [s]:
        if v.get("type") == "object":
            if "properties" in v:
                req = set(v.get("required", ()))
                for k, sub in v["properties"].items():
                    yield from rows(sub, f"{path}.{k}" if path else k, k in req)
            elif isinstance(v.get("additionalProperties"), dict):
                yield from rows(v["additionalProperties"], f"{path}.*", True)
        elif v.get("type") == "array" and isinstance(v.get("items"), dict):
            yield from rows(v["items"], f"{path}[]", True)


def table(s: dict) -> list[str]:
    out = ["| field | type | | meaning |", "| --- | --- | --- | --- |"]
    for path, ty, req, text in rows(s, ""):
        out.append(f"| `{path}` | {ty} | {'' if req else 'optional'} | {_cell(text)} |")
    return out


def schema(command: str) -> dict:
    from prio.io.package_data import schema_path  # where prio finds them (the checkout or the wheel)

    with open(schema_path(f"yunikorn-{command}.schema.json"), encoding="utf-8") as fh:
        return json.load(fh)


def page_markdown() -> str:
    out = ["# JSON output: the fields", "",
           "`-o json` of `prio explain`, `simulate`, `preempt` and `diff` on YuniKorn inputs has a JSON "
           "Schema (Draft 2020-12) in `schemas/`, shipped in the wheel as `prio/schemas/`: this page is "
           "generated from them. Each schema is strict (no key it does not name), carries an `$id` and "
           "the prio version it describes (`x-prio-version`); a later prio may add keys and says so in its "
           "own copy. `tests/cli/test_yunikorn_schemas.py` checks them, and every `-o json` the test suite "
           "produces is validated against them. Kueue's outputs have schemas of their own "
           "([Kueue](kueue.md#json-outputs)). In the tables, `[]` is an element of a list, `*` a value "
           "of a map (keyed by a queue path, an ask id or a resource type).", ""]
    for command in COMMANDS:
        s = schema(command)
        out += [f"## prio {command}", "", f"`schemas/yunikorn-{command}.schema.json`, `$id` `{s['$id']}`, "
                f"prio {s['x-prio-version']}.", "", _cell(s["description"]), ""]
        variants = s.get("anyOf")
        if variants:  # explain: one shape per question
            for v in variants:
                out += [f"### {_cell(v.get('description', ''))}", "", *table(v), ""]
        else:
            out += [*table(s), ""]
    return "\n".join(out)


def on_files(files, config):
    files.append(File.generated(config, "json-output.md", content=page_markdown()))
    return files
