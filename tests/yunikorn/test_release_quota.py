"""v1.8.0's quota preemptor, modelled behind --yunikorn-version 1.8 (prio.yunikorn.releases:
quota_in_own_loop, quota_guarantee_capped, quota_sort_by_ask; preemption/quota.py). Not recorded:
each scenario is built from yunikorn-core's code at v1.8.0 and v1.9.0 (quota_preemptor.go,
queue.go, preemption_utilities.go), where the two differ; the newest's answer is the recorded
corpus' (tests/yunikorn/test_quota_preemption.py). Before 1.8 there is no quota preemption."""
import json

from conftest import run_cli
from prio.yunikorn import releases
from prio.yunikorn.preemption import quota

# Both delay keys: 1.8.0 reads preemption.quota.delay, 1.9 quota.preemption.delay (each drops the other's).
DELAYS = "{preemption.quota.delay: 1m, quota.preemption.delay: 1m}"
CONFIG = """partitions:
  - name: default
    preemption: {quotapreemptionenabled: true}
    queues:
      - name: root
        submitacl: '*'
        queues:
          - name: p
            resources: {guaranteed: {vcore: 6}}
            queues:
              - name: a
                resources: {max: {vcore: 4}}
                properties: DELAYS
""".replace("DELAYS", DELAYS)


def _alloc(name, extra="", minute=0):
    return (f"      - {{id: {name}, priority: 0, resources: {{vcore: 2}}, node: node-1, "
            f"createTime: '2024-05-01T10:0{minute}:00Z'{extra}}}\n")


# root.p.a (max 4) runs 8 vcore: an opted-out pod, two regular ones, a driver; root.p is
# guaranteed 6. 1.9: the amount is capped by the usage above root.p's guarantee (2: YUNIKORN-3240)
# and the opted-out pod sorts first (SortAllocationsBasedOnAsk, YUNIKORN-3233): one victim, a-opt.
# 1.8.0: the amount is the whole overshoot (4), regular pods sort first (SortAllocations), newer
# first, and victims are taken while those before them total less than 4: a-reg2, a-reg1.
SNAPSHOT = ("nodes: [{name: node-1, capacity: {vcore: 16}}]\napplications:\n  - id: app\n    queue: root.p.a\n    allocations:\n"
            + _alloc("a-opt", ", allowPreemption: false", 0) + _alloc("a-reg1", "", 1) + _alloc("a-reg2", "", 2)
            + _alloc("a-drv", ", originator: true", 3)
            + "    asks: [{id: more, priority: 0, resources: {vcore: 1}}]\n")


def _files(tmp_path, config, snapshot):
    (tmp_path / "q.yaml").write_text(config, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(snapshot, encoding="utf-8")
    return str(tmp_path / "q.yaml"), str(tmp_path / "s.yaml")


def _quota(files, version):
    r = run_cli("preempt", *files, "-o", "json", "--yunikorn-version", version)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)["quota"]


def test_1_8_frees_the_whole_overshoot_and_sorts_regular_pods_first(tmp_path):
    files = _files(tmp_path, CONFIG, SNAPSHOT)
    new, old = _quota(files, "1.9"), _quota(files, "1.8")
    assert new["preempted"] == {"root.p.a": ["a-opt"]} and new["leaves"][0]["amount"] == {"vcore": 2000}
    assert old["preempted"] == {"root.p.a": ["a-reg2", "a-reg1"]} and old["leaves"][0]["amount"] == {"vcore": 4000}
    assert [c["allocation"] for c in old["leaves"][0]["candidates"]] == ["a-reg2", "a-reg1", "a-opt", "a-drv"]
    assert [c["allocation"] for c in new["leaves"][0]["candidates"]][:2] == ["a-opt", "a-drv"]
    for v in ("1.5", "1.6", "1.7"):  # no quota preemption (the config's partition key refuses it there, too)
        assert _quota(files, v)["preempted"] == {}, v
    plain = run_cli("preempt", *files, "--yunikorn-version", "1.8").stdout
    assert "YuniKorn 1.8.0's: regular pods first" in plain


