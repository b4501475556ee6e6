"""Armada's legacy queue priority model: the document's worked examples, decay by both formulas,
the floor and factor, slices with and without limits, seeded rounds, bad scenarios."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from prio.armada import analysis, scheduling
from prio.armada.commands import explain_record, is_scenario, render_record, simulate_record
from prio.armada.load import build
from prio.armada.model import Job, Options, Settings
from prio.armada.priority import decay_factor, effective_priority, resources_as_usage, scarcity_from_capacity, update_priority
from prio.errors import InputError
from prio.io.yamlnodes import load

ROOT = Path(ROOT)


def run_explain(docs, fmt, width=None, **kw):
    return render_record(explain_record(docs, fmt, **kw), fmt, width)


def run_simulate(docs, fmt, width=None, **kw):
    return render_record(simulate_record(docs, fmt, **kw), fmt, width)
SAMPLE = ROOT / "samples" / "armada-scenario.yaml"
REPORTS = ROOT / "samples" / "armada-reports.yaml"
QUEUES = ROOT / "samples" / "armada-queues.yaml"
GI = 2**30


def docs(text: str, name: str = "scenario.yaml"):
    return [(name, d) for d in load(name, text)]


def file_docs(path: Path):
    return docs(path.read_text(), path.name)


def explain_json(text: str, **kw) -> dict:
    return json.loads(run_explain(docs(text), "json", **kw), parse_constant=_no_nan)


def _no_nan(c):
    raise AssertionError(f"JSON contains {c}")


def queues_by_name(out: dict) -> dict:
    return {q["queue"]: q for q in out["queues"]}


DOC_EXAMPLE = """
model: armada
scheduler: legacy
priorityHalfTime: 20m
capacity: {cpu: "10", memory: 20Gi, nvidia.com/gpu: "5"}
queues:
  - {name: a, priorityFactor: 1, priority: 1, usage: {cpu: "5", memory: 2Gi, nvidia.com/gpu: "1"}}
  - {name: b, priorityFactor: 1, priority: 2}
