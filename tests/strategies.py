"""Hypothesis strategies for scheduling scenarios: a queue config (queues.yaml text) and a
snapshot (a dict in the native format), over every feature the engines handle, so that one
differential test can hold the fast engines to the reference engine on all of them.

Features drawn: one to three levels of queues; `priority.offset` (small, and the int32 ends,
to exercise saturation) and `priority.policy: fence` on any queue; `application.sort.policy`
fifo or fair and `application.sort.priority` disabled; `maxapplications`, `max` and
`guaranteed`; a cluster capacity or none; a parent with more than 20 children (Go's
SliceStable merges); one to three resource types, asks naming some of them or asking for
nothing; ask priorities from a small set (ties everywhere) or all equal; create and submit
times given or not (equal ones too); `count`; running applications (`allocated`, `state:
Running`); applications naming queues the config lacks (dynamic queues).

With `cluster=True`: nodes of one to four sizes (`nodes`, some unschedulable, some with room
`occupied` by other schedulers' pods, running `allocations` on them), the partition's
`nodesortpolicy` (absent, fair, binpacking, resource weights), the preemption switch
off or on, applications' `user` and `groups`, and `limits` entries (named users and groups,
wildcards, maxresources over some types, maxapplications) at any level, and the shim's node
predicates: a pool label and a `dedicated` taint (any effect) on some nodes, a nodeSelector or a
toleration on some asks.
Sizes stay small (a scenario runs in milliseconds through the reference engine) and every
choice shrinks towards the plain case: hypothesis then reports the smallest disagreement.
`simple=True` keeps to what simplerun runs.

Besides: `tie_groups` (siblings tied, tens of them with `big`), `long_runs` (thousands of
steps), `sort_keys`, `sort_inputs`, `vectors` and `pendings` (what gosort, keptsort and
dominance compare), `mutated` (a document with values made awkward: the schema check) and
`snapshot_documents` (snapshot files to read), `gangs` (scenarios with gang applications: task
groups, real pods of them larger or smaller than their group, running placeholders, styles,
timeouts and a horizon). A property test that must reach a case (tie
notes, both routes of a run) says so with `an_example`, beside hypothesis's `event()`: no
fixed seed, no count over a fixed sequence of inputs.
"""
from __future__ import annotations

import copy
import functools
import itertools
import warnings

from hypothesis import Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

TYPE_SETS = [("pods",), ("vcore",), ("memory", "vcore"), ("gpu", "memory", "vcore")]
OFFSETS = [0, 1, -1, 3, -5, 2147483647, -2147483648]

# The strategies drawn in loops, made once: hypothesis spends about 20 microseconds a draw, and
# as much again to make (look up) the strategy each time.
_int = functools.cache(st.integers)
_BOOL = st.booleans()


# The differential properties run in the inner loop (pytest -m 'not slow') with enough examples
# to matter, and with EXAMPLES_IN_CI times as many in CI (.ci/run sets CI, as CI services do).
EXAMPLES_IN_CI = 5


def examples(n: int) -> int:
    """How many examples a property draws: `n` at a desk, EXAMPLES_IN_CI times `n` in CI."""
    import os

    return n * EXAMPLES_IN_CI if os.environ.get("CI", "").lower() not in ("", "0", "false") else n


def _sometimes(draw, k: int) -> bool:
    """True once in k + 1 draws, and False where hypothesis shrinks (towards 0): a failing
    example shrinks towards the plain case, without the rare setting."""
    return draw(_int(0, k)) == k


USERS = ["alice", "bob", "carol"]
GROUPS = ["g1", "g2", "g3"]


@st.composite
def limit_lines(draw, types: tuple) -> list[str]:
    """A queue's `limits`: one to three entries for named users or groups or wildcards."""
    out = ["limits:"]
    for _ in range(draw(_int(1, 3))):
        kind = draw(st.sampled_from(["users", "groups"]))
        names = draw(st.sampled_from([["*"], [USERS[0]], [USERS[1], USERS[2]]] if kind == "users" else
                                     [["*"], [GROUPS[0]], [GROUPS[1], GROUPS[2]]]))
        out.append("  - limit: l")
        out.append(f"    {kind}: [{', '.join(repr(n) for n in names)}]")
        if draw(_BOOL):
            t = draw(st.sampled_from(types))
            out.append(f"    maxresources: {{{t}: {draw(_int(0, 6))}}}")
        if draw(_BOOL):
            out.append(f"    maxapplications: {draw(_int(1, 3))}")
    return out


