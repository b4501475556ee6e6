"""The backend contract (issue 47), over prio.backends.REGISTRY: what every scheduler backend
must do to be one. A new backend is a new row of the registry; this file is what it must pass.

- its samples are claimed by it alone (gather's recognition by content);
- every command it offers renders every format (-o html may be refused, in one line), and its
  -o json validates against the JSON Schema it declares;
- every analysis command it does not offer refuses its inputs in one generated line;
- its own options show in --help, and given with other inputs are refused in one line (the
  default row's are refused by each other backend in its own words, and its environment
  variables never change another scheduler's run);
- its documents are recognised by its own package (its recognise module, importing nothing of
  prio), by kinds no other row claims, and a big file of them is never taken for no input;
- its BACKEND implements the protocol and the registry names every backend package."""
from __future__ import annotations

import json
import os

import pytest

from conftest import ROOT, run_cli
from prio import backends
from prio.backend import COMMANDS

CASES = [(e, s) for e in backends.REGISTRY for s in e.samples]
IDS = [f"{e.name}-{s}" for e, s in CASES]


def _sample_path(name: str) -> str:
    """A sample's first file (a YuniKorn sample may be NAME-queues and NAME-asks)."""
    from prio.yunikorn.load.assemble import sample_paths

    return sample_paths(name)[0]


@pytest.mark.parametrize("entry", backends.REGISTRY, ids=[e.name for e in backends.REGISTRY])
def test_the_registry_row_names_a_backend_that_says_it_is_that_backend(entry):
    b = backends.get(entry.name)
    assert (b.name, b.title) == (entry.name, entry.title)
    assert b.offers and set(b.offers) <= set(COMMANDS)
    for method in ("refused", "load", "run", "render") + (("diff", "changed") if "diff" in b.offers else ()):
        assert callable(getattr(b, method)), method
    assert entry.samples, "a backend ships a sample"


def test_every_package_with_a_backend_module_is_registered():
    pkg = os.path.join(ROOT, "cli", "prio")
    found = {d for d in os.listdir(pkg) if os.path.isfile(os.path.join(pkg, d, "backend.py"))}
    assert found == {e.name for e in backends.REGISTRY}


@pytest.mark.parametrize("entry,sample", CASES, ids=IDS)
def test_its_sample_is_claimed_by_it_alone(entry, sample):
    from prio.io.gather import gather
    from prio.yunikorn.load.assemble import sample_paths

    inp = gather(sample_paths(sample))
    if entry is backends.DEFAULT:  # the default row's inputs are those no other row claims
        assert inp.backend is None and not inp.objects and (inp.config or inp.snapshot or inp.classes)
        return
    assert inp.backend == entry.name
    assert inp.config is None and inp.snapshot is None  # nothing of it read as YuniKorn's


@pytest.mark.parametrize("entry,sample", CASES, ids=IDS)
@pytest.mark.parametrize("command", ("explain", "simulate"))
def test_every_format_renders(entry, sample, command):
    from prio.render.formats import names

    b = backends.get(entry.name)
    for fmt in names(command):
        r = run_cli(command, "--sample", sample, "-o", fmt)
        if fmt == "html" and r.exit_code == 2:  # a backend without a page refuses it in one line
            assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and "-o html" in r.stderr, r.stderr
            continue
        assert r.exit_code == 0, (fmt, r.stderr)
        assert r.stdout.strip(), fmt
        if fmt == "json":
            schema = dict(entry.schemas).get(command)
            if schema is None:
                continue  # listed by test_the_json_schemas_a_backend_lacks
            from jsonschema import Draft202012Validator

            from prio.io.package_data import schema_path

            with open(schema_path(schema), encoding="utf-8") as f:
                v = Draft202012Validator(json.load(f))
            errors = [e.message for e in v.iter_errors(json.loads(r.stdout))]
            assert not errors, errors[:3]
    assert command in b.offers