"""


# ---- the document's worked examples ---------------------------------------------------------------

def test_document_resource_weights():
    w = scarcity_from_capacity({"cpu": 10.0, "memory": 20.0 * GI, "nvidia.com/gpu": 5.0})
    assert w["cpu"] == 1.0
    assert w["memory"] * GI == pytest.approx(0.5)  # "memory factor 2": 0.5 per Gb
    assert w["nvidia.com/gpu"] == pytest.approx(2.0)  # "gpu factor 0.5": weight 2


def test_document_usage_is_8():
    w = scarcity_from_capacity({"cpu": 10.0, "memory": 20.0 * GI, "nvidia.com/gpu": 5.0})
    assert resources_as_usage(w, {"cpu": 5.0, "memory": 2.0 * GI, "nvidia.com/gpu": 1.0}) == pytest.approx(8.0)


def test_document_shares_two_thirds_one_third():
    out = explain_json(DOC_EXAMPLE)
    assert out["model"] == "armada-legacy"
    assert out["queues"] == [
        {"queue": "a", "usage": 8.0, "priority": 1.0, "effectivePriority": 1.0, "share": 0.6667},
        {"queue": "b", "usage": 0.0, "priority": 2.0, "effectivePriority": 2.0, "share": 0.3333},
    ]


def test_sample_scenario_explain_numbers():
    out = json.loads(run_explain(file_docs(SAMPLE), "json"), parse_constant=_no_nan)
    q = queues_by_name(out)
    assert [x["queue"] for x in out["queues"]] == ["analytics", "research", "batch"]
    assert q["analytics"]["usage"] == 8.0
    assert (q["analytics"]["share"], q["research"]["share"], q["batch"]["share"]) == (0.6667, 0.3333, 0.0)
    assert q["batch"]["priority"] is None and q["batch"]["effectivePriority"] == 0.5
    # offer cpu 6 + 8Gi (4) + 1 GPU (2) = 12; all = 20; fair totals 13.33 and 6.67; weights 5.33 and 6.67
    a_frac, b_frac = (20 * 2 / 3 - 8) / 12, (20 / 3) / 12
    assert q["analytics"]["slice"] == {"cpu": pytest.approx(6 * a_frac, abs=1e-6),
                                       "memory": pytest.approx(8 * GI * a_frac, abs=1e-6),
                                       "nvidia.com/gpu": pytest.approx(a_frac, abs=1e-6)}
    assert q["research"]["slice"]["cpu"] == pytest.approx(6 * b_frac, abs=1e-6)
    assert q["analytics"]["slice"]["cpu"] == 2.666667  # rounded to 6 places
    assert q["batch"]["slice"] == {"cpu": 0.0, "memory": 0.0, "nvidia.com/gpu": 0.0}
    assert set(q["analytics"]) == {"queue", "usage", "priority", "effectivePriority", "share", "slice"}


# ---- decay by both formulas -------------------------------------------------------------------------

@pytest.mark.parametrize("dt, code, document", [
    (60.0, 50.0, 50.0),  # one half-time: the two formulas agree
    (120.0, 75.0, 25.0),  # two half-times
    (30.0, 100 * (1 - math.sqrt(0.5)), 100 * math.sqrt(0.5)),  # half a half-time: 29.29 vs 70.71
])
def test_decay_from_zero(dt, code, document):
    assert update_priority(None, 100.0, dt, 60.0, "code") == pytest.approx(code)
    assert update_priority(None, 100.0, dt, 60.0, "document") == pytest.approx(document)
    assert update_priority(0.0, 100.0, dt, 60.0, "code") == pytest.approx(code)


def test_decay_half_time_values():
    assert round(update_priority(None, 100.0, 30.0, 60.0, "code"), 2) == 29.29
    assert round(update_priority(None, 100.0, 30.0, 60.0, "document"), 2) == 70.71
    # an idle queue decays towards 0 geometrically: one half-time halves it, two quarter it
    assert update_priority(80.0, 0.0, 60.0, 60.0) == pytest.approx(40.0)
    assert update_priority(80.0, 0.0, 120.0, 60.0) == pytest.approx(20.0)
    assert decay_factor(0.0, 60.0) == 1.0  # dt = 0: unchanged


def test_decay_rejects_bad_steps():
    with pytest.raises(ValueError):
        decay_factor(10.0, 0.0)
    with pytest.raises(ValueError):
        decay_factor(-1.0, 60.0)


DECAY_SCENARIO = """
model: armada
scheduler: legacy
priorityHalfTime: 60s
resourceScarcity: {cpu: 1}
queues: [{name: a}, {name: idle, priority: 80}]
cluster: c
usage:
  - {time: 0s, cluster: c, queues: {a: {cpu: "100"}}}
  - {time: 2m, cluster: c, queues: {a: {cpu: "100"}}}
"""


def test_decay_through_reports_both_formulas():
    # the first report of a cluster counts as one minute (= the half-time here): 50 either way
    code = queues_by_name(explain_json(DECAY_SCENARIO))
    doc = queues_by_name(explain_json(DECAY_SCENARIO, decay="document"))
    assert code["a"]["priority"] == pytest.approx(0.25 * 50 + 0.75 * 100)  # 87.5
    assert doc["a"]["priority"] == pytest.approx(0.75 * 50 + 0.25 * 100)  # 62.5
    # "idle" is absent from both reports: 80 -> 40 (1 minute) -> 10 (2 minutes)
    assert code["idle"]["priority"] == pytest.approx(10.0)
    assert doc["idle"]["priority"] == pytest.approx(80 * 0.5 * 0.75)


def test_reports_listed_with_decay_factor():
    out = explain_json(DECAY_SCENARIO)
    assert [(r["time"], r["dt"], r["factor"]) for r in out["reports"]] == [("0s", "1m", 0.5), ("2m", "2m", 0.25)]


# ---- floor and factor -------------------------------------------------------------------------------

def test_effective_priority_floor_and_factor():
    assert effective_priority(None, 3.0) == 0.5  # no history: 0.5, the factor is not applied
    assert effective_priority(0.0, 3.0) == 1.5  # stored 0: floor first, then the factor
    assert effective_priority(0.2, 1.0) == 0.5
    assert effective_priority(2.0, 3.0) == 6.0
    assert effective_priority(0.5, 2.0) == 1.0


def test_floor_and_factor_through_explain():
    out = queues_by_name(explain_json("""