@st.composite
def queue_settings(draw, leaf: bool, types: tuple, limits: bool, user_limits: bool = False,
                   guarantee: bool | None = None) -> list[str]:
    """The YAML lines of one queue's settings (properties, maxapplications, resources);
    `guarantee`: always (True), never (False) or sometimes (None) a guaranteed resource."""
    props = []
    offset = draw(st.sampled_from(OFFSETS))
    if offset:
        props.append(f'priority.offset: "{offset}"')
    if draw(_BOOL) and draw(_BOOL):
        props.append("priority.policy: fence")
    if leaf and draw(_BOOL):
        props.append("application.sort.policy: fair")
    if _sometimes(draw, 5):
        props.append("application.sort.priority: disabled")
    out = ["properties:"] + ["  " + p for p in props] if props else []
    if limits and _sometimes(draw, 5):
        out.append(f"maxapplications: {draw(_int(1, 3))}")
    resources = []
    if limits and _sometimes(draw, 4):
        t = draw(st.sampled_from(types))
        resources.append(f"max: {{{t}: {draw(_int(1, 12))}}}")
    if guarantee or guarantee is None and _sometimes(draw, 4):
        t = draw(st.sampled_from(types))
        resources.append(f"guaranteed: {{{t}: {draw(_int(1, 8))}}}")
    if resources:
        out += ["resources:"] + ["  " + r for r in resources]
    if user_limits and _sometimes(draw, 2):
        out += draw(limit_lines(types))
    return out


