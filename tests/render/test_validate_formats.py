"""`prio validate -o FORMAT`: golden files for every format, escaping, limits, fingerprints, exit
codes per format, --output-file, environment defaults.

Regenerate the golden files after a deliberate change with PRIO_UPDATE_GOLDEN=1 (as tests/cli/test_cli.py)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT

REPO = Path(ROOT)
if str(REPO / "cli") not in sys.path:
    sys.path.insert(0, str(REPO / "cli"))

from typer.testing import CliRunner  # noqa: E402

from prio import __version__  # noqa: E402
from prio.cli.app import _register, app  # noqa: E402
from prio.diagnostics import Finding, Report  # noqa: E402

_register()

GOLDEN = REPO / "tests" / "golden" / "validate"
MISTAKES = "samples/mistakes.yaml"
CLEAN = "samples/walkthrough-queues.yaml"
SARIF_SCHEMA = REPO.parent / "shared" / "testdata" / "sarif-schema-2.1.0.json"
GOLDEN_FILES = {
    "text": "mistakes.text",
    "json": "mistakes.json",
    "sarif": "mistakes.sarif.json",
    "github": "mistakes.github.txt",
    "gitlab": "mistakes.gitlab.json",
    "junit": "mistakes.junit.xml",
    "markdown": "mistakes.md",
}
ENV_VARS = ("GITHUB_WORKSPACE", "GITHUB_ACTIONS", "CI_PROJECT_DIR", "PRIO_OUTPUT", "PRIO_OUTPUT_FILE",
            "PRIO_CONFIG", "PRIO_STRICT", "PRIO_COLOR", "NO_COLOR", "FORCE_COLOR")


@pytest.fixture(autouse=True)
def _isolated(monkeypatch):
    for v in ENV_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.chdir(REPO)


def invoke(*args, env=None):
    return CliRunner().invoke(app, ["validate", *args], env=env, catch_exceptions=False)


def normalized(fmt: str, out: str) -> str:
    if fmt == "sarif":
        doc = json.loads(out)
        driver = doc["runs"][0]["tool"]["driver"]
        driver["version"] = driver["semanticVersion"] = "VERSION"
        # Only the rules that fired: a rule added elsewhere must not change this golden file
        # (test_sarif_validates_against_the_schema checks the full list and the indexes).
        fired = {r["ruleId"] for r in doc["runs"][0]["results"]}
        driver["rules"] = [r for r in driver["rules"] if r["id"] in fired]
        for r in doc["runs"][0]["results"]:
            r.pop("ruleIndex", None)
        return json.dumps(doc, indent=2) + "\n"
    return out


def sarif_validator():
    if not SARIF_SCHEMA.exists():
        pytest.skip(f"SARIF schema not found at {SARIF_SCHEMA}")
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def assert_valid_sarif(text: str) -> dict:
    doc = json.loads(text)
    errors = sorted(sarif_validator().iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    return doc


# --- golden files -------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_golden(fmt):
    r = invoke(MISTAKES, "-o", fmt, "--no-config")
    assert r.exit_code == 1, r.stderr
    got = normalized(fmt, r.stdout)
    path = GOLDEN / GOLDEN_FILES[fmt]
    if os.environ.get("PRIO_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8", newline="")
    assert path.exists(), f"missing golden file {path}; run with PRIO_UPDATE_GOLDEN=1"
    assert got == path.read_text(encoding="utf-8"), f"{fmt} output differs from {path.name}"
    assert re.fullmatch(r"\d+ errors?, \d+ warnings? in 1 file\n", r.stderr)


def test_every_format_has_a_renderer_and_a_golden():
    from prio.cli.validate import RENDERERS, OutputFormat

    assert {m.value for m in OutputFormat} == set(RENDERERS) | {"auto"}
    assert set(RENDERERS) == set(GOLDEN_FILES)


def test_json_keeps_the_contract_shape():
    doc = json.loads(invoke(MISTAKES, "-o", "json", "--no-config").stdout)
    assert set(doc) == {"findings", "summary"}
    assert set(doc["summary"]) == {"files", "errors", "warnings", "skipped"}  # skipped: issue 14
    assert all(set(f) == {"rule", "name", "severity", "message", "file", "line", "column", "path"} for f in doc["findings"])


# --- exit codes: the same for every format -------------------------------------------------------

WARNING_ONLY = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            properties:
              priority.policy: fenced
"""


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_exit_codes_per_format(fmt, tmp_path):
    warn = tmp_path / "warn.yaml"
    warn.write_text(WARNING_ONLY)
    assert invoke(MISTAKES, "-o", fmt, "--no-config").exit_code == 1
    assert invoke(CLEAN, "-o", fmt, "--no-config").exit_code == 0
    assert invoke(str(warn), "-o", fmt, "--no-config").exit_code == 0
    assert invoke(str(warn), "-o", fmt, "--no-config", "--strict").exit_code == 1
    assert invoke(str(warn), "-o", fmt, "--no-config", "--strict", "--quiet").exit_code == 1
    missing = invoke(str(tmp_path / "nope.yaml"), CLEAN, "-o", fmt, "--no-config")
    assert missing.exit_code == 2
    assert "nope.yaml: no such file" in missing.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("partitions: [\n")
    assert invoke(str(broken), "-o", fmt, "--no-config").exit_code == 2


