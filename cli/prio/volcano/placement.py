"""Where allocate puts a task, without looking at every node again for every task.

A scan (`Session._place_scan`) asks every node, per task, whether the task passes the
predicates there and on which of allocate's two gradients (idle now, or idle once its releasing
pods are gone) it lands, and scores the nodes of the better gradient. Tasks of one shape (the
same requests, node selector, affinity and tolerations) get the same answers from a node in the
same state, and one allocation changes one node. So per shape every node's answer is kept in a
heap, best first: (gradient, -score, position in name order); a node's entry is worked out
again only after something on it changed (an allocation, a pipeline, an eviction, a discard)
and only when a task of that shape next asks. The node chosen, and whether it tied with another
(`Task.tie`), are the scan's: tests/volcano/test_volcano_placement.py holds the two to the same
replays. The same bookkeeping keeps each shape's fit errors (every node's reasons, for the
PodGroup's and the pods' messages) and works them out again only for the nodes that changed.

Above MIN_NODES_TO_FIND nodes Volcano's predicate search stops at the first
`num_nodes_to_find` feasible nodes in name order and picks among those alone; then a shape keeps
a tree over the nodes in name order instead of a heap (`_Tree`): each subtree holds how many of
its nodes are feasible and its best (gradient, -score), how many nodes share it and the first of
them, so the best of the first k feasible nodes is one walk down."""
from __future__ import annotations

import heapq
from collections import OrderedDict

from prio.volcano.model import ZERO, res_le

INFEASIBLE = 2  # the gradient of a node the task does not pass: below both of allocate's gradients
MAX_SHAPES = 256  # shapes kept at once (each holds an entry per node); the least recently asked goes


class FitErrors(dict):
    """One task's NodesFitErrors (node -> reasons), shared by the tasks of its shape while no node
    changes; never changed once made (a later state makes a new one), so its text is kept."""

    __slots__ = ("text",)
    text: str  # fit_errors_text's, once asked


def _merge(a, b):
    """Two (gradient, -score, count, first position) bests, `a` of the nodes before `b`'s."""
    if a is None:
        return b
    if b is None:
        return a
    ka, kb = (a[0], a[1]), (b[0], b[1])
    if ka < kb:
        return a
    if kb < ka:
        return b
    return (a[0], a[1], a[2] + b[2], a[3])


class _Tree:
    """Per node in name order: None (infeasible) or (gradient, -score); per subtree the number of
    feasible nodes and the best with its count and first position."""

    __slots__ = ("size", "cnt", "best")

    def __init__(self, leaves: list) -> None:
        size = 1
        while size < len(leaves):
            size *= 2
        self.size = size
        self.cnt = [0] * (2 * size)
        self.best: list = [None] * (2 * size)
        for i, e in enumerate(leaves):
            if e is not None:
                self.cnt[size + i] = 1
                self.best[size + i] = (e[0], e[1], 1, i)
        for v in range(size - 1, 0, -1):
            self.cnt[v] = self.cnt[2 * v] + self.cnt[2 * v + 1]
            self.best[v] = _merge(self.best[2 * v], self.best[2 * v + 1])

    def set(self, i: int, e) -> None:
        v = self.size + i
        self.cnt[v], self.best[v] = (0, None) if e is None else (1, (e[0], e[1], 1, i))
        v //= 2
        cnt, best = self.cnt, self.best
        while v:
            cnt[v] = cnt[2 * v] + cnt[2 * v + 1]
            best[v] = _merge(best[2 * v], best[2 * v + 1])
            v //= 2

    def first(self, k: int):
        """The best over the first `k` feasible nodes (all of them when fewer), None if none."""
        cnt, best = self.cnt, self.best
        if cnt[1] <= k:
            return best[1]
        v, acc = 1, None
        while v < self.size:
            left = 2 * v
            if cnt[left] == k:
                return _merge(acc, best[left])
            if cnt[left] > k:
                v = left
            else:
                acc = _merge(acc, best[left])
                k -= cnt[left]
                v = left + 1
        return _merge(acc, best[v])


class _Shape:
    __slots__ = ("task", "heap", "tree", "seen", "errors", "errors_seen")

    def __init__(self, task) -> None:
        self.task = task  # the first task of the shape: every task of it gets the same answers
        self.tree: _Tree | None = None  # instead of the heap when the search stops early
        self.heap: list = []
        self.seen = 0  # how much of the change log the heap has taken in
        self.errors: FitErrors | None = None
        self.errors_seen = 0


