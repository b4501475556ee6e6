"""User and group limits as YuniKorn's user/group manager enforces them (yunikorn-core
pkg/scheduler/ugm: Manager.Headroom, CanRunApp, ensureGroupInternal; QueueTracker.headroom,
canRunApp). Pure: no I/O.

A queue's `limits` entries give, per user or group, a `maxresources` and a `maxapplications` on
the usage in that queue's subtree:
- a user's limit at a queue is the entry naming the user, else the queue's wildcard user entry
  (`users: ['*']`: each user gets that amount), else none;
- an application is tracked under one group, chosen when it is first considered: from its leaf
  up to root, the first group of that queue's group entries (config order) that is one of the
  user's groups, else the wildcard group when the queue has one (all applications tracked under
  `*` share one usage), else one level up; nothing found: no group limit. That group's limits
  apply wherever the group is named (for `*`, the wildcard entries);
- the headroom of an ask is the smaller, per type, of the user's and the group's (only the types
  a limit names are limited; a `maxresources` of zeros limits nothing), and both
  maxapplications must allow one more running application for an application that does not run
  yet (one runs from its first allocation).
"""
from __future__ import annotations

from typing import NamedTuple

WILDCARD = "*"
DEFAULT_USER = "testuser"  # the user of an application whose snapshot names none (one for all)


def user_groups(user: str, groups) -> tuple:
    """The groups YuniKorn knows the user by (UserGroupCache.ConvertUGI): those the resource
    manager sent; none sent, the cache resolves the user, and without a resolver (the Kubernetes
    case) a user is a member of one primary group named as the user itself."""
    return tuple(groups) if groups else (user,)


class Limit(NamedTuple):
    """One limits entry's maxresources (None or parsed, YuniKorn units) and maxapplications
    (0: none)."""

    maxresources: dict | None
    maxapps: int


class Limits:
    """The limits of a partition's queue tree, by queue path (lowercase, as the tree's paths)."""

    def __init__(self):
        self.users: dict = {}  # path -> {user: Limit}
        self.user_wildcard: dict = {}  # path -> Limit
        self.groups: dict = {}  # path -> {group or '*': Limit}
        self.group_order: dict = {}  # path -> the named groups in config order (ensureGroupInternal)

    def add(self, path: str, users, groups, limit: Limit) -> None:
        """One limits entry of the queue at `path` (internalProcessConfig): a later entry naming
        the same user or group replaces the earlier one."""
        for u in users or ():
            if not u:
                continue
            if u == WILDCARD:
                self.user_wildcard[path] = limit
            else:
                self.users.setdefault(path, {})[u] = limit
        for g in groups or ():
            if not g:
                continue
            self.groups.setdefault(path, {})[g] = limit
            if g != WILDCARD:
                self.group_order.setdefault(path, []).append(g)

    def __bool__(self) -> bool:
        return bool(self.users or self.user_wildcard or self.groups)

    def user_limit(self, path: str, user: str) -> Limit | None:
        got = self.users.get(path, {}).get(user)
        return got if got is not None else self.user_wildcard.get(path)

    def group_limit(self, path: str, group: str) -> Limit | None:
        return self.groups.get(path, {}).get(group)

    def resolve_group(self, leaf_path: str, groups) -> str | None:
        """ensureGroup: the group an application of a user with `groups` is tracked under."""
        if not groups:
            return None
        path = leaf_path
        while True:
            for g in self.group_order.get(path, ()):
                if g in groups:
                    return g
            if WILDCARD in self.groups.get(path, {}):
                return WILDCARD
            if "." not in path:
                return None
            path = path.rsplit(".", 1)[0]


def levels(leaf_path: str) -> list[str]:
    """The queue paths from root down to the leaf."""
    parts = leaf_path.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


class Tracker:
    """One user's or group's usage: per queue path, the resources in use in that subtree and the
    applications running there."""

    __slots__ = ("usage", "running")

    def __init__(self):
        self.usage: dict = {}  # path -> resources
        self.running: dict = {}  # path -> set of application ids

    def add(self, leaf_path: str, app_id: str, res: dict) -> None:
        for p in levels(leaf_path):
            u = self.usage.setdefault(p, {})
            for k, v in res.items():
                u[k] = u.get(k, 0) + v
            self.running.setdefault(p, set()).add(app_id)

    def remove(self, leaf_path: str, app_id: str, res: dict, app_done: bool) -> None:
        """decreaseTrackedResource: an allocation released; the application stops counting as
        running when it has nothing left (removeApp)."""
        for p in levels(leaf_path):
            u = self.usage.setdefault(p, {})
            for k, v in res.items():
                u[k] = u.get(k, 0) - v
            if app_done:
                self.running.get(p, set()).discard(app_id)