def test_the_json_schemas_a_backend_lacks():
    """The gaps, named: a command a backend offers without a JSON Schema (Armada's, today). A
    schema added, or a command offered without one, changes this list on purpose."""
    lacking = sorted((e.name, c) for e in backends.REGISTRY for c in backends.get(e.name).offers
                     if c not in dict(e.schemas))
    assert lacking == [("armada", "explain"), ("armada", "simulate")]


@pytest.mark.parametrize("entry,sample", CASES, ids=IDS)
def test_every_command_it_does_not_offer_refuses_in_one_line(entry, sample, tmp_path):
    b = backends.get(entry.name)
    path = _sample_path(sample)
    other = tmp_path / os.path.basename(path)
    other.write_bytes(open(path, "rb").read())
    argv = {"preempt": ("preempt", path), "snapshot": ("snapshot", path, "--output-file", str(tmp_path / "snap.yaml")), "diff": ("diff", path, str(other))}
    for command in COMMANDS:
        if command in b.offers or command not in argv:
            continue
        r = run_cli(*argv[command])
        assert r.exit_code == 2 and r.stdout == "", (command, r.stdout)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and f"prio {command} does not take {entry.title} inputs" in lines[0], (command, r.stderr)


def test_the_default_rows_options_are_declared_by_its_package_and_show_in_help():
    """YuniKorn's options live in prio.yunikorn.options, like every row's: each that is not
    hidden shows in some analysis command's --help, and the commands take them by name."""
    from prio.cli.analysis_options import SHARED

    declared = backends.declarations(backends.DEFAULT)
    assert backends.DEFAULT.options == "prio.yunikorn.options" and declared
    assert all(SHARED[d.name] is d for d in declared)
    helps = "".join(run_cli(c, "--help").stdout for c in ("explain", "simulate", "preempt", "diff", "snapshot"))
    for d in declared:
        assert (d.flags[0] in helps) != bool(d.hidden), d.flags[0]


@pytest.mark.parametrize("entry", backends.CLAIMED, ids=[e.name for e in backends.CLAIMED])
def test_the_default_rows_environment_never_changes_another_schedulers_run(entry):
    """PRIO_ENGINE and PRIO_YUNIKORN_VERSION (YuniKorn's options by environment variable) are
    set for a YuniKorn user's shell: another scheduler's run is the same with them as without,
    output and notes alike (no YuniKorn release note on a Kueue run)."""
    from prio.yunikorn import releases

    backend = backends.get(entry.name)
    command = "simulate" if "simulate" in backend.offers else "explain"
    args = (command, "--sample", entry.samples[0], "-o", "json")
    plain = run_cli(*args, env={"PRIO_ENGINE": None, "PRIO_YUNIKORN_VERSION": None})
    assert plain.exit_code in (0, 1), plain.stderr
    for env in ({"PRIO_ENGINE": "reference"}, {"PRIO_YUNIKORN_VERSION": releases.NAMES[0]}):
        r = run_cli(*args, env=env)
        assert (r.exit_code, r.stdout, r.stderr) == (plain.exit_code, plain.stdout, plain.stderr), env


@pytest.mark.parametrize("entry", backends.CLAIMED, ids=[e.name for e in backends.CLAIMED])
def test_its_options_show_in_help_and_are_refused_with_other_inputs(entry):
    helps = {c: run_cli(c, "--help").stdout for c in ("explain", "simulate")}
    from prio.cli.analysis_options import SHARED

    declared = backends.declarations(entry)
    assert declared and all(d.name in SHARED for d in declared)
    for flag in (d.flags[0] for d in declared):
        assert any(flag in h for h in helps.values()), flag
        command = "explain" if flag in helps["explain"] else "simulate"
        value = {"--armada-decay": "document", "--armada-weighting": "legacy", "--armada-model": "legacy"}.get(flag, "1")
        r = run_cli(command, "--sample", "walkthrough", flag, value)  # YuniKorn's inputs
        assert r.exit_code == 2 and r.stderr.strip() == f"prio: {flag} applies to {entry.title} inputs", (flag, r.stderr)


