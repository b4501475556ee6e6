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
wildcards, maxresources over some types, maxapplications) at any level.
Sizes stay small (a scenario runs in milliseconds through the reference engine) and every
choice shrinks towards the plain case: hypothesis then reports the smallest disagreement.
"""
from __future__ import annotations

from hypothesis import strategies as st

TYPE_SETS = [("pods",), ("vcore",), ("memory", "vcore"), ("gpu", "memory", "vcore")]
OFFSETS = [0, 1, -1, 3, -5, 2147483647, -2147483648]


USERS = ["alice", "bob", "carol"]
GROUPS = ["g1", "g2", "g3"]


@st.composite
def limit_lines(draw, types: tuple) -> list[str]:
    """A queue's `limits`: one to three entries for named users or groups or wildcards."""
    out = ["limits:"]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["users", "groups"]))
        names = draw(st.sampled_from([["*"], [USERS[0]], [USERS[1], USERS[2]]] if kind == "users" else
                                     [["*"], [GROUPS[0]], [GROUPS[1], GROUPS[2]]]))
        out.append("  - limit: l")
        out.append(f"    {kind}: [{', '.join(repr(n) for n in names)}]")
        if draw(st.booleans()):
            t = draw(st.sampled_from(types))
            out.append(f"    maxresources: {{{t}: {draw(st.integers(0, 6))}}}")
        if draw(st.booleans()):
            out.append(f"    maxapplications: {draw(st.integers(1, 3))}")
    return out


@st.composite
def queue_settings(draw, leaf: bool, types: tuple, limits: bool, user_limits: bool = False,
                   guarantee: bool = False) -> list[str]:
    """The YAML lines of one queue's settings (properties, maxapplications, resources);
    `guarantee`: always a guaranteed resource."""
    props = []
    offset = draw(st.sampled_from(OFFSETS))
    if offset:
        props.append(f'priority.offset: "{offset}"')
    if draw(st.booleans()) and draw(st.booleans()):
        props.append("priority.policy: fence")
    if leaf and draw(st.booleans()):
        props.append("application.sort.policy: fair")
    if draw(st.integers(0, 5)) == 0:
        props.append("application.sort.priority: disabled")
    out = ["properties:"] + ["  " + p for p in props] if props else []
    if limits and draw(st.integers(0, 5)) == 0:
        out.append(f"maxapplications: {draw(st.integers(1, 3))}")
    resources = []
    if limits and draw(st.integers(0, 4)) == 0:
        t = draw(st.sampled_from(types))
        resources.append(f"max: {{{t}: {draw(st.integers(1, 12))}}}")
    if guarantee or draw(st.integers(0, 4)) == 0:
        t = draw(st.sampled_from(types))
        resources.append(f"guaranteed: {{{t}: {draw(st.integers(1, 8))}}}")
    if resources:
        out += ["resources:"] + ["  " + r for r in resources]
    if user_limits and draw(st.integers(0, 2)) == 0:
        out += draw(limit_lines(types))
    return out


