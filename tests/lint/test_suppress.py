"""Suppressions: `# prio: ignore[...]` comments (also inside a ConfigMap's embedded block), the
`.prio.yaml` settings, PRIO901 for a suppression that suppresses nothing, and the summary count."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import ROOT

REPO = Path(ROOT)
if str(REPO / "cli") not in sys.path:
    sys.path.insert(0, str(REPO / "cli"))

from typer.testing import CliRunner  # noqa: E402

from prio.cli.app import _register, app  # noqa: E402
from prio.lint.rules import all_rules  # noqa: E402
from prio.lint.settings import SettingsError, glob, parse  # noqa: E402
from prio.lint.suppress import directives  # noqa: E402

_register()
all_rules()

ENV_VARS = ("GITHUB_WORKSPACE", "GITHUB_ACTIONS", "CI_PROJECT_DIR", "PRIO_OUTPUT", "PRIO_OUTPUT_FILE",
            "PRIO_CONFIG", "PRIO_STRICT", "PRIO_COLOR", "NO_COLOR")

# root.system lifts pods over the system priorities: PRIO201 and PRIO202 on line 8 (a warning each);
# 'team.a' is an error (PRIO106) on line 9.
QUEUES = """\
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: system
            properties:
              priority.offset: "1500000000"
          - name: team.a
