"""Which scheduling features an input uses, computed from the model, and which engine may run it.

Each fast engine declares the features it supports (an allow-list); a run goes to the first
engine whose list covers every feature the input uses, and to the reference engine, which
supports them all, otherwise. A feature added to the model and named here is therefore run by
the reference engine until a fast engine is taught it and proven against the reference
(tests/yunikorn/test_differential.py): a fast engine never silently ignores what it does not
know. Pure: no I/O.
"""
from __future__ import annotations

from prio.yunikorn import releases
from prio.yunikorn.reference import preemption_in_run

# Everything the model can hold that a scheduling run depends on.
OFFSET = "priority-offset"
FENCE = "priority-fence"
FAIR_SORT = "fair-application-sort"
PRIORITY_SORT_OFF = "priority-sorting-off"
CAPACITY = "cluster-capacity"
QUEUE_MAX = "queue-max"
MAXAPPS = "maxapplications"
GUARANTEED = "guaranteed"
STOPPED = "stopped-queue"
REST_USAGE = "queue-usage-from-rest"
FAIR_MAX_MISALIGNED = "siblings-differ-in-fair-max"
SIBLINGS_OVER_20 = "more-than-20-siblings"
RUNNING = "running-applications"
TYPES = "several-resource-types"
OTHER_TYPES = "resource-types-no-ask-uses"
PARTIAL_ASKS = "asks-not-naming-every-type"
NOT_POSITIVE_ASKS = "asks-for-nothing-or-negative"
# No input gives a queue negative usage (every loader refuses a negative quantity, and a REST
# dump's queue usage only raises what the applications hold): an engine built by hand with it
# goes to the reference, which no fast run is proven against on it.
NEGATIVE_USAGE = "negative-usage"
ZERO_FAIR_MAX = "fair-max-zero"
NODES = "nodes"
UNSCHEDULABLE_NODES = "unschedulable-nodes"  # cordoned or draining: the walk shares find_node and Cluster.first_with_room, which skip them
# the shim's node predicates close nodes to some ask (a hard taint, an ask's nodeSelector, node
# affinity, tolerations or required node): the walk shares find_node and Cluster.first_with_room,
# which take Cluster.admits' answer; simplerun has no nodes
PREDICATES = "node-predicates"
# an ask with a required node (a YuniKorn DaemonSet pod): it cancels other asks' reservations on
# its node, which wakes asks set aside for want of a node (reference.ReferenceRun._try_required_node)
REQUIRED_NODE = "required-node"
USER_LIMITS = "user-group-limits"
PREEMPTION_IN_RUN = "preemption-in-the-run"
GANGS = "gang-applications"  # task groups, placeholders, replacement, timeouts (gangs.py)
# --yunikorn-version names a release whose scheduling rules prio models and that differ from the
# newest's where this input can tell (older_rules_matter): the reference engine reads the
# release's rules, the fast runs know the newest's only
OLDER_RELEASE = "older-release-scheduling"

# Every feature above; a new one joins here and in used(), and no fast run's SUPPORTS names it
# until that run is taught it (tests/yunikorn/test_features.py fails until someone decides).
ALL = frozenset({OFFSET, FENCE, FAIR_SORT, PRIORITY_SORT_OFF, CAPACITY, QUEUE_MAX, MAXAPPS, GUARANTEED, STOPPED,
                 REST_USAGE, FAIR_MAX_MISALIGNED, SIBLINGS_OVER_20, RUNNING, TYPES, OTHER_TYPES, PARTIAL_ASKS,
                 NOT_POSITIVE_ASKS, NEGATIVE_USAGE, ZERO_FAIR_MAX, NODES, UNSCHEDULABLE_NODES, PREDICATES, REQUIRED_NODE,
                 USER_LIMITS, PREEMPTION_IN_RUN, GANGS, OLDER_RELEASE})