model: armada
scheduler: legacy
priorityHalfTime: 20m
resourceScarcity: {cpu: 1}
queues:
  - {name: fresh, priorityFactor: 3}
  - {name: zero, priorityFactor: 3, priority: 0}
  - {name: low, priorityFactor: 1, priority: 0.2}
  - {name: busy, priorityFactor: 3, priority: 2}
"""))
    assert [out[n]["effectivePriority"] for n in ("fresh", "zero", "low", "busy")] == [0.5, 1.5, 0.5, 6.0]
    assert out["fresh"]["priority"] is None and out["zero"]["priority"] == 0.0
    inv = [2.0, 1 / 1.5, 2.0, 1 / 6]
    assert out["fresh"]["share"] == round(2.0 / sum(inv), 4)


# ---- weighting ----------------------------------------------------------------------------------------

def test_unknown_resources_weigh_zero_now_and_one_in_legacy_mode():
    text = """
model: armada
scheduler: legacy
priorityHalfTime: 20m
resourceScarcity: {cpu: 1}
queues: [{name: a, usage: {cpu: "2", nvidia.com/gpu: "3"}}]
"""
    assert explain_json(text)["queues"][0]["usage"] == 2.0
    assert explain_json(text, weighting="legacy")["queues"][0]["usage"] == 5.0


def test_near_zero_capacity_gets_no_weight():
    w = scarcity_from_capacity({"cpu": 4.0, "nvidia.com/gpu": 0.0, "memory": 8.0})
    assert w == {"cpu": 1.0, "memory": 0.5}


# ---- slices -------------------------------------------------------------------------------------------

def test_slice_resource_without_limits():
    r = scheduling.slice_resource({"cpu": 1.0}, {"a": (1.0, {"cpu": 8.0}), "b": (2.0, {})}, {"cpu": 4.0})
    # all = 4 + 8 = 12; fair totals 8 and 4; a is at its fair total: b takes the whole offer
    assert r.slices == {"a": {"cpu": 0.0}, "b": {"cpu": 4.0}}
    assert not r.degenerate


def test_slice_resource_never_below_zero():
    r = scheduling.slice_resource({"cpu": 1.0}, {"a": (1.0, {"cpu": 20.0}), "b": (1.0, {})}, {"cpu": 4.0})
    assert r.fair["a"][2] == 0.0  # fair total 12 minus usage 20 clamps at 0
    assert r.slices["b"] == {"cpu": 4.0}


def test_slice_resource_zero_sum_is_flagged_not_nan():
    r = scheduling.slice_resource({"cpu": 1.0}, {"a": (0.5, {}), "b": (0.5, {})}, {"nvidia.com/gpu": 2.0})
    assert r.degenerate
    assert r.slices == {"a": {"nvidia.com/gpu": 0.0}, "b": {"nvidia.com/gpu": 0.0}}


LIMITS = """
model: armada
scheduler: legacy
priorityHalfTime: 20m
capacity: {cpu: "10"}
queues:
  - {name: a, usage: {cpu: "1"}, resourceLimits: {cpu: 0.2}}
  - {name: b}