"""


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path):
    for v in ENV_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.chdir(tmp_path)


def invoke(*args, env=None):
    return CliRunner().invoke(app, ["validate", *args], env=env, catch_exceptions=False)


def findings(*args, env=None):
    r = invoke(*args, "-o", "json", env=env)
    doc = json.loads(r.stdout)
    return r, [(f["rule"], f["line"]) for f in doc["findings"]]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8", newline="")
    return p


def with_line(text: str, lineno: int, suffix: str) -> str:
    lines = text.split("\n")
    lines[lineno - 1] += suffix
    return "\n".join(lines)


def configmap(inner: str, header: str = "|") -> str:
    body = "".join("    " + ln + "\n" if ln else "\n" for ln in inner.rstrip("\n").split("\n"))
    return ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n"
            f"  queues.yaml: {header}\n" + body)


def test_baseline(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    r, got = findings("q.yaml")
    assert r.exit_code == 1
    assert got == [("PRIO201", 8), ("PRIO202", 8), ("PRIO106", 9)]


# --- finding the directives ---------------------------------------------------------------------

def test_directive_positions_and_targets():
    text = (
        "a: 1  # prio: ignore[PRIO201]\n"            # 1 inline
        "# prio: ignore\n"                           # 2 standalone, applies to line 5
        "\n"                                         # 3
        "# prio: ignore[offset-saturates PRIO999] why\n"  # 4 stacked, slug + unknown
        "b: '# prio: ignore[PRIO001]'\n"             # 5 in a quoted scalar: no directive
        "c: |\n"                                     # 6
        "  @not yaml # prio: ignore[PRIO002]\n"      # 7 block content that is not YAML: skipped
        "d: 2 # prio: ignored by the ops team\n"     # 8 an ordinary comment
        "e: 3 #prio:ignore[PRIO003]\n"               # 9 no spaces needed
        "# prio: ignore[PRIO004]\n"                  # 10 nothing follows
    )
    ds = directives(text)
    got = [(d.line, d.column, d.target, None if d.rules is None else sorted(d.rules), d.unknown, d.error) for d in ds]
    assert got == [
        (1, 7, 1, ["PRIO201"], (), None),
        (2, 1, 5, None, (), None),
        (4, 1, 5, ["PRIO202"], ("PRIO999",), None),
        (9, 6, 9, ["PRIO003"], (), None),
        (10, 1, None, ["PRIO004"], (), None),
    ]


def test_malformed_directives_are_recognised():
    ds = directives("a: 1 # prio: ignore PRIO201\nb: 2 # prio: ignore[PRIO201\nc: 3 # prio: ignore-file\nd: 4 # prio: ignore[]\n")
    assert [d.error for d in ds] == [
        "rule ids go in brackets: `# prio: ignore[PRIO201]`",
        "the '[' is not closed",
        "not a prio directive",
        "the brackets name no rule",
    ]


def test_crlf_and_flow_lines():
    text = "a: 1\r\nb: [x, # prio: ignore[PRIO001]\r\n  y]\r\n# prio: ignore[PRIO002]\r\nc: 2\r\n"
    assert [(d.line, d.target) for d in directives(text)] == [(2, 2), (4, 5)]


def test_directives_inside_a_configmap_block_map_to_file_lines():
    text = configmap("partitions:  # prio: ignore[PRIO001]\n  # prio: ignore[PRIO002]\n  - name: x\n")
    ds = directives(text)
    # The block starts on line 6 (`queues.yaml: |`): inner line 1 is file line 7.
    assert [(d.line, d.column, d.target) for d in ds] == [(7, 18, 7), (8, 7, 9)]


def test_directive_on_the_block_header():
    text = configmap("partitions: []\n", header="|  # prio: ignore[PRIO007]")
    assert [(d.line, d.target, sorted(d.rules)) for d in directives(text)] == [(6, 6, ["PRIO007"])]


# --- inline suppression end to end ---------------------------------------------------------------

def test_inline_on_the_line(tmp_path):
    write(tmp_path, "q.yaml", with_line(QUEUES, 8, "  # prio: ignore[PRIO201, PRIO202] reviewed"))
    r, got = findings("q.yaml")
    assert got == [("PRIO106", 9)]
    t = invoke("q.yaml")
    assert t.stderr.strip() == "1 error in 1 file (2 suppressed)"


def test_standalone_line_above_and_slugs(tmp_path):
    lines = QUEUES.split("\n")
    lines.insert(7, "              # prio: ignore[offset-exceeds-system-priority]")
    lines.insert(8, "              # prio: ignore[PRIO202]")
    write(tmp_path, "q.yaml", "\n".join(lines))
    r, got = findings("q.yaml")
    assert got == [("PRIO106", 11)]


def test_blanket_ignore(tmp_path):
    write(tmp_path, "q.yaml", with_line(with_line(QUEUES, 8, "  # prio: ignore"), 9, "  # prio: ignore"))
    r, got = findings("q.yaml")
    assert got == [] and r.exit_code == 0
    assert invoke("q.yaml").stderr.strip() == "no problems in 1 file (3 suppressed)"


def test_a_comment_in_a_quoted_scalar_suppresses_nothing(tmp_path):
    text = QUEUES.replace('"1500000000"', '"1500000000"\n              note: "# prio: ignore[PRIO201]"')
    # `note` is an unknown property (PRIO210), and the quoted text is no directive
    write(tmp_path, "q.yaml", text)
    r, got = findings("q.yaml")
    assert ("PRIO201", 8) in got


def test_configmap_embedded_block(tmp_path):
    inner = with_line(with_line(QUEUES, 8, "  # prio: ignore[PRIO201,PRIO202]"), 9, "  # prio: ignore[invalid-queue-name]")
    write(tmp_path, "cm.yaml", configmap(inner))
    r, got = findings("cm.yaml")
    assert got == [] and r.exit_code == 0
    # without the comments the findings sit on the same file lines (6 lines of ConfigMap header)
    write(tmp_path, "cm2.yaml", configmap(QUEUES))
    assert findings("cm2.yaml")[1] == [("PRIO201", 14), ("PRIO202", 14), ("PRIO106", 15)]


def test_unused_suppression_is_a_finding(tmp_path):
    text = with_line(QUEUES, 8, "  # prio: ignore[PRIO201, PRIO202, PRIO203]")
    text = with_line(text, 4, "  # prio: ignore")
    text = with_line(text, 9, "  # prio: ignore[PRIO106, NOPE1]")
    write(tmp_path, "q.yaml", text)
    r = invoke("q.yaml", "-o", "json")
    doc = json.loads(r.stdout)
    unused = [f for f in doc["findings"] if f["rule"] == "PRIO901"]
    col = lambda n: text.split("\n")[n - 1].index("#") + 1
    assert [(f["line"], f["column"], f["severity"], f["name"]) for f in unused] == [
        (4, col(4), "warning", "unused-suppression"), (8, col(8), "warning", "unused-suppression"),
        (9, col(9), "warning", "unused-suppression")]
    assert unused[0]["message"] == "`# prio: ignore` suppresses nothing: no finding on line 4"
    assert unused[1]["message"].endswith("suppresses nothing: no PRIO203 finding on line 8")
    assert unused[2]["message"].endswith("suppresses nothing: 'NOPE1' is not a rule")
    assert r.exit_code == 0  # warnings only
    assert invoke("q.yaml", "--strict").exit_code == 1


def test_unused_in_a_configmap_block_points_into_the_block(tmp_path):
    write(tmp_path, "cm.yaml", configmap(with_line(QUEUES, 2, "  # prio: ignore[PRIO201]")))
    _, got = findings("cm.yaml")
    assert ("PRIO901", 8) in got


def test_directive_for_a_deselected_rule_is_not_judged(tmp_path):
    write(tmp_path, "q.yaml", with_line(QUEUES, 2, "  # prio: ignore[PRIO201]"))
    _, got = findings("q.yaml", "--ignore", "PRIO201")
    assert "PRIO901" not in [g[0] for g in got]
    _, got = findings("q.yaml", "--ignore", "PRIO901")
    assert "PRIO901" not in [g[0] for g in got]


def test_unused_rule_is_documented():
    r = all_rules()["PRIO901"]
    assert r.name == "unused-suppression" and r.severity == "warning" and r.family == "suppression"
    assert "Example" in r.doc and "Fix" in r.doc
    out = CliRunner().invoke(app, ["rule", "PRIO901"])
    assert out.exit_code == 0 and "unused-suppression" in out.stdout


# --- .prio.yaml ----------------------------------------------------------------------------------

def test_config_select_ignore_severity(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", "select: [PRIO2]\n")
    r, got = findings("q.yaml")
    assert got == [("PRIO201", 8), ("PRIO202", 8)] and r.exit_code == 0
    write(tmp_path, ".prio.yaml", "ignore: [PRIO106, offset-saturates]\nseverity:\n  PRIO201: error\n")
    r, got = findings("q.yaml")
    assert got == [("PRIO201", 8)] and r.exit_code == 1
    assert json.loads(r.stdout)["findings"][0]["severity"] == "error"
    write(tmp_path, ".prio.yaml", "severity: {PRIO1: info}\n")
    r = invoke("q.yaml")
    assert r.exit_code == 0 and "info PRIO106" in r.stdout
    # deselected rules are not counted as suppressed, and not listed in SARIF
    write(tmp_path, ".prio.yaml", "ignore: [PRIO106]\n")
    assert invoke("q.yaml").stderr.strip() == "2 warnings in 1 file"
    sarif = json.loads(invoke("q.yaml", "-o", "sarif").stdout)
    assert "PRIO106" not in {x["id"] for x in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert "PRIO201" in {x["id"] for x in sarif["runs"][0]["tool"]["driver"]["rules"]}


def test_config_per_path_ignores(tmp_path):
    write(tmp_path, "vendor/upstream/queues.yaml", QUEUES)
    write(tmp_path, "deploy/queues.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", (
        "per-path-ignores:\n"
        "  - paths: [vendor/**]\n"
        "    reason: upstream chart, tracked in OPS-1\n"
        "  - paths: queues.yaml\n"
        "    rules: [PRIO201]\n"
        "    reason: the system queue is meant to outrank everything\n"))
    r, got = findings("vendor/upstream/queues.yaml", "deploy/queues.yaml")
    assert got == [("PRIO202", 8), ("PRIO106", 9)]
    assert invoke("vendor", "deploy").stderr.strip() == "1 error, 1 warning in 2 files (4 suppressed)"


def test_config_found_upward_and_paths_relative_to_it(tmp_path, monkeypatch):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")  # upward as far as the repository root
    write(tmp_path, ".prio.yaml", "per-path-ignores:\n  - {paths: [deploy/*.yaml], reason: test}\n")
    write(tmp_path, "deploy/queues.yaml", QUEUES)
    monkeypatch.chdir(tmp_path / "deploy")
    r, got = findings("queues.yaml")
    assert got == [] and r.exit_code == 0
    assert findings("queues.yaml", "--no-config")[1] != []


def test_config_option_and_env(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, "conf/prio.yaml", "select: [PRIO106]\n")
    assert findings("q.yaml", "--config", "conf/prio.yaml")[1] == [("PRIO106", 9)]
    assert findings("q.yaml", env={"PRIO_CONFIG": "conf/prio.yaml"})[1] == [("PRIO106", 9)]
    # --select replaces the config's select; --ignore adds to its ignore
    assert findings("q.yaml", "--config", "conf/prio.yaml", "--select", "PRIO201,PRIO202", "--ignore", "PRIO202")[1] == [("PRIO201", 8)]


@pytest.mark.parametrize("text, message", [
    ("select: [PRIO2\n", "invalid YAML"),
    ("selct: [PRIO201]\n", "1:1: unknown key 'selct'"),
    ("select: [PRIO777]\n", "no rule matches 'PRIO777'"),
    ("severity: {PRIO201: fatal}\n", "expected error, warning or info"),
    ("per-path-ignores:\n  - paths: [a.yaml]\n", "2:5: per-path ignore without a reason"),
    ("per-path-ignores:\n  - paths: [a.yaml]\n    reason: '  '\n", "3:13: per-path ignore without a reason"),
    ("per-path-ignores:\n  - reason: x\n", "without paths"),
    ("per-path-ignores:\n  - paths: [a.yaml]\n    reason: x\n    rule: [PRIO201]\n", "4:5: unknown key 'rule'"),
    ("- select\n", "expected a mapping"),
    ("ignore: [a]\nignore: [b]\n", "already defined"),
])
def test_bad_config_is_exit_2_with_one_line(tmp_path, text, message):
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", text)
    for fmt in ("text", "json", "sarif"):
        r = invoke("q.yaml", "-o", fmt)
        assert r.exit_code == 2
        assert r.stdout == ""
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("prio: .prio.yaml:"), r.stderr
        assert message in r.stderr, r.stderr


def test_missing_config_file_and_bad_cli_selector(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    r = invoke("q.yaml", "--config", "nope.yaml")
    assert r.exit_code == 2 and r.stderr == "prio: nope.yaml: config file not found\n"
    r = invoke("q.yaml", "--select", "XYZ9")
    assert r.exit_code == 2 and "no rule matches 'XYZ9'" in r.stderr


def test_empty_config_is_the_defaults(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", "# nothing yet\n")
    assert len(findings("q.yaml")[1]) == 3


@pytest.mark.parametrize("pattern, yes, no", [
    ("vendor/**", ["vendor/a.yaml", "vendor/x/y/a.yaml"], ["src/vendor/a.yaml", "vendorx/a.yaml"]),
    ("vendor/", ["vendor/a.yaml"], ["a/vendor.yaml"]),
    ("*.yaml", ["a.yaml", "x/y/a.yaml"], ["a.yml"]),
    ("deploy/*.yaml", ["deploy/a.yaml"], ["deploy/x/a.yaml", "a/deploy/a.yaml"]),
    ("**/queues.y?ml", ["queues.yaml", "a/b/queues.yaml"], ["queues.yaml.bak", "queues.yml"]),
    ("a/[bc]/*.yaml", ["a/b/x.yaml", "a/c/x.yaml"], ["a/d/x.yaml"]),
    ("./x.yaml", ["x.yaml"], ["y/x.yaml"]),
])
def test_glob(pattern, yes, no):
    r = glob(pattern)
    assert all(r.match(p) for p in yes), pattern
    assert not any(r.match(p) for p in no), pattern


def test_settings_parse_directly():
    s = parse(".prio.yaml", "select: ALL\nignore: PRIO2 PRIO901\n")
    assert s.enabled("PRIO001") and not s.enabled("PRIO201") and not s.enabled("PRIO901")
    with pytest.raises(SettingsError):
        parse(".prio.yaml", "select: 5\n")