# What only the reference engine schedules: YuniKorn's preemption inside the run, asks with a
# required node, an older release's scheduling rules, and negative usage (no input gives it: see
# NEGATIVE_USAGE). Gangs are the gang walk's where it can prove them (gangwalk.py: it hands the
# rest to the reference engine, from scratch), the reference engine's otherwise.
REFERENCE_ONLY = frozenset({PREEMPTION_IN_RUN, REQUIRED_NODE, OLDER_RELEASE, NEGATIVE_USAGE})


def used(eng) -> frozenset:
    """The features the engine's input uses (before any step)."""
    out = set()
    types = eng._ask_types
    if len(types) > 1:
        out.add(TYPES)
    if eng.n_types != len(types):
        out.add(OTHER_TYPES)
    if not eng._positive:
        out.add(NOT_POSITIVE_ASKS)
    if len(types) > 1 and any(len(r) != len(types) for r in eng.ask_shapes.values()):
        out.add(PARTIAL_ASKS)
    if eng.snapshot.capacity:
        out.add(CAPACITY)
    if any(st.running for st in eng.apps):
        out.add(RUNNING)
    if eng.cluster is not None:
        out.add(NODES)
        if not all(n.schedulable for n in eng.cluster.nodes):
            out.add(UNSCHEDULABLE_NODES)
        asks = [a for st in eng.apps for a in st.asks if a.node is not None or a.required_node]
        if eng.cluster.judge.closing or asks:
            out.add(PREDICATES)
        if any(a.required_node for a in asks):
            out.add(REQUIRED_NODE)
    if eng.ugm is not None:
        out.add(USER_LIMITS)
    if preemption_in_run(eng):
        out.add(PREEMPTION_IN_RUN)
    if eng.gangs:
        out.add(GANGS)
    if older_rules_matter(eng):
        out.add(OLDER_RELEASE)
    for q in eng.root.walk():
        if q.offset and not q.fenced:
            out.add(OFFSET)
        if q.fenced:
            out.add(FENCE)
        if q.leaf and q.sort_policy == "fair":
            out.add(FAIR_SORT)
        if not q.sort_priority:
            out.add(PRIORITY_SORT_OFF)
        if q.max and q.parent is not None:
            out.add(QUEUE_MAX)
        if q.maxapps:
            out.add(MAXAPPS)
        if q.guaranteed:
            out.add(GUARANTEED)
        if q.stopped:
            out.add(STOPPED)
        if q.base_allocated:
            out.add(REST_USAGE)
        if eng.misaligned(q):
            out.add(FAIR_MAX_MISALIGNED)
        if eng.beyond_insertion(q):
            out.add(SIBLINGS_OVER_20)
        if not all((q.fairmax.get(t) or 0) > 0 for t in types):
            out.add(ZERO_FAIR_MAX)
        if any(v < 0 for v in q.allocated.values()):
            out.add(NEGATIVE_USAGE)
    return frozenset(out)


# The release rules (releases.SCHEDULING_FIELDS) only the preemptor reads: it runs inside the
# reference engine alone (PREEMPTION_IN_RUN), so they never need it of their own.
_PREEMPTOR_RULES = ("cancels_reservations", "resource_wise_preemption", "fence_at_projected_max")


def older_rules_matter(eng) -> bool:
    """Whether the engine's release schedules this input otherwise than the newest could: its
    queue sort differs (every input with queues to sort), or it has stateaware leaves."""
    r, new = eng.release, releases.NEWEST
    if releases.schedules_as_newest(r):
        return False
    assert set(releases.SCHEDULING_FIELDS) == {"fair_max_share", "stateaware_policy", *_PREEMPTOR_RULES}  # a new rule: decide here
    if r.fair_max_share != new.fair_max_share:
        return True
    if r.stateaware_policy != new.stateaware_policy:
        from prio.yunikorn.stateaware import leaves_of

        return bool(leaves_of(eng.root))
    return False


def choose(eng, engines) -> str:
    """The name of the first of `engines` ((name, supported features), fastest first) whose
    features cover what the input uses; "reference" when none does."""
    need = used(eng)
    assert need <= ALL, need - ALL  # used() names only features listed in ALL
    if need & REFERENCE_ONLY:
        return "reference"
    for name, supports in engines:
        if need <= supports:
            return name
    return "reference"