offer: {cpu: "4"}
"""


def test_slices_with_limits_are_capped():
    sc = build(docs(LIMITS))
    snap = analysis.explain(sc).snapshot
    a, b = snap.queues
    assert a.slice == pytest.approx({"cpu": 1.5}) and b.slice == pytest.approx({"cpu": 2.5})
    assert a.limited == pytest.approx({"cpu": 1.0})  # 0.2 x 10 - 1 already used
    assert b.limited == pytest.approx({"cpu": 2.5})
    assert "capped" in run_explain(docs(LIMITS), "plain")


def test_slices_without_limits_show_no_capped_column():
    text = LIMITS.replace(", resourceLimits: {cpu: 0.2}", "")
    snap = analysis.explain(build(docs(text))).snapshot
    assert snap.queues[0].limited == pytest.approx(snap.queues[0].slice)
    assert "capped" not in run_explain(docs(text), "plain")


def test_queue_at_its_limit_takes_no_part_in_the_slicing():
    text = LIMITS.replace('usage: {cpu: "1"}', 'usage: {cpu: "2"}')
    out = queues_by_name(explain_json(text))
    assert out["a"]["slice"] == {"cpu": 0.0}
    assert out["b"]["slice"] == {"cpu": 4.0}  # only b is sliced: all = 4, fair 4


def test_queue_resource_limits_lift_unnamed_resources_to_full_capacity():
    s = Settings(60.0, capacity={"cpu": 10.0, "memory": 100.0}, max_fraction_per_queue={"memory": 0.5})
    from prio.armada.model import Queue
    assert scheduling.queue_limit(Queue("a"), s.capacity, s, {}) == {"cpu": 10.0, "memory": 50.0}
    assert scheduling.queue_limit(Queue("a", limits={"cpu": 0.2}), s.capacity, s, {}) == {"cpu": 2.0, "memory": 100.0}


def test_max_cluster_fraction_caps_the_offer():
    text = LIMITS + "maximalClusterFractionToSchedule: {cpu: 0.25}\n"
    snap = analysis.explain(build(docs(text))).snapshot
    assert snap.offer == {"cpu": 2.5}


def test_degenerate_offer_gives_a_note_and_zero_slices():
    out = explain_json("""
model: armada
scheduler: legacy
priorityHalfTime: 20m
resourceScarcity: {cpu: 1}
queues: [{name: a}, {name: b}]
offer: {nvidia.com/gpu: "2"}
""")
    assert all(q["slice"] == {"nvidia.com/gpu": 0.0} for q in out["queues"])
    assert "divided 0 by 0" in out["notes"][0]


def test_update_limits_follows_armada():
    info = scheduling.SchedulingInfo({"cpu": 3.0}, {"cpu": 4.0}, {"cpu": 2.0})
    info.update_limits({"cpu": 1.0})
    assert info.scheduling_share == {"cpu": 2.0}  # 4 - 1 x (4/2)
    assert info.adjusted_share == {"cpu": 1.0}
    assert info.remaining_limit == {"cpu": 2.0}
    info.update_limits({"cpu": 5.0})
    assert info.scheduling_share == {"cpu": 0.0} and info.adjusted_share == {"cpu": 0.0}


# ---- leasing ------------------------------------------------------------------------------------------

def _job(i: str, cpu: float, queue: str = "a", **kw) -> Job:
    return Job(i, queue, {"cpu": cpu}, order=int(i[1:]), **kw)


def test_lease_skips_jobs_that_do_not_fit_and_tries_later_ones():
    pending = [_job("j1", 1.0), _job("j2", 5.0), _job("j3", 1.0)]
    leased, left = scheduling.lease_from_queue(pending, {"cpu": 2.5}, None, 200)
    assert [j.id for j in leased] == ["j1", "j3"]
    assert left == pytest.approx({"cpu": 0.5})
    assert [j.id for j in pending] == ["j2"]


def test_lease_batch_that_does_not_lease_fully_ends_the_walk():
    pending = [_job("j1", 5.0), _job("j2", 1.0), _job("j3", 1.0)]
    leased, _ = scheduling.lease_from_queue(pending, {"cpu": 2.0}, None, 2)
    assert [j.id for j in leased] == ["j2"]


def test_job_asking_for_a_resource_the_slice_lacks_never_fits():
    pending = [Job("g", "a", {"cpu": 1.0, "nvidia.com/gpu": 1.0})]
    leased, _ = scheduling.lease_from_queue(pending, {"cpu": 4.0}, None, 200)
    assert leased == []


def test_lease_order_job_priority_then_submission():
    jobs = [_job("j1", 1, priority=5), _job("j2", 1, priority=1), _job("j3", 1, priority=5)]
    assert [j.id for j in scheduling.lease_order(jobs)["a"]] == ["j2", "j1", "j3"]


PROBABILISTIC = """
model: armada
scheduler: legacy
priorityHalfTime: 20m
resourceScarcity: {cpu: 1}
useProbabilisticSchedulingForAllResources: true
queues: [{name: a}, {name: b}]
offer: {cpu: "1"}
jobs:
  - {queue: a, requests: {cpu: "1"}}
  - {queue: b, requests: {cpu: "1"}}
