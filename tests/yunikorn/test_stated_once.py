"""YuniKorn's sort keys are stated once (the queue's fair share in reference.fair_share, the
application's key in Engine._akey over Model.usage_key), and the walk's hot path keeps copies
of them inline for speed (engine.py: _push, the heap rebuild in _rekey_path, _try_leaf's
application keys). These copies are checked against the statement here, directly, at every
step of generated runs: each current heap entry carries the key the statement gives for its
queue or application at that moment. (The differential tests check the copies only through the
steps they lead to.)"""
from hypothesis import HealthCheck, given, settings

from builders import build_engine
from strategies import examples, scenarios

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _queue_key(eng, c) -> tuple:
    """The statement of a child's key in its parent's heap: YuniKorn's sortQueues (priority
    first where the parent sorts by priority, then getFairShare), the one-type pending after."""
    from prio.yunikorn.reference import fair_share

    share = fair_share(c)
    k1, k2 = (-c.reported, share) if c.parent.sort_priority else (share, -c.reported)
    if eng._one_type is not None:
        k2 = (k2, -c.pending.get(eng._one_type, 0))
    return k1, k2


def _check_heaps(eng) -> int:
    """Every current entry of every heap against the statement; how many were checked."""
    checked = 0
    for q in eng.root.walk():
        for entry in getattr(q, "heap", None) or ():
            k1, k2, _name, version, item = entry[:5]
            if version != item.version:
                continue  # stale: the heaps drop such entries when they reach them
            if q.leaf:  # an application of the leaf
                assert (k1, k2) == eng._akey(item), (q.path, item.app_id)
            else:
                assert (k1, k2) == _queue_key(eng, item), (q.path, item.path)
            checked += 1
    return checked


@settings(SETTINGS, max_examples=examples(40))
@given(scenarios(limits=None))
def test_the_walks_inline_keys_are_the_stated_ones_at_every_step(scenario):
    eng = build_engine(*scenario, "fast")
    for _ in range(200):
        if eng.step() is None:
            break
        _check_heaps(eng)


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
