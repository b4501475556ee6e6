"""What every check gets: the decoded config and cached, derived facts about it."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from prio.yunikorn import quantity
from prio.yunikorn.config import Partition, Queue, SchedulerConfig, walk
from prio.yunikorn.releases import NEWEST, Release


@dataclass
class Context:
    config: SchedulerConfig
    release: Release = NEWEST  # the YuniKorn release the rules judge for (--yunikorn-version)
    _res: dict = field(default_factory=dict)
    _derived: dict = field(default_factory=dict)

    def derived(self, name, make):
        """A fact rules derive from the config once and share (read only): make() the first
        time `name` (any hashable) is asked for."""
        got = self._derived.get(name)
        if got is None:
            got = self._derived[name] = make()
        return got

    @cached_property
    def trees(self) -> list[tuple[Partition, Queue]]:
        """(partition, root) for every partition that has queues."""
        out = []
        for p in self.config.partitions:
            r = p.root()
            if r is not None:
                # checkLimitsStructure: partition limits become root's when root has none, and
                # are then validated as root's limits.
                r.own_limits = r.limits
                if r.limits is None and p.limits is not None:
                    r.limits = p.limits
                out.append((p, r))
        return out

    @cached_property
    def queues(self) -> list[tuple[Partition, Queue, tuple]]:
        """Every queue with its partition and ancestors (root first), depth first."""
        return [(p, q, anc) for p, r in self.trees for q, anc in walk(r)]

    def resource(self, res: dict | None) -> dict | None:
        """A resource map parsed leniently: entries that do not parse are left out (the
        invalid-quantity rule reports them)."""
        if res is None:
            return None
        key = id(res)
        if key not in self._res:
            self._res[key] = (res, quantity.parse_lenient(res))
        return self._res[key][1]