"""


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2024])
def test_probabilistic_pick_follows_the_seeded_draw(seed):
    out = json.loads(run_simulate(docs(PROBABILISTIC), "json", seed=seed))
    leases = out["rounds"][0]["leases"]
    assert len(leases) == 1 and leases[0]["stage"] == "probabilistic"
    # both queues have no history (0.5) and no usage: slices 0.5 and 0.5 of the cpu offered;
    # pickQueueRandomly: a wins when its cumulative share 0.5 reaches the draw x 1.0
    expected = "a" if random.Random(seed).random() <= 0.5 else "b"
    assert leases[0]["queue"] == expected
    assert out["seed"] == seed


def test_same_seed_same_output_and_scenario_seed_is_used():
    first = run_simulate(file_docs(SAMPLE), "json")
    assert first == run_simulate(file_docs(SAMPLE), "json")
    assert first == run_simulate(file_docs(SAMPLE), "json", seed=7)  # the sample says seed: 7
    assert run_simulate(file_docs(SAMPLE), "table") == run_simulate(file_docs(SAMPLE), "table")


def test_probabilistic_only_skips_the_slice_round():
    text = SAMPLE.read_text() + "useProbabilisticSchedulingForAllResources: true\n"
    out = json.loads(run_simulate(docs(text), "json", rounds=1))
    stages = {ls["stage"] for ls in out["rounds"][0]["leases"]}
    assert stages == {"probabilistic"}


def test_minimum_resource_stops_the_probabilistic_round():
    text = PROBABILISTIC + "minimumResourceToSchedule: {cpu: \"2\"}\n"
    out = json.loads(run_simulate(docs(text), "json"))
    assert out["rounds"][0]["leases"] == []
    assert "minimumResourceToSchedule" in out["rounds"][0]["notes"][-1]


def test_sample_simulation_rounds():
    out = json.loads(run_simulate(file_docs(SAMPLE), "json"), parse_constant=_no_nan)
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3]
    assert [r["time"] for r in out["rounds"]] == ["0s", "10m", "20m"]
    r1 = out["rounds"][0]
    assert [(ls["job"], ls["stage"]) for ls in r1["leases"][:4]] == [
        ("analytics-1", "slice"), ("analytics-2", "slice"), ("research-1", "slice"), ("research-2", "slice")]
    # round 2: the home cluster reports 10 minutes later with the leased jobs counted as usage
    r2 = queues_by_name(out["rounds"][1])
    leased_a = sum(1 for ls in r1["leases"] if ls["queue"] == "analytics")
    usage_a = 8 + leased_a * 1.5  # each analytics job: 1 cpu + 1Gi (0.5)
    f = 0.5 ** 0.5
    assert r2["analytics"]["usage"] == pytest.approx(usage_a)
    assert r2["analytics"]["priority"] == pytest.approx(f * 1 + (1 - f) * usage_a, abs=1e-6)
    assert out["rounds"][1]["reports"][0]["dt"] == "10m"
    # research's first jobs run 15 minutes: gone before round 3
    assert out["rounds"][2]["finished"] == ["research-1", "research-2"]
    total_leased = sum(len(r["leases"]) for r in out["rounds"])
    assert total_leased + sum(out["pending"].values()) == 12


def test_rounds_and_seed_arguments_override_the_scenario():
    out = json.loads(run_simulate(file_docs(SAMPLE), "json", rounds=1, seed=3))
    assert len(out["rounds"]) == 1 and out["seed"] == 3


# ---- reports, clusters and manifests ---------------------------------------------------------------

def test_inactive_cluster_does_not_count():
    out = json.loads(run_explain(file_docs(REPORTS), "json"))
    q = queues_by_name(out)
    assert q["adhoc"]["priority"] is None and q["adhoc"]["effectivePriority"] == 0.5
    assert any("west" in n for n in out["notes"])
    f1 = 0.5 ** (60 / 600)  # east's first report: one minute of a 10-minute half-time
    training = (1 - f1) * 32  # 16 cpu + 4 GPUs x 4
    training = 0.5 * training + 0.5 * 32
    training = 0.5 * training + 0.5 * 16
    assert q["training"]["priority"] == pytest.approx(training, abs=1e-6)


def test_queue_manifests_form_the_queue_list():
    scenario = """
