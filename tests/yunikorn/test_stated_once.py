"""YuniKorn's sort keys are stated once (the queue's fair share in reference.fair_share, the
application's in reference.app_sort_key, the queues' and users' headroom in
reference.headroom_misfit and user_misfit), and the walk keeps copies of them inline for speed
(engine.py: _push, the heap rebuild in _rekey_path, Engine._akey over Model.usage_key, the
headroom checks of _fast_pick and _try_app). These copies are checked against the statement
here, directly, in generated runs: at every step each current heap entry carries the key the
statement gives for its queue or application at that moment, and each headroom verdict is the
statement's (engine.CHECK_HEADROOM). (The differential tests check the copies only through the
steps they lead to.)"""
from hypothesis import HealthCheck, given, settings

from builders import build_engine
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
