"""prio preempt: the 40 scenarios recorded from YuniKorn's scheduler core agree field by field,
every output format, --ask, --output-file, and bad input (one line, exit 2)."""
import glob
import json
import os
import textwrap

import pytest

from conftest import ROOT, SHARED, run_cli, shared
from replayed import replayed

CORPUS = os.path.join(SHARED, "testdata", "yunikorn-preemption")
SCENARIOS = sorted(os.path.basename(p)[: -len(".yunikorn.json")] for p in glob.glob(os.path.join(CORPUS, "*.yunikorn.json")))
FIELDS = ("outcome", "node", "victims", "reason", "fenceRoot", "eligibleVictims", "askPriorityByQueue", "log")


def _preempt_json(*paths, extra=()):
    r = run_cli("preempt", "-o", "json", *paths, *extra)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_the_corpus_is_there():
    shared("testdata", "yunikorn-preemption", "README.md")
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("name", SCENARIOS)
def test_recorded_scenario(name):
    queues = replayed(shared("testdata", "yunikorn-preemption", f"{name}.queues.yaml"))  # as the harness ran it
    snapshot = shared("testdata", "yunikorn-preemption", f"{name}.snapshot.yaml")
    with open(os.path.join(CORPUS, f"{name}.yunikorn.json"), encoding="utf-8") as fh:
        want = json.load(fh)["asks"]
    got = _preempt_json(queues, snapshot)["asks"]
    assert set(got) == set(want)
    for ask, w in want.items():
        for f in FIELDS:
            assert got[ask][f] == w[f], (name, ask, f)
        assert list(got[ask]) == list(FIELDS)  # exactly the contract's fields, in its order


# ---- the command on the bundled sample --------------------------------------------------------

def test_default_is_the_preemption_sample_json():
    got = _preempt_json()["asks"]
    assert got["checkout-0"]["outcome"] == "preempted"
    # newest first on the node; nightly-2 (priority 500 > 100) is not a candidate; the
    # originator nightly-0 would come last
    assert got["checkout-0"]["victims"] == ["nightly-3", "nightly-1"]
    assert "nightly-2" not in got["checkout-0"]["eligibleVictims"]
    # research is priority-fenced at 50 <= 100: its tasks are candidates whatever their priority
    assert {"notebook-0", "notebook-1"} <= set(got["checkout-0"]["eligibleVictims"])
    assert "monitor-0" not in got["checkout-0"]["eligibleVictims"]  # preemption.policy: disabled
    assert got["training-0"]["reason"] == "not attempted: preemptionPolicy Never"
    assert got["training-0"]["askPriorityByQueue"] == {"root": 50, "root.research": 50, "root.research.team-b": 1000}


def test_sample_flag_is_the_same_as_the_default():
    assert _preempt_json(extra=("--sample", "preemption")) == _preempt_json()


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown"])
def test_human_formats(fmt):
    r = run_cli("preempt", "-o", fmt)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "checkout-0" in out and "preempts nightly-3, nightly-1 (in this order)" in out
    assert "victim #1" in out and "victim #2" in out
    assert "fence root: root" in out
    assert "not attempted: preemptionPolicy Never" in out
    assert "preemption.policy: disabled" in out
    assert "prio simulate runs these preemptions inside the scheduling order" in out
    if fmt == "markdown":
        assert "### checkout-0" in out and "| task" in out
    if fmt == "table":
        assert "root  (fence root; ask priority here 100)" in out and "└── system" in out


def test_ask_option_narrows_to_one_ask():
    got = _preempt_json(extra=("--ask", "training-0"))["asks"]
    assert list(got) == ["training-0"]
    # the other asks still take their turn first: training-0 sees the cluster after checkout-0
    assert got["training-0"]["log"] == ["Not enough queue quota", "Preemption does not help", "Preemption preconditions failed"]
    assert list(_preempt_json(extra=("--ask", "checkout/checkout-0"))["asks"]) == ["checkout-0"]


