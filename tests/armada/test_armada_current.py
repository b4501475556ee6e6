"""Armada's current scheduler (DRF fair share with priority factors): the 15 recorded scenarios of
../shared/testdata/armada-current compared field by field, the CLI in every format, --why,
the model switch, and the rules behind the numbers on small hand-made cases."""
from __future__ import annotations

import glob
import json
import math
import os

import pytest

from conftest import SHARED, run_cli, sample, shared
from prio.armada import load_current as scenario
from prio.armada.current import fairness
from prio.armada.current import round as round_mod
from prio.errors import InputError
from prio.io.yamlnodes import load

DATA = os.path.join(SHARED, "testdata", "armada-current")
CASES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(DATA, "*.yaml")))
FIELDS = ("weight", "fairShare", "demandShare", "constrainedDemandShare", "demandCappedAdjustedFairShare",
          "uncappedAdjustedFairShare", "actualShare", "weightedCost", "queueBudget", "fractionOfFairShare")


def close(got, want) -> bool:
    if isinstance(want, str) or isinstance(got, str):
        return got == want
    return got == want or abs(got - want) <= 1e-6 * max(abs(got), abs(want))


def cli_json(*args):
    r = run_cli(*args, "-o", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("name", CASES or ["(none)"])
def test_recorded_scenario_agrees_with_armada(name):
    path = shared("testdata", "armada-current", f"{name}.yaml")
    want = json.load(open(os.path.join(DATA, f"{name}.armada.json")))
    got = cli_json("explain", path)
    assert got["model"] == "armada" and got["scheduler"] == "current"
    assert close(got["weightSum"], want["weightSum"])
    assert [q["queue"] for q in got["queues"]] == list(want["queues"])
    for q in got["queues"]:
        w = want["queues"][q["queue"]]
        assert q["active"] == w["active"], q["queue"]
        if not w["active"]:
            assert set(q) == {"queue", "active"}
            continue
        for f in FIELDS:
            assert close(q[f], w[f]), (q["queue"], f, q[f], w[f])
        assert q["runningPreemptibleJobsEvictable"] is w["runningPreemptibleJobsEvictable"]
    sim = cli_json("simulate", path)
    assert sim["evicted"] == want["evicted"]
    assert [(e["job"], e["queue"], e.get("rescheduled", False)) for e in sim["leaseOrder"]] == \
        [(e["job"], e["queue"], e.get("rescheduled", False)) for e in want["leaseOrder"]]
    for g, w in zip(sim["leaseOrder"], want["leaseOrder"]):
        assert close(g["queueCostAfter"], w["queueCostAfter"]), (g, w)
    assert sim["preempted"] == want["preempted"]
    assert sim["unschedulable"] == want["unschedulable"]
    assert sim["finalActualShare"].keys() == want["finalActualShare"].keys()
    for k, v in want["finalActualShare"].items():
        assert close(sim["finalActualShare"][k], v), k


def test_all_recorded_scenarios_are_there():
    shared("testdata", "armada-current", "README.md")
    assert len(CASES) == 15


# ---- the model, on small cases -------------------------------------------------------------------

HEAD = """model: armada
totalResources: {cpu: "100", memory: 100Gi}
resourcesToConsider: [cpu, memory]
priorityClasses:
  armada-default: {priority: 1000, preemptible: false}
  armada-preemptible: {priority: 1000, preemptible: true}
  urgent: {priority: 30000, preemptible: false}
"""


def model(text: str):
    doc = load("s.yaml", text)[0]
    sc = scenario.build("s.yaml", doc)
    sh = fairness.shares(sc)
    return sc, sh, round_mod.run(sc, sh)


def test_weight_is_inverse_priority_factor_and_unset_or_non_positive_is_one():
    _, sh, _ = model(HEAD + """queues: [{name: a, priorityFactor: 4}, {name: b, priorityFactor: 0}, {name: c, priorityFactor: -2}, {name: d}]
jobs:
  - {queue: a, requests: {cpu: "1"}}
  - {queue: b, requests: {cpu: "1"}}
  - {queue: c, requests: {cpu: "1"}}
  - {queue: d, requests: {cpu: "1"}}
""")
    assert [q.weight for q in sh.queues] == [0.25, 1.0, 1.0, 1.0]
    assert sh.weight_sum == 3.25


def test_cost_is_the_dominant_considered_resource_and_ignores_the_rest():
    sc, sh, _ = model(HEAD.replace("[cpu, memory]", "[cpu]") + """queues: [{name: a}]
running: [{queue: a, requests: {cpu: "10", memory: 90Gi}}]
""")
    assert sh.queues[0].actual_share == pytest.approx(0.1)  # memory is not considered
    sc2, sh2, _ = model(HEAD + """queues: [{name: a}]
running: [{queue: a, requests: {cpu: "10", memory: 90Gi}}]
""")
    assert sh2.queues[0].actual_share == pytest.approx(0.9)
    assert fairness.dominant(sc2, sh2.queues[0].allocation) == "memory"


def test_a_resource_with_zero_total_costs_nothing_and_never_fits():
    sc, sh, rd = model(HEAD.replace('memory: 100Gi', 'memory: 100Gi, nvidia.com/gpu: "0"')
                       .replace("[cpu, memory]", "[cpu, memory, nvidia.com/gpu]") + """queues: [{name: a}]
jobs: [{queue: a, requests: {cpu: "1", nvidia.com/gpu: "1"}}]
""")
    assert sh.queues[0].demand_share == pytest.approx(0.01)
    assert [x.job.id for x in rd.unschedulable] == ["j0-0"]


def test_idle_queue_is_inactive_and_its_weight_is_not_summed():
    _, sh, _ = model(HEAD + """queues: [{name: a}, {name: idle, priorityFactor: 0.1}]
jobs: [{queue: a, requests: {cpu: "1"}}]
""")
    assert not sh.queues[1].active and sh.weight_sum == 1.0 and sh.queues[0].fair_share == 1.0


def test_water_filling_stops_after_ten_passes_or_below_one_percent():
    # one pass leaves 0.6 spare from a; the second hands it to b and c
    filled, passes = fairness.water_fill([("a", 1.0, 0.0), ("b", 1.0, 5.0), ("c", 1.0, 5.0)])
    assert filled["a"][0] == 0.0 and filled["b"][0] == pytest.approx(0.5)
    assert len(passes) == 2
    # many queues each just below their share: capped at 10 passes
    infos = [(f"q{i:02}", 1.0, 0.001 * (i + 1)) for i in range(50)] + [("z", 1.0, 100.0)]
    _, passes = fairness.water_fill(infos)
    assert len(passes) <= 10


def test_evicted_at_exactly_the_protected_fraction_is_not_evicted_above_it_is():
    text = HEAD + """queues: [{name: a}, {name: b}]
protectedFractionOfFairShare: PF
running: [{queue: a, requests: {cpu: "1"}, priorityClass: armada-preemptible, count: 50}]
jobs: [{queue: b, requests: {cpu: "1"}, count: 60}]
"""
    _, sh, rd = model(text.replace("PF", "1.0"))
    assert sh.queues[0].fraction_of_fair_share == 1.0 and not sh.queues[0].evictable and rd.evicted == []
    _, sh, rd = model(text.replace("PF", "0.99"))
    assert sh.queues[0].evictable and len(rd.evicted) == 50


def test_non_preemptible_running_jobs_are_never_evicted():
    _, sh, rd = model(HEAD + """queues: [{name: a}, {name: b}]
running: [{queue: a, requests: {cpu: "1"}, count: 90}]
jobs: [{queue: b, requests: {cpu: "1"}, count: 60}]
""")
    assert sh.queues[0].evictable and rd.evicted == []
    assert len(rd.leases) == 10 and len(rd.unschedulable) == 50


def test_higher_class_first_then_cost_then_name():
    _, _, rd = model(HEAD + """queues: [{name: b}, {name: a}]
jobs:
  - {queue: b, requests: {cpu: "1"}, count: 2}
  - {queue: a, requests: {cpu: "1"}, count: 2}
  - {queue: b, requests: {cpu: "1"}, priorityClass: urgent}
""")
    # b's urgent job first (class priority), then a (name, equal cost), then alternating by cost
    assert [ls.job.id for ls in rd.leases] == ["j2-0", "j1-0", "j1-1", "j0-0", "j0-1"]


def test_class_cap_limits_demand_share_and_new_jobs():
    sc, sh, rd = model(HEAD.replace("  armada-preemptible", "  capped: {priority: 1000, preemptible: false, "
                                    "maximumResourceFractionPerQueue: {cpu: 0.05}}\n  armada-preemptible") +
                       """queues: [{name: a}]
jobs: [{queue: a, requests: {cpu: "1"}, priorityClass: capped, count: 10}]
""")
    q = sh.queues[0]
    assert q.demand_share == pytest.approx(0.1) and q.constrained_demand_share == pytest.approx(0.05)
    assert q.capped_classes == ["capped"]
    assert len(rd.leases) == 5 and len(rd.unschedulable) == 5
    assert rd.unschedulable[0].reason == round_mod.REASON_CAP


def test_prefer_large_jobs_takes_the_larger_job_at_equal_cost():
    text = HEAD + """queues: [{name: a}, {name: b}]
preferLargeJobOrdering: ON
jobs:
  - {queue: a, requests: {cpu: "1"}}
  - {queue: b, requests: {cpu: "10"}}
"""
    _, _, rd = model(text.replace("ON", "true"))
    assert [ls.job.id for ls in rd.leases] == ["j1-0", "j0-0"]
    _, _, rd = model(text.replace("ON", "false"))
    assert [ls.job.id for ls in rd.leases] == ["j0-0", "j1-0"]


def test_budget_ordering_prefers_the_queue_that_stays_within_budget():
    a = round_mod._Item("a", None, 1, proposed=0.6, current=0.0, budget=0.5, size=0.6)
    b = round_mod._Item("b", None, 1, proposed=0.4, current=0.3, budget=0.5, size=0.1)
    assert round_mod.less(b, a, True) and not round_mod.less(a, b, True)
    c = round_mod._Item("c", None, 1, proposed=0.7, current=0.0, budget=0.5, size=0.7)
    assert round_mod.less(a, c, True)  # both over budget: the smaller proposed cost


def test_fraction_of_fair_share_division_by_zero():
    assert math.isnan(fairness.fractions_of_fair_share(0.0, 0.0, 0.0))
    assert fairness.fractions_of_fair_share(0.5, 0.0, 0.0) == math.inf


def test_quantities_round_up_to_armada_resolution():
    sc, sh, _ = model(HEAD + """queues: [{name: a}]
jobs: [{queue: a, requests: {cpu: "0.0001", memory: "0.5"}}]
""")
    assert sc.jobs[0].requests == (1, 1)  # 1 millicore, 1 byte


# ---- input errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, line, fragment", [
    ("resourcesToConsiderWithMultipliers: [{name: cpu, multiplier: -1}]\n", 11, "negative multiplier"),
    ("jobs: [{queue: a, requests: {cpu: 1}, priorityClass: nosuch}]\n", 11, "not defined"),
    ("jobs: [{queue: b, requests: {cpu: 1}}]\n", 11, "unknown queue"),
    ("priorityHalfTime: 20m\n", 11, "scheduler: legacy"),
    ("jobz: []\n", 11, "did you mean 'jobs'"),
    ("protectedFractionOfFairShare: .nan\n", 11, "finite"),
])
def test_bad_scenarios_are_one_line_errors(tmp_path, extra, line, fragment):
    text = HEAD.replace("resourcesToConsider: [cpu, memory]\n", "" if "Multipliers" in extra else
                        "resourcesToConsider: [cpu, memory]\n") + "queues: [{name: a}]\n"
    text = text + "\n" * (10 - text.count("\n")) + extra
    p = tmp_path / "s.yaml"
    p.write_text(text)
    r = run_cli("explain", str(p), "-o", "json")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert f"s.yaml:{line}:" in r.stderr and fragment in r.stderr, r.stderr


