"""The walk's step with nodes or user/group limits (engine.Engine, through the ClusterWalk
mixin): no fast pick, an ask that finds no node reserves one, and each allocation is added to
its user's and group's usage (ugm) as YuniKorn's tracker does. Pure: no I/O, no printing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prio.yunikorn.appstate import AppState
from prio.yunikorn.reference import groups_of, no_room_reason, user_of
from prio.yunikorn.ugm import levels
from prio.yunikorn.walkties import check_queue_ties

if TYPE_CHECKING:
    from prio.yunikorn.step import Step
    from prio.yunikorn.tree import QNode
    from prio.yunikorn.ugm import Usage


class ClusterWalk:
    """Engine's step() where the partition has nodes or user/group limits. A mixin: the state it
    reads (cluster, ugm, step_nodes, _placing, _reserving, _user_usage, _tie, _note) is the
    Engine's, made in Engine.__init__ and model.Model."""

    if TYPE_CHECKING:  # what it reads of the Engine, declared for the type checker only
        root: QNode
        ugm: Usage | None
        _user_usage: dict
        _gang_run: Any
        _tie: list
        _note: str

        def _descend(self, q: QNode): ...

        def _allocate(self, st: AppState, i: int) -> Step: ...

    def _step_cluster(self):
        """step() with nodes or user/group limits (no preemption in the run: reference.py's
        preemption_in_run is the reference engine's alone): the general walk, no fast pick.
        An ask that finds no node reserves one (a cycle that places nothing: the walk starts
        again from root, its ties kept for the step that follows, as the reference's cycles) or
        is set aside; both are final without preemption."""
        earlier: list = []
        tied: list = []
        while True:
            if self.root.live <= 0:
                self.tied_leftovers = set(tied)
                return None
            self._tie, self._note = [], ""
            self._placing = self._reserving = None
            got = self._descend(self.root)
            if got is None:
                self.tied_leftovers = set(tied)
                return None
            st, i = got
            if self._check_keys:
                check_queue_ties(self, st, self._tie)
            gangs = self._gang_run
            if gangs is not None:  # (gangwalk.py) a placeholder's hand-over tie, below the application's
                tie = gangs.hand_over_tie(st, i)
                if tie is not None:
                    self._tie.insert(0, tie)
            ties = list(reversed(self._tie))
            if self._reserving is not None:
                node = self._reserving
                ask = st.asks[i]
                node.reserved = (st.app_id, ask.id)
                if gangs is not None:
                    gangs.reserved(st)
                self._set_aside(st, i, no_room_reason(self.cluster, st, ask, node))
                self._advance(st)
                self._rekey_path(st, st.leaf, st.leaf.chain)
                if ties:
                    tied.append((st.app_id, ask.id))
                earlier = [t for t in ties if t not in earlier] + earlier
                continue
            node = self._placing
            s = self._allocate(st, i)
            ask = st.asks[i]
            if node is not None:
                self.cluster.change(node, ask.resources)
                self.step_nodes[s.step] = node.name
            if self.ugm is not None:
                self._track_usage(st, ask.resources)
            if gangs is not None:
                if gangs.waits(st, i):  # (canReplace: the walk never meets such an ask unless it cannot follow)
                    from prio.yunikorn.gangwalk import Bail

                    raise Bail("an ask that waits to replace")
                gangs.allocated(st, i, node)
            ties = [t for t in ties if t not in earlier]
            if earlier or ties or self._note:
                s = s._replace(tie=tuple(earlier + ties), note=self._note)
            return s

    def _track_usage(self, st: AppState, res: dict) -> None:
        """ugm.Usage.add for an allocation of st: the first through it (the trackers, the
        running sets), the later ones straight into the usage dicts that one made or found (its
        user's and group's at each level of its path: Tracker.add's, which never replaces them;
        the application is running there already)."""
        dicts = self._user_usage.get(id(st))
        if dicts is None:
            ugm = self.ugm
            assert ugm is not None  # (called only with user/group limits)
            user = user_of(st)
            ugm.add(st.app_id, st.leaf.path, user, groups_of(st), res)
            trackers = [ugm.users[user]]
            g = ugm.group_of(st.app_id, st.leaf.path, groups_of(st))
            if g is not None:
                trackers.append(ugm.groups[g])
            self._user_usage[id(st)] = [t.usage[p] for t in trackers for p in levels(st.leaf.path)]
            return
        items = res.items()
        for u in dicts:
            for k, v in items:
                u[k] = u.get(k, 0) + v

    def _user_limits(self, st: AppState) -> list:
        """The limits ugm.Usage.short_of checks an ask of st against, fixed for a run: (the
        trackers by name, the user or group, the queue path, its maxresources) where a limit
        limits something, user's root down, then group's."""
        ugm = self.ugm
        assert ugm is not None  # (called only with user/group limits, once per application)
        lim = ugm.limits
        user = user_of(st)
        out = []
        lv = levels(st.leaf.path)
        for p in lv:
            got = lim.user_limit(p, user)
            if got is not None and got.maxresources and not all(v == 0 for v in got.maxresources.values()):
                out.append((ugm.users, user, p, got.maxresources))
        g = ugm.group_of(st.app_id, st.leaf.path, groups_of(st))
        if g is not None:
            for p in lv:
                got = lim.group_limit(p, g)
                if got is not None and got.maxresources and not all(v == 0 for v in got.maxresources.values()):
                    out.append((ugm.groups, g, p, got.maxresources))
        return out