@st.composite
def scenarios(draw, limits: bool | None = True, many_siblings: bool | None = None, cluster: bool = False,
              preempting: bool = False, simple: bool = False):
    """(queues.yaml text, snapshot dict). `limits`: maxes, maxapplications, a capacity and asks
    for nothing may occur (None: in three scenarios of four, drawn once; each queue draws them
    apart, so with tens of queues hardly any scenario of limits=True is without them);
    `many_siblings`: force (True) or forbid (False) a parent of more than
    20 children; `cluster`: nodes, users, groups and user/group limits (above); `preempting`
    (with `cluster`): the preemption switch on and a guarantee on root.p0, so that YuniKorn's
    preemption runs inside the run; `simple`: no guarantee and every ask names every type, so
    that without `limits` (and `cluster`) simplerun takes any scenario with an ask."""
    if limits is None:
        limits = draw(_int(0, 3)) > 0
    types = draw(st.sampled_from(TYPE_SETS))
    lines = ["partitions:", "  - name: default"]
    if cluster:
        sort = draw(st.sampled_from([None, "fair", "binpacking"]))
        if sort:
            lines += ["    nodesortpolicy:", f"      type: {sort}"]
            if _sometimes(draw, 3):
                lines.append(f"      resourceweights: {{{types[0]}: {draw(st.sampled_from([0.5, 1, 3]))}}}")
        if not preempting and draw(_BOOL):
            lines += ["    preemption:", "      enabled: false"]
    lines += ["    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    leaves: list[str] = []
    big = draw(_BOOL) if many_siblings is None else many_siblings
    n_parents = draw(_int(1, 3))
    big_parent = draw(_int(0, n_parents - 1)) if big else -1

    def add(path: str, name: str, indent: int, leaf: bool) -> None:
        lines.append(" " * indent + f"- name: {name}")
        guarantee = True if preempting and path == "root" and name == "p0" else False if simple else None
        lines.extend(" " * (indent + 2) + x for x in draw(queue_settings(leaf, types, limits, cluster, guarantee)))
        if leaf:
            leaves.append(f"{path}.{name}")

    for p in range(n_parents):
        add("root", f"p{p}", 10, False)
        lines.append(" " * 12 + "queues:")
        n_children = draw(_int(21, 26)) if p == big_parent else draw(_int(1, 4))
        for m in range(n_children):
            if p == big_parent or draw(_BOOL):
                add(f"root.p{p}", f"l{m:02}", 14, True)
                continue
            add(f"root.p{p}", f"m{m}", 14, False)
            lines.append(" " * 16 + "queues:")
            for k in range(draw(_int(1, 3))):
                add(f"root.p{p}.m{m}", f"l{k}", 18, True)
    equal = draw(_BOOL)
    priorities = st.just(0) if equal else st.sampled_from([0, 0, 1, 5, -3, 2147483647])
    apps = []
    leaf = st.sampled_from(leaves)
    n_apps = draw(_int(1, 30 if big else 14))
    for i in range(n_apps):
        asks = []
        for _ in range(draw(_int(0, 4))):
            a: dict = {"priority": draw(priorities)}
            if types != ("pods",) or draw(_BOOL):
                named = types if simple or draw(_int(0, 5)) else draw(st.lists(st.sampled_from(types), min_size=1, unique=True))
                a["resources"] = {t: draw(_int(0, 3)) for t in named}
                a["resources"][named[0]] = max(1, a["resources"][named[0]])
                if limits and _sometimes(draw, 20):  # an ask for nothing
                    a["resources"] = draw(st.sampled_from([{}, {types[0]: 0}]))
            if _sometimes(draw, 6):
                a["createTime"] = draw(_int(1, 3))
            if _sometimes(draw, 6):
                a["count"] = draw(_int(2, 4))
            asks.append(a)
        queue = draw(leaf)
        if _sometimes(draw, 15):  # not in the config: a dynamic leaf under p0
            queue = f"root.p0.dyn{draw(_int(0, 1))}"
        app: dict = {"id": f"app-{draw(_int(0, 9))}{i:02}", "queue": queue, "asks": asks}
        if _sometimes(draw, 3):
            app["submitTime"] = draw(_int(1, 3))
        if _sometimes(draw, 6):
            app["allocated"] = {t: draw(_int(1, 4)) for t in types if draw(_BOOL)}
        elif _sometimes(draw, 9):
            app["state"] = "Running"
        apps.append(app)
    snapshot: dict = {"applications": apps}
    if cluster:
        sizes = draw(st.lists(_int(2, 9), min_size=1, max_size=3))
        nodes = [{"name": f"node-{k}", "capacity": {t: draw(st.sampled_from(sizes)) for t in types}}
                 for k in range(draw(_int(1, 4)))]
        for n in nodes:  # room other schedulers' pods take (occupied), up to the whole node
            if _sometimes(draw, 3):
                n["occupied"] = {t: draw(_int(1, v)) for t, v in n["capacity"].items() if draw(_BOOL)}
        for node in nodes:  # cordoned or draining: nothing placed there, what runs there stays
            if _sometimes(draw, 4):
                node["schedulable"] = False
        snapshot["nodes"] = nodes
        for node in nodes:  # the shim's node predicates (kube.predicates): a pool label, a taint
            if _sometimes(draw, 2):
                node["labels"] = {"pool": draw(st.sampled_from(POOLS))}
            if _sometimes(draw, 4):
                node["taints"] = [{"key": "dedicated", "value": draw(st.sampled_from(POOLS)), "effect": draw(st.sampled_from(EFFECTS))}]
        for app in apps:
            for ask in app["asks"]:
                if _sometimes(draw, 4):
                    ask["nodeSelector"] = {"pool": draw(st.sampled_from(POOLS))}
                if _sometimes(draw, 4):
                    ask["tolerations"] = [{"key": "dedicated", "operator": "Exists"}]
        for app in apps:
            if _sometimes(draw, 2):
                app["user"] = draw(st.sampled_from(USERS))
                if draw(_BOOL):
                    app["groups"] = draw(st.lists(st.sampled_from(GROUPS), min_size=1, max_size=2, unique=True))
            if app.pop("allocated", None) is not None or _sometimes(draw, 8):
                node = draw(st.sampled_from(nodes))
                app["allocations"] = [{"id": f"{app['id']}-run", "resources": {t: draw(_int(1, 2)) for t in types},
                                       "node": node["name"]}]
            app.pop("state", None)
    elif limits and _sometimes(draw, 3):
        snapshot["capacity"] = {t: draw(_int(4, 60)) for t in types}
        if len(types) > 1 and _sometimes(draw, 4):  # none of one type: its fair max is 0 everywhere
            snapshot["capacity"][draw(st.sampled_from(types))] = 0
    return "\n".join(lines) + "\n", snapshot


POOLS = ("a", "b")
EFFECTS = ("NoSchedule", "NoExecute", "PreferNoSchedule")


def vectors(width: int, high: int, min_size: int = 0, max_size: int = 30, unique: bool = False):
    """Lists of pending vectors (tuples of `width` quantities from 0 to `high`)."""
    return st.lists(st.tuples(*[_int(0, high)] * width), min_size=min_size, max_size=max_size, unique=unique)


def pendings(types, low: int = 0, high: int = 4, partial: bool = False):
    """A pending (or asked) resource dict over `types`, quantities from `low` to `high`;
    `partial`: any type may be missing."""
    if not partial:
        return st.fixed_dictionaries({t: _int(low, high) for t in types})
    return st.fixed_dictionaries({}, optional={t: _int(low, high) for t in types})


@st.composite
def sort_keys(draw, min_size: int = 0, max_size: int = 130) -> list[int]:
    """Keys of a parent's candidates: few distinct ones, so that tie groups abound."""
    n = draw(_int(min_size, max_size))
    return draw(st.lists(_int(0, draw(_int(1, 4))), min_size=n, max_size=n))


@st.composite
def sort_inputs(draw, max_size: int = 130):
    """Keys and pending vectors of a parent's candidates, as gosort's functions take them:
    few distinct keys and small vectors, so that tie groups and incomparable pairs abound."""
    keys = draw(sort_keys(max_size=max_size))
    width = draw(_int(1, 3))
    return keys, draw(vectors(width, 6, len(keys), len(keys)))


def _two_levels(draw, parents, leaves, max_line=None) -> tuple[list[str], list[str]]:
    """The lines of a queues.yaml whose root has `parents` (a range) parents of `leaves` (a
    range) leaves each, and the leaves' paths; `max_line(draw)`: a leaf's resource line, or None."""
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    paths = []
    for p in range(draw(_int(*parents))):
        lines += [f"          - name: p{p}", "            queues:"]
        for l in range(draw(_int(*leaves))):
            lines.append(f"              - name: l{l:02}")
            extra = max_line(draw) if max_line else None
            if extra:
                lines += ["                resources:", f"                  {extra}"]
            paths.append(f"root.p{p}.l{l:02}")
    return lines, paths


def _asked(types: tuple, amounts: tuple, partial: bool) -> list[dict]:
    """Every resources dict an ask over `types` may hold, quantities from `amounts`, each asking
    for something (else its first type, or the last without `partial`, is made 1), the
    plainest first; `partial`: a type may be missing. One draw picks one: hypothesis spends
    about 20 microseconds a draw, and big scenarios draw thousands of asks."""
    out = []
    for combo in itertools.product(*[amounts + ((None,) if partial else ())] * len(types)):
        r = {t: v for t, v in zip(types, combo) if v is not None}
        named = next(iter(r), types[0]) if partial else types[-1]
        r[named] = max(1, r.get(named, 0))
        out.append(r)
    return out


@st.composite
def tie_groups(draw, types: tuple, big: bool = False, limits: bool = False, partial: bool = False):
    """(queues.yaml text, snapshot dict) where siblings tie: parents of leaves under root,
    priorities all 0 (`big`) or nearly, small asks (a 0 for some type too: the largest type's
    share, and so the key, of the queue taken can stay as it was, and it joins its group again),
    some applications running (usage). `types`: the types asks name (none: the default pods);
    `big`: 2 to 4 parents of 8 to 30 leaves and 60 to 140 applications (tie groups of more than
    20: Go's merges), else 2 to 5 parents of 2 to 8 leaves and 5 to 40 applications; `limits`:
    a max on some leaves and a cluster capacity that runs out (queues dropped on the way);
    `partial`: asks may leave a type out. Without `limits` and `partial`, simplerun takes every
    one of them. One in four big ones gives every application one ask."""
    def leaf_max(draw):
        return f"max: {{{types[0]}: {draw(_int(2, 8))}}}" if limits and types and _sometimes(draw, 4) else None

    lines, leaves = _two_levels(draw, (2, 4) if big else (2, 5), (8, 30) if big else (2, 8), leaf_max)
    priority = st.just(0) if big else st.sampled_from([0, 0, 0, 1])
    resources = st.sampled_from(_asked(types, (0, 1, 2, 4) if big else (0, 1, 2, 3), partial)) if types else st.none()
    # one ask an application, in one of four big scenarios: most choices then take a leaf's
    # last ask, so siblings leave the candidates in the middle of a tie group (the positions
    # after them move down), where re-keyed ones rarely do
    single = big and _sometimes(draw, 3)
    apps = []
    for i in range(draw(_int(60, 140) if big else _int(5, 40))):
        asks = []
        for _ in range(1 if single else draw(_int(1, 4 if big else 6))):
            a: dict = {"priority": draw(priority)}
            r = draw(resources)
            if r is not None:
                a["resources"] = dict(r)
            asks.append(a)
        app: dict = {"id": f"app-{i}", "queue": draw(st.sampled_from(leaves)), "asks": asks}
        if types and _sometimes(draw, 4):
            app["allocated"] = {t: draw(st.sampled_from([2, 4])) for t in types}
        apps.append(app)
    snapshot: dict = {"applications": apps}
    if limits and types and draw(_BOOL):
        snapshot["capacity"] = {t: draw(_int(100, 600) if big else _int(5, 40)) for t in types}
    return "\n".join(lines) + "\n", snapshot


@st.composite
def aligned_limits(draw):
    """(queues.yaml text, snapshot dict) where the walk's fast pick meets the maxes: one or two
    levels of parents, the siblings of each parent under one max they share (or none: siblings
    that differ in fair max are sorted every step, which turns the fast pick off) and of distinct
    priority offsets (siblings seldom tie), a cluster capacity or none, and small asks that run
    the maxes out, exactly too."""
    types = draw(st.sampled_from(TYPE_SETS))
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    leaves: list[str] = []

    def level(path: str, indent: int, depth: int) -> None:
        shared = {t: draw(_int(1, 8)) for t in types if draw(_BOOL)} if draw(_BOOL) else None
        for k in range(draw(_int(1, 3))):
            lines.append(" " * indent + f"- name: q{k}")
            if k:
                lines.extend([" " * (indent + 2) + "properties:", " " * (indent + 4) + f'priority.offset: "{10 * k}"'])
            if shared:
                lines.extend([" " * (indent + 2) + "resources:", " " * (indent + 4) + f"max: {shared}"])
            if depth and draw(_BOOL):
                lines.append(" " * (indent + 2) + "queues:")
                level(f"{path}.q{k}", indent + 4, depth - 1)
            else:
                leaves.append(f"{path}.q{k}")

    level("root", 10, 2)
    resources = st.sampled_from(_asked(types, (0, 1, 2, 3), True))
    apps = [{"id": f"app-{i}", "queue": draw(st.sampled_from(leaves)),
             "asks": [{"priority": draw(st.sampled_from([0, 0, 1])), "resources": dict(draw(resources))}
                      for _ in range(draw(_int(1, 5)))]}
            for i in range(draw(_int(1, 10)))]
    snapshot: dict = {"applications": apps}
    if draw(_BOOL):
        snapshot["capacity"] = {t: draw(_int(2, 20)) for t in types}
    return "\n".join(lines) + "\n", snapshot


@st.composite
def long_runs(draw, types: tuple, parents: int = 3, leaves: int = 5, apps: int = 30, asks: int = 100):
    """(queues.yaml text, snapshot dict) of `apps` applications of `asks` asks each over
    `parents` parents of `leaves` leaves, for what only a long run shows (thousands of steps).
    Hypothesis caps what one example draws, so each application repeats a short drawn list of
    (priority, resources)."""
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    for p in range(parents):
        lines += [f"          - name: p{p}", "            queues:"] + [f"              - name: l{i}" for i in range(leaves)]
    ask = st.tuples(_int(0, 3), pendings(types, 1, 4))
    out = []
    for i in range(apps):
        pattern = draw(st.lists(ask, min_size=1, max_size=6))
        out.append({"id": f"a{i}", "queue": f"root.p{i % parents}.l{i % leaves}",
                    "asks": [{"priority": pattern[k % len(pattern)][0], "resources": pattern[k % len(pattern)][1]}
                             for k in range(asks)]})
    return "\n".join(lines) + "\n", {"applications": out}


# Values a config or a snapshot should not hold, or holds at an edge: what `mutated` writes.
AWKWARD_VALUES = [None, True, False, 0, -1, 1.5, 2.0, float("nan"), float("inf"), 18446744073709551616, "x", "yes",
                  [], {}, [1], {"a": 1}, {1: 2}]


def _places(doc) -> list:
    """Every (container, key or index) of a JSON-like document, depth first."""
    out = []

    def walk(x):
        for k in (list(x) if isinstance(x, dict) else range(len(x)) if isinstance(x, list) else ()):
            out.append((x, k))
            walk(x[k])

    walk(doc)
    return out


@st.composite
def mutated(draw, doc):
    """A copy of a JSON-like document (as YAML or JSON reads it) with one to three of its
    values replaced by one of AWKWARD_VALUES, or a key added beside one (an unknown key, a
    name's case changed). Half the values replaced are numbers where the document has any:
    few of a config's values are, and they are where a schema's types and bounds bite."""
    doc = copy.deepcopy(doc)
    places = _places(doc)
    if not places:
        return doc
    numbers = [(c, k) for c, k in places if type(c[k]) in (int, float)]
    for _ in range(draw(_int(1, 3))):
        parent, key = draw(st.sampled_from(numbers if numbers and draw(_BOOL) else places))
        value = copy.deepcopy(draw(st.sampled_from(AWKWARD_VALUES)))
        if isinstance(parent, dict) and _sometimes(draw, 4):
            name = draw(st.sampled_from(["nosuch", "Name", key if isinstance(key, str) else "k"]))
            parent[name + draw(st.sampled_from(["", "x"]))] = value
        else:
            parent[key] = value
    return doc


QUANTITIES = [1, 2.5, "500m", "1Gi", 0, -0.0, 2147483647]


@st.composite
def snapshot_documents(draw):
    """A small native snapshot as a file holds it: applications (some with a submit time,
    running with usage, a user and groups), their asks (priorities, quantities written every
    way a file may write them: QUANTITIES, ints, floats, '500m', '1Gi', -0.0), nodes or a
    capacity. For reading files: nothing here need make sense to schedule."""
    quantity = st.sampled_from(QUANTITIES)

    def resources():
        return {t: draw(quantity) for t in ("vcore", "memory") if draw(_BOOL)} or {"vcore": draw(quantity)}

    apps = []
    for i in range(draw(_int(1, 12))):
        app: dict = {"id": f"a{i}", "queue": draw(st.sampled_from(["root.a", "root.b.c"])),
                     "asks": [{"priority": draw(_int(-5, 5)), "resources": resources()} for _ in range(draw(_int(0, 3)))]}
        if _sometimes(draw, 3):
            app["submitTime"] = draw(_int(1, 3))
        if _sometimes(draw, 3):
            app["allocated"] = resources()
        if _sometimes(draw, 3):
            app["user"] = draw(st.sampled_from(USERS))
            app["groups"] = draw(st.lists(st.sampled_from(GROUPS), max_size=2, unique=True))
        apps.append(app)
    snapshot: dict = {"applications": apps}
    if draw(_BOOL):
        snapshot["nodes"] = [{"name": f"node-{k}", "capacity": resources(), "schedulable": draw(_BOOL)}
                             for k in range(draw(_int(1, 3)))]
    elif draw(_BOOL):
        snapshot["capacity"] = resources()
    return snapshot


def an_example(strategy, condition, max_examples: int = 500):
    """An example `strategy` draws that meets `condition`, found by generating alone (no
    shrinking: it proves the strategy reaches the case, it need not be the smallest); fails the
    test (hypothesis.errors.NoSuchExample) when none of `max_examples` does. For the guarantee
    a property test needs beside its own examples: that its strategy reaches a case at all."""
    with warnings.catch_warnings():  # find reports what it found, a scenario's repr is long
        warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)
        return find(strategy, condition, settings=settings(max_examples=max_examples, phases=[Phase.generate], database=None, deadline=None))


