"""YuniKorn's sort keys are stated once (the queue's in reference.queue_key over
reference.fair_share, with its tie-break in queue_less and its one-type form queue_key_pending;
the application's in reference.app_key, read by app_sort_key; the queues' and users' headroom
in reference.headroom_misfit and user_misfit), and the fast runs keep copies of them inline for
speed (engine.py: _push, the heap rebuild in _rekey_path, Engine._akey over Model.usage_key, the
headroom checks of _fast_pick and _try_app; simplerun.py: _app_entry, _queue_key and the re-keys
of its plans). These copies are checked against the statement here, directly, in generated
runs: at every step each current heap entry carries the key the statement gives for its queue or
application at that moment, and each headroom verdict is the statement's (engine.CHECK_HEADROOM);
and each key an inline copy makes is compared with the statement's as it is made
(reference.CHECK_CACHES, on in every test: the recorded corpora's runs too), which the tests at
the end show fails on drift. (The differential tests check the copies only through the steps
they lead to.) The same holds for the application usage key (reference.usage_shares: Model.usage_key
calls it, the walk's _rekey_path and simplerun's usage keys copy it) and the queue tie notes
(reference.queue_tie_note: simplerun's _heap_tie_note, _queue_tie_notes and _choose_tied, and
the walk's notes, checked at every choice by simplerun._check_tie and walkties.check_queue_ties).
The pre-1.6 queue sort reads queue_less too (test_release_scheduling.py)."""
import sys

import pytest
from hypothesis import HealthCheck, given, settings

from builders import UNDER_ROOT, build_engine
from strategies import examples, scenarios

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _queue_key(eng, c) -> tuple:
    """The statement of a child's key in its parent's heap: YuniKorn's sortQueues
    (reference.queue_key over getFairShare), the one-type pending after (queue_key_pending)."""
    from prio.yunikorn.reference import fair_share, queue_key, queue_key_pending

    share = fair_share(c)
    if eng._one_type is not None:
        return queue_key_pending(c.parent.sort_priority, c.reported, share, c.pending.get(eng._one_type, 0))
    return queue_key(c.parent.sort_priority, c.reported, share)


def _check_heaps(eng) -> int:
    """Every current entry of every heap against the statement; how many were checked."""
    from prio.yunikorn.reference import app_sort_key

    checked = 0
    for q in eng.root.walk():
        for entry in getattr(q, "heap", None) or ():
            k1, k2, _name, version, item = entry[:5]
            if version != item.version:
                continue  # stale: the heaps drop such entries when they reach them
            if q.leaf:  # an application of the leaf: Engine._akey and Model.usage_key are copies too
                assert (k1, k2) == eng._akey(item) == app_sort_key(item, eng.n_types), (q.path, item.app_id)
            else:
                assert (k1, k2) == _queue_key(eng, item), (q.path, item.path)
            checked += 1
    return checked


def _check_tie_keys(eng) -> None:
    """walkties.keys_and_vectors (the keys the walk sorts tie groups and by-key parents with)
    against the statement, for every parent's candidates."""
    from prio.yunikorn.reference import queue_candidates
    from prio.yunikorn.walkties import keys_and_vectors

    for q in eng.root.walk():
        if not q.leaf:
            cands = queue_candidates(q)
            want = [_queue_key(eng, c) for c in cands]
            if eng._one_type is not None:
                want = [(k1, k2[0]) for k1, k2 in want]
            assert keys_and_vectors(q, cands, eng._vec)[0] == want, q.path


@settings(SETTINGS, max_examples=examples(40))
@given(scenarios(limits=None))
def test_the_walks_inline_keys_are_the_stated_ones_at_every_step(scenario):
    eng = build_engine(*scenario, "fast")
    for _ in range(200):
        if eng.step() is None:
            break
        _check_heaps(eng)
        _check_tie_keys(eng)