def test_unknown_ask_is_exit_2():
    r = run_cli("preempt", "--ask", "nope")
    assert r.exit_code == 2
    assert "no pending ask 'nope'" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_output_file(tmp_path):
    out = tmp_path / "preempt.json"
    r = run_cli("preempt", "-o", "json", "--output-file", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    assert json.loads(out.read_text())["asks"]["checkout-0"]["victims"] == ["nightly-3", "nightly-1"]


def test_unknown_format_is_exit_2():
    r = run_cli("preempt", "-o", "sarif")
    assert r.exit_code == 2 and "unknown output format" in r.stderr


# ---- behaviour the corpus does not pin down ---------------------------------------------------

QUEUES = """
partitions:
  - name: default
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: a
            resources: {guaranteed: {vcore: 4}}
          - name: b
"""


def _write(tmp_path, snapshot, queues=QUEUES):
    q = tmp_path / "queues.yaml"
    q.write_text(queues)
    s = tmp_path / "snap.yaml"
    s.write_text(snapshot)
    return str(q), str(s)


def test_capacity_without_nodes_is_one_node(tmp_path):
    q, s = _write(tmp_path, """
capacity: {vcore: 4}
applications:
  - id: batch
    queue: root.b
    allocations:
      - {id: b0, resources: {vcore: 2}, createTime: "2024-05-01T10:00:00Z"}
      - {id: b1, resources: {vcore: 2}, createTime: "2024-05-01T10:01:00Z"}
  - id: urgent
    queue: root.a
    asks:
      - {id: u0, priority: 1, resources: {vcore: 2}}
""")
    got = _preempt_json(q, s)["asks"]["u0"]
    assert got["outcome"] == "preempted" and got["victims"] == ["b1"] and got["node"] == "node-1"


def test_fragmented_nodes_free_space_does_not_count(tmp_path):
    """Queue headroom fits (2 + 2 vcore free) but no node has 4: YuniKorn tries the nodes, then
    preemption (so no 'Not enough queue quota' in the log). Removing b0 would make room on n1,
    but YuniKorn's last check compares the ask with the victims' total alone, not counting the
    node's free space: short of resources."""
    q, s = _write(tmp_path, """
nodes:
  - {name: n1, capacity: {vcore: 4}}
  - {name: n2, capacity: {vcore: 4}}
applications:
  - id: batch
    queue: root.b
    allocations:
      - {id: b0, resources: {vcore: 2}, node: n1, createTime: "2024-05-01T10:00:00Z"}
      - {id: b1, resources: {vcore: 2}, node: n2, createTime: "2024-05-01T10:01:00Z"}
  - id: urgent
    queue: root.a
    asks:
      - {id: u0, priority: 1, resources: {vcore: 4}}
""")
    got = _preempt_json(q, s)["asks"]["u0"]
    assert got["outcome"] == "not placed"
    assert got["reason"] == "Preemption helped but short of resources"
    assert got["log"] == ["Preemption does not help", "Preemption helped but short of resources"]
    assert got["eligibleVictims"] == ["b0", "b1"]
    plain = run_cli("preempt", q, s, "-o", "plain").stdout
    assert "why: the victims YuniKorn may take on the chosen node add up to less than the ask" in plain


def test_partition_switch_off(tmp_path):
    q, s = _write(tmp_path, """
nodes: [{name: n1, capacity: {vcore: 2}}]
applications:
  - {id: batch, queue: root.b, allocations: [{id: b0, resources: {vcore: 2}, node: n1}]}
  - {id: urgent, queue: root.a, asks: [{id: u0, priority: 1, resources: {vcore: 2}}]}
""", QUEUES.replace("  - name: default\n", "  - name: default\n    preemption: {enabled: false}\n"))
    got = _preempt_json(q, s)["asks"]["u0"]
    assert got["reason"] == "not attempted: preemption disabled in partition"
    assert got["log"] == ["Not enough queue quota"]


def test_priority_class_never_is_taken_from_the_class(tmp_path):
    q, s = _write(tmp_path, """
priorityClasses:
  - {name: polite, value: 100, preemptionPolicy: Never}
nodes: [{name: n1, capacity: {vcore: 2}}]
applications:
  - {id: batch, queue: root.b, allocations: [{id: b0, resources: {vcore: 2}, node: n1}]}
  - {id: urgent, queue: root.a, asks: [{id: u0, priorityClassName: polite, resources: {vcore: 2}}]}
""")
    assert _preempt_json(q, s)["asks"]["u0"]["reason"] == "not attempted: preemptionPolicy Never"


def test_same_ask_id_in_two_applications_is_keyed_by_application(tmp_path):
    q, s = _write(tmp_path, """
nodes: [{name: n1, capacity: {vcore: 8}}]
applications:
  - {id: x, queue: root.a, asks: [{id: driver, resources: {vcore: 1}}]}
  - {id: y, queue: root.b, asks: [{id: driver, resources: {vcore: 1}}]}
""")
    got = _preempt_json(q, s)["asks"]
    assert set(got) == {"x/driver", "y/driver"}
    assert all(v["outcome"] == "allocated" for v in got.values())


@pytest.mark.parametrize("snapshot, msg", [
    ("nodes: [{name: n1, capacity: {vcore: 2}}]\napplications:\n  - {id: a, queue: root.b, allocations: [{id: x, node: n9}]}\n",
     "node 'n9' is not one of the snapshot's nodes"),
    ("nodes: [{name: n1, capacity: {vcore: 2}}]\napplications:\n  - {id: a, queue: root.a, asks: [{id: x, preemptionPolicy: never}]}\n",
     "preemptionPolicy must be PreemptLowerPriority or Never"),
    ("nodes: {name: n1}\napplications: []\n", "nodes must be a list"),
    ("nodes: [{name: n1, capacity: {vcore: 2}}, {name: n1, capacity: {vcore: 2}}]\napplications: []\n", "appears twice"),
    ("nodes: [{name: n1, capacity: {vcore: 2}, zone: z}]\napplications: []\n", "unknown key 'zone'"),
    ("nodes: [{name: n1, capacity: {vcore: 2}}]\napplications:\n  - {id: a, queue: root.b, allocations: [{id: x, node: n1, originator: maybe}]}\n",
     "expected true or false"),
    ("nodes: [{name: n1, capacity: {vcore: 2}}]\napplications:\n  - {id: a, queue: root.b, allocations: [{id: x, node: n1, priority: 3000000000}]}\n",
     "outside the int32 range"),
    ("nodes: [{name: n1, capacity: {vcore: 2}}]\napplications:\n  - {id: a, queue: root.b, allocations: [{id: x, node: n1}, {id: x, node: n1}]}\n",
     "allocation id 'x' appears twice"),
    ("applications:\n  - {id: a, queue: root.a, asks: [{id: x}]}\n", "neither nodes nor a capacity"),
    ("nodes: [{name: n1, capacity: {vcore: 2}}]\napplications:\n  - {id: a, queue: root.b, allocations: [{id: x, node: n1}]}\n"
     "  - {id: b, queue: root.b, allocations: [{id: x, node: n1}]}\n", "allocation keys are unique"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, snapshot, msg):
    q, s = _write(tmp_path, snapshot)
    r = run_cli("preempt", q, s)
    assert r.exit_code == 2, r.stdout
    assert msg in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    if "not one of" in msg or "never" in msg:
        assert r.stderr.startswith("prio: ")
        assert "snap.yaml:" in r.stderr.split(" ")[1] and r.stderr.split(":")[2].isdigit()  # file:line


def test_config_alone_is_exit_2(tmp_path):
    q = tmp_path / "queues.yaml"
    q.write_text(QUEUES)
    r = run_cli("preempt", str(q))
    assert r.exit_code == 2 and "needs a snapshot" in r.stderr


def test_explain_and_simulate_read_a_preemption_snapshot():
    """allocations count as the application's usage; simulate preempts inside its order as prio
    preempt says YuniKorn would, and --no-preemption leaves the asks waiting."""
    d = json.loads(run_cli("explain", "--sample", "preemption", "-o", "json").stdout)
    assert sorted(a["ask"] for a in d["asks"]) == ["checkout-0", "training-0"]
    pre = json.loads(run_cli("preempt", "--sample", "preemption", "-o", "json").stdout)["asks"]["checkout-0"]
    d = json.loads(run_cli("simulate", "--sample", "preemption", "-o", "json").stdout)
    assert d["steps"][0] == {"step": 1, "preemption": {"ask": "checkout-0", "application": "checkout", "queue": "root.prod",
                                                       "node": pre["node"], "victims": pre["victims"]}}
    assert (d["steps"][1]["ask"], d["steps"][1]["node"]) == ("checkout-0", pre["node"])
    # the running allocations take the whole capacity: without preemption nothing pending fits
    r = run_cli("simulate", "--sample", "preemption", "--no-preemption", "-o", "json")
    d = json.loads(r.stdout)
    assert d["steps"] == [] and {u["code"] for u in d["unscheduled"]} == {"NoCapacity"}
    assert all("0 of 16 left" in u["reason"] for u in d["unscheduled"]), d["unscheduled"]


def test_sample_files_exist():
    for f in ("preemption-queues.yaml", "preemption-asks.yaml"):
        assert os.path.isfile(os.path.join(ROOT, "samples", f))


def test_ask_without_resources_still_gets_an_outcome(tmp_path):
    q, s = _write(tmp_path, """
nodes: [{name: n1, capacity: {vcore: 2}}]
applications:
  - {id: x, queue: root.a, asks: [{id: empty, resources: {}}]}
""")
    assert _preempt_json(q, s)["asks"]["empty"]["outcome"] == "allocated"


def test_core_is_pure():
    """The model and algorithm import no rendering or CLI libraries, and no YAML of their own
    (yaml itself arrives through prio.config's go-yaml decoding helpers, which the tree needs)."""
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, 'cli'); import prio.yunikorn.preemption; "
            "bad = [m for m in ('rich', 'typer', 'tabulate', 'jsonschema') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    paths = glob.glob(os.path.join(ROOT, "cli", "prio", "yunikorn", "preemption", "*.py"))
    assert len(paths) > 1
    for path in paths + [os.path.join(ROOT, "cli", "prio", "yunikorn", "resources.py")]:
        src = open(path, encoding="utf-8").read()
        assert "import yaml" not in src and "open(" not in src and "print(" not in src, path


def test_simulate_shows_each_preemption_in_every_format_and_why_ask_names_it():
    for fmt, head in (("plain", "Preemptions"), ("markdown", "## Preemptions"), ("table", "Preemptions")):
        out = run_cli("simulate", "--sample", "preemption", "-o", fmt).stdout
        assert head in out and "checkout-0" in out.split("Preemptions", 1)[1], fmt
    assert "Preemptions" not in run_cli("simulate", "--sample", "preemption", "--no-preemption", "-o", "plain").stdout
    r = run_cli("explain", "--sample", "preemption", "--why-ask", "checkout-0", "-o", "json")
    facts = json.loads(r.stdout)
    assert facts["preemption"]["beforeStep"] == 1 and facts["preemption"]["victims"]
    assert any("only because YuniKorn preempted" in line for line in facts["lines"])


def test_victims_killed_for_nothing_carry_a_warning():
    """schedpreempt-00021 (recorded from YuniKorn): a preemption triggered by a queue max frees
    room on the node but not under the max; the ask stays pending, and prio says so."""
    from conftest import shared

    base = shared("testdata", "yunikorn-conformance-2", "scheduling", "schedpreempt-00021.yunikorn.json")[: -len(".yunikorn.json")]
    got = json.loads(run_cli("simulate", replayed(base + ".queues.yaml"), base + ".asks.yaml", "-o", "json").stdout)
    warned = [s for s in got["steps"] if "preemption" in s and s["preemption"].get("warning")]
    assert warned and "not under the queue's max" in warned[0]["preemption"]["warning"]
    ask = warned[0]["preemption"]["ask"]
    assert ask in {u["ask"] for u in got["unscheduled"]}


def test_victims_placed_in_the_run_go_newest_first_by_their_position_among_the_asks(tmp_path):
    """Copies of one `count` entry are created one millisecond apart (an ask without createTime:
    its application's submit time plus 1 ms per position, the corpora's convention), so the
    newest copy is the first victim, not the first by id (conformance-3 mixed-00029: app098-7
    before app098-6)."""
    (tmp_path / "q.yaml").write_text(textwrap.dedent("""\
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: '*'
                queues:
                  - name: batch
                  - name: tenant
                    resources: {guaranteed: {vcore: 3}}
        """))
    (tmp_path / "s.yaml").write_text(textwrap.dedent("""\
        nodes: [{name: node-1, capacity: {vcore: 4}}]
        applications:
          - id: batch1
            queue: root.batch
            asks: [{priority: 5, resources: {vcore: 1}, count: 2}]
          - id: t1
            queue: root.tenant
            allocations: [{id: t1-run, priority: 5, resources: {vcore: 1}, node: node-1, createTime: "2024-01-01T00:00:00Z"}]
            asks: [{priority: 5, resources: {vcore: 2}}]
        """))
    got = json.loads(run_cli("simulate", str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml"), "-o", "json").stdout)
    assert [s["ask"] for s in got["steps"] if "ask" in s] == ["batch1-1", "batch1-2", "t1-1"]
    # (YuniKorn takes victims until they free the whole ask: both, the newest first)
    assert [s["preemption"]["victims"] for s in got["steps"] if "preemption" in s] == [["batch1-2", "batch1-1"]]


@pytest.mark.parametrize("limit", ["limits: [{limit: one, users: [alice], maxapplications: 1}]", "maxapplications: 1"])
@pytest.mark.parametrize("pending", [False, True])
def test_an_application_held_by_maxapplications_starts_once_a_preempted_one_completes(tmp_path, limit, pending):
    """An application whose last allocation is preempted with nothing pending completes
    (removeAllocationInternal: hasZeroAllocations): it leaves Running (decRunningApps) and its
    user's tracker, so one held by maxapplications (the user's, or a queue's) starts then; an
    application held is asked again in every cycle, not set aside for good. With an ask still
    pending (one no node holds) the preempted application stays Running, and holds its place."""
    (tmp_path / "q.yaml").write_text(textwrap.dedent(f"""\
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: '*'
                queues:
                  - name: p
                    {limit}
                    queues:
                      - name: batch
                      - name: t
                  - name: tenant
                    resources: {{guaranteed: {{vcore: 2}}}}
        """))
    (tmp_path / "s.yaml").write_text(textwrap.dedent("""\
        nodes: [{name: node-1, capacity: {vcore: 2}}]
        applications:
          - {id: r0, queue: root.p.batch, user: alice, asks: ASKS,
             allocations: [{id: r0-run, priority: 0, resources: {vcore: 2}, node: node-1, createTime: "2024-01-01T00:00:00Z"}]}
          - {id: t1, queue: root.p.t, user: alice, asks: [{priority: 10, resources: {vcore: 1}}]}
          - {id: b1, queue: root.tenant, user: bob, asks: [{priority: 5, resources: {vcore: 1}}]}
        """).replace("ASKS", "[{priority: 0, resources: {vcore: 9}}]" if pending else "[]"))
    got = json.loads(run_cli("simulate", str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml"), "-o", "json").stdout)
    steps = [s["preemption"]["victims"] if "preemption" in s else s["ask"] for s in got["steps"]]
    if pending:
        assert steps == [["r0-run"], "b1-1"]
        why = {u["ask"]: u["reason"] for u in got["unscheduled"]}
        assert set(why) == {"r0-1", "t1-1"} and "maxapplications" in why["t1-1"]
    else:
        assert steps == [["r0-run"], "b1-1", "t1-1"] and got["unscheduled"] == []