def _imports_of_prio(path: str) -> list:
    import ast

    tree = ast.parse(open(path, encoding="utf-8").read())
    names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    return [m for m in names if m.split(".")[0] == "prio"]


@pytest.mark.parametrize("entry", backends.CLAIMED, ids=[e.name for e in backends.CLAIMED])
def test_its_documents_are_recognised_by_its_own_package(entry):
    """prio.io.documents asks each row's recognise module; a leaf of the backend's package (io
    sits below the schedulers), with kinds no other row claims and checks only of its kinds."""
    from importlib import import_module

    from prio.io import documents

    assert entry.recognise == f"prio.{entry.name}.recognise"
    mod = import_module(entry.recognise)
    assert _imports_of_prio(mod.__file__) == []
    others = {k for e in backends.CLAIMED if e is not entry for k in import_module(e.recognise).KINDS}
    assert not set(mod.KINDS) & others and set(mod.CHECKED) <= set(mod.KINDS) and set(mod.LABELS) <= set(mod.KINDS)
    assert all(documents.BACKEND_OF_KIND[k] == entry.name for k in mod.KINDS)
    assert mod.KINDS or entry.name in documents.WHOLE_FILE_BACKENDS  # it claims something
    assert backends.DEFAULT.recognise == ""  # YuniKorn's documents are the ones no row claims


@pytest.mark.parametrize("entry", backends.CLAIMED, ids=[e.name for e in backends.CLAIMED])
def test_a_big_text_with_one_of_its_top_level_keys_is_never_taken_for_no_input(entry):
    """prio.io.recognise.surely_no_input skips a big YAML none of whose top-level keys an input
    has: each key a backend's documents may start with must keep it from skipping (a raw
    Volcano scheduler config, `actions:` and `tiers:` alone, once was)."""
    from importlib import import_module

    from prio.io.recognise import surely_no_input

    keys = import_module(entry.recognise).TOP_KEYS
    assert surely_no_input("inventory:\n  hosts: [a]\n")  # the control: such a text is skipped
    for key in (*keys, "kind", "apiVersion"):
        assert not surely_no_input(f"{key}: x\ninventory:\n  hosts: 1\n"), key



@pytest.mark.parametrize("entry", backends.REGISTRY, ids=[e.name for e in backends.REGISTRY])
def test_every_differ_answers_every_fail_on_kind(entry):
    """prio diff --fail-on names prio.backend.FAIL_ON's kinds for every backend: a side against
    itself changes nothing of any kind (exit 0), and a kind a backend's `changed` does not know
    would be an internal error here."""
    from prio.backend import FAIL_ON
    from prio.yunikorn.load.assemble import sample_paths

    if "diff" not in backends.get(entry.name).offers:
        pytest.skip(f"{entry.title} offers no diff")
    first, *rest = sample_paths(entry.samples[0])
    r = run_cli("diff", first, first, *rest, "--fail-on", ",".join(FAIL_ON), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)
    bad = run_cli("diff", first, first, *rest, "--fail-on", "nosuch")
    assert bad.exit_code == 2 and "unknown kind 'nosuch'" in bad.stderr, bad.stderr


@pytest.mark.parametrize("entry", backends.CLAIMED, ids=[e.name for e in backends.CLAIMED])
def test_its_page_files_are_its_packages_and_in_the_page(entry):
    """A row's `view` (script) and `style` (stylesheet) are files of its own package, and the
    page's one script and one style element hold each whole (pinned by the page's CSP hashes)."""
    from prio.render.html import script_text, style_text

    pkg = os.path.join(ROOT, "cli", "prio", entry.name)
    for name, text in ((entry.view, script_text()), (entry.style, style_text())):
        if name:
            path = os.path.join(pkg, name)
            assert os.path.isfile(path), path
            assert open(path, encoding="utf-8").read() in text, name