def test_1_8_runs_quota_preemption_only_where_the_cycle_has_pending_requests(tmp_path):
    files = _files(tmp_path, CONFIG, SNAPSHOT.split("    asks:")[0])  # nothing pending
    assert _quota(files, "1.9")["preempted"] == {"root.p.a": ["a-opt"]}
    old = _quota(files, "1.8")
    assert old["armed"] == ["root.p.a"] and old["preempted"] == {}
    assert "no pending request below it: YuniKorn 1.8 runs quota preemption from the scheduling cycle" in old["aboveMax"][0]["why"]


def _run(alloc, app, leaf, n):
    from prio.yunikorn.preemption.world import Run
    from prio.yunikorn.snapshot import Allocation

    return Run(Allocation(alloc, 0, {"vcore": n}, "node-1", (n, 0)), app, leaf, 0)


def _tree(max_parent):
    from prio.yunikorn.tree import QNode

    root = QNode("root", None)
    p = QNode("p", root)
    p.max = {"vcore": max_parent}
    p.props = {releases.NEWEST.quota_delay: "1m"}
    p.own = dict(p.props)
    a, b = QNode("a", p), QNode("b", p)
    for parent, kids in ((root, [p]), (p, [a, b])):
        parent.leaf = False
        parent.children = kids
        parent.by_name = {k.name: k for k in kids}
    return root, p, a, b


def test_1_8_splits_rounding_half_to_even_and_a_parent_runs_again_while_over_its_max():
    """root.p (max 3) runs 6: a has 3 (newest) and 1 and 1, b has 1. The amount, 3, splits 2.5 and
    0.5: 1.9 rounds down (2, 0), 1.8.0 half to even (2, 0, as math.RoundToEven). Both take a's
    two small ones (the 3 is alone over the amount); root.p is then at 4, over its max: 1.9 is done
    for this change, 1.8.0 runs the parent again in the next cycle (its start time is never
    cleared), which takes nothing (the 3 is still alone over the amount of 1)."""
    root, p, a, b = _tree(3)
    runs = [_run("a-big", "x", a, 3), _run("a-1", "x", a, 1), _run("a-2", "x", a, 1), _run("b-1", "y", b, 1)]
    new = quota.analyse(root, runs, True, release=releases.NEWEST)
    old = quota.analyse(root, runs, True, release=releases.RELEASES["1.8"], pending={"root", "root.p", "root.p.a"})
    assert [(r.leaf, r.amount) for r in new.runs] == [("root.p.a", {"vcore": 2}), ("root.p.b", {"vcore": 0})]
    assert [(r.leaf, r.amount, r.cycle) for r in old.runs] == [("root.p.a", {"vcore": 2}, 0), ("root.p.b", {"vcore": 0}, 0),
                                                               ("root.p.a", {"vcore": 1}, 1), ("root.p.b", {"vcore": 0}, 1)]
    assert not any(r.victims for r in old.runs if r.cycle == 1)
    assert sorted(new.preempted["root.p.a"]) == sorted(old.preempted["root.p.a"]) == ["a-1", "a-2"]
    assert "ran again in each scheduling cycle" in old.above[0].why and "does not run again" in new.above[0].why
    assert "capped by the usage above a guarantee" not in old.above[0].why  # (1.8.0 caps nothing)


def test_round_half_to_even_is_go_s_math_round_to_even():
    root, p, a, b = _tree(1)
    usage = {"root": {"vcore": 4}, "root.p": {"vcore": 4}, "root.p.a": {"vcore": 2}, "root.p.b": {"vcore": 2}}
    for amount, want_new, want_old in ((5, [2, 2], [2, 2]), (3, [1, 1], [2, 2]), (1, [0, 0], [0, 0])):  # 2.5, 1.5, 0.5 each
        parts_new: list = []
        parts_old: list = []
        quota.get_child_queues_preemptable_resource(p, {"vcore": amount}, usage, parts_new)
        quota.get_child_queues_preemptable_resource(p, {"vcore": amount}, usage, parts_old, releases.RELEASES["1.8"])
        assert [x[1]["vcore"] for x in parts_new] == want_new and [x[1]["vcore"] for x in parts_old] == want_old, amount