def shape_key(t) -> tuple:
    """What a node's answer to `t` depends on besides the node: its requests (the resource check
    and the scores) and the predicates plugin's node filters."""
    p = t.pod
    return (tuple(sorted(t.req.items())), repr(sorted(p.node_selector.items())), repr(p.affinity), repr(p.tolerations))


class Placement:
    def __init__(self, ssn, k: int) -> None:
        self.ssn = ssn
        self.order = list(ssn.nodes.values())  # name order, as the scan visits them
        self.pos = {ns.name: i for i, ns in enumerate(self.order)}
        self.version = [0] * len(self.order)
        self.log: list = []  # positions of the nodes changed, in order
        self.shapes: OrderedDict = OrderedDict()
        self.k = k  # the feasible nodes a search collects (session.num_nodes_to_find)

    def touched(self, name: str) -> None:
        i = self.pos[name]
        self.version[i] += 1
        self.log.append(i)

    def _entry(self, t, i: int) -> tuple:
        ns = self.order[i]
        if not self.ssn.predicate(t, ns):
            return (INFEASIBLE, 0.0, i, self.version[i])
        return (0 if res_le(t.req, ns.idle(), ZERO) else 1, -self.ssn.score(t, ns), i, self.version[i])

    def _leaf(self, t, i: int):
        e = self._entry(t, i)
        return None if e[0] == INFEASIBLE else e[:2]

    def _shape(self, t) -> _Shape:
        key = t.shape
        if key is None:
            key = t.shape = shape_key(t)
        sh = self.shapes.get(key)
        if sh is None:
            sh = self.shapes[key] = _Shape(t)
            if self.k < len(self.order):
                sh.tree = _Tree([self._leaf(t, i) for i in range(len(self.order))])
            else:
                sh.heap = [self._entry(t, i) for i in range(len(self.order))]
                heapq.heapify(sh.heap)
            sh.seen = len(self.log)
            if len(self.shapes) > MAX_SHAPES:
                self.shapes.popitem(last=False)
        else:
            self.shapes.move_to_end(key)
        return sh

    def _valid_top(self, heap: list) -> tuple | None:
        version = self.version
        while heap and heap[0][3] != version[heap[0][2]]:
            heapq.heappop(heap)
        return heap[0] if heap else None

    def place(self, t):
        """The node allocate's scan picks for `t` (the best-scored node of the first non-empty
        gradient, the lowest name among equals), None when no node passes; sets `t.tie`."""
        sh = self._shape(t)
        if sh.tree is not None:
            return self._place_tree(t, sh, sh.tree)
        heap = sh.heap
        if sh.seen < len(self.log):
            for i in set(self.log[sh.seen:]):
                heapq.heappush(heap, self._entry(sh.task, i))
            sh.seen = len(self.log)
            if len(heap) > 2 * len(self.order) + 64:  # drop the entries later ones replaced
                version = self.version
                heap[:] = [e for e in heap if e[3] == version[e[2]]]
                heapq.heapify(heap)
        top = self._valid_top(heap)
        t.tie = False
        if top is None or top[0] == INFEASIBLE:
            return None
        heapq.heappop(heap)
        nxt = self._valid_top(heap)
        t.tie = nxt is not None and nxt[0] == top[0] and nxt[1] == top[1]
        heapq.heappush(heap, top)
        return self.order[top[2]]

    def _place_tree(self, t, sh: _Shape, tree: _Tree):
        if sh.seen < len(self.log):
            for i in set(self.log[sh.seen:]):
                tree.set(i, self._leaf(sh.task, i))
            sh.seen = len(self.log)
        top = tree.first(self.k)
        if top is None:
            t.tie = False
            return None
        t.tie = top[2] > 1
        return self.order[top[3]]

    def fit_errors(self, t) -> FitErrors:
        """Every node's reasons for failing `t` (Session.fit_reasons), in name order."""
        sh = self._shape(t)
        if sh.errors is None:
            sh.errors = FitErrors((ns.name, self.ssn.fit_reasons(sh.task, ns)) for ns in self.order)
        elif sh.errors_seen < len(self.log):
            errors = FitErrors(sh.errors)
            for i in set(self.log[sh.errors_seen:]):
                errors[self.order[i].name] = self.ssn.fit_reasons(sh.task, self.order[i])
            sh.errors = errors
        sh.errors_seen = len(self.log)
        return sh.errors