class Served:
    """What a running YuniKorn's user/group manager tracks (`/ws/v1/partition/{p}/usage/users`
    and `/usage/groups`, the UserResourceUsageDAOInfo and GroupResourceUsageDAOInfo trees).

    YuniKorn's tracked usage is the sum of the allocations its applications hold: each
    allocation added to an application (placeholders included) is added to its user's and its
    group's trackers on every queue from root to the leaf (Application.addAllocationInternal ->
    Manager.IncreaseTrackedResource), and removed when it is released; an application counts as
    running on those queues from its first allocation until its last is released. So what the
    applications read from the same server hold is already part of it. What is not: the
    allocations of applications prio did not read, above all those of other partitions (the
    manager is one for the whole scheduler and keys its trackers by queue path alone, so
    `root.a` of two partitions is one tracker), and whatever changed between two requests.
    Usage.include takes the larger of the two per queue and resource type, and the union of the
    running applications: never counted twice, never less than YuniKorn holds."""

    __slots__ = ("users", "groups", "app_groups")

    def __init__(self, users=None, groups=None, app_groups=None):
        self.users: dict = users or {}  # user -> {queue path: (resources, set of running app ids)}
        self.groups: dict = groups or {}  # group -> the same
        self.app_groups: dict = app_groups or {}  # app id -> the group YuniKorn tracks it under

    def __bool__(self) -> bool:
        return bool(self.users or self.groups or self.app_groups)


class Usage:
    """Every user's and group's tracker, and the group each application is tracked under."""

    def __init__(self, limits: Limits, served: Served | None = None):
        """`served`: what a running YuniKorn tracks (Served); the groups it tracks applications
        under are taken as they are (YuniKorn chose them when each application was first tracked,
        under the config of that time). Call include() once the running allocations are added."""
        self.limits = limits
        self.users: dict = {}
        self.groups: dict = {}
        self.app_group: dict = dict(served.app_groups) if served is not None else {}  # app id -> group name or None

    def include(self, served: Served | None) -> None:
        """Raise every tracker to what YuniKorn tracks (Served): per queue and resource type the
        larger of the two, the running applications their union (see Served for why)."""
        if not served:
            return
        for mine, theirs in ((self.users, served.users), (self.groups, served.groups)):
            for who, paths in theirs.items():
                t = mine.setdefault(who, Tracker())
                for path, (res, running) in paths.items():
                    u = t.usage.setdefault(path, {})
                    for k, v in res.items():
                        if v > u.get(k, 0):
                            u[k] = v
                    if running:
                        t.running.setdefault(path, set()).update(running)

    def group_of(self, app_id: str, leaf_path: str, groups) -> str | None:
        if app_id not in self.app_group:
            self.app_group[app_id] = self.limits.resolve_group(leaf_path, groups)
        return self.app_group[app_id]

    def add(self, app_id: str, leaf_path: str, user: str, groups, res: dict) -> None:
        """IncreaseTrackedResource: an allocation of the application."""
        self.users.setdefault(user, Tracker()).add(leaf_path, app_id, res)
        g = self.group_of(app_id, leaf_path, groups)
        if g is not None:
            self.groups.setdefault(g, Tracker()).add(leaf_path, app_id, res)

    def remove(self, app_id: str, leaf_path: str, user: str, groups, res: dict, app_done: bool) -> None:
        """DecreaseTrackedResource: an allocation of the application released (preemption)."""
        self.users.setdefault(user, Tracker()).remove(leaf_path, app_id, res, app_done)
        g = self.group_of(app_id, leaf_path, groups)
        if g is not None:
            self.groups.setdefault(g, Tracker()).remove(leaf_path, app_id, res, app_done)

    # -- the checks
    def _short(self, tracker: Tracker | None, leaf_path: str, limit_at, res: dict):
        """Where the ask does not fit this tracker's headroom (FitInMaxUndef, root down): the
        first (path, type, room left, limit) short, or None."""
        for p in levels(leaf_path):
            lim = limit_at(p)
            if lim is None or not lim.maxresources or all(v == 0 for v in lim.maxresources.values()):
                continue
            used = (tracker.usage.get(p) if tracker is not None else None) or {}
            for k, v in res.items():
                if k in lim.maxresources:
                    left = lim.maxresources[k] - used.get(k, 0)
                    if v > max(0, left):
                        return p, k, left, lim.maxresources[k]
        return None

    def short_of(self, app_id: str, leaf_path: str, user: str, groups, res: dict):
        """Whether the ask fits the smaller of the user's and the group's headroom: None when it
        does, else ("user", user, path, type, left, limit) or ("group", group, ...)."""
        lim = self.limits
        got = self._short(self.users.get(user), leaf_path, lambda p: lim.user_limit(p, user), res)
        if got is not None:
            return ("user", user) + got
        g = self.group_of(app_id, leaf_path, groups)
        if g is not None:
            got = self._short(self.groups.get(g), leaf_path, lambda p: lim.group_limit(p, g), res)
            if got is not None:
                return ("group", g) + got
        return None

    def _cannot_run(self, tracker: Tracker | None, leaf_path: str, app_id: str, limit_at):
        """QueueTracker.canRunApp: the first queue, leaf up, whose maxapplications one more
        running application would exceed, as (path, limit, running), or None."""
        for p in reversed(levels(leaf_path)):
            running = tracker.running.get(p, ()) if tracker is not None else ()
            if app_id in running:
                return None  # tracked already: YuniKorn stops looking at this level
            lim = limit_at(p)
            if lim is not None and lim.maxapps and len(running) + 1 > lim.maxapps:
                return p, lim.maxapps, len(running)
        return None

    def cannot_run(self, app_id: str, leaf_path: str, user: str, groups):
        """Manager.CanRunApp for an application that does not run yet: None when it may start,
        else ("user", path, maxapplications, running) or ("group", ...) for the limit that
        holds it (the user's first)."""
        lim = self.limits
        got = self._cannot_run(self.users.get(user), leaf_path, app_id, lambda p: lim.user_limit(p, user))
        if got is not None:
            return ("user", user) + got
        g = self.group_of(app_id, leaf_path, groups)
        if g is not None:
            got = self._cannot_run(self.groups.get(g), leaf_path, app_id, lambda p: lim.group_limit(p, g))
            if got is not None:
                return ("group", g) + got
        return None