def test_the_check_reaches_queue_and_application_entries():
    """The property above is not vacuous: its runs have current entries of both kinds."""
    from strategies import an_example

    def both(s) -> bool:
        eng = build_engine(*s, "fast")
        if eng.step() is None:
            return False
        leaves = sum(1 for q in eng.root.walk() if q.leaf and any(e[3] == e[4].version for e in getattr(q, "heap", None) or ()))
        parents = sum(1 for q in eng.root.walk() if not q.leaf and any(e[3] == e[4].version for e in getattr(q, "heap", None) or ()))
        return leaves > 0 and parents > 0 and _check_heaps(eng) > 0

    an_example(scenarios(limits=None), both)


# ---- headroom -----------------------------------------------------------------------------------
# The walk's headroom checks are inline copies too: of reference.headroom_misfit (the queues' max
# and the cluster capacity: _fast_pick and _try_app) and of user_misfit (the user's and group's
# limits: _try_app). With engine.CHECK_HEADROOM (on in every test: tests/conftest.py) each verdict
# they reach is compared with the statement's at that moment (engine.check_headroom,
# check_user_headroom); an inline check that is wrong only in a verdict the statement then
# overrules (a misfit _try_app asks headroom_misfit about) changes no step, so the differential
# tests would not see it.

def _headroom_scenarios():
    """Scenarios with every feature the walk claims that bears on headroom (features.py): queue
    maxes and a cluster capacity (QUEUE_MAX, CAPACITY), asks for nothing and over some types
    (NOT_POSITIVE_ASKS, PARTIAL_ASKS), running applications (RUNNING), nodes and user/group
    limits (NODES, USER_LIMITS: placement rules too), and REST dumps' usage, Stopped queues and
    maxResource zeros (REST_USAGE, STOPPED, ZERO_FAIR_MAX). And maxes siblings share
    (aligned_limits): in the others a max on a queue mostly makes its siblings differ in fair
    max, and ties abound, which keep the fast pick from the maxes."""
    from hypothesis import strategies as st

    from strategies import aligned_limits, everything, rest_scenarios

    return st.one_of(scenarios(limits=True), scenarios(cluster=True), rest_scenarios(limits=True),
                     everything(preempting=False), aligned_limits())


class _Verdicts:
    """While in use, the verdicts engine.check_headroom and check_user_headroom are given, as
    (which check, where, fits), beside the checks themselves."""

    def __enter__(self):
        from prio.yunikorn import engine

        self.seen: set = set()
        self._saved = engine.check_headroom, engine.check_user_headroom
        queues, users = self._saved

        def check_queues(path, ask, miss, where):
            self.seen.add(("queues", where, miss is None))
            queues(path, ask, miss, where)

        def check_users(ugm, st, ask, fits, where):
            self.seen.add(("users", where, fits))
            users(ugm, st, ask, fits, where)

        engine.check_headroom, engine.check_user_headroom = check_queues, check_users
        return self.seen

    def __exit__(self, *exc):
        from prio.yunikorn import engine

        engine.check_headroom, engine.check_user_headroom = self._saved


def _walk(scenario) -> set:
    """The walk's run of a scenario (the reference engine's where the walk does not go: preemption
    in the run), with the verdicts its inline headroom checks reached."""
    with _Verdicts() as seen:
        build_engine(*scenario, "fast").run(limit=10**9)
    return seen


def _events(scenario) -> None:
    from hypothesis import event

    from prio.yunikorn import engine

    assert engine.CHECK_HEADROOM  # tests/conftest.py: every verdict is checked
    for which, where, fits in sorted(_walk(scenario)):
        event(f"{which} {'fit' if fits else 'misfit'} in {where}")


@settings(SETTINGS, max_examples=examples(60))
@given(_headroom_scenarios())
def test_the_walks_inline_headroom_checks_give_the_stated_verdicts(scenario):
    _events(scenario)


@settings(SETTINGS, max_examples=examples(50))
@given(scenarios(cluster=True))
def test_the_walks_inline_user_headroom_check_gives_the_stated_verdicts(scenario):
    """The same over nodes and user/group limits alone: an ask meets a user's or group's limit
    exactly in about one such scenario in twelve, too seldom in the mix above."""
    _events(scenario)