def test_unknown_format_is_a_usage_error():
    r = invoke(CLEAN, "-o", "yaml")
    assert r.exit_code == 2
    from prio.cli.validate import run

    assert run([CLEAN], "yaml") == 2


# --- SARIF --------------------------------------------------------------------------------------

def test_sarif_validates_against_the_schema():
    doc = assert_valid_sarif(invoke(MISTAKES, "-o", "sarif", "--no-config").stdout)
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    from prio.lint.rules import all_rules

    assert [r["id"] for r in rules] == sorted(all_rules())  # every rule that ran, not just those that fired
    assert all(r["help"]["text"] and r["help"]["markdown"] and r["shortDescription"]["text"] for r in rules)
    assert run["invocations"][0]["executionSuccessful"] is True
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == MISTAKES
        assert loc["region"]["startLine"] >= 1 and loc["region"]["startColumn"] >= 1
        assert re.fullmatch(r"[0-9a-f]{64}", res["partialFingerprints"]["prioFinding/v1"])
    assert len({r["partialFingerprints"]["prioFinding/v1"] for r in run["results"]}) == len(run["results"])
    assert run["tool"]["driver"]["version"] == __version__


def test_sarif_lists_only_selected_rules_and_reports_unreadable_input(tmp_path):
    r = invoke(MISTAKES, str(tmp_path / "gone.yaml"), "-o", "sarif", "--no-config", "--select", "PRIO2")
    assert r.exit_code == 2
    doc = assert_valid_sarif(r.stdout)
    run = doc["runs"][0]
    assert {x["id"] for x in run["tool"]["driver"]["rules"]} == {x for x in _all_ids() if x.startswith("PRIO2")}
    assert {x["ruleId"] for x in run["results"]} <= {x for x in _all_ids() if x.startswith("PRIO2")}
    inv = run["invocations"][0]
    assert inv["executionSuccessful"] is False
    assert inv["toolExecutionNotifications"][0]["message"]["text"] == "no such file"


def test_sarif_clean_and_odd_paths_validate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    odd = tmp_path / "team a:b,c%.yaml"
    odd.write_text(WARNING_ONLY)
    doc = assert_valid_sarif(invoke(odd.name, "-o", "sarif", "--no-config").stdout)
    assert doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "team%20a%3Ab%2Cc%25.yaml"
    clean = tmp_path / "clean.yaml"
    clean.write_text((REPO / CLEAN).read_text())
    doc = assert_valid_sarif(invoke("clean.yaml", "-o", "sarif", "--no-config").stdout)
    assert doc["runs"][0]["results"] == []


def test_sarif_paths_relative_to_github_workspace(tmp_path, monkeypatch):
    (tmp_path / "deploy").mkdir()
    f = tmp_path / "deploy" / "queues.yaml"
    f.write_text(WARNING_ONLY)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    doc = json.loads(invoke(str(f), "-o", "sarif", "--no-config").stdout)
    assert doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "deploy/queues.yaml"


def _all_ids():
    from prio.lint.rules import all_rules

    return set(all_rules())


# --- fingerprints survive line moves --------------------------------------------------------------