# Times around the default submit times of the first applications (2024-01-01T00:00:00Z plus a
# second per position): running allocations created before, at or after them (fifo's submit
# time, the victims' newest-first order)
EPOCH_2024 = 1_704_067_200
RULES = [
    ["  - name: provided", "    create: false"],
    ["  - name: provided", "    create: false", "    filter: {type: deny, users: [carol]}"],
    ["  - name: user", "    create: true", "    parent: {name: fixed, value: root.users}"],
    ["  - name: user", "    create: false", "    parent: {name: fixed, value: root.users}", "    filter: {type: allow, groups: [g1]}"],
    ["  - name: fixed", "    value: root.p0.l00", "    create: false", "    filter: {type: allow, users: ['^a.*']}"],
]


@st.composite
def everything(draw, preempting: bool | None = None):
    """(queues.yaml text, snapshot dict): scenarios(cluster=True) with every feature at once, as
    ../shared/testdata/yunikorn-conformance-3 combines them: placement rules (provided, user
    under a fixed root.users, fixed, with user and group filters) and applications naming
    root.users.<user>, a queue that does not exist or a parent (placed or rejected); running
    allocations with priorities over the int32 range, create times around the default submit
    times, originators and allowPreemption false; asks at the int32 ends and with
    preemptionPolicy Never; and the preemption switch on with a guarantee (`preempting`, None:
    drawn), which only the reference engine runs, or off, which the walk runs."""
    if preempting is None:
        preempting = draw(_BOOL)
    queues, snapshot = draw(scenarios(limits=True, cluster=True, preempting=preempting))
    lines = queues.splitlines()
    if draw(_BOOL):
        rules = ["    placementrules:"]
        for r in draw(st.lists(st.sampled_from(range(len(RULES))), min_size=1, max_size=3, unique=True)):
            rules += ["    " + x for x in RULES[r]]
        lines[2:2] = rules
        lines += ["          - name: users", "            parent: true"]
    priorities = st.sampled_from([0, 5, -7, 2147483647, -2147483648, 2147483646])
    for app in snapshot["applications"]:
        if _sometimes(draw, 4):
            app["queue"] = draw(st.sampled_from(["root.users." + app.get("user", "nobody"), "root.adhoc", "root.p0"]))
        for a in app.get("allocations", ()):
            a["priority"] = draw(priorities)
            if draw(_BOOL):
                a["createTime"] = EPOCH_2024 + draw(_int(0, 3))
            if _sometimes(draw, 3):
                a["originator"] = True
            if _sometimes(draw, 3):
                a["allowPreemption"] = False
        for k in app["asks"]:
            if _sometimes(draw, 4):
                k["priority"] = draw(priorities)
            if _sometimes(draw, 4):
                k["preemptionPolicy"] = "Never"
    return "\n".join(lines) + "\n", snapshot


