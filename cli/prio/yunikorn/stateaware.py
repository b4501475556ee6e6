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

A gang application (task groups) moves by its placeholders (v1.5.2 Application.addAllocation):
it stays Accepted while they are allocated, one by one (so it is the leaf's one Accepted
candidate, the others wait behind it), and RunApplication fires when the last is
(allocatedPlaceholder equals placeholderAsk): Starting. The first real pod that replaces a
placeholder changes nothing (its state change was made when the last placeholder was allocated);
the next real allocation makes it Running. A snapshot's gang application is Running with a real
pod running, Starting with every placeholder allocated, else Accepted. (A placeholder released or
timed out lowers allocatedPlaceholder in YuniKorn; prio counts allocations only.)

prio's run has no clock: the starting timeout fires when nothing else can be placed (the walk
finds nothing), the Starting applications become Running, and the walk goes on."""
from __future__ import annotations

from prio.yunikorn import properties as P
from prio.yunikorn.resources import equals, strictly_positive, total

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
        self.gangs: dict = {}  # id(gang application state) -> [its placeholders allocated, placeholderAsk]
        self.real: set = set()  # id(gang application state) with a real allocation (allocatedResource not zero)
        for st in apps:
            if id(st.leaf) not in self.leaves:
                continue
            if st.app.task_groups:
                self.states[id(st)] = self._gang_state(st)
            else:
                self.states[id(st)] = STARTING if st.app.state == "Starting" else RUNNING if st.running else ACCEPTED

    def _gang_state(self, st) -> str:
        allocs = st.app.allocations or ()
        held = total(a.resources for a in allocs if a.placeholder)
        # placeholderAsk: minMember x minResource of each task group (as gangs.placeholder_ask,
        # which this module cannot import: gangs imports the reference engine, which imports it)
        asked = total({k: v * g.min_member for k, v in g.min_resource.items()} for g in st.app.task_groups)
        self.gangs[id(st)] = [held, asked]
        if any(not a.placeholder for a in allocs):
            self.real.add(id(st))
            return RUNNING
        if st.app.state == "Starting" or (held and equals(held, self.gangs[id(st)][1])):
            return STARTING
        return ACCEPTED

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

    def allocated(self, st, ask=None, replacing: bool = False) -> None:
        """An allocation of `ask` (a real pod taking a placeholder's place when `replacing`):
        RunApplication, but for a gang application's placeholder only the last one (every
        placeholder allocated) and not for its first replacement."""
        gang = self.gangs.get(id(st))
        if gang is not None and ask is not None:
            if ask.placeholder:
                for k, v in ask.resources.items():
                    gang[0][k] = gang[0].get(k, 0) + v
                if not equals(gang[0], gang[1]):
                    return  # still Accepted: placeholders left to allocate
            else:
                first = id(st) not in self.real
                self.real.add(id(st))
                if replacing and first:
                    return  # its state changed when the last placeholder was allocated
        self._run(st)

    def _run(self, st) -> None:
        """RunApplication: Accepted -> Starting (Running at once with the disable tag),
        Starting -> Running."""
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