def test_the_shared_page_assets_name_no_backend():
    """The page's shared parts (prio/render/html: its stylesheet, core, YuniKorn's views, the page)
    know no other scheduler: what one backend's page needs (its styles, its address keys through
    its view's `follow` hook) lives in its package, so adding a scheduler edits none of them."""
    import re

    base = os.path.join(ROOT, "cli", "prio", "render", "html")
    files = [os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs if f.endswith((".js", ".css"))]
    assert len(files) >= 4, files  # report.css, core.js, yunikorn.js, page.js
    names = re.compile(r"\b(" + "|".join(re.escape(e.title) for e in backends.CLAIMED) + r")\b", re.I)
    found = {os.path.relpath(f, base): names.findall(open(f, encoding="utf-8").read()) for f in files}
    assert not {f: n for f, n in found.items() if n}


# What prio.io.gather asks of the default row's reader (its docstring lists them).
_READER = ("new", "whole", "file", "finish", "holds", "holds_work", "EXPECTED", "WHAT", "OWN_KINDS", "WORK_KINDS")


def test_the_default_row_alone_names_a_reader_and_it_offers_what_gather_asks():
    """The documents no row claims go to DEFAULT's reader, file by file (prio.io.gather): it
    must offer each name gather calls, its state must be a Gathered, and the kinds it reads must
    be none another row claims by content."""
    from importlib import import_module

    from prio.io import documents
    from prio.io.gather import Gathered

    assert [e.name for e in backends.REGISTRY if e.reader] == [backends.DEFAULT.name]
    reader = import_module(backends.DEFAULT.reader)
    missing = [n for n in _READER if not hasattr(reader, n)]
    assert not missing, missing
    assert isinstance(reader.new(), Gathered)
    assert not (set(reader.OWN_KINDS) | set(reader.WORK_KINDS)) & set(documents.BACKEND_OF_KIND)
    assert not set(reader.OWN_KINDS) & set(reader.WORK_KINDS)


def test_gather_hands_the_default_reader_only_the_documents_no_row_claims(tmp_path):
    """A file of Kueue objects beside a queue config: the config is YuniKorn's reader's, the
    objects Kueue's, and the two never combine (one line naming the Kueue file)."""
    from prio.errors import InputError
    from prio.io.gather import gather

    kueue = tmp_path / "cq.yaml"
    kueue.write_text("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq}\nspec: {}\n")
    config = tmp_path / "queues.yaml"
    config.write_text("partitions:\n- name: default\n  queues:\n  - name: root\n")
    inp = gather([str(kueue)])
    assert inp.backend == "kueue" and [n for n, _ in inp.objects] == [str(kueue)] and inp.config is None
    with pytest.raises(InputError) as e:
        gather([str(config), str(kueue)])
    assert e.value.file == str(kueue) and "cannot be combined with YuniKorn inputs" in e.value.message


def test_the_commands_judge_through_the_registry_alone(tmp_path):
    """The command layer names the judgment step (prio.backends.judge), never the module that
    judges: DEFAULT's row alone names one, and it runs YuniKorn's checks (a config YuniKorn would
    refuse is noted; with `work`, REST queues promising work the inputs do not give are refused)."""
    import pathlib

    from prio.errors import InputError
    from prio.io.gather import gather

    assert [e.name for e in backends.REGISTRY if e.judge] == [backends.DEFAULT.name]
    naming = [p.name for p in (pathlib.Path(ROOT) / "cli" / "prio" / "cli").glob("*.py")
              if backends.DEFAULT.judge in p.read_text()]
    assert not naming, naming
    config = tmp_path / "queues.yaml"
    config.write_text("partitions:\n- name: default\n  queues:\n  - name: root\n    queues:\n    - name: a\n    - name: a\n")
    notes = backends.judge(gather([str(config)])).notes
    assert any("YuniKorn would refuse this config" in n for n in notes), notes
    queues = tmp_path / "queues.json"
    queues.write_text(json.dumps({"queuename": "root", "currentPriority": 5, "children": []}))
    assert backends.judge(gather([str(queues)])) is not None  # without `work`: not refused
    with pytest.raises(InputError, match="the queues report pending asks"):
        backends.judge(gather([str(queues)]), work=True)