@st.composite
def rest_scenarios(draw, limits: bool = True):
    """(REST queues dump as a dict, snapshot dict): the queue tree as YuniKorn's
    /ws/v1/partition/{p}/queues serves it (merged properties, guaranteedResource, maxResource,
    maxRunningApps, allocatedResource, status), the features only a dump carries: queues
    `Stopped` (and `Draining`, still scheduled), usage the dump reports (allocatedResource, more
    or less than the applications given hold), and a maxResource with a zero
    for some type beside a positive one (a fair max of zero: StrictlyGreaterThanZero holds).
    Root's maxResource is the cluster capacity, as the loader reads it. The applications are
    drawn as scenarios() draws them, on the dump's leaves."""
    _, snapshot = draw(scenarios(limits=limits, many_siblings=False))
    types = sorted({t for app in snapshot["applications"] for a in app["asks"] for t in a.get("resources", {})}) or ["vcore"]

    def resources(low: int, high: int, zero: bool = False) -> dict:
        out = {t: draw(_int(low, high)) for t in types if draw(_BOOL)} or {types[0]: draw(_int(max(1, low), high))}
        if zero and _sometimes(draw, 2):  # a zero beside a positive value: the fair max of that type is 0
            out[draw(st.sampled_from(types))] = 0
            if not any(v > 0 for v in out.values()):
                out[types[0] if out.get(types[0]) else types[-1]] = draw(_int(1, high))
        return out

    def queue(path: str, leaf: bool, kids: list) -> dict:
        props = {}
        offset = draw(st.sampled_from(OFFSETS))
        if offset:
            props["priority.offset"] = str(offset)
        if _sometimes(draw, 2):
            props["priority.policy"] = "fence"
        if leaf and draw(_BOOL):
            props["application.sort.policy"] = "fair"
        if _sometimes(draw, 5):
            props["application.sort.priority"] = "disabled"
        q: dict = {"queuename": path, "status": "Active", "isLeaf": leaf, "properties": props, "children": kids}
        if limits and _sometimes(draw, 3):
            q["maxResource"] = resources(1, 12, zero=True)
        if _sometimes(draw, 3):
            q["guaranteedResource"] = resources(1, 8)
        if limits and _sometimes(draw, 5):
            q["maxRunningApps"] = draw(_int(1, 3))
        if _sometimes(draw, 2):
            q["allocatedResource"] = resources(0, 6)
        if path != "root" and _sometimes(draw, 3):
            q["status"] = draw(st.sampled_from(["Stopped", "Draining"]))
        return q

    leaves = sorted({app["queue"] for app in snapshot["applications"]})
    parents: dict = {}
    for leaf in leaves:  # the dump holds every queue above each leaf an application names
        parts = leaf.split(".")
        for i in range(1, len(parts)):
            parents.setdefault(".".join(parts[:i]), set()).add(".".join(parts[: i + 1]))

    def build(path: str) -> dict:
        kids = [build(k) for k in sorted(parents.get(path, ()))]
        return queue(path, not kids and path != "root", kids)

    dump = build("root")
    if "maxResource" in dump:
        snapshot["capacity"] = dump["maxResource"]
    else:
        snapshot.pop("capacity", None)
    return dump, snapshot


