"""Priority offsets that lift work into the Kubernetes system range or saturate int32.

The reach of a queue is computed the way YuniKorn computes a queue's priority (leaf: ask +
offset; parent: max of the children + offset; a fenced queue reports only its offset; every
step saturates at the int32 bounds), taking the highest user priority a pod may have."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.kube.priorityclass import HIGHEST_USER as USER_MAX
from prio.kube.priorityclass import SYSTEM_CLUSTER_CRITICAL as SYSTEM_CLUSTER
from prio.kube.priorityclass import SYSTEM_NODE_CRITICAL as SYSTEM_NODE
from prio.lint.registry import check
from prio.yunikorn import properties as P
from prio.yunikorn.config import queue_path

_PLAIN = (0, False)  # P.offset(None)[0], and priority_policy(None) is not a fence
_OWN: dict = {}  # id(queue) -> (queue, (offset, fenced)): the queue is kept, so its id stays its own


def own_priority(q):
    """(offset, fenced) from the queue's own properties: neither is inherited. Cached per queue
    (the priority lints ask for every queue several times)."""
    props = q.properties
    if P.PRIORITY_OFFSET not in props and P.PRIORITY_POLICY not in props:
        return _PLAIN  # most queues: nothing to parse, nothing to keep
    got = _OWN.get(id(q))
    if got is not None and got[0] is q:
        return got[1]
    off, _ = P.offset(q.properties.get(P.PRIORITY_OFFSET))
    fenced = P.priority_policy(q.properties.get(P.PRIORITY_POLICY))[0] == "fence"
    _OWN[id(q)] = (q, (off, fenced))
    return off, fenced


def reach(root, ask: int):
    """For every queue under root: (unclamped value, reported value, source leaf) when its subtree
    holds one ask of priority `ask`. Returns {id(queue): (raw_plus_offset, reported, leaf)};
    raw_plus_offset is None where the sentinel -2147483648 only passed through from below."""
    out = {}
    order = []
    stack = [root]
    while stack:
        q = stack.pop()
        order.append(q)
        stack.extend(q.children)
    for q in reversed(order):  # children before parents
        off, fenced = own_priority(q)
        children = q.children
        if children:
            best = out[id(children[0])]  # the first of the highest reported, as max() takes it
            for c in children:
                t = out[id(c)]
                if t[1] > best[1]:
                    best = t
            raw, leaf = best[1], best[2]
        else:
            raw, leaf = ask, q
        if raw == P.INT32_MIN:  # "nothing pending" passes through, as priorityValueByPolicy does
            out[id(q)] = (None, raw, leaf)  # None: nothing computed at this level
            continue
        total = raw + off
        out[id(q)] = (total, off if fenced else P.clamp32(total), leaf)
    return out


def _reach(ctx, root, ask: int) -> dict:
    """reach(root, ask), worked out once for the rules that ask (they only read it)."""
    return ctx.derived(("priority-reach", id(root), ask), lambda: reach(root, ask))


def _within_user_range(ctx) -> bool:
    """Whether no queue can report a value these rules warn about, whatever its place: every
    reported value lies between the sum of all negative offsets and USER_MAX plus the sum of all
    positive ones (a leaf adds its offset to the ask, a parent to its highest child, a fence
    reports its offset alone), so when that range stays below system-cluster-critical and above
    int32's bottom, neither rule can fire and the two reach walks are not needed (most configs:
    small offsets or none)."""

    def bounded():
        pos = neg = 0
        for _, q, _ in ctx.queues:
            off = own_priority(q)[0]
            if off > 0:
                pos += off
            else:
                neg += off
        return USER_MAX + pos < SYSTEM_CLUSTER and neg > P.INT32_MIN
    return ctx.derived("priority-within-user-range", bounded)


def _fence_above(anc):
    for a in reversed(anc[1:]):
        if own_priority(a)[1]:
            return a
    return None


@check("PRIO201", "offset-exceeds-system-priority", "warning", "priority")
def offset_exceeds_system_priority(ctx):
    """A priority.offset that lifts user pods to or above the Kubernetes system priorities.

    User PriorityClasses go up to 1,000,000,000; system-cluster-critical is 2,000,000,000 and
    system-node-critical 2,000,001,000. Offsets add up along a queue's path (they are never
    inherited, a fence stops them), so a large offset lets ordinary work compete with, or win
    over, cluster- and node-critical pods in sibling queues. YuniKorn's design accepted this and
    asked for it to be flagged.

    Example (warns):
        - name: batch
          properties:
            priority.offset: "1500000000"
    Fix: keep the offsets on every unfenced path below 1,000,000,000 in total, or fence the queue.
    """
    if _within_user_range(ctx):
        return
    for p, root in ctx.trees:
        values = _reach(ctx, root, USER_MAX)
        for _, q, anc in ((x, y, z) for x, y, z in ctx.queues if x is p):
            if not anc:
                continue
            total, rep, leaf = values[id(q)]
            off, fenced = own_priority(q)
            if rep < SYSTEM_CLUSTER or off <= 0:
                continue
            below = rep - off if not fenced else None
            if below is not None and below >= SYSTEM_CLUSTER:
                continue  # already over before this queue: reported where it first crossed
            leaf_path = _path_of(ctx, leaf)
            names = [f"system-cluster-critical (2000000000) by {rep - SYSTEM_CLUSTER}" if rep > SYSTEM_CLUSTER else "system-cluster-critical (2000000000)"]
            if rep >= SYSTEM_NODE:
                names.append(f"system-node-critical (2000001000) by {rep - SYSTEM_NODE}" if rep > SYSTEM_NODE else "system-node-critical (2000001000)")
            src = "its own offset (fenced)" if fenced else f"a pod of priority {USER_MAX} in {leaf_path}"
            fence = _fence_above(anc)
            scope = f"; the fence on {_path_of(ctx, fence)} keeps it inside that subtree" if fence is not None else ""
            yield Issue("PRIO201", q.path + ("properties", P.PRIORITY_OFFSET),
                        f"{queue_path(q, anc)} reports {rep} for {src}: at or above " + " and ".join(names) + f" (offsets are never inherited, they add up along the unfenced path){scope}")


def _path_of(ctx, q):
    for _, x, anc in ctx.queues:
        if x is q:
            return queue_path(x, anc)
    return q.name


@check("PRIO202", "offset-saturates", "warning", "priority")
def offset_saturates(ctx):
    """Offsets whose sum leaves the int32 range, where YuniKorn saturates the queue priority.

    Queue priority is ask priority plus offsets, clamped to -2147483648..2147483647. At the top,
    asks of different priorities become equal (the order among them is lost); at the bottom the
    queue reports -2147483648, the value YuniKorn uses for "nothing pending", so its parent
    ignores it when it computes its own priority. Checked with a pod at the highest user
    priority (1,000,000,000) for the top and at the default priority (0) for the bottom.

    Example (warns): `priority.offset: "2147483000"` on a queue whose pods reach priority 1000.
    Fix: smaller offsets.
    """
    if _within_user_range(ctx):
        return
    for p, root in ctx.trees:
        hi, lo = _reach(ctx, root, USER_MAX), _reach(ctx, root, 0)
        for _, q, anc in ((x, y, z) for x, y, z in ctx.queues if x is p):
            if not anc:
                continue
            off, fenced = own_priority(q)
            if fenced or off == 0:
                continue
            seen = set()
            for values, ask in ((hi, USER_MAX), (lo, 0)):
                total, rep, leaf = values[id(q)]
                if total is None or total - off == P.INT32_MAX:
                    continue  # saturated below: reported where it happened
                if total > P.INT32_MAX:
                    bound, what = P.INT32_MAX, "asks above this level become indistinguishable"
                elif total <= P.INT32_MIN:
                    bound, what = P.INT32_MIN, "YuniKorn reads that as 'nothing pending', so the parent ignores this queue's priority"
                else:
                    continue
                if bound in seen:
                    continue
                seen.add(bound)
                yield Issue("PRIO202", q.path + ("properties", P.PRIORITY_OFFSET),
                            f"{queue_path(q, anc)}: a pod of priority {ask} gives {total}" + (f", which saturates at {bound}" if total != bound else "") + f": {what}")
