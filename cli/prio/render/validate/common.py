"""Helpers the CI formats of `prio validate` share: repository-relative paths, stable finding
fingerprints, and rule docs as markdown."""
from __future__ import annotations

import os

STDIN = "<stdin>"


def repo_path(name: str, root_env: tuple = ()) -> str:
    """`name` relative to the repository root: the first set variable of `root_env`
    (GITHUB_WORKSPACE, CI_PROJECT_DIR), else the working directory; `/`-separated, no `./`.
    A path outside the root stays as given."""
    if name == STDIN:
        return name
    root = next((os.environ[v] for v in root_env if os.environ.get(v)), None) or os.getcwd()
    path = os.path.abspath(name)
    try:
        rel = os.path.relpath(path, os.path.abspath(root))
    except ValueError:
        rel = None
    if rel is not None and not rel.startswith(".." + os.sep) and rel != "..":
        out = rel
    else:
        out = name
    out = out.replace(os.sep, "/")
    while out.startswith("./"):
        out = out[2:]
    return out


def fingerprints(findings, path_of=lambda f: f.file) -> list[str]:
    """One stable id per finding: a hash of rule, file and YAML path, plus the occurrence number
    among findings with the same three. The line is left out so a finding keeps its id when lines
    above it move; the message too (it may quote values that change)."""
    import hashlib  # lazy: OpenSSL's load is kept off the start-up of validate

    seen: dict = {}
    out = []
    for f in findings:
        key = (f.rule, path_of(f), f.path)
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(hashlib.sha256("\0".join((f.rule, key[1], f.path, str(n))).encode("utf-8")).hexdigest())
    return out


def by_file(report, extra_files=()) -> list[tuple[str, list]]:
    """(file, its findings) in the order the files were checked; files without findings too."""
    groups: dict = {name: [] for name in report.files}
    for name in extra_files:
        groups.setdefault(name, [])
    for f in report.findings:
        groups.setdefault(f.file, []).append(f)
    return list(groups.items())


def doc_markdown(doc: str) -> str:
    """A rule docstring as markdown: its indented example blocks become fenced YAML."""
    out, block = [], []

    def flush():
        if block:
            while block and not block[-1].strip():
                block.pop()
            width = min(len(b) - len(b.lstrip(" ")) for b in block if b.strip())
            out.append("```yaml")
            out.extend(b[width:] for b in block)
            out.append("```")
            block.clear()

    for line in doc.split("\n"):
        if line.startswith("    ") or (block and not line.strip()):
            block.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out).strip() + "\n"


def location(f) -> str:
    return f.file + (f":{f.line}" + (f":{f.column}" if f.column else "") if f.line else "")


UNREADABLE = ("PRIO000", "unreadable-input")


def input_error_findings(input_errors) -> list:
    """Inputs prio could not check, as error-level findings of PRIO000 (unreadable-input), so
    every format records the file and the one-line reason."""
    from prio.diagnostics import Finding

    return [Finding(UNREADABLE[0], UNREADABLE[1], "error", e.message, e.file, e.line, e.column if e.line else None, "")
            for e in input_errors]
