"""Metamorphic properties of the YuniKorn engines: a change to the input whose effect on the
run is known without running YuniKorn (pip-audit's way beside its oracle). Each holds on the
default engine (the fast runs where they fit) and on the reference engine, so that both the
engines and the differential proof (test_differential.py) are checked by a second, independent
statement of what a run must do."""
import copy
import re

import yaml
from hypothesis import HealthCheck, assume, given, settings

from builders import build_engine, step_rows
from strategies import examples, scenarios

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CHOICES = ("auto", "reference")

# The segment names tests/strategies.py gives queues (p0, m1, l00, dyn0): every one renamed with
# the same prefix keeps the order of any two names, and so every comparison YuniKorn makes.
_SEGMENT = re.compile(r"(?<![\w-])(p|m|l|dyn)(\d+)\b")  # in paths and as the notes name a queue
_CONFIG_NAME = re.compile(r"(- name: )(p|m|l)(\d+)$", re.M)


def _rename_text(text: str) -> str:
    return _SEGMENT.sub(r"q\1\2", text)


def _rename(queues: str, snapshot: dict) -> tuple:
    out = copy.deepcopy(snapshot)
    for app in out["applications"]:
        app["queue"] = _rename_text(app["queue"])
    return _CONFIG_NAME.sub(r"\1q\2\3", queues), out


@settings(SETTINGS, max_examples=examples(30))
@given(scenarios(limits=None))
def test_renaming_queues_in_their_order_renames_the_run_and_nothing_else(scenario):
    """Queue names reach the run only through comparisons (Go's sort falls back to nothing
    name-based, the tie notes list names sorted): a renaming that keeps every comparison gives
    the same run with the names changed."""
    queues, snapshot = scenario
    renamed = _rename(queues, snapshot)
    for choice in CHOICES:
        base, other = build_engine(queues, snapshot, choice), build_engine(*renamed, choice)
        assert _rename_text(repr(step_rows(base.run()))) == repr(step_rows(other.run()))
        assert _rename_text(repr(base.leftovers())) == repr(other.leftovers())
        assert _rename_text(repr(sorted(r.queue for r in base.rejected))) == repr(sorted(r.queue for r in other.rejected))


def _with_an_ask_that_fits_nowhere(queues: str, snapshot: dict):
    """The scenario with one more application, in a leaf of its own directly under root, asking
    for one unit more of a type than the largest node holds, at the lowest priority (INT32_MIN
    adds nothing to any queue's priority): YuniKorn tries it every cycle, no node can ever take
    it (nor free room for it by preemption), and it reserves none. Its own queue because
    pending counts where nothing can place it: sortQueuesByPriorityAndFairness breaks a tie on
    the larger pending (queue_less), so the same ask in a leaf beside others moves its siblings
    (yunikorn-core object/sorters.go); root has no siblings, and the new queue sorts beside the
    others' ancestor only, whose order among themselves it cannot change."""
    conf = yaml.safe_load(queues)
    root = conf["partitions"][0]["queues"][0]
    assume(root.get("queues"))  # with root a leaf the added ask would share its queue
    root["queues"].append({"name": "zzz"})
    kind = sorted(snapshot["nodes"][0]["capacity"])[0]
    most = max(n["capacity"][kind] for n in snapshot["nodes"])
    out = copy.deepcopy(snapshot)
    out["applications"].append({"id": "zzz-app", "queue": "root.zzz",
                                "asks": [{"priority": -2147483648, "resources": {kind: most + 1}}]})
    return yaml.safe_dump(conf, sort_keys=False), out