def test_the_headroom_check_reaches_every_verdict():
    """The property above is not vacuous: its scenarios reach each inline check with each
    verdict (the fast pick's, _try_app's for the queues and for the user and group limits)."""
    from strategies import an_example

    for want in [("queues", "_fast_pick", True), ("queues", "_fast_pick", False), ("queues", "_try_app", True),
                 ("queues", "_try_app", False), ("users", "_try_app", True), ("users", "_try_app", False)]:
        an_example(_headroom_scenarios(), lambda s, want=want: want in _walk(s))


# ---- the keys' statement and its inline copies ------------------------------------------------
# reference.queue_key (with queue_key_pending and queue_less: the key, then the tie-break) and
# app_key state YuniKorn's queue and application sort keys once. The reference's sorts and tie
# notes and walkties' keys call them; the fast runs' inline copies (simplerun, engine) are held
# to them under reference.CHECK_CACHES (on in every test): each key an inline copy makes is
# compared with the statement's for its queue or application at that moment. These tests fail
# when a copy drifts from the statement, or the statement is no longer the one everyone reads.

# Where each inline copy makes its keys, by the function it sits in: (module, check, caller)
SIMPLE_SITES = [("simplerun", "_check_queue", "_queue_key"), ("simplerun", "_check_queue", "entry"),
                ("simplerun", "_check_queue", "_plan_parent_one"), ("simplerun", "_check_queue", "_plan_parent"),
                ("simplerun", "_check_app", "_app_entry"), ("simplerun", "_check_app", "_plan_leaf")]
WALK_SITES = [("engine", "check_queue_key", "_push"), ("engine", "check_queue_key", "_rekey_path"),
              ("engine", "check_app_key", "_akey"), ("engine", "check_app_key", "_rekey_path")]


class _Sites:
    """While in use, the inline copies' calls of their checks, as (module, check, caller); with
    `drift` one such site, whose key is changed on its way to the check (the copy there drifting
    from the statement)."""

    def __init__(self, drift: tuple | None = None):
        self.drift = drift

    def __enter__(self):
        from prio.yunikorn import engine, simplerun

        self.seen: set = set()
        self._saved = []
        for site in SIMPLE_SITES + WALK_SITES:
            mod = {"simplerun": simplerun, "engine": engine}[site[0]]
            if (mod, site[1]) in [(m, n) for m, n, _ in self._saved]:
                continue
            real = getattr(mod, site[1])
            self._saved.append((mod, site[1], real))
            setattr(mod, site[1], self._spy(site[0], site[1], real))
        return self

    def _spy(self, module: str, check: str, real):
        def spy(x, key, *rest):
            site = (module, check, sys._getframe(1).f_code.co_name)
            self.seen.add(site)
            if site == self.drift:
                key = (key[1], key[0]) if key[0] != key[1] else (key[0], key[1], 0)
            real(x, key, *rest)
        return spy

    def __exit__(self, *exc):
        for mod, name, real in self._saved:
            setattr(mod, name, real)


def _run_simple(scenario) -> bool:
    """The simple run of a scenario (False where it does not fit)."""
    from prio.yunikorn import simplerun

    eng = build_engine(*scenario, "auto", placement=False)
    if not simplerun.fits(eng):
        return False
    eng.run()
    return True


def _run_walk(scenario) -> None:
    build_engine(*scenario, "fast").run(limit=10**9)  # a limit always takes the walk's step


def _reaches(site, scenario) -> bool:
    with _Sites() as s:
        (_run_simple if site[0] == "simplerun" else _run_walk)(scenario)
    return site in s.seen


def _strategy(site):
    return scenarios(limits=False, simple=True) if site[0] == "simplerun" else scenarios(limits=None)


@pytest.mark.parametrize("site", SIMPLE_SITES + WALK_SITES, ids=lambda s: f"{s[0]}.{s[2]}")
def test_an_inline_key_that_drifts_from_the_statement_fails_the_check(site):
    """Every inline copy is checked where it makes its keys, and a difference raises: a run
    that reaches the site passes as it is, and fails with the key changed there alone."""
    from prio.yunikorn import reference
    from strategies import an_example

    assert reference.CHECK_CACHES  # tests/conftest.py: every key is checked
    scenario = an_example(_strategy(site), lambda sc: _reaches(site, sc))
    run = _run_simple if site[0] == "simplerun" else _run_walk
    with _Sites(drift=site), pytest.raises(AssertionError, match="the inline key"):
        run(scenario)