def test_both_resource_lists_is_an_error():
    with pytest.raises(InputError, match="only one of"):
        model(HEAD + "resourcesToConsiderWithMultipliers: [{name: cpu}]\nqueues: [{name: a}]\n")


def test_multiplier_zero_or_absent_means_one():
    sc, _, _ = model(HEAD.replace("resourcesToConsider: [cpu, memory]",
                                  "resourcesToConsiderWithMultipliers: [{name: cpu, multiplier: 0}, {name: memory}]")
                     + "queues: [{name: a}]\n")
    assert sc.multipliers == (1.0, 1.0)


# ---- the CLI -------------------------------------------------------------------------------------

CASE = os.path.join(DATA, "over-fair-share-preempt.yaml")


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown", "json"])
def test_explain_every_format(fmt):
    path = shared("testdata", "armada-current", "seed-101.yaml")
    r = run_cli("explain", path, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    if fmt == "json":
        assert json.loads(r.stdout)["queues"][3]["runningPreemptibleJobsEvictable"] is True
        return
    assert "fair shares" in r.stdout and "q3" in r.stdout and "4.5273" in r.stdout
    assert "inactive" in r.stdout  # q2, q5
    assert "Go's random map order" in r.stdout
    if fmt == "markdown":
        assert "| q3" in r.stdout


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown", "json"])
def test_simulate_every_format(fmt):
    path = shared("testdata", "armada-current", "over-fair-share-preempt.yaml")
    r = run_cli("simulate", path, "-o", fmt)
    assert r.exit_code == 0, r.stderr
    if fmt == "json":
        out = json.loads(r.stdout)
        assert out["leaseOrder"][0] == {"job": "r0-0", "queue": "a", "rescheduled": True, "queueCostAfter": 0.01}
        assert out["finalActualShare"] == {"a": 0.5, "b": 0.5}
        return
    assert "r0-0..r0-79" in r.stdout  # evicted
    assert "rescheduled" in r.stdout and "preempted" in r.stdout and "unschedulable" in r.stdout
    assert "j0-59" in r.stdout


def test_why_queue_explains_eviction_and_redistribution():
    path = shared("testdata", "armada-current", "seed-101.yaml")
    r = run_cli("explain", path, "--why", "q3")
    assert r.exit_code == 0, r.stderr
    assert "weight 1/10 = 0.1" in r.stdout
    assert "plus what q0, q4 did not need" in r.stdout
    assert "4.5273, above protectedFractionOfFairShare 0.5" in r.stdout
    r = run_cli("explain", path, "--why", "q2")
    assert "not active" in r.stdout
    out = cli_json("explain", path, "--why", "q0")
    assert out["queue"] == "q0" and any("not above" in line for line in out["why"])
    r = run_cli("explain", path, "--why", "nosuch")
    assert r.exit_code == 2 and "no queue 'nosuch'" in r.stderr


def test_model_switch():
    legacy = sample("armada-scenario.yaml")
    assert cli_json("explain", legacy)["model"] == "armada-legacy"
    r = run_cli("explain", legacy, "--armada-model", "current")
    assert r.exit_code == 2 and "--armada-model" in r.stderr
    path = shared("testdata", "armada-current", "two-equal-cpu.yaml")
    r = run_cli("explain", path, "--armada-model", "legacy")
    assert r.exit_code == 2 and "scheduler: current" in r.stderr
    r = run_cli("simulate", path, "--seed", "3")
    assert r.exit_code == 2 and "--seed" in r.stderr and "legacy" in r.stderr
    r = run_cli("explain", path, "--armada-decay", "document")
    assert r.exit_code == 2 and "legacy model only" in r.stderr
    r = run_cli("explain", path, "--armada-model", "newest")
    assert r.exit_code == 2 and "current, legacy" in r.stderr


def test_no_scheduler_field_means_current(tmp_path):
    text = open(shared("testdata", "armada-current", "two-equal-cpu.yaml")).read().replace("scheduler: current\n", "")
    p = tmp_path / "s.yaml"
    p.write_text(text)
    assert cli_json("explain", str(p))["scheduler"] == "current"
    # and a legacy scenario without it says how to keep the legacy model
    legacy = open(sample("armada-scenario.yaml")).read().replace("scheduler: legacy", "")
    p.write_text(legacy)
    r = run_cli("explain", str(p))
    assert r.exit_code == 2 and "scheduler: legacy" in r.stderr
    assert cli_json("explain", str(p), "--armada-model", "legacy")["model"] == "armada-legacy"


def test_bundled_current_sample():
    out = cli_json("explain", "--sample", "armada-current")
    assert out["scheduler"] == "current"
    sim = cli_json("simulate", "--sample", "armada-current")
    assert sim["leaseOrder"]


# ---- validate: the scenario's scheduler settings (PRIO411-PRIO414) --------------------------------

LINT_BASE = """model: armada
totalResources: {cpu: "100", nvidia.com/gpu: "8"}
RESOURCES
priorityClasses:
  armada-default: {priority: 1000, preemptible: false}
  armada-preemptible: {priority: 1000, preemptible: true}
queues:
  - {name: a, priorityFactor: PF}
jobs:
  - {queue: a, requests: {cpu: "1"}, priorityClass: CLASS}
"""
GOOD = {"RESOURCES": "resourcesToConsider: [cpu, nvidia.com/gpu]", "PF": "2", "CLASS": "armada-default"}


def lint_text(**changes):
    from conftest import lint

    text = LINT_BASE
    for k, v in {**GOOD, **changes}.items():
        text = text.replace(k, v)
    return [(f.rule, f.line, f.severity) for f in lint(text, "s.yaml")]


@pytest.mark.parametrize("changes, want", [
    ({"RESOURCES": "resourcesToConsiderWithMultipliers: [{name: cpu}, {name: nvidia.com/gpu, multiplier: -0.5}]"},
     ("PRIO411", 3, "error")),
    ({"RESOURCES": "resourcesToConsider: [cpu, gpu]"}, ("PRIO412", 3, "warning")),
    ({"CLASS": "armada-preemtible"}, ("PRIO413", 10, "error")),
    ({"PF": "0"}, ("PRIO414", 8, "warning")),
    ({"PF": "-1"}, ("PRIO414", 8, "warning")),
])
def test_scenario_rules_fail(changes, want):
    assert lint_text(**changes) == [want]


def test_scenario_rules_pass():
    assert lint_text() == []
    assert lint_text(RESOURCES="resourcesToConsiderWithMultipliers: [{name: cpu, multiplier: 0}, {name: nvidia.com/gpu, multiplier: 0.5}]") == []


def test_validate_cli_on_a_scenario_and_a_legacy_one_is_skipped(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(LINT_BASE.replace("RESOURCES", GOOD["RESOURCES"]).replace("PF", "0").replace("CLASS", "nosuch"))
    r = run_cli("validate", str(p), "-o", "json")
    assert r.exit_code == 1
    assert sorted(f["rule"] for f in json.loads(r.stdout)["findings"]) == ["PRIO413", "PRIO414"]
    assert run_cli("validate", sample("armada-current.yaml")).exit_code == 0
    # a legacy scenario named explicitly is not something validate checks: exit 2, one line (issue 14)
    r = run_cli("validate", "-v", sample("armada-scenario.yaml"))
    assert r.exit_code == 2 and "not something prio validates: it holds an Armada scenario" in r.stderr


def test_a_job_without_class_needs_the_default_class():
    from conftest import lint

    text = LINT_BASE.replace("RESOURCES", GOOD["RESOURCES"]).replace("PF", "1").replace(", priorityClass: CLASS", "") \
        .replace("  armada-default: {priority: 1000, preemptible: false}\n", "")
    assert [(f.rule, f.line) for f in lint(text, "s.yaml")] == [("PRIO413", 9)]


def test_rule_docs_exist():
    for rid in ("PRIO411", "PRIO412", "PRIO413", "PRIO414"):
        r = run_cli("rule", rid)
        assert r.exit_code == 0 and "Example" in r.stdout and "Fix:" in r.stdout


SHORT_OF_MEMORY = """model: armada
totalResources: {cpu: "8", memory: 16Gi}
resourcesToConsider: [cpu, memory]
queues:
  - {name: a}
  - {name: b}
running:
  - {queue: a, requests: {cpu: "1", memory: 8Gi}, priorityClass: armada-default, count: 2}
jobs:
  - {queue: b, requests: {cpu: "1", memory: 4Gi}, priorityClass: armada-default}
"""


def test_a_job_that_does_not_fit_names_the_resource_short_and_who_holds_it(tmp_path):
    """It said "does not fit in what is left of the pool" alone, and "left in the pool: cpu 6"
    without the memory at 0 that stops it."""
    p = tmp_path / "short.yaml"
    p.write_text(SHORT_OF_MEMORY)
    r = run_cli("simulate", str(p), "-o", "plain")
    assert r.exit_code == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("j0-0"))
    assert row.endswith("does not fit in what is left of the pool: needs memory 4Gi, 0 left (held by r0-0, r0-1)")
    assert "left in the pool: cpu 6, memory 0" in r.stdout