def beyond(served: Served | None, apps) -> list:
    """Per user, what YuniKorn tracks on root beyond the running allocations of `apps`
    (snapshot.App: `allocations`, else `allocated`): (user, the extra resources, the running
    applications not among `apps`), users in name order; only users with something beyond."""
    if not served:
        return []
    held: dict = {}
    ids = set()
    for a in apps:
        ids.add(a.id)
        if a.rejected is not None:
            continue
        u = held.setdefault(a.user or DEFAULT_USER, {})
        parts = [t.resources for t in a.allocations] if a.allocations is not None else [a.allocated]
        for res in parts:
            for k, v in res.items():
                u[k] = u.get(k, 0) + v
    out = []
    for user in sorted(served.users):
        res, running = served.users[user].get("root", ({}, set()))
        mine = held.get(user, {})
        extra = {k: v - mine.get(k, 0) for k, v in res.items() if v > mine.get(k, 0)}
        others = sorted(set(running) - ids)
        if extra or others:
            out.append((user, extra, others))
    return out


def limits_of(partition) -> Limits:
    """The limits entries of a partition's queue config (config.Partition), by runtime queue
    path; root's include the partition's own `limits`, as YuniKorn copies them there."""
    from prio.yunikorn.config import queue_path, walk
    from prio.yunikorn.quantity import parse_lenient

    out = Limits()
    root = partition.root() if partition is not None else None
    if root is None:
        return out
    for q, anc in walk(root):
        path = queue_path(q, anc)
        entries = list(q.limits or ())
        if q is root and root.inserted:  # a root YuniKorn inserts takes the partition's limits
            entries = list(partition.limits or ())
        for lim in entries:
            res = parse_lenient(lim.maxresources) if lim.maxresources else None
            out.add(path, lim.users, lim.groups, Limit(res or None, lim.maxapplications or 0))
    return out
