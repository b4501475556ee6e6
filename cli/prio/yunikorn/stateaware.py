"""The stateaware application sort policy of YuniKorn before 1.6 (releases.Release.stateaware_policy;
v1.5.2's policies.StateAwarePolicy, sorters.stateAwareFilter, application_state.go), as the
reference engine's hooks (reference.ReferenceRun). Pure: no I/O.

A leaf whose `application.sort.policy` is `stateaware` sorts its applications as fifo, but only
some of them are candidates: every Running or Starting application with something pending, and
at most one Accepted one, the oldest (by submission time), and that only while no application of
the leaf is Starting, whether or not it has anything pending. An application is Accepted until
its first allocation, Starting from then until its second (or until the starting timeout, five
minutes, or at once with the tag `application.stateaware.disable`), then Running. A snapshot's
application with running work is Running (its `state: Starting` says otherwise).

prio's run has no clock: the starting timeout fires when nothing else can be placed (the walk
finds nothing), the Starting applications become Running, and the walk goes on."""
from __future__ import annotations

from prio.yunikorn import properties as P
from prio.yunikorn.resources import strictly_positive

ACCEPTED, STARTING, RUNNING = "Accepted", "Starting", "Running"
DISABLE_TAG = "application.stateaware.disable"  # siCommon.AppTagStateAwareDisable


def leaves_of(root) -> list:
    """The leaves whose (effective) application.sort.policy is stateaware, as the config wrote it."""
    return [q for q in root.walk() if q.leaf and q.props.get(P.SORT_POLICY) == "stateaware"]


class StateAware:
    """The applications' states in the stateaware leaves, and which of them the leaf offers."""

    def __init__(self, leaves: list, apps: list):
        self.leaves = {id(q) for q in leaves}
        self.states: dict = {}  # id(application state) -> ACCEPTED, STARTING or RUNNING
        for st in apps:
            if id(st.leaf) in self.leaves:
                self.states[id(st)] = STARTING if st.app.state == "Starting" else RUNNING if st.running else ACCEPTED

    def candidates(self, leaf) -> set | None:
        """stateAwareFilter: the ids of the applications `leaf` offers (None: not stateaware)."""
        if id(leaf) not in self.leaves:
            return None
        states = self.states
        starting = any(states.get(id(st)) == STARTING for st in leaf.apps)
        out: set = set()
        accepted = None
        for st in sorted(leaf.apps, key=lambda st: st.app_id):  # Go's map order: by id, the first of equal times kept
            if not strictly_positive(st.pending):
                continue
            if states.get(id(st)) == ACCEPTED:
                if not starting and (accepted is None or st.key_submit < accepted.key_submit):
                    accepted = st
                continue
            out.add(id(st))
        if accepted is not None:
            out.add(id(accepted))
        return out

    def allocated(self, st) -> None:
        """RunApplication on an allocation: Accepted -> Starting (Running at once with the
        disable tag), Starting -> Running."""
        s = self.states.get(id(st))
        if s == ACCEPTED:
            tags = st.app.tags or {}
            self.states[id(st)] = RUNNING if any(k.lower() == DISABLE_TAG and v for k, v in tags.items()) else STARTING
        elif s == STARTING:
            self.states[id(st)] = RUNNING

    def times_out(self) -> bool:
        """Nothing else can be placed: the starting timeout of every Starting application that
        holds an Accepted one back fires. True when one did (the walk goes on)."""
        fired = []
        for st_id, s in list(self.states.items()):
            if s == STARTING:
                fired.append(st_id)
        if not fired:
            return False
        waiting = False
        for leaf_apps in self._by_leaf().values():
            if any(self.states.get(id(st)) == STARTING for st in leaf_apps) and \
                    any(self.states.get(id(st)) == ACCEPTED and strictly_positive(st.pending) for st in leaf_apps):
                waiting = True
        if not waiting:
            return False
        for st_id in fired:
            self.states[st_id] = RUNNING
        return True

    def bind(self, apps: list) -> StateAware:
        """The run's applications, by id(state), for the timeout's leaves."""
        self._apps = {id(st): st for st in apps if id(st) in self.states}
        return self

    def _by_leaf(self) -> dict:
        out: dict = {}
        for st in self._apps.values():
            out.setdefault(id(st.leaf), []).append(st)
        return out
