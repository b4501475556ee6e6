"""`prio diff OLD NEW [INPUT...]` end to end: every format, REV:PATH from a git repository,
--fail-on, --output-file, bad input; and the property that a diff's steps are exactly those of
two `prio simulate` runs."""
import json
import os
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import UNDER_ROOT, walkthrough_queues_lowered
from conftest import run_cli, sample
from prio.yunikorn import diff as core
from prio.yunikorn import reasons

ASKS = sample("walkthrough-asks.yaml")
QUEUES = sample("walkthrough-queues.yaml")


def _text(path):
    with open(path) as fh:
        return fh.read()


@pytest.fixture
def pair(tmp_path):
    """The walkthrough config, and the same with tenant-a's offset 10 -> -10 plus an unknown
    property (a new warning)."""
    old = tmp_path / "old.yaml"
    old.write_text(_text(QUEUES))
    new = tmp_path / "new.yaml"
    new.write_text(walkthrough_queues_lowered().replace('priority.offset: "1000"', 'priority.offset: "1000"\n                  bogus: "1"'))
    return str(old), str(new)


def _sim(*args):
    doc = json.loads(run_cli("simulate", *args, "-o", "json").stdout)
    return {(s["application"], s["ask"]): s["step"] for s in doc["steps"]}


def test_json_is_the_contract(pair):
    old, new = pair
    r = run_cli("diff", old, new, ASKS, "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert list(doc)[:4] == ["queues", "asks", "unscheduled", "findings"]
    assert doc["queues"] == [{"queue": "root.tenants.tenant-a", "before": 10, "after": -10}]
    asks = {(a["application"], a["ask"]): a for a in doc["asks"]}
    assert asks[("app-4", "app-4-1")] == {"ask": "app-4-1", "application": "app-4", "queue": "root.tenants.tenant-a.child-a-1",
                                          "stepBefore": 4, "stepAfter": 7}
    assert all(set(a) == {"ask", "application", "queue", "stepBefore", "stepAfter"} for a in doc["asks"])
    # exactly the asks whose step differs between the two simulate runs
    before, after = _sim(old, ASKS), _sim(new, ASKS)
    assert set(asks) == {k for k in before if before[k] != after.get(k)}
    assert all(a["stepBefore"] == before[k] and a["stepAfter"] == after[k] for k, a in asks.items())
    assert doc["unscheduled"] == {"added": [], "removed": []}
    assert [f["rule"] for f in doc["findings"]["added"]] == ["PRIO210"] and doc["findings"]["removed"] == []
    f = doc["findings"]["added"][0]
    assert set(f) == {"rule", "name", "severity", "message", "file", "line", "column", "path"} and f["file"] == new
    assert doc["config"] == [{"queue": "root.tenants.tenant-a", "field": "offset", "before": 10, "after": -10}]
    assert doc["rejected"] == {"added": [], "removed": []}


def test_moves_grouped_by_queue_and_application_biggest_first(pair):
    doc = json.loads(run_cli("diff", *pair, ASKS, "-o", "json").stdout)
    moves = [(a["queue"], a["application"], a["stepAfter"] - a["stepBefore"]) for a in doc["asks"]]
    groups = list(dict.fromkeys((q, app) for q, app, _ in moves))
    assert len(groups) == len({(q, app) for q, app, _ in moves})  # each group is contiguous
    best = [max(abs(m) for q, app, m in moves if (q, app) == g) for g in groups]
    assert best == sorted(best, reverse=True)
    assert moves[0][2] == -4  # tenant-b moves up four steps


@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_human_formats(pair, fmt):
    r = run_cli("diff", *pair, ASKS, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    first = out.splitlines()[0]
    assert "1 queue changes priority" in first and "7 asks move (4 later, 3 earlier)" in first and "findings +1 -0" in first
    for word in ("root.tenants.tenant-a", "app-4-1", "+3 (later)", "-4 (earlier)", "PRIO210", "offset"):
        assert word in out, word
    if fmt == "markdown":
        assert first.startswith("**prio diff ") and first.endswith("**")
        assert out.count("<details><summary>") == out.count("</details>") == 4
        assert "<details><summary>Effective priorities (before scheduling) (1)</summary>" in out
        assert "| root.tenants.tenant-a" in out


def test_no_change(pair):
    old, _ = pair
    for fmt in ("plain", "markdown", "table"):
        r = run_cli("diff", old, QUEUES, ASKS, "-o", fmt, "--fail-on", "priority,order,unscheduled,findings")
        assert r.exit_code == 0 and "no change" in r.stdout
    doc = json.loads(run_cli("diff", old, QUEUES, ASKS, "-o", "json").stdout)
    assert doc["queues"] == doc["asks"] == doc["config"] == []


@pytest.mark.parametrize("kinds,code", [
    ("priority", 1), ("order", 1), ("findings", 1), ("unscheduled", 0), ("unscheduled,order", 1),
    (" priority , findings ", 1),
])
def test_fail_on(pair, kinds, code):
    r = run_cli("diff", *pair, ASKS, "-o", "json", "--fail-on", kinds)
    assert r.exit_code == code, r.stderr
    assert json.loads(r.stdout)["queues"]  # the report is written either way


def test_fail_on_unknown_kind_is_a_usage_error(pair):
    r = run_cli("diff", *pair, ASKS, "--fail-on", "priority,bogus")
    assert r.exit_code == 2 and "bogus" in r.stderr and r.stdout == ""


def test_fail_on_findings_only_for_added_findings(pair):
    old, new = pair
    r = run_cli("diff", new, old, ASKS, "-o", "json", "--fail-on", "findings")  # the finding goes away
    assert r.exit_code == 0
    assert [f["rule"] for f in json.loads(r.stdout)["findings"]["removed"]] == ["PRIO210"]


def test_findings_that_only_move_lines_are_not_a_change(tmp_path):
    text = _text(QUEUES).replace('priority.offset: "1000"', 'priority.offset: "1000"\n                  bogus: "1"')
    a = tmp_path / "a.yaml"
    a.write_text(text)
    b = tmp_path / "b.yaml"
    b.write_text("# a comment\n# and another\n" + text)
    doc = json.loads(run_cli("diff", str(a), str(b), ASKS, "-o", "json").stdout)
    assert doc["findings"] == {"added": [], "removed": []}


def test_output_file(pair, tmp_path):
    out = tmp_path / "report.md"
    r = run_cli("diff", *pair, ASKS, "-o", "markdown", "--output-file", str(out), "--fail-on", "order")
    assert r.exit_code == 1 and r.stdout == ""
    assert out.read_text().startswith("**prio diff ")
    r = run_cli("diff", *pair, ASKS, "--output-file", str(tmp_path / "no" / "such" / "dir.txt"))
    assert r.exit_code == 2 and "cannot write" in r.stderr


def test_unscheduled_added_and_removed_with_codes(tmp_path):
    base = (UNDER_ROOT +
            "          - {name: a%s}\n          - {name: b%s}\n")
    old = tmp_path / "old.yaml"
    old.write_text(base % (", resources: {max: {vcore: 1}}", ""))
    new = tmp_path / "new.yaml"
    new.write_text(base % (", maxapplications: 1", ", resources: {max: {vcore: 1}}"))
    snap = tmp_path / "s.yaml"
    snap.write_text("applications:\n"
                    "  - {id: x, queue: root.a, asks: [{id: x1, priority: 5, resources: {vcore: 1}}, {id: x2, priority: 4, resources: {vcore: 1}}]}\n"
                    "  - {id: y, queue: root.a, asks: [{id: y1, priority: 3, resources: {vcore: 1}}]}\n"
                    "  - {id: z, queue: root.b, asks: [{id: z1, priority: 1, resources: {vcore: 1}}, {id: z2, priority: 1, resources: {vcore: 1}}]}\n")
    r = run_cli("diff", str(old), str(new), str(snap), "-o", "json", "--fail-on", "unscheduled")
    doc = json.loads(r.stdout)
    added = {u["ask"]: u for u in doc["unscheduled"]["added"]}
    removed = {u["ask"]: u for u in doc["unscheduled"]["removed"]}
    assert set(added) == {"z2"} and added["z2"]["code"] == "QueueQuota" and "root.b" in added["z2"]["reason"]
    assert set(added["z2"]) == {"ask", "application", "queue", "code", "reason"}
    # x2 fits now; y1 stays unscheduled on both sides (quota before, maxapplications now): not listed
    assert set(removed) == {"x2"} and removed["x2"]["code"] == "QueueQuota"
    assert r.exit_code == 1  # z2 is newly unscheduled
    assert doc["unscheduledReasons"] == [{"ask": "y1", "application": "y", "queue": "root.a", "before": "QueueQuota",
                                          "after": "MaxApplications", "reason": "maxapplications 1 of root.a reached (1 running)"}]
    asks = {a["ask"]: (a["stepBefore"], a["stepAfter"]) for a in doc["asks"]}
    assert asks["z2"][1] is None and asks["x2"][0] is None and "y1" not in asks
    plain = run_cli("diff", str(old), str(new), str(snap), "-o", "plain").stdout
    assert "Newly unscheduled" in plain and "Newly placeable" in plain and "QueueQuota" in plain
    assert "no longer placed" in plain and "now placed" in plain
    assert "Still unscheduled, for another reason (1)" in plain and "1 unscheduled ask with another reason" in plain
    # the other way round: x2 is newly unscheduled, z2 newly placeable
    r = run_cli("diff", str(new), str(old), str(snap), "-o", "json", "--fail-on", "unscheduled")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and [u["ask"] for u in doc["unscheduled"]["added"]] == ["x2"]
    assert [u["ask"] for u in doc["unscheduled"]["removed"]] == ["z2"]


def test_without_pending_work_the_configs_still_differ(tmp_path):
    old = tmp_path / "old.yaml"
    old.write_text(UNDER_ROOT +
                   "          - name: a\n            properties: {priority.offset: '5'}\n"
                   "          - name: b\n            maxapplications: 3\n            resources: {max: {vcore: 4}}\n"
                   "          - name: gone\n")
    new = tmp_path / "new.yaml"
    new.write_text(UNDER_ROOT +
                   "          - name: a\n            properties: {priority.offset: '7', priority.policy: fence,"
                   " application.sort.policy: fair, application.sort.priority: disabled}\n"
                   "          - name: b\n            resources: {max: {vcore: 8}, guaranteed: {vcore: 2}}\n"
                   "          - name: added\n")
    classes = tmp_path / "pc.yaml"
    classes.write_text("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: tier1}\nvalue: 100\n")
    r = run_cli("diff", str(old), str(new), str(classes), "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["queues"] == [] and doc["asks"] == []
    got = {(c["queue"], c["field"]): (c["before"], c["after"]) for c in doc["config"]}
    assert got[("root.a", "offset")] == (5, 7)
    assert got[("root.a", "fence")] == (False, True)
    assert got[("root.a", "sortPolicy")] == ("fifo", "fair")
    assert got[("root.a", "sortPriority")] == (True, False)
    assert got[("root.b", "maxApplications")] == (3, None)
    assert got[("root.b", "max")] == ({"vcore": 4000}, {"vcore": 8000})
    assert got[("root.b", "guaranteed")] == (None, {"vcore": 2000})
    assert got[("root.added", "queue")] == ("absent", "configured")
    assert got[("root.gone", "queue")] == ("configured", "absent")
    assert got[("root.a", "class tier1")] == ([105, 105], [7, 7])  # fenced now: it reports its offset
    plain = run_cli("diff", str(old), str(new), str(classes), "-o", "plain").stdout
    assert "vcore 4" in plain and "vcore 8" in plain and "class tier1" in plain and "105" in plain


def test_two_snapshots_on_one_config(tmp_path):
    a = tmp_path / "a.yaml"
    a.write_text(_text(ASKS))
    b = tmp_path / "b.yaml"
    b.write_text(_text(ASKS).replace("priority: 9", "priority: 1"))
    r = run_cli("diff", str(a), str(b), QUEUES, "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["asks"] and doc["findings"] == {"added": [], "removed": []} and doc["config"] == []
    before, after = _sim(str(a), QUEUES), _sim(str(b), QUEUES)
    assert {(x["application"], x["ask"]): (x["stepBefore"], x["stepAfter"]) for x in doc["asks"]} == \
        {k: (before[k], after[k]) for k in before if before[k] != after[k]}


def _git(repo, *args):
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_rev_path_from_a_git_repository(tmp_path, monkeypatch, pair):
    repo = tmp_path / "repo"
    (repo / "deploy").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "deploy" / "queues.yaml").write_text(_text(pair[0]))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "old")
    (repo / "deploy" / "queues.yaml").write_text(_text(pair[1]))
    monkeypatch.chdir(repo)
    r = run_cli("diff", "HEAD:deploy/queues.yaml", "deploy/queues.yaml", ASKS, "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["queues"] == [{"queue": "root.tenants.tenant-a", "before": 10, "after": -10}]
    assert doc["findings"]["added"][0]["file"] == "deploy/queues.yaml"
    # the same file at the same revision on both sides: nothing changes
    r = run_cli("diff", "HEAD:deploy/queues.yaml", "HEAD:deploy/queues.yaml", ASKS, "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["asks"] == []
    md = run_cli("diff", "HEAD:deploy/queues.yaml", "deploy/queues.yaml", ASKS, "-o", "markdown").stdout
    assert md.startswith("**prio diff HEAD:deploy/queues.yaml -> deploy/queues.yaml:")
    # errors: one line, exit 2
    for arg, words in (("HEAD:deploy/nosuch.yaml", "does not exist"), ("nosuchrev:deploy/queues.yaml", "nosuchrev"),
                       ("HEAD:deploy", "not a file")):
        r = run_cli("diff", arg, "deploy/queues.yaml", ASKS)
        assert r.exit_code == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert r.stderr.startswith("prio: " + arg + ": ")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_rev_path_outside_a_repository(tmp_path, monkeypatch, pair):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    r = run_cli("diff", "HEAD:queues.yaml", pair[1], ASKS)
    assert r.exit_code == 2 and "not a git repository" in r.stderr.lower()


def test_rev_path_without_git(monkeypatch, pair):
    monkeypatch.setenv("PATH", "")
    r = run_cli("diff", "origin/main:deploy/queues.yaml", pair[1], ASKS)
    assert r.exit_code == 2 and "needs git" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_bad_input(tmp_path, pair):
    old, new = pair
    cases = [
        (("diff", str(tmp_path / "missing.yaml"), new, ASKS), "no such file"),
        (("diff", old, ASKS, ASKS), "compare two configs or two snapshots"),
        (("diff", old, new, sample("armada-current.yaml")), "Armada"),
        (("diff", "-", "-", ASKS), "standard input"),
        (("diff", old, new, QUEUES, ASKS), "second queue config"),
        (("diff", old), ""),  # NEW missing: usage
    ]
    for args, words in cases:
        r = run_cli(*args)
        assert r.exit_code == 2, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr + r.stdout and "internal error" not in r.stderr
        assert words in r.stderr, (args, r.stderr)
    assert run_cli("diff", old, ASKS, QUEUES).exit_code == 2  # OLD's side has two configs
    bad = tmp_path / "bad.yaml"
    bad.write_text("partitions: [\n")
    r = run_cli("diff", old, str(bad), ASKS)
    assert r.exit_code == 2 and r.stderr.startswith(f"prio: {bad}:")


def test_stdin_as_one_side(pair):
    old, new = pair
    r = run_cli("diff", old, "-", ASKS, "-o", "json", input=_text(new))
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["queues"] and doc["findings"]["added"][0]["file"] == "<stdin>"


def test_compare_reports_rejected_applications():
    """Applications placement rejects (the engine's `rejected`, where it has one) are listed."""
    from types import SimpleNamespace as NS

    def side_with(rejected):
        r = {a: (q, reasons.rejected(f"failed to place application {a}", q)) for a, q in rejected}
        return core.Side({}, {}, {}, {}, r, {})

    d = core.compare(side_with([("keep", "root.x")]), side_with([("keep", "root.x"), ("new", "root.nope")]))
    assert [(r.application, r.queue, r.code) for r in d.rejected_added] == [("new", "root.nope", "RejectedByPlacement")]
    assert d.rejected_removed == [] and d.changed("unscheduled") and not d.changed("order")
    from prio.yunikorn.render import diff as out

    doc = out.to_json(d)
    assert doc["rejected"]["added"] == [{"application": "new", "queue": "root.nope", "code": "RejectedByPlacement",
                                        "reason": "failed to place application new"}]
    assert "Applications rejected by placement" in out.render("plain", d, "a", "b")
    assert NS  # (namespace helper unused otherwise)


# ---- the property: a diff's steps are those of two simulate runs --------------------------------

@st.composite
def scenario(draw):
    """Two small configs (same queue names, different offsets, fences, sorting and limits) and a
    snapshot of pending work on them."""
    leaves = [f"root.p{p}.l{l}" for p in range(2) for l in range(2)]

    def config():
        lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
        for p in range(2):
            lines.append(f"          - name: p{p}")
            props = {}
            if draw(st.booleans()):
                props["priority.offset"] = str(draw(st.integers(-20, 20)))
            if draw(st.booleans()):
                props["priority.policy"] = "fence"
            if draw(st.booleans()):
                props["application.sort.priority"] = "disabled"
            if props:
                lines.append("            properties: {" + ", ".join(f"{k}: '{v}'" for k, v in props.items()) + "}")
            lines.append("            queues:")
            for l in range(2):
                lines.append(f"              - name: l{l}")
                if draw(st.booleans()):
                    lines.append(f"                properties: {{priority.offset: '{draw(st.integers(-5, 5))}'}}")
                if draw(st.integers(0, 3)) == 0:
                    lines.append(f"                resources: {{max: {{vcore: {draw(st.integers(1, 4))}}}}}")
                if draw(st.integers(0, 3)) == 0:
                    lines.append("                maxapplications: 1")
        return "\n".join(lines) + "\n"

    apps = []
    for i in range(draw(st.integers(1, 6))):
        asks = draw(st.lists(st.integers(-10, 10), min_size=1, max_size=3))
        apps.append({"id": f"app{i}", "queue": draw(st.sampled_from(leaves)),
                     "asks": [{"priority": p, "resources": {"vcore": 1}} for p in asks]})
    snap = {"applications": apps}
    cap = draw(st.one_of(st.none(), st.integers(1, 10)))
    if cap is not None:
        snap["capacity"] = {"vcore": cap}
    return config(), config(), json.dumps(snap)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario())
def test_diff_steps_are_two_simulate_runs(tmp_path, case):
    old_text, new_text, snap_text = case
    old, new, snap = tmp_path / "old.yaml", tmp_path / "new.yaml", tmp_path / "snap.json"
    old.write_text(old_text)
    new.write_text(new_text)
    snap.write_text(snap_text)
    r = run_cli("diff", str(old), str(new), str(snap), "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    sims = []
    for conf in (old, new):
        s = json.loads(run_cli("simulate", str(conf), str(snap), "-o", "json").stdout)
        sims.append(({(x["application"], x["ask"]): x["step"] for x in s["steps"]},
                     {(u["application"], u["ask"]): u["code"] for u in s["unscheduled"]}))
    (b_steps, b_un), (a_steps, a_un) = sims
    keys = set(b_steps) | set(a_steps) | set(b_un) | set(a_un)
    want = {k: (b_steps.get(k), a_steps.get(k)) for k in keys if b_steps.get(k) != a_steps.get(k)}
    assert {(x["application"], x["ask"]): (x["stepBefore"], x["stepAfter"]) for x in doc["asks"]} == want
    assert {(u["application"], u["ask"]): u["code"] for u in doc["unscheduled"]["added"]} == \
        {k: c for k, c in a_un.items() if k not in b_un}
    assert {(u["application"], u["ask"]) for u in doc["unscheduled"]["removed"]} == set(b_un) - set(a_un)
    if old_text == new_text:
        assert doc["queues"] == doc["asks"] == doc["config"] == []


# ---- the pull-request example of docs/ci.md runs as written --------------------------------------

def _doc_diff_steps():
    import re

    import yaml

    from conftest import ROOT

    text = open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read()
    out = []
    for m in re.finditer(r"^```ya?ml\n(.*?)^```", text, re.M | re.S):
        if "prio diff" in m.group(1):
            wf = yaml.safe_load(m.group(1))
            for job in wf["jobs"].values():
                out.append(job)
    return out


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_pull_request_example_runs(tmp_path, monkeypatch, pair):
    import shlex

    jobs = _doc_diff_steps()
    assert jobs, "docs/ci.md has no prio diff example"
    repo = tmp_path / "repo"
    (repo / "deploy" / "yunikorn").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "deploy" / "yunikorn" / "queues.yaml").write_text(_text(pair[0]))
    (repo / "deploy" / "yunikorn" / "pending.yaml").write_text(_text(ASKS))
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")  # what actions/checkout fetches
    (repo / "deploy" / "yunikorn" / "queues.yaml").write_text(_text(pair[1]))  # the pull request's change
    monkeypatch.chdir(repo)
    for job in jobs:
        assert job["permissions"]["pull-requests"] == "write"
        steps = job["steps"]
        checkout = next(s for s in steps if str(s.get("uses", "")).startswith("actions/checkout"))
        assert checkout["with"]["fetch-depth"] == 0
        run_steps = [s for s in steps if "prio diff" in s.get("run", "")]
        comment = next(s for s in steps if "gh pr comment" in s.get("run", ""))
        assert "always()" in comment["if"] and steps.index(comment) > steps.index(run_steps[0])
        for step in run_steps:
            cmd = step["run"]
            for k, v in step.get("env", {}).items():  # expressions reach the script through env:
                cmd = cmd.replace(f"${k}", {"${{ github.base_ref }}": "main"}[v])
            argv = shlex.split(cmd)
            assert argv[:2] == ["prio", "diff"]
            r = run_cli(*argv[1:])
            assert r.exit_code == 1, r.stderr  # the change adds a finding: --fail-on findings fails the job
            out = argv[argv.index("--output-file") + 1]
            assert out in comment["run"] and out in comment["if"]
            md = (repo / out).read_text()
            assert md.startswith("**prio diff origin/main:deploy/yunikorn/queues.yaml -> deploy/yunikorn/queues.yaml:")
            assert "<details><summary>Scheduling order" in md


def test_verbose_and_partition(pair):
    r = run_cli("diff", *pair, ASKS, "-v", "-o", "json")
    assert r.exit_code == 0 and "OLD: " in r.stderr and "NEW: " in r.stderr and "read as a queue config" in r.stderr
    json.loads(r.stdout)  # machine output stays clean
    r = run_cli("diff", *pair, ASKS, "--partition", "default", "-o", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["queues"]
    r = run_cli("diff", *pair, "--partition", "nosuch")
    assert r.exit_code == 2 and "no partition 'nosuch'" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def _snapshot_file(tmp_path):
    """`prio snapshot` of the walkthrough: its config and its pending work in one file."""
    out = tmp_path / "incident.yaml"
    r = run_cli("snapshot", QUEUES, ASKS, "--output-file", str(out))
    assert r.exit_code == 0, r.stderr
    return str(out)


def _json(*args):
    r = run_cli("diff", *args, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout), r.stderr


def test_a_snapshot_file_as_old_lends_its_work_to_new(pair, tmp_path):
    """`prio diff incident.yaml new.yaml`: NEW is simulated on the snapshot's work, as OLD is (it
    was simulated on none: every ask "no longer placed" and root's priority made up)."""
    old, new = pair
    incident = _snapshot_file(tmp_path)
    expected, _ = _json(old, new, ASKS)
    got, err = _json(incident, new)
    assert got == expected
    assert "NEW: simulated on the pending work of OLD" in err
    assert all(a["stepAfter"] is not None for a in got["asks"])
    backwards, err = _json(new, incident)  # a snapshot file as NEW lends its work to OLD
    assert {a["ask"] for a in backwards["asks"]} == {a["ask"] for a in expected["asks"]}
    assert "OLD: simulated on the pending work of NEW" in err


def test_a_snapshot_file_as_input_gives_its_work_alone(pair, tmp_path):
    """`prio diff old.yaml new.yaml incident.yaml` was refused as "a second queue config"."""
    old, new = pair
    incident = _snapshot_file(tmp_path)
    expected, _ = _json(old, new, ASKS)
    got, err = _json(old, new, incident)
    assert got == expected
    assert err.count("its queue config is ignored, its pending work is read") == 1


def test_one_side_with_work_is_never_compared_with_one_without():
    from prio.cli.diff import _same_work
    from prio.errors import InputError
    from prio.yunikorn.load.inputs import Inputs

    class Opts:  # options with an INPUT given: nothing to lend
        inputs = ("work.yaml",)

    with_work, without = Inputs(), Inputs()
    with_work.rest_queues = [object()]
    with pytest.raises(InputError, match="carries pending work and new.yaml none"):
        _same_work(Opts, "old.yaml", "new.yaml", with_work, without)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_rev_path_size_is_checked_before_reading_and_options_end_before_the_argument(tmp_path, monkeypatch):
    """A blob over the limit is refused from `git cat-file -s` without reading it; every git
    call ends its options before REV:PATH (a REV of --output=FILE is never one of git's options)."""
    from prio.io import gitrev

    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "big.yaml").write_text("a: 1\n" * 1000)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "big")
    monkeypatch.chdir(repo)
    calls = []
    real = subprocess.run

    def spy(cmd, *a, **kw):
        calls.append(list(cmd[1:]))
        return real(cmd, *a, **kw)

    monkeypatch.setattr(gitrev.subprocess, "run", spy)
    with pytest.raises(gitrev.InputError, match="is 5000 bytes in git; prio reads at most 100 bytes"):
        gitrev.show("HEAD:big.yaml", limit=100)
    assert not any("blob" in c or "show" in c for c in calls), calls  # never read
    assert gitrev.show("HEAD:big.yaml", limit=10_000).startswith("a: 1\n")
    with pytest.raises(gitrev.InputError):
        gitrev.show("--output=out.txt:big.yaml")
    assert not (repo / "out.txt").exists()
    for c in calls:
        assert "--end-of-options" in c and c.index("--end-of-options") == len(c) - 2, c


def test_the_headline_counts_add_up_and_say_their_parts():
    """Asks that move between placed and unscheduled are counted with the ones that move within
    the order: the parts add up to the total (issue 44: 3260 = 289 + 2747 left out 224)."""
    from types import SimpleNamespace as NS

    from prio.yunikorn.render.diff import summary

    def move(before, after):
        return NS(before=before, after=after, moved=None if before is None or after is None else after - before)

    d = NS(empty=False, config=[], queues=[1, 2], asks=[move(1, 3), move(4, 2), move(5, None), move(None, 6), move(7, None)],
           unscheduled_added=[], unscheduled_removed=[], reasons_changed=[], rejected_added=[], rejected_removed=[],
           findings_added=[], findings_removed=[], quota=None)
    line = summary(d, "a", "b")
    assert line == "prio diff a -> b: 2 queues change priority, 5 asks move (1 later, 1 earlier, 2 now unscheduled, 1 now placed)."
    d.queues, d.asks = [1], d.asks[:2]
    assert summary(d, "a", "b") == "prio diff a -> b: 1 queue changes priority, 2 asks move (1 later, 1 earlier)."