@pytest.mark.parametrize("which", ["queue_key", "queue_key_pending", "app_key"])
def test_a_statement_that_drifts_from_the_inline_copies_fails_the_check(which, monkeypatch):
    """The other way round: the statement changed (the parts of its key swapped), the inline
    copies no longer agree with it, and both fast runs say so, on a scenario they run through
    with the statement as it is. (A swap changes no key where both parts are equal, a queue of
    priority 0 with nothing allocated: the scenario is one where some key differs.)"""
    from prio.yunikorn import reference
    from strategies import an_example

    real = getattr(reference, which)

    def swapped(*args):
        k1, k2 = real(*args)
        return k2, k1

    monkeypatch.setattr(reference, which, swapped)
    scenario = an_example(scenarios(limits=False, simple=True), lambda sc: _drifts(sc, _run_simple) and _drifts(sc, _run_walk))
    with pytest.raises(AssertionError, match="the inline key"):
        _run_simple(scenario)
    monkeypatch.setattr(reference, which, real)
    assert _run_simple(scenario)
    _run_walk(scenario)


def _drifts(scenario, run) -> bool:
    """Whether `run` of the scenario fails a key's check."""
    try:
        run(scenario)
    except AssertionError as e:
        return "the inline key" in str(e)
    return False


def _two_children():
    """root.a and root.b, b with the higher priority, a using 1 of its fair max 10 (share 0.1,
    b's 0): YuniKorn's sort takes b first, by priority and by share alike."""
    queues = UNDER_ROOT + ("          - name: a\n            resources: {max: {vcore: 10}}\n"
                           "          - name: b\n            resources: {max: {vcore: 10}}\n")
    apps = [{"id": "x", "queue": "root.a", "allocated": {"vcore": 1}, "asks": [{"priority": 1, "resources": {"vcore": 1}}]},
            {"id": "y", "queue": "root.b", "asks": [{"priority": 5, "resources": {"vcore": 1}}]}]
    return build_engine(queues, {"capacity": {"vcore": 100}, "applications": apps}, "reference", placement=False)


def test_the_reference_sorts_and_tie_notes_read_the_one_statement(monkeypatch):
    """sort_queues (its shortcuts and _slice_stable_queues' comparator), queue_tie_note and
    walkties.keys_and_vectors all read reference.queue_key: changed there, all of them follow."""
    from prio.yunikorn import reference, walkties

    eng = _two_children()
    root = eng.root
    cands = reference.queue_candidates(root)
    assert [c.name for c in reference.sort_queues(root)] == ["b", "a"]
    assert [c.name for c in reference._slice_stable_queues(root, cands, False)] == ["b", "a"]
    assert reference.queue_tie_note(cands[1], cands) is None

    assert walkties.queue_key is reference.queue_key  # (imported by name: patched there too)
    lowest_first = lambda prio_first, reported, share: (reported, share) if prio_first else (share, reported)
    monkeypatch.setattr(reference, "queue_key", lowest_first)
    monkeypatch.setattr(walkties, "queue_key", lowest_first)
    assert [c.name for c in reference.sort_queues(root)] == ["a", "b"]
    assert [c.name for c in reference.sort_queues_keyed(root, cands, aligned=True)[0]] == ["a", "b"]
    assert [c.name for c in reference._slice_stable_queues(root, cands, False)] == ["a", "b"]
    assert walkties.keys_and_vectors(root, cands, lambda d: tuple(d.values()))[0] == [
        (c.reported, reference.fair_share(c)) for c in cands]
    monkeypatch.setattr(reference, "queue_key", lambda prio_first, reported, share: (0, 0))  # everyone equal
    note = reference.queue_tie_note(cands[1], cands)
    assert note is not None and str(note) == "queues root.a, root.b"