@settings(SETTINGS, max_examples=examples(30))
@given(scenarios(limits=False, cluster=True))
def test_an_ask_that_fits_nowhere_changes_nothing_else(scenario):
    """Adding an application whose only ask is larger than every node leaves every step (its
    queue, application, ask, priority and the priority changes it makes) and every other
    leftover as they were; the added ask is never placed. (Without queue maxes: where siblings
    differ in fair max, YuniKorn's queue sort reads another sibling's fair max by position, so a
    queue that stays pending can move the others, and the statement is not YuniKorn's.)"""
    more = _with_an_ask_that_fits_nowhere(*scenario)
    for choice in CHOICES:
        base, other = build_engine(*scenario, choice), build_engine(*more, choice)
        want = [(tuple(s[:6]), s.note) for s in base.run()]
        got = [(tuple(s[:6]), s.note) for s in other.run()]
        assert got == want  # the added ask among them would differ: it is never placed
        assert [u for u in other.leftovers() if u.application != "zzz-app"] == base.leftovers()
        assert base.preemptions == other.preemptions


def test_an_ask_that_fits_nowhere_beside_others_moves_them():
    """Why the property above gives the ask a queue of its own: in a leaf beside another, its
    pending breaks the tie of two otherwise equal queues, as YuniKorn's sort does."""
    queues = ("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"
              "        queues:\n          - name: a\n          - name: b\n")
    snapshot = {"nodes": [{"name": "node-0", "capacity": {"vcore": 2}}],
                "applications": [{"id": "app-b", "queue": "root.b", "asks": [{"priority": 0, "resources": {"vcore": 1}}] * 2},
                                 {"id": "app-a", "queue": "root.a", "asks": [{"priority": 0, "resources": {"vcore": 1}}]}]}
    more = copy.deepcopy(snapshot)
    more["applications"].append({"id": "zzz-app", "queue": "root.a",
                                 "asks": [{"priority": -2147483648, "resources": {"vcore": 3}}]})
    for choice in CHOICES:
        assert [s.queue for s in build_engine(queues, snapshot, choice).run()] == ["root.b", "root.a"]
        assert [s.queue for s in build_engine(queues, more, choice).run()] == ["root.a", "root.b"]


def _unit_asks(snapshot: dict, kind: str) -> dict:
    out = copy.deepcopy(snapshot)
    out.pop("capacity", None)
    for app in out["applications"]:
        app.pop("allocated", None)
        for a in app["asks"]:
            a["resources"] = {kind: 1}
    return out


_MAX = re.compile(r"max: \{(\w+): (\d+)\}")


@settings(SETTINGS, max_examples=examples(30))
@given(scenarios(limits=True))
def test_raising_a_max_never_removes_a_step(scenario):
    """With asks of one unit each, no cluster capacity and no maxapplications (whose running
    count couples queues): doubling every queue's max places every ask placed before, as
    often (first fit over equal asks is monotone in the room)."""
    assume(_raised(*scenario) is not None)
    for choice in CHOICES:
        assert _more_or_as_often(*_raised(*scenario), choice)


def _raised(queues: str, snapshot: dict):
    """The scenario made as the property above needs it, and with every max doubled; None where
    it has no max."""
    queues = "\n".join(line for line in queues.split("\n") if "maxapplications:" not in line)
    kinds = _MAX.findall(queues)
    if not kinds:
        return None
    kind = kinds[0][0]
    queues = _MAX.sub(lambda m: f"max: {{{kind}: {m.group(2)}}}", queues)  # one type throughout
    snapshot = _unit_asks(snapshot, kind)
    return queues, _MAX.sub(lambda m: f"max: {{{m.group(1)}: {2 * int(m.group(2))}}}", queues), snapshot


def _more_or_as_often(queues: str, raised: str, snapshot: dict, choice: str = "auto", strictly: bool = False) -> bool:
    placed = _placements(build_engine(queues, snapshot, choice).run())
    got = _placements(build_engine(raised, snapshot, choice).run())
    more = all(got.get(k, 0) >= n for k, n in placed.items())
    return more and (sum(got.values()) > sum(placed.values()) if strictly else True)


def test_raising_a_max_places_more_in_some_scenario():
    """The property above is not vacuous: its scenarios reach a max that held asks back."""
    from strategies import an_example

    an_example(scenarios(limits=True), lambda s: (r := _raised(*s)) is not None and _more_or_as_often(*r, strictly=True))


def _placements(steps) -> dict:
    """How often each ask was placed."""
    out: dict = {}
    for s in steps:
        out[s.ask] = out.get(s.ask, 0) + 1
    return out