def test_fingerprints_survive_line_moves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (REPO / MISTAKES).read_text()
    (tmp_path / "queues.yaml").write_text(text)
    before_gl = json.loads(invoke("queues.yaml", "-o", "gitlab", "--no-config").stdout)
    before_sarif = json.loads(invoke("queues.yaml", "-o", "sarif", "--no-config").stdout)
    (tmp_path / "queues.yaml").write_text("# a new header comment\n# and another line\n\n" + text)
    after_gl = json.loads(invoke("queues.yaml", "-o", "gitlab", "--no-config").stdout)
    after_sarif = json.loads(invoke("queues.yaml", "-o", "sarif", "--no-config").stdout)
    assert [i["location"]["lines"]["begin"] + 3 for i in before_gl] == [i["location"]["lines"]["begin"] for i in after_gl]
    assert [i["fingerprint"] for i in before_gl] == [i["fingerprint"] for i in after_gl]
    fp = lambda d: [r["partialFingerprints"]["prioFinding/v1"] for r in d["runs"][0]["results"]]
    assert fp(before_sarif) == fp(after_sarif)
    assert len(set(i["fingerprint"] for i in before_gl)) == len(before_gl)


def test_gitlab_shape(monkeypatch, tmp_path):
    issues = json.loads(invoke(MISTAKES, "-o", "gitlab", "--no-config").stdout)
    assert isinstance(issues, list) and issues
    for i in issues:
        assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(i)
        assert i["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert i["location"]["path"] == MISTAKES and i["location"]["lines"]["begin"] >= 1
    monkeypatch.setenv("CI_PROJECT_DIR", str(REPO.parent))
    issues = json.loads(invoke(MISTAKES, "-o", "gitlab", "--no-config").stdout)
    assert issues[0]["location"]["path"] == f"{REPO.name}/{MISTAKES}"
    assert json.loads(invoke(CLEAN, "-o", "gitlab", "--no-config").stdout) == []


# --- escaping -----------------------------------------------------------------------------------

def _finding(message="m", file="q.yaml", severity="error", rule="PRIO001", line=3, column=5, path="partitions[0]"):
    return Finding(rule, "unknown-key", severity, message, file, line, column, path)


def test_github_escaping():
    from prio.render.validate import github as gh

    rep = Report(files=["dir:1/a,b.yaml"], findings=[_finding("50% of\nthe queue\r\nis, here: ok", "dir:1/a,b.yaml")])
    out = gh.render(rep)
    lines = out.splitlines()
    assert lines[0] == "::group::dir:1/a,b.yaml"
    # the body is the message alone: the title names the rule (issue 14)
    assert lines[1] == ("::error file=dir%3A1/a%2Cb.yaml,line=3,col=5,title=prio PRIO001 (unknown-key)::"
                        "50%25 of%0Athe queue%0D%0Ais, here: ok")
    assert lines[2] == "::endgroup::"
    assert gh.escape_property("a%b:c,d\ne") == "a%25b%3Ac%2Cd%0Ae"
    assert gh.escape_data("a%b:c,d\r\ne") == "a%25b:c,d%0D%0Ae"


def test_github_paths_with_colon_and_comma_end_to_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a:b,c.yaml").write_text(WARNING_ONLY)
    r = invoke("a:b,c.yaml", "-o", "github", "--no-config")
    assert r.exit_code == 0
    assert "::warning file=a%3Ab%2Cc.yaml,line=8,col=32,title=prio PRIO206 (invalid-priority-policy)::priority.policy on root.a" in r.stdout


def test_github_annotation_limits():
    from prio.render.validate import github as gh

    findings = ([_finding(f"e{i}", line=i) for i in range(1, 26)]
                + [_finding(f"w{i}", severity="warning", line=i) for i in range(1, 13)]
                + [_finding(f"n{i}", severity="info", line=i) for i in range(1, 4)])
    out = gh.render(Report(files=["q.yaml"], findings=findings)).splitlines()
    assert sum(x.startswith("::error ") for x in out) == 10
    assert sum(x.startswith("::warning ") for x in out) == 10
    assert sum(x.startswith("::notice ") for x in out) == 4  # 3 notes + the closing notice
    assert out[-1].startswith("::notice title=prio::17 more findings (15 errors, 2 warnings) not annotated")
    assert "q.yaml:11:5: error PRIO001 (unknown-key) e11" in out  # the rest is in the log
    assert out.index("::endgroup::") == len(out) - 2

    many_notes = [_finding(f"n{i}", severity="info", line=i) for i in range(1, 13)]
    out = gh.render(Report(files=["q.yaml"], findings=many_notes)).splitlines()
    assert sum(x.startswith("::notice ") for x in out) == 10  # 9 notes + the closing notice
    assert out[-1].startswith("::notice title=prio::3 more findings (3 infos) not annotated")  # info, not note

    few = gh.render(Report(files=["q.yaml"], findings=findings[:10])).splitlines()
    assert not any("not annotated" in x for x in few)


def test_github_groups_per_file_and_plain_lines_are_not_commands():
    from prio.render.validate import github as gh

    findings = [_finding(f"e{i}", file="a.yaml", line=i) for i in range(1, 12)] + [_finding("::error::x", file="b.yaml")]
    out = gh.render(Report(files=["a.yaml", "b.yaml", "c.yaml"], findings=findings)).splitlines()
    assert [x for x in out if x.startswith("::group::")] == ["::group::a.yaml", "::group::b.yaml"]
    assert not any(x.startswith("::error::") for x in out)


def test_junit_escaping_and_structure():
    from prio.render.validate import junit as validate_junit

    rep = Report(files=["a&b.yaml", "clean.yaml"], findings=[
        _finding('<"quoted"> & 100%\nnext\x01line', "a&b.yaml"),
        _finding("w", "a&b.yaml", severity="warning", line=None, column=None, path=""),
    ])
    root = ET.fromstring(validate_junit.render(rep, strict=True).encode("utf-8"))
    assert root.tag == "testsuites" and root.get("tests") == "3" and root.get("failures") == "2"
    lenient = ET.fromstring(validate_junit.render(rep).encode("utf-8"))  # a warning passes without --strict
    assert lenient.get("failures") == "1"
    assert "w" in lenient.findall("testsuite")[0].findall("testcase")[1].find("system-out").text
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["a&b.yaml", "clean.yaml"]
    fail = suites[0].find("testcase/failure")
    assert fail.get("message").startswith('<"quoted"> & 100%')
    assert fail.get("type") == "error"
    assert suites[0].findall("testcase")[1].find("failure").get("type") == "warning"
    clean = suites[1].findall("testcase")
    assert len(clean) == 1 and not list(clean[0]) and suites[1].get("failures") == "0"


def test_junit_unreadable_file_is_an_error(tmp_path):
    r = invoke(CLEAN, str(tmp_path / "gone.yaml"), "-o", "junit", "--no-config")
    assert r.exit_code == 2
    root = ET.fromstring(r.stdout.encode("utf-8"))
    assert root.get("errors") == "1"
    err = [s for s in root.findall("testsuite") if s.get("name").endswith("gone.yaml")][0]
    assert err.find("testcase/error").get("message") == "no such file"


def test_markdown_escaping():
    from prio.render.validate import markdown as validate_markdown

    rep = Report(files=["a|b.yaml"], findings=[_finding("x | y\nsecond <line>", "a|b.yaml")], suppressed=2)
    out = validate_markdown.render(rep)
    assert out.startswith("### prio validate: 1 error in 1 file (2 suppressed)\n")
    row = [x for x in out.splitlines() if "PRIO001" in x][0]
    assert "x \\| y<br>second &lt;line>" in row
    assert "`a\\|b.yaml:3:5`" in row
    assert row.count(" | ") == 3  # four cells
    clean = validate_markdown.render(Report(files=["q.yaml"]))
    assert clean == "### prio validate: no problems in 1 file\n"


def test_gitlab_and_sarif_escape_through_json():
    from prio.render.validate import gitlab as validate_gitlab
    from prio.render.validate import sarif as validate_sarif

    rep = Report(files=["a:b.yaml"], findings=[_finding('quote " and \\ and\nnewline 100%', "a:b.yaml")])
    assert json.loads(validate_gitlab.render(rep))[0]["description"].endswith('quote " and \\ and\nnewline 100%')
    doc = json.loads(validate_sarif.render(rep, rules=[]))
    assert doc["runs"][0]["results"][0]["message"]["text"] == 'quote " and \\ and\nnewline 100%'
    if SARIF_SCHEMA.exists():
        assert_valid_sarif(validate_sarif.render(rep, rules=[]))


# --- output file, quiet, colour, environment ----------------------------------------------------

def test_output_file(tmp_path):
    out = tmp_path / "prio.sarif"
    r = invoke(MISTAKES, "-o", "sarif", "--output-file", str(out), "--no-config")
    assert r.exit_code == 1
    assert r.stdout == ""
    assert "10 errors" in r.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["version"] == "2.1.0"
    text = tmp_path / "report.txt"
    r = invoke(MISTAKES, "--output-file", str(text), "--color", "always", "--no-config")
    assert r.stdout == "" and "\x1b[" not in text.read_text() and "PRIO131" in text.read_text()


def test_output_file_unwritable(tmp_path):
    r = invoke(CLEAN, "-o", "json", "--output-file", str(tmp_path / "no" / "such" / "dir.json"), "--no-config")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"prio: {tmp_path / 'no' / 'such' / 'dir.json'}: cannot write") and r.stderr.count("\n") == 1