GANG_STYLES = ["Soft", "Hard"]
TIMEOUTS = [0, 30, 60, 600]
HORIZONS = [30, 120, 900, 3600]


@st.composite
def gangs(draw, preempting: bool | None = False, in_place: bool = False):
    """(queues.yaml text, snapshot dict): scenarios(cluster=True) with one or more applications
    made gangs, as ../shared/testdata/yunikorn-gangs has them: one or two task groups (minMember
    1-4, a minResource over the scenario's types), most asks in a group (some of the group's
    size, others larger or smaller, some in none, more or fewer of them than minMember), now and
    then a running allocation made a placeholder of a group, a style and a timeout, and a
    horizon in half the scenarios. `preempting`: as scenarios' (None: drawn). `in_place`: the
    gang walk's common case (gangwalk.py) most of the time: a gang's asks are exactly its
    members (minMember of each group, of its minResource, the application's first priority; smaller
    gangs, which complete more often), and
    every other gang has one pod more (first or last), of its group's size, larger, smaller, or in no group;
    its running allocations dropped (a running pod skips the reservation)."""
    if preempting is None:
        preempting = draw(_BOOL)
    queues, snapshot = draw(scenarios(limits=True, cluster=True, preempting=preempting))
    types = tuple(snapshot["nodes"][0]["capacity"])
    apps = snapshot["applications"]
    chosen = [a for a in apps if draw(_BOOL)] or [apps[0]]
    for app in chosen:
        groups = []
        for g in range(draw(_int(1, 2))):
            res = {t: draw(_int(0, 2 if in_place else 3)) for t in types}  # (in place: smaller gangs, which complete more often)
            res[types[0]] = max(1, res[types[0]])
            groups.append({"name": f"tg{g}", "minMember": draw(_int(1, 2 if in_place else 4)), "minResource": res})
        app["taskGroups"] = groups
        if not app["asks"]:
            app["asks"] = [{"priority": 0, "resources": dict(g["minResource"]), "taskGroup": g["name"], "count": g["minMember"]}
                           if g["minMember"] > 1 else {"priority": 0, "resources": dict(g["minResource"]), "taskGroup": g["name"]}
                           for g in groups]
        for k in app["asks"]:
            if "taskGroup" in k or _sometimes(draw, 5):  # a pod without task group
                continue
            g = draw(st.sampled_from(groups))
            k["taskGroup"] = g["name"]
            if not _sometimes(draw, 3):  # mostly a member of its group's size (else larger or smaller)
                k["resources"] = dict(g["minResource"])
        if in_place:
            prio = app["asks"][0].get("priority", 0)
            app["asks"] = [{"priority": prio, "resources": dict(g["minResource"]), "taskGroup": g["name"], "count": g["minMember"]}
                           if g["minMember"] > 1 else {"priority": prio, "resources": dict(g["minResource"]), "taskGroup": g["name"]}
                           for g in groups]
            app.pop("allocations", None)  # (a real pod running: the shim skips the reservation)
            app.pop("allocated", None)
            if _sometimes(draw, 1):
                g = draw(st.sampled_from(groups))
                odd = {"priority": prio, "resources": dict(g["minResource"]), "taskGroup": g["name"]}
                how = draw(st.sampled_from(["larger", "smaller", "extra", "no group"]))
                res = odd["resources"]
                if how == "larger":
                    res[types[0]] += 1
                elif how == "smaller":  # (its placeholder keeps the difference: not in place)
                    k = next((t for t in types if res.get(t, 0) > (1 if t == types[0] else 0)), None)
                    if k is not None:
                        res[k] -= 1
                elif how == "no group":
                    del odd["taskGroup"]
                app["asks"].insert(draw(st.sampled_from([0, len(app["asks"])])), odd)  # (first: tried first)
        for a in app.get("allocations", ()):
            if not in_place and _sometimes(draw, 2):  # a running placeholder of a group (its resources: the group's minResource)
                g = draw(st.sampled_from(groups))
                a.update(placeholder=True, taskGroup=g["name"], resources=dict(g["minResource"]))
        if _sometimes(draw, 2):
            app["gangSchedulingStyle"] = draw(st.sampled_from(GANG_STYLES))
        if _sometimes(draw, 2):
            app["placeholderTimeoutInSeconds"] = draw(st.sampled_from(TIMEOUTS))
    if draw(_BOOL):
        snapshot["horizon"] = draw(st.sampled_from(HORIZONS))
    return queues, snapshot