@st.composite
def scenarios(draw, limits: bool = True, many_siblings: bool | None = None, cluster: bool = False,
              preempting: bool = False):
    """(queues.yaml text, snapshot dict). `limits`: maxes, maxapplications and a capacity may
    occur; `many_siblings`: force (True) or forbid (False) a parent of more than 20 children;
    `cluster`: nodes, users, groups and user/group limits (above); `preempting` (with
    `cluster`): the preemption switch on and a guarantee on root.p0, so that YuniKorn's
    preemption runs inside the run."""
    types = draw(st.sampled_from(TYPE_SETS))
    lines = ["partitions:", "  - name: default"]
    if cluster:
        sort = draw(st.sampled_from([None, "fair", "binpacking"]))
        if sort:
            lines += ["    nodesortpolicy:", f"      type: {sort}"]
            if draw(st.integers(0, 3)) == 0:
                lines.append(f"      resourceweights: {{{types[0]}: {draw(st.sampled_from([0.5, 1, 3]))}}}")
        if not preempting and draw(st.booleans()):
            lines += ["    preemption:", "      enabled: false"]
    lines += ["    queues:", "      - name: root", "        queues:"]
    leaves: list[str] = []
    big = draw(st.booleans()) if many_siblings is None else many_siblings
    n_parents = draw(st.integers(1, 3))
    big_parent = draw(st.integers(0, n_parents - 1)) if big else -1

    def add(path: str, name: str, indent: int, leaf: bool) -> None:
        lines.append(" " * indent + f"- name: {name}")
        guarantee = preempting and path == "root" and name == "p0"
        lines.extend(" " * (indent + 2) + x for x in draw(queue_settings(leaf, types, limits, cluster, guarantee)))
        if leaf:
            leaves.append(f"{path}.{name}")

    for p in range(n_parents):
        add("root", f"p{p}", 10, False)
        lines.append(" " * 12 + "queues:")
        n_children = draw(st.integers(21, 26)) if p == big_parent else draw(st.integers(1, 4))
        for m in range(n_children):
            if p == big_parent or draw(st.booleans()):
                add(f"root.p{p}", f"l{m:02}", 14, True)
                continue
            add(f"root.p{p}", f"m{m}", 14, False)
            lines.append(" " * 16 + "queues:")
            for k in range(draw(st.integers(1, 3))):
                add(f"root.p{p}.m{m}", f"l{k}", 18, True)
    equal = draw(st.booleans())
    priorities = st.just(0) if equal else st.sampled_from([0, 0, 1, 5, -3, 2147483647])
    apps = []
    n_apps = draw(st.integers(1, 30 if big else 14))
    for i in range(n_apps):
        asks = []
        for _ in range(draw(st.integers(0, 4))):
            a: dict = {"priority": draw(priorities)}
            if types != ("pods",) or draw(st.booleans()):
                named = draw(st.lists(st.sampled_from(types), min_size=1, unique=True)) if draw(st.integers(0, 5)) == 0 else types
                a["resources"] = {t: draw(st.integers(0, 3)) for t in named}
                a["resources"][named[0]] = max(1, a["resources"][named[0]])
                if limits and draw(st.integers(0, 20)) == 0:
                    a["resources"] = {}  # an ask for nothing
            if draw(st.integers(0, 6)) == 0:
                a["createTime"] = draw(st.integers(1, 3))
            if draw(st.integers(0, 6)) == 0:
                a["count"] = draw(st.integers(2, 4))
            asks.append(a)
        queue = draw(st.sampled_from(leaves))
        if draw(st.integers(0, 15)) == 0:  # not in the config: a dynamic leaf under p0
            queue = f"root.p0.dyn{draw(st.integers(0, 1))}"
        app: dict = {"id": f"app-{draw(st.integers(0, 9))}{i:02}", "queue": queue, "asks": asks}
        if draw(st.integers(0, 3)) == 0:
            app["submitTime"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 6)) == 0:
            app["allocated"] = {t: draw(st.integers(1, 4)) for t in types if draw(st.booleans())}
        elif draw(st.integers(0, 9)) == 0:
            app["state"] = "Running"
        apps.append(app)
    snapshot: dict = {"applications": apps}
    if cluster:
        sizes = draw(st.lists(st.integers(2, 9), min_size=1, max_size=3))
        nodes = [{"name": f"node-{k}", "capacity": {t: draw(st.sampled_from(sizes)) for t in types}}
                 for k in range(draw(st.integers(1, 4)))]
        for n in nodes:  # room other schedulers' pods take (occupied), up to the whole node
            if draw(st.integers(0, 3)) == 0:
                n["occupied"] = {t: draw(st.integers(1, v)) for t, v in n["capacity"].items() if draw(st.booleans())}
        for node in nodes:  # cordoned or draining: nothing placed there, what runs there stays
            if draw(st.integers(0, 4)) == 0:
                node["schedulable"] = False
        snapshot["nodes"] = nodes
        for app in apps:
            if draw(st.integers(0, 2)) == 0:
                app["user"] = draw(st.sampled_from(USERS))
                if draw(st.booleans()):
                    app["groups"] = draw(st.lists(st.sampled_from(GROUPS), min_size=1, max_size=2, unique=True))
            if app.pop("allocated", None) is not None or draw(st.integers(0, 8)) == 0:
                node = draw(st.sampled_from(nodes))
                app["allocations"] = [{"id": f"{app['id']}-run", "resources": {t: draw(st.integers(1, 2)) for t in types},
                                       "node": node["name"]}]
            app.pop("state", None)
    elif limits and draw(st.integers(0, 3)) == 0:
        snapshot["capacity"] = {t: draw(st.integers(4, 60)) for t in types}
    return "\n".join(lines) + "\n", snapshot


@st.composite
def sort_inputs(draw, max_size: int = 130):
    """Keys and pending vectors of a parent's candidates, as gosort's functions take them:
    few distinct keys and small vectors, so that tie groups and incomparable pairs abound."""
    n = draw(st.integers(0, max_size))
    width = draw(st.integers(1, 3))
    n_keys = draw(st.integers(1, 4))
    keys = draw(st.lists(st.integers(0, n_keys), min_size=n, max_size=n))
    vecs = draw(st.lists(st.tuples(*[st.integers(0, 6)] * width), min_size=n, max_size=n))
    return keys, vecs