def test_queue_less_is_the_key_then_the_tie_break():
    """queue_less, YuniKorn's comparator: queue_key decides where the keys differ, and between
    equal keys the pending strictly greater comes first (the tie-break); neither way between
    equal or incomparable pending (the input order then stands)."""
    from types import SimpleNamespace as Q

    from prio.yunikorn.reference import queue_key, queue_less

    hi, lo = Q(reported=5, pending={"vcore": 1}), Q(reported=1, pending={"vcore": 9})
    assert queue_less(True, hi, lo, 0.9, 0.1) and not queue_less(True, lo, hi, 0.1, 0.9)  # priority first
    assert queue_less(False, lo, hi, 0.1, 0.9) and not queue_less(False, hi, lo, 0.9, 0.1)  # share first
    assert queue_key(True, 5, 0.9) < queue_key(True, 1, 0.1) and queue_key(False, 1, 0.1) < queue_key(False, 5, 0.9)
    more, less_, other = Q(reported=1, pending={"vcore": 2, "memory": 2}), Q(reported=1, pending={"vcore": 1, "memory": 2}), \
        Q(reported=1, pending={"vcore": 3, "memory": 1})
    for prio_first in (True, False):
        assert queue_less(prio_first, more, less_, 0.5, 0.5) and not queue_less(prio_first, less_, more, 0.5, 0.5)
        assert not queue_less(prio_first, more, other, 0.5, 0.5) and not queue_less(prio_first, other, more, 0.5, 0.5)
        assert not queue_less(prio_first, more, more, 0.5, 0.5)


# ---- the usage key ------------------------------------------------------------------------------
# CompUsageRatio's view of an application is stated once, reference.usage_shares (usage_ratio
# reads it for app_sort_key, Model.usage_key for Engine._akey and explain); the walk's
# _rekey_path and simplerun's _usage_one, _usage_vector and _plan_leaf's two-type copy keep it
# inline, held to it under reference.CHECK_CACHES through the application keys they make.

def test_the_model_usage_key_is_the_statement(monkeypatch):
    """Model.usage_key reads reference.usage_shares: changed there, it follows."""
    from prio.yunikorn import reference

    eng = _two_children()
    st = next(s for s in eng.apps if s.usage)
    assert eng.usage_key(st) == (1000.0,)  # 1 vcore, in millicores
    monkeypatch.setattr(reference, "usage_shares", lambda usage, guaranteed, n_types: ("changed",))
    assert eng.usage_key(st) == ("changed",)


def _usage_calls(copy: str, scenario) -> bool:
    """Whether the simple run of the scenario makes a key with simplerun's `copy`."""
    from prio.yunikorn import simplerun

    real = getattr(simplerun, copy)
    calls = []
    try:
        setattr(simplerun, copy, lambda st: calls.append(st) or real(st))
        return _run_simple(scenario) and bool(calls)
    finally:
        setattr(simplerun, copy, real)


@pytest.mark.parametrize("copy", ["_usage_one", "_usage_vector"])
def test_a_usage_key_that_drifts_from_the_statement_fails_the_check(copy, monkeypatch):
    """simplerun's usage keys are checked where they are used: one of them changed (every
    share one more), a simple run that reaches it fails; as it is, the run passes."""
    from prio.yunikorn import simplerun
    from strategies import an_example

    scenario = an_example(scenarios(limits=False, simple=True), lambda sc: _usage_calls(copy, sc))
    real = getattr(simplerun, copy)
    monkeypatch.setattr(simplerun, copy, lambda st: tuple(x + 1.0 for x in real(st)))
    with pytest.raises(AssertionError, match="the inline key"):
        _run_simple(scenario)


def test_a_usage_statement_that_drifts_fails_both_fast_runs(monkeypatch):
    """The other way round: reference.usage_shares changed, the walk's and the simple run's
    inline usage keys no longer agree with it, and both say so: the walk at its inline copy
    (Engine._rekey_path), not where it calls the statement (_akey, Model.usage_key)."""
    from prio.yunikorn import reference
    from strategies import an_example

    real = reference.usage_shares
    scenario = an_example(scenarios(limits=False, simple=True), lambda sc: _usage_calls("_usage_one", sc)
                          or _usage_calls("_usage_vector", sc))
    monkeypatch.setattr(reference, "usage_shares", lambda *args: tuple(x + 1.0 for x in real(*args)))
    with pytest.raises(AssertionError, match="the inline key"):
        _run_simple(scenario)
    with pytest.raises(AssertionError, match="the inline key") as walk:
        _run_walk(scenario)
    assert [e.name for e in walk.traceback][-3:-1] == ["_rekey_path", "check_app_key"], [e.name for e in walk.traceback]