model: armada
scheduler: legacy
priorityHalfTime: 20m
capacity: {cpu: "10"}
queues:
  - {name: research, priority: 2}
"""
    sc = build(docs(scenario) + file_docs(QUEUES))
    assert [(q.name, q.factor) for q in sc.queues] == [("analytics", 1.0), ("research", 1.0), ("batch", 3.0)]
    assert sc.queue("research").priority == 2.0
    assert sc.queue("batch").limits == {"cpu": 0.5}  # the legacy model still applied resourceLimits


def test_manifest_and_scenario_factor_conflict():
    scenario = "model: armada\nscheduler: legacy\npriorityHalfTime: 20m\ncapacity: {cpu: 1}\nqueues: [{name: batch, priorityFactor: 2}]\n"
    with pytest.raises(InputError, match="priorityFactor 3"):
        build(docs(scenario) + file_docs(QUEUES))


def test_manifest_with_factor_below_one_is_refused():
    manifest = "apiVersion: armadaproject.io/v1beta1\nkind: Queue\nname: x\npriorityFactor: 0.5\n"
    scenario = "model: armada\nscheduler: legacy\npriorityHalfTime: 20m\ncapacity: {cpu: 1}\n"
    with pytest.raises(InputError) as e:
        build(docs(scenario) + docs(manifest, "q.yaml"))
    assert e.value.file == "q.yaml" and e.value.line == 4


def test_report_naming_unknown_queue_is_dropped_with_a_note():
    text = DECAY_SCENARIO.replace("{a: {cpu: \"100\"}}}\n  - {time: 2m", "{a: {cpu: \"100\"}, ghost: {cpu: \"1\"}}}\n  - {time: 2m")
    out = explain_json(text)
    assert any("ghost" in n for n in out["notes"])


def test_report_queue_list_form_is_summed():
    text = """
model: armada
scheduler: legacy
priorityHalfTime: 1m
resourceScarcity: {cpu: 1}
queues: [{name: a}]
usage:
  - time: 0s
    queues: [{name: a, resources: {cpu: "1"}}, {name: a, resources: {cpu: "3"}}]
