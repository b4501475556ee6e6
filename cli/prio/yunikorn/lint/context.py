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

    def having(self, what: str) -> list[tuple[Partition, Queue, tuple]]:
        """The entries of `queues` (same order) whose queue sets `what`: "limits", "guaranteed",
        "max" (a non-empty list or map), "quantities" (any of the three), "maxapplications"
        (not 0), "childtemplate", "acl" (adminacl or submitacl, even empty) or "children" (a
        non-empty queues list). Most queues of a large config set none of these, and a rule
        about one of them has nothing to say of a queue without it: it loops over these alone.
        Found in one pass over the queues, for every rule of the run (the refusal check of
        explain and simulate runs about thirty of them on every queue)."""
        return self._having[what]

    @cached_property
    def _having(self) -> dict[str, list]:
        out: dict[str, list] = {k: [] for k in ("limits", "guaranteed", "max", "quantities", "maxapplications",
                                               "childtemplate", "acl", "children")}
        limits, guaranteed, maxes, quantities = out["limits"], out["guaranteed"], out["max"], out["quantities"]
        apps, templates, acls, children = out["maxapplications"], out["childtemplate"], out["acl"], out["children"]
        for e in self.queues:
            q = e[1]
            if q.limits:
                limits.append(e)
            if q.guaranteed:
                guaranteed.append(e)
            if q.max:
                maxes.append(e)
            if q.limits or q.guaranteed or q.max:
                quantities.append(e)
            if q.maxapplications:
                apps.append(e)
            if q.childtemplate is not None:
                templates.append(e)
            if q.adminacl is not None or q.submitacl is not None:
                acls.append(e)
            if q.queues:
                children.append(e)
        return out

    def resource(self, res: dict | None) -> dict | None:
        """A resource map parsed leniently: entries that do not parse are left out (the
        invalid-quantity rule reports them)."""
        if res is None:
            return None
        key = id(res)
        if key not in self._res:
            self._res[key] = (res, quantity.parse_lenient(res))
        return self._res[key][1]