def test_quiet_shows_only_failing_findings_and_no_summary():
    r = invoke(MISTAKES, "-q", "-o", "json", "--no-config")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and r.stderr == ""
    assert doc["summary"]["warnings"] == 5 and doc["summary"]["errors"] == 10  # counts all found
    assert {f["severity"] for f in doc["findings"]} == {"error"}  # lists only what fails the run
    r = invoke(MISTAKES, "-q", "--strict", "-o", "json", "--no-config")
    assert json.loads(r.stdout)["summary"]["warnings"] == 5


def test_color_choice(monkeypatch):
    assert "\x1b[" in invoke(MISTAKES, "--color", "always", "--no-config").stdout
    assert "\x1b[" not in invoke(MISTAKES, "--color", "never", "--no-config").stdout
    assert "\x1b[" not in invoke(MISTAKES, "--no-config").stdout  # auto: not a terminal
    assert "\x1b[" in invoke(MISTAKES, "--no-config", env={"PRIO_COLOR": "always"}).stdout
    assert "\x1b[" not in invoke(MISTAKES, "-o", "json", "--color", "always", "--no-config").stdout


def test_environment_defaults(tmp_path):
    r = invoke(MISTAKES, "--no-config", env={"PRIO_OUTPUT": "json"})
    assert set(json.loads(r.stdout)) == {"findings", "summary"}
    r = invoke(MISTAKES, "--no-config", "-o", "text", env={"PRIO_OUTPUT": "json"})
    assert r.stdout.startswith(MISTAKES + ":")  # the command line wins
    assert invoke(MISTAKES, "--no-config", env={"PRIO_OUTPUT": "bogus"}).exit_code == 2
    r = invoke(MISTAKES, "--no-config", env={"PRIO_OUTPUT": "table"})  # explain's format: not ours
    assert r.exit_code == 1 and r.stdout.startswith(MISTAKES + ":")
    out = tmp_path / "gl.json"
    r = invoke(MISTAKES, "--no-config", env={"PRIO_OUTPUT": "gitlab", "PRIO_OUTPUT_FILE": str(out)})
    assert r.stdout == "" and json.loads(out.read_text())
    warn = tmp_path / "w.yaml"
    warn.write_text(WARNING_ONLY)
    assert invoke(str(warn), "--no-config", env={"PRIO_STRICT": "1"}).exit_code == 1