"""
    assert explain_json(text)["queues"][0]["usage"] == 4.0


def test_timestamps_are_accepted():
    text = DECAY_SCENARIO.replace("time: 0s", "time: \"2022-05-01T10:00:00Z\"").replace(
        "time: 2m", "time: \"2022-05-01T10:02:00Z\"")
    assert queues_by_name(explain_json(text))["a"]["priority"] == pytest.approx(87.5)


# ---- bad scenarios ----------------------------------------------------------------------------------

BASE = "model: armada\nscheduler: legacy\npriorityHalfTime: 20m\ncapacity: {cpu: \"10\"}\nqueues: [{name: a}]\n"


@pytest.mark.parametrize("text, line, fragment", [
    (BASE.replace("20m", "0s"), 3, "positive duration"),
    (BASE.replace("20m", "-5m"), 3, "positive duration"),
    (BASE.replace("20m", "20"), 3, "Go duration"),
    (BASE.replace("priorityHalfTime: 20m\n", ""), 1, "missing priorityHalfTime"),
    (BASE.replace("{name: a}", "{name: a, priorityFactor: 0.5}"), 5, "below 1.0"),
    (BASE.replace('{cpu: "10"}', "{memory: 10Gi}"), 4, "no cpu capacity"),
    (BASE.replace('{cpu: "10"}', '{cpu: "10", memory: 20GB}'), 4, "invalid quantity"),
    (BASE + "usage:\n  - {time: 10m, queues: {a: {cpu: 1}}}\n  - {time: 5m, queues: {a: {cpu: 1}}}\n", 8,
     "time order"),
    (BASE + "resourceScarcity: {cpu: 0}\n", 6, "every weight is 0"),
    (BASE + "ofer: {cpu: 1}\n", 6, "did you mean 'offer'"),
    (BASE + "jobs: [{queue: b, requests: {cpu: 1}}]\n", 6, "unknown queue"),
    (BASE.replace("{name: a}", "{name: a, priority: .nan}"), 5, "finite"),
    (BASE + "offer: {cpu: 1}\noffer: {cpu: 2}\n", 7, "already defined"),
])
def test_bad_scenarios_are_input_errors(text, line, fragment):
    with pytest.raises(InputError) as e:
        run_explain(docs(text), "json")
    assert fragment in e.value.message
    assert e.value.line == line
    assert e.value.file == "scenario.yaml"


def test_simulate_needs_an_offer():
    with pytest.raises(InputError, match="needs an offer"):
        run_simulate(docs(BASE), "json")


def test_bad_options_are_input_errors():
    with pytest.raises(InputError):
        run_explain(docs(BASE), "yaml")
    with pytest.raises(InputError):
        run_explain(docs(BASE), "json", decay="doc")
    with pytest.raises(InputError):
        run_explain(docs(BASE), "json", weighting="old")
    with pytest.raises(InputError):
        run_simulate(docs(BASE + "offer: {cpu: 1}\n"), "json", rounds=0)


def test_two_scenarios_or_foreign_documents_are_refused():
    with pytest.raises(InputError, match="second Armada scenario"):
        build(docs(BASE) + docs(BASE, "other.yaml"))
    with pytest.raises(InputError, match="not an Armada scenario"):
        build(docs(BASE) + docs("foo: 1\n", "other.yaml"))


def test_options_validate():
    with pytest.raises(ValueError):
        Options(decay="backwards")


# ---- detection and rendering ---------------------------------------------------------------------

def test_is_scenario():
    assert is_scenario({"model": "armada"})
    assert not is_scenario({"model": "yunikorn"})
    assert not is_scenario([{"model": "armada"}])
    assert not is_scenario(None)


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown"])
def test_text_formats_carry_the_model_label(fmt):
    for run in (run_explain, run_simulate):
        text = run(file_docs(SAMPLE), fmt)
        assert "Armada (legacy, up to 2022)" in text
        assert "nan" not in text.lower().replace("analytics", "")


def test_table_width_is_respected():
    text = run_explain(file_docs(SAMPLE), "table", width=80)
    assert max(len(line) for line in text.splitlines()) <= 80


def test_markdown_is_a_table():
    text = run_explain(docs(DOC_EXAMPLE), "markdown")
    assert "| queue" in text and "| a " in text


# ---- properties ---------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@pytest.mark.slow
@given(st.floats(0, 1e6), st.floats(0, 1e6), st.floats(0, 1e5), st.floats(1, 1e5))
def test_code_decay_stays_between_old_and_usage(old, usage, dt, half):
    new = update_priority(old, usage, dt, half)
    assert min(old, usage) - 1e-6 <= new <= max(old, usage) + 1e-6
    one = update_priority(old, usage, half, half)
    assert one == pytest.approx((old + usage) / 2)


@settings(max_examples=200, deadline=None)
@pytest.mark.slow
@given(st.dictionaries(st.sampled_from("abcdef"), st.tuples(st.floats(0.5, 100), st.floats(0, 50)), min_size=1),
       st.floats(0.01, 100))
def test_slices_add_up_to_the_offer(queues, cpu):
    qs = {k: (p, {"cpu": u}) for k, (p, u) in queues.items()}
    r = scheduling.slice_resource({"cpu": 1.0}, qs, {"cpu": cpu})
    assert not r.degenerate
    assert sum(s["cpu"] for s in r.slices.values()) == pytest.approx(cpu)
    assert all(s["cpu"] >= 0 for s in r.slices.values())
