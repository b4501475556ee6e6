"""nodes.py: YuniKorn's node rules (FitInNode, preAllocateCheck, FitInScore, the node order)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prio.yunikorn import nodes as N
from prio.yunikorn.snapshot import Node


def _cluster(policy=None, weights=None, **caps):
    return N.Cluster([Node(name, cap) for name, cap in caps.items()], policy, weights)


def test_fit_in_score_is_yunikorns_not_the_opposite():
    # FitInScore(ask, free): per type with room free, (free - ask) / free where more is free than
    # asked, 1 for a type the ask does not ask for, 0 where the ask is bigger
    assert N.fit_in_score({"vcore": 1000}, {"vcore": 4000}) == 0.75
    assert N.fit_in_score({"vcore": 1000}, {"vcore": 4000, "memory": 10}) == 1.75
    assert N.fit_in_score({"vcore": 6000}, {"vcore": 4000}) == 0.0
    assert N.fit_in_score({"vcore": 1000}, {"vcore": 0, "memory": -1}) == 0.0


def test_usage_share_weights_and_missing_free_room():
    w = N.DEFAULT_WEIGHTS
    assert N.usage_share({"vcore": 8000, "memory": 100}, {"vcore": 2000, "memory": 100}, w) == 0.375
    assert N.usage_share({"vcore": 8000, "pods": 10}, {"vcore": 8000}, w) == 0.0  # pods: no weight
    assert N.usage_share({"vcore": 8000}, {}, w) == 1.0  # nothing free (pruned): fully used
    assert N.usage_share({"pods": 10}, {"pods": 1}, w) == 0.0  # nothing weighted counts
    assert N.usage_share({"vcore": 8000, "memory": 100}, {"vcore": 8000, "memory": 0}, {"vcore": 1, "memory": 3}) == 0.75


@pytest.mark.parametrize("policy, want", [(None, ["b", "c", "a"]), ("fair", ["b", "c", "a"]), ("binpacking", ["a", "b", "c"]),
                                          ("BinPacking", ["a", "b", "c"]), ("nonsense", ["b", "c", "a"])])
def test_node_order_by_policy_then_name(policy, want):
    c = _cluster(policy, a={"vcore": 4000}, b={"vcore": 4000}, c={"vcore": 8000})
    c.change(c.by_name["a"], {"vcore": 2000})
    assert [n.name for n in c.order()] == want  # b and c unused: by name


def test_a_reserved_node_is_left_out_and_only_its_ask_may_use_it():
    c = _cluster(a={"vcore": 4000}, b={"vcore": 4000})
    a = c.by_name["a"]
    a.reserved = ("app", "big")
    assert [n.name for n in c.unreserved()] == ["b"]
    c.change(c.by_name["b"], {"vcore": 4000})  # full: last in fair order, still offered
    c.change(c.by_name["b"], {"vcore": 4000}, -1)
    assert not a.can_allocate({"vcore": 1000}, ("app", "small"))
    assert a.can_allocate({"vcore": 1000}, ("app", "big"))


def test_fit_in_node_and_pre_allocate_check():
    n = N.NodeState("n", {"vcore": 4000, "memory": 10})
    assert n.fits_node({"vcore": 4000}) and not n.fits_node({"vcore": 4001})
    assert not n.fits_node({"vcore": 1, "nvidia.com/gpu": 1})  # a type the node lacks
    n.add({"vcore": 3000})
    assert n.fits_node({"vcore": 4000}) and not n.can_allocate({"vcore": 2000}, ("a", "x"))
    assert not n.can_allocate({"vcore": 0}, ("a", "x"))  # nothing asked for: never allocated


_CHANGES = st.lists(st.tuples(st.integers(0, 11), st.sampled_from([250, 500, 1000]), st.integers(0, 2), st.sampled_from([1, 1, -1])),
                    max_size=60)


@settings(deadline=None)
@given(st.sampled_from(["fair", "binpacking"]), st.lists(st.tuples(st.sampled_from([4000, 8000]), st.sampled_from([8, 16])),
                                                       min_size=12, max_size=12), _CHANGES)
def test_the_kept_order_is_the_order_sorted_from_scratch(policy, caps, changes):
    """Cluster keeps its nodes sorted as each placement or release moves one (NodeUpdated): the
    same as sorting every node by (score, name) again."""
    c = _cluster(policy, **{f"n{i}": {"vcore": v, "memory": m} for i, (v, m) in enumerate(caps)})
    for k, vcore, mem, sign in changes:
        c.change(c.nodes[k], {"vcore": vcore, "memory": mem}, sign)
        want = sorted(c.nodes, key=lambda x: (N.score(c.policy, x.capacity, x.available, c.weights), x.name))
        assert c.order() == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 2000, 4000, 8000]), st.sampled_from([0, 4, 16]), st.integers(0, 8000),
                          st.integers(0, 16), st.booleans(), st.booleans()), min_size=1, max_size=12),
       st.sampled_from(["fair", "binpacking"]),
       st.dictionaries(st.sampled_from(["vcore", "memory", "pods"]), st.integers(1, 9000), min_size=1))
def test_first_with_room_is_find_nodes_node_with_room(specs, policy, ask):
    """The walk's shortcut (engine._try_app) for an ask of positive values: the node find_node
    places it on, or None exactly when find_node finds no node with room."""
    from prio.yunikorn.reference import find_node

    c = _cluster(policy, **{f"n{i}": {"vcore": v, "memory": m} for i, (v, m, *_) in enumerate(specs)})
    for i, (_, _, used_v, used_m, reserved, schedulable) in enumerate(specs):
        n = c.by_name[f"n{i}"]
        c.change(n, {"vcore": used_v, "memory": used_m})
        n.reserved = ("other", "ask") if reserved else None
        n.schedulable = schedulable
    node, _ = find_node(c, ("app", "ask"), ask, True)
    assert c.first_with_room(ask) is node
