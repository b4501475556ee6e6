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


# ---- a live YuniKorn's tracked usage (ugm.Served) -------------------------------------------------

def _served():
    return ugm.Served(users={"bob": {"root": ({"vcore": 3000}, {"x", "other"}), "root.a": ({"vcore": 3000}, {"x", "other"})}},
                      groups={"ops": {"root": ({"vcore": 9000}, {"other"})}},
                      app_groups={"x": "ops"})


def test_served_usage_is_the_larger_of_the_two_never_the_sum():
    """What the applications hold is part of what YuniKorn tracks: x runs 1 core here, YuniKorn
    tracks 3 for bob (x and another partition's application): 3, not 4; running: both."""
    u = Usage(_limits(), _served())
    u.add("x", "root.a", "bob", ("bob",), {"vcore": 1000})
    u.include(_served())
    assert u.users["bob"].usage["root.a"] == {"vcore": 3000}
    assert u.users["bob"].running["root.a"] == {"x", "other"}
    # bob's wildcard 4 cores on root.a: 1 left; one more running app reaches maxapplications 2
    assert u.short_of("y", "root.a", "bob", ("bob",), {"vcore": 2000})[:3] == ("user", "bob", "root.a")
    assert u.cannot_run("y", "root.a", "bob", ("bob",)) == ("user", "bob", "root.a", 2, 2)
    # usage beyond YuniKorn's (a step of the run) stays as it is
    u.add("x", "root.a", "bob", ("bob",), {"vcore": 500})
    u.include(_served())
    assert u.users["bob"].usage["root.a"] == {"vcore": 3500}


def test_the_group_yunikorn_tracks_an_application_under_wins():
    """YuniKorn chose x's group when it was first tracked (under the config of that time): ops,
    though bob's groups would resolve to '*' on root.a now."""
    served = _served()
    served.groups["ops"]["root"] = ({"vcore": 9500}, {"other"})
    u = Usage(_limits(), served)
    assert u.group_of("x", "root.a", ("bob",)) == "ops"
    assert u.group_of("y", "root.a", ("bob",)) == "*"
    u.add("x", "root.a", "bob", ("bob",), {"vcore": 1000})
    u.include(served)
    assert u.groups["ops"].usage["root"] == {"vcore": 9500} and u.groups["ops"].running["root"] == {"x", "other"}
    # bob has 1 core left of his 4; ops 500m of its 10 on root
    assert u.short_of("x", "root.a", "bob", ("bob",), {"vcore": 800}) == ("group", "ops", "root", "vcore", 500, 10000)


def test_beyond_names_what_the_applications_do_not_hold():
    from prio.yunikorn.snapshot import Allocation, App

    x = App("x", "root.a", (0, 1), user="bob", allocations=[Allocation("x-0", 0, {"vcore": 1000}, "n", (0, 0))])
    assert ugm.beyond(_served(), [x]) == [("bob", {"vcore": 2000}, ["other"])]
    x.allocations = [Allocation("x-0", 0, {"vcore": 3000}, "n", (0, 0))]
    other = App("other", "root.a", (0, 2), user="bob", allocated={"vcore": 1})
    assert ugm.beyond(_served(), [x, other]) == []
    assert ugm.beyond(None, [x]) == [] and ugm.beyond(ugm.Served(), [x]) == []


def test_rest_usage_reads_the_dao_trees():
    from prio.yunikorn.load import rest_usage

    users = [{"userName": "bob", "groups": {"x": "ops"},
              "queues": {"queuePath": "root", "resourceUsage": {"vcore": 3000, "pods": 0}, "runningApplications": ["x"],
                         "maxResources": {"vcore": 1}, "maxApplications": 3,
                         "children": [{"queuePath": "root.A", "resourceUsage": {"vcore": 3000}, "runningApplications": ["x"]}]}}]
    groups = [{"groupName": "ops", "applications": ["x", "y"], "queues": {"queuePath": "root"}}]
    got = rest_usage.read("u", users, "g", groups)
    assert got.users == {"bob": {"root": ({"vcore": 3000}, {"x"}), "root.a": ({"vcore": 3000}, {"x"})}}
    assert got.groups == {"ops": {"root": ({}, set())}}
    assert got.app_groups == {"x": "ops", "y": "ops"}
    assert not rest_usage.read("u", [], "g", None)