# ---- the queue tie notes --------------------------------------------------------------------------
# reference.queue_tie_note states a queue step's tie note once (the reference's steps and the
# walk's sorted parents call it); simplerun makes its notes its own ways, for speed:
# _heap_tie_note (one type: the heap's equal keys), _queue_tie_notes (a tie group's notes at
# once, as it is formed) and _choose_tied (past 20 children). Under reference.CHECK_CACHES
# every choice of a parent's plan, with a note or without, is held to the statement over the
# parent's children at that moment (simplerun._check_tie).

def _tie_copy(name: str, drift: bool):
    """simplerun's `name` as a spy: (the function, what it saw: whether it made a queue note),
    with `drift` its notes dropped (or cut to the child taken alone)."""
    from prio.yunikorn import simplerun
    from prio.yunikorn.step import TieNote

    real = getattr(simplerun, name)
    seen: list = []
    if name == "_heap_tie_note":
        def copy(heap, top, kind):
            if kind != "queues":
                return real(heap, top, kind)
            seen.append(True)
            return TieNote(kind, [top[3]], False) if drift else real(heap, top, kind)
    elif name == "_queue_tie_notes":
        def copy(order, bounds):
            notes = real(order, bounds)
            seen.extend(n for n in notes if n is not None)
            return [None] * len(notes) if drift else notes
    else:
        def copy(*args):
            c, note = real(*args)
            if note is not None:
                seen.append(note)
            return c, None if drift else note
    return copy, seen


def _notes_at(name: str, scenario) -> bool:
    """Whether the simple run of the scenario makes a queue tie note with simplerun's `name`."""
    from prio.yunikorn import simplerun

    real = getattr(simplerun, name)
    copy, seen = _tie_copy(name, False)
    try:
        setattr(simplerun, name, copy)
        return _run_simple(scenario) and bool(seen)
    finally:
        setattr(simplerun, name, real)


def _tie_strategy(name: str):
    return scenarios(limits=False, simple=True, many_siblings=True if name == "_choose_tied" else None)


@pytest.mark.parametrize("name", ["_heap_tie_note", "_queue_tie_notes", "_choose_tied"])
def test_a_queue_tie_note_that_drifts_from_the_statement_fails_the_check(name, monkeypatch):
    """Each of simplerun's ways to a queue tie note is held to reference.queue_tie_note: a
    run that reaches it passes as it is, and fails with its notes changed there alone."""
    from prio.yunikorn import reference, simplerun
    from strategies import an_example

    assert reference.CHECK_CACHES  # tests/conftest.py: every note is checked
    scenario = an_example(_tie_strategy(name), lambda sc: _notes_at(name, sc))
    monkeypatch.setattr(simplerun, name, _tie_copy(name, True)[0])
    with pytest.raises(AssertionError, match="tie note at .*the inline key"):
        _run_simple(scenario)


def test_a_queue_tie_statement_that_drifts_fails_the_simple_run(monkeypatch):
    """The other way round: reference.queue_tie_note changed (no tie ever), the simple run's
    notes no longer agree with it, and its check says so."""
    from prio.yunikorn import reference
    from strategies import an_example

    scenario = an_example(scenarios(limits=False, simple=True), lambda sc: _notes_at("_queue_tie_notes", sc)
                          or _notes_at("_heap_tie_note", sc))
    monkeypatch.setattr(reference, "queue_tie_note", lambda c, order, release=None: None)
    with pytest.raises(AssertionError, match="tie note at .*the inline key"):
        _run_simple(scenario)


# The walk's queue tie notes (walkties: _queue_tie over a heap group, _ties_with and
# _first_of_group's through _say_tie, the parked groups') are held to the statement too: under
# reference.CHECK_CACHES each descent's notes, parent by parent on the path taken, against
# reference.queue_tie_note over the parent's sorted candidates (walkties.check_queue_ties;
# parents whose children differ in fair max are map_order_alternatives', left out).

