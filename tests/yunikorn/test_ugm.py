"""ugm.py: user and group limits as YuniKorn's user/group manager applies them."""
from prio.yunikorn import ugm
from prio.yunikorn.ugm import Limit, Limits, Usage


def _limits():
    lim = Limits()
    lim.add("root", None, ["ops"], Limit({"vcore": 10000}, 0))
    lim.add("root.a", ["*"], None, Limit({"vcore": 4000}, 2))
    lim.add("root.a", ["alice"], None, Limit({"vcore": 6000}, 0))
    lim.add("root.a", None, ["dev", "*"], Limit({"vcore": 5000}, 1))
    return lim


def test_named_user_before_wildcard_and_wildcard_per_user():
    u = Usage(_limits())
    u.add("x", "root.a", "bob", ("bob",), {"vcore": 3000})
    assert u.short_of("y", "root.a", "bob", ("bob",), {"vcore": 2000})[:3] == ("user", "bob", "root.a")
    assert u.short_of("z", "root.a", "carol", ("carol",), {"vcore": 2000}) is None  # carol has her own 4
    assert u.short_of("w", "root.a", "alice", ("dev",), {"vcore": 5000}) is None  # exactly the group's 5
    assert u.short_of("w", "root.a", "alice", ("dev",), {"vcore": 5500}) == ("group", "dev", "root.a", "vcore", 5000, 5000)
    assert u.short_of("w", "root.a", "alice", ("dev",), {"vcore": 7000})[:2] == ("user", "alice")  # the named 6


def test_group_resolution_leaf_up_first_configured_then_wildcard():
    lim = _limits()
    assert lim.resolve_group("root.a", ("ops", "dev")) == "dev"  # the leaf first: dev is named there
    assert lim.resolve_group("root.a", ("ops",)) == "*"  # wildcard at the leaf before ops at root
    assert lim.resolve_group("root.b", ("ops",)) == "ops"
    assert lim.resolve_group("root.b", ("qa",)) is None
    assert lim.resolve_group("root.a", ()) is None


def test_wildcard_group_usage_is_shared_and_maxapplications_counts_running_apps():
    u = Usage(_limits())
    u.add("x", "root.a", "bob", ("qa",), {"vcore": 1000})  # tracked under '*'
    assert u.cannot_run("y", "root.a", "carol", ("qa2",)) == ("group", "*", "root.a", 1, 1)
    assert u.cannot_run("x", "root.a", "bob", ("qa",)) is None  # runs already
    u2 = Usage(_limits())
    u2.add("x", "root.a", "bob", ("bob",), {"vcore": 1})
    u2.add("y", "root.a", "bob", ("bob",), {"vcore": 1})
    assert u2.cannot_run("z", "root.a", "bob", ("bob",))[:2] == ("user", "bob")


def test_zero_maxresources_limit_nothing_and_user_without_groups_is_its_own_group():
    lim = Limits()
    lim.add("root", ["*"], None, Limit({"vcore": 0}, 0))
    assert Usage(lim).short_of("x", "root.a", "bob", ("bob",), {"vcore": 10**9}) is None
    assert ugm.user_groups("bob", ()) == ("bob",) and ugm.user_groups("bob", ["x", "y"]) == ("x", "y")