def test_auto_format(monkeypatch):
    r = invoke(MISTAKES, "-o", "auto", "--no-config")
    assert r.stdout.startswith(MISTAKES + ":7:16: error PRIO131")
    r = invoke(MISTAKES, "-o", "auto", "--no-config", env={"GITHUB_ACTIONS": "true"})
    assert r.stdout.startswith("::group::" + MISTAKES)
    r = invoke(MISTAKES, "--no-config", env={"GITHUB_ACTIONS": "true"})
    assert r.stdout.startswith(MISTAKES + ":")  # the default stays text


def test_help_lists_the_options():
    r = CliRunner().invoke(app, ["validate", "--help"], env={"TERMINAL_WIDTH": "200", "COLUMNS": "200"})
    assert r.exit_code == 0
    for opt in ("--output", "--output-file", "--config", "--no-config", "--select", "--ignore", "--strict",
                "--quiet", "--color", "PRIO_OUTPUT", "PRIO_OUTPUT_FILE", "PRIO_CONFIG"):
        assert opt in r.stdout, opt


def test_validate_module_imports_no_heavy_modules():
    code = ("import sys; import prio.cli.validate; "
            "heavy = [m for m in ('rich', 'jsonschema', 'tabulate', 'yaml') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO / "cli")}, check=True).stdout
    assert "jsonschema" not in out and "rich" not in out and "tabulate" not in out, out