def _walk_drifts(method: str, scenario) -> bool:
    """Whether the walk's run of the scenario passes as it is and fails the tie notes' check
    with TieWalk's `method` dropping its queue notes."""
    from prio.yunikorn.walkties import TieWalk

    real = getattr(TieWalk, method)
    _run_walk(scenario)
    if method == "_queue_tie":
        def drifted(self, p, c, others, start=0):
            return None
    else:
        def drifted(self, chosen, tied, more):
            if not isinstance(chosen, type(self.root)):
                real(self, chosen, tied, more)
    try:
        setattr(TieWalk, method, drifted)
        _run_walk(scenario)
    except AssertionError as e:
        return "tie notes at" in str(e) and "the inline key" in str(e)
    finally:
        setattr(TieWalk, method, real)
    return False


@pytest.mark.parametrize("method", ["_queue_tie", "_say_tie"])
def test_a_walk_queue_tie_note_that_drifts_from_the_statement_fails_the_check(method):
    """A walk whose queue tie notes are dropped at one of its ways to them fails the check,
    where as it is it passes."""
    from strategies import an_example

    an_example(scenarios(limits=None), lambda sc: _walk_drifts(method, sc))


def test_the_cluster_walk_holds_its_tie_notes_to_the_statement_too(monkeypatch):
    """With nodes or user limits the walk's step is _step_cluster's, which checks its notes
    as well: with a statement that finds a tie at every parent, a run of such a scenario fails.
    (Its generated scenarios tie only where fair maxes differ, map_order_alternatives' notes,
    so a dropped note cannot show there.)"""
    from prio.yunikorn import reference
    from prio.yunikorn.step import TieNote
    from strategies import an_example

    def always(c, order, release=None):
        return TieNote("queues", [c, c], False)

    def fails(sc) -> bool:
        _run_walk(sc)
        with monkeypatch.context() as m:
            m.setattr(reference, "queue_tie_note", always)
            try:
                _run_walk(sc)
            except AssertionError as e:
                return "tie notes at" in str(e) and "the inline key" in str(e)
        return False

    an_example(scenarios(cluster=True), fails)


def test_a_queue_tie_statement_that_drifts_fails_the_walk(monkeypatch):
    """reference.queue_tie_note changed (no tie ever): the walk's notes no longer agree."""
    from prio.yunikorn import reference
    from strategies import an_example

    scenario = an_example(scenarios(limits=None), lambda sc: _walk_drifts("_say_tie", sc))
    monkeypatch.setattr(reference, "queue_tie_note", lambda c, order, release=None: None)
    with pytest.raises(AssertionError, match="tie notes at .*the inline key"):
        _run_walk(scenario)


def _app_notes(scenario) -> bool:
    """Whether the simple run of the scenario makes an application tie note."""
    from prio.yunikorn import simplerun

    real = simplerun._first_app_tie_note
    seen = []
    try:
        simplerun._first_app_tie_note = lambda heap: seen.append(1) or real(heap)
        return _run_simple(scenario) and bool(seen)
    finally:
        simplerun._first_app_tie_note = real


def test_an_application_tie_note_that_drifts_from_the_statement_fails_the_check(monkeypatch):
    """simplerun's application tie notes (_first_app_tie_note over its leaf's heap) are held to
    reference.app_tie_note at every allocation its leaves plan: dropped, a run fails; and with
    the statement finding no tie, the run's notes disagree with it."""
    from prio.yunikorn import reference, simplerun
    from strategies import an_example

    scenario = an_example(scenarios(limits=False, simple=True), _app_notes)
    with monkeypatch.context() as m:
        m.setattr(simplerun, "_first_app_tie_note", lambda heap: None)
        with pytest.raises(AssertionError, match="tie note at .*the inline key"):
            _run_simple(scenario)
    monkeypatch.setattr(reference, "app_tie_note", lambda st, order, n_types: None)
    with pytest.raises(AssertionError, match="tie note at .*the inline key"):
        _run_simple(scenario)
