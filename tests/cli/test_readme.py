"""The README, the documentation site and --help agree with prio: every `$ prio ...` example of
the README and of every page under docs/ prints what it shows, every bundled sample is named,
every test file the docs name exists."""
import glob
import os
import subprocess
import sys

import pytest

from builders import walkthrough_queues_lowered
from conftest import ROOT, prio_env, run_cli


def _samples():
    r = run_cli("explain", "--sample", "nosuch")
    assert r.exit_code == 2
    listed = r.stderr.split("available: ", 1)[1].rstrip(")\n")
    return [s.strip() for s in listed.split(",")]


def _samples_paragraph() -> str:
    """The paragraph under docs/inputs.md's "Bundled samples" heading."""
    with open(os.path.join(ROOT, "docs", "inputs.md"), encoding="utf-8") as fh:
        return fh.read().split("## Bundled samples\n\n", 1)[1].split("\n\n", 1)[0]


def test_every_sample_is_named_in_help_and_the_docs():
    para = _samples_paragraph()
    help_text = " ".join(run_cli("explain", "--help").stdout.split()).replace("- ", "-")  # wrapped at hyphens
    for name in _samples():
        assert f"`{name}`" in para or f"samples/{name}.yaml" in para, name
        if name != "armada-queues":  # a validate input: explain refuses it
            assert name in help_text.split("--sample", 1)[1].split("--output", 1)[0], name
            assert run_cli("explain", "--sample", name, "-o", "json").exit_code == 0, name


def test_the_examples_of_the_site_are_run():
    """Not only the README's: the walkthrough of getting started and the pages' own examples."""
    docs = {os.path.basename(d) for d in EXAMPLE_DOCS}
    assert {"README.md", "getting-started.md", "explain.md", "quota-preemption.md"} <= docs
    assert len(_readme_examples()) >= 8


def test_readme_never_offers_validate_a_sample_option():
    assert run_cli("validate", "--sample", "armada-queues").exit_code == 2  # validate takes files
    assert "takes files" in _samples_paragraph()


def test_top_level_help_does_not_call_armada_legacy_only():
    # the current scheduler is the default Armada model (README, Armada)
    out = " ".join(run_cli("--help").stdout.split())
    assert "legacy model" not in out and "Armada" in out


def test_top_level_help_names_every_scheduler_prio_reads():
    out = " ".join(run_cli("--help").stdout.split())
    assert "Apache YuniKorn (and Armada, Kueue and Volcano)" in out  # prio.backends' titles
    assert "validate Lint YuniKorn queue configs (and PriorityClass, Armada queue, Kueue and Volcano manifests)" in out


# The README and every page of the site (the generated rule pages show configs, not commands).
EXAMPLE_DOCS = ("README.md", *sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)))


def _readme_examples():
    text = ""
    for doc in EXAMPLE_DOCS:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as fh:
            text += fh.read()
    out = []
    for block in text.split("```")[1::2]:
        lines = block.split("\n")[1:]  # after the info string
        setup = []  # `$ ` lines before the prio command make its inputs (they run too: pasted, it works)
        while lines and lines[0].startswith("$ ") and not lines[0].startswith("$ prio "):
            setup.append(lines.pop(0)[2:])
        if lines and lines[0].startswith("$ prio "):
            out.append(((*setup, lines[0][2:]), [ln for ln in lines[1:] if ln.strip()]))
    return out


def _matches(shown, actual, abridged):
    """The README's lines in order; a line ending in `...` matches by its start, a `...` line
    alone stands for lines left out. Unabridged examples must be the whole output."""
    if not abridged:
        return shown == actual
    i = 0
    for line in shown:
        if line.strip() == "...":
            continue
        want = line[:-3] if line.endswith("...") else line
        while i < len(actual) and not (actual[i].startswith(want) if line.endswith("...") else actual[i] == want):
            i += 1
        if i == len(actual):
            return False
        i += 1
    return True


@pytest.mark.parametrize("commands,shown", _readme_examples(), ids=lambda v: v[-1] if isinstance(v, tuple) else "")
def test_readme_example_output(tmp_path, commands, shown):
    """Each example as a reader pastes it, in an empty folder beside the samples: its set-up lines
    (the one that makes new-queues.yaml) included."""
    import shlex

    os.symlink(os.path.join(ROOT, "samples"), tmp_path / "samples")
    *setup, command = commands
    for line in setup:
        subprocess.run(line, shell=True, cwd=tmp_path, check=True)
    args = shlex.split(command)[1:]
    p = subprocess.run([sys.executable, "-m", "prio", *args], capture_output=True, text=True, cwd=tmp_path,
                       env=prio_env(COLUMNS="120"))
    assert p.returncode in (0, 1), p.stderr
    actual = [ln.rstrip() for ln in (p.stdout + p.stderr).split("\n") if ln.strip()]
    abridged = any(ln.strip() == "..." or ln.endswith("...") for ln in shown)
    assert _matches([ln.rstrip() for ln in shown], actual, abridged), "\n".join(actual)


def test_test_files_the_docs_name_exist():
    import re

    for doc in EXAMPLE_DOCS:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as fh:
            for path in re.findall(r"`(tests/[\w/]+\.py)`", fh.read()):
                assert os.path.exists(os.path.join(ROOT, path)), (doc, path)


def test_every_file_an_example_reads_is_made_by_its_own_lines(tmp_path):
    """An example's inputs are the bundled samples or made by the `$ ` lines before it (issue 44:
    docs/quota-preemption.md's diff read a quota-old-queues.yaml the page never made)."""
    import shlex

    for commands, _ in _readme_examples():
        *setup, command = commands
        made = {shlex.split(line)[-1] for line in setup if ">" in shlex.split(line)}
        for arg in shlex.split(command)[1:]:
            if arg.endswith((".yaml", ".json")) and not arg.startswith("samples/") and "=" not in arg:
                assert arg in made, (command, arg)


def test_the_diff_example_makes_its_own_new_config(tmp_path):
    """The README's diff example compared with a new-queues.yaml it never showed how to make."""
    example = next(c for c, _ in _readme_examples() if c[-1].startswith("prio diff ") and "new-queues.yaml" in c[-1])
    assert any("> new-queues.yaml" in line for line in example[:-1])
    os.symlink(os.path.join(ROOT, "samples"), tmp_path / "samples")
    for line in example[:-1]:
        subprocess.run(line, shell=True, cwd=tmp_path, check=True)
    assert (tmp_path / "new-queues.yaml").read_text() == walkthrough_queues_lowered()


def test_the_readme_is_short_and_starts_with_the_two_commands():
    """Issue 32: at most 250 lines, the fresh-machine commands first (.ci/run runs the second, with
    the docs extra beside the test one), every link to a file of the repository resolves."""
    import re

    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 250
    assert lines[2:6] == ["```sh", "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/prio simulate",
                          "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest", "```"]
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as fh:
        assert lines[4].replace("'.[test]'", "'.[test,docs]'") in fh.read()
    said = " ".join(text.split("\n\n", 3)[2].split())  # the paragraph under the commands
    assert "runs exactly that" not in said and "with the `docs` extra beside `test`" in said  # what .ci/run adds
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert os.path.exists(os.path.join(ROOT, target)), target
