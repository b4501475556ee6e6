"""queues.yaml -> the config model, decoded the way YuniKorn's structs are (go-yaml v3).

String fields and string maps hold the scalar's raw source text (go-yaml stores `n.Value`), null
becomes "", and a missing list (None) is kept apart from an empty one ([]), because YuniKorn's
validator treats them differently. Wrongly typed values are left at their zero value here; the
schema reports them.
"""
from __future__ import annotations

from prio.io.document import GO_BOOL, YAML11_BOOL, Document  # go-yaml's boolean words, defined once
from prio.yunikorn.config import ChildTemplate, Limit, Partition, Path, PlacementRule, Queue, SchedulerConfig


class _Decoder:
    """Reads one queues.yaml Document into the model, keeping raw scalar text."""

    def __init__(self, doc: Document):
        self.doc = doc

    def text(self, path: Path, value) -> str:
        if value is None:
            return ""
        if isinstance(value, (dict, list)):
            return ""
        raw = self.doc.raw(path)
        return raw if raw is not None else str(value)

    def opt_text(self, d: dict, key: str, path: Path) -> str | None:
        return self.text(path + (key,), d[key]) if key in d else None

    def text_map(self, value, path: Path) -> dict | None:
        if not isinstance(value, dict):
            return None
        return {k: self.text(path + (k,), v) for k, v in value.items()}

    def text_list(self, value, path: Path) -> list | None:
        """A []string: go-yaml drops null items; None when the list is absent (nil)."""
        if not isinstance(value, list):
            return None
        return [self.text(path + (i,), v) for i, v in enumerate(value) if v is not None]

    @staticmethod
    def uint(value) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return 0
        return int(value) if value >= 0 else 0

    @staticmethod
    def boolean(value, default=False) -> bool:
        """go-yaml into a Go bool: true/false and the YAML 1.1 words, quoted or not."""
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            return GO_BOOL.get(value, YAML11_BOOL.get(value, default))
        return default

    @staticmethod
    def mapping(value) -> dict:
        return value if isinstance(value, dict) else {}

    def resources(self, d: dict, path: Path):
        res = self.mapping(d.get("resources"))
        rp = path + ("resources",)
        g = self.text_map(res.get("guaranteed"), rp + ("guaranteed",)) if "guaranteed" in res else None
        m = self.text_map(res.get("max"), rp + ("max",)) if "max" in res else None
        # `guaranteed:` (null) is a nil map; `guaranteed: {}` an empty, non-nil one.
        return g, m

    def limit(self, d, path) -> Limit:
        d = self.mapping(d)
        return Limit(
            path,
            self.text(path + ("limit",), d.get("limit")),
            self.text_list(d.get("users"), path + ("users",)),
            self.text_list(d.get("groups"), path + ("groups",)),
            self.text_map(d.get("maxresources"), path + ("maxresources",)),
            self.uint(d.get("maxapplications")),
        )

    def limits(self, value, path) -> list | None:
        if not isinstance(value, list):
            return None
        return [self.limit(v, path + (i,)) for i, v in enumerate(value)]

    def queue(self, d, path) -> Queue:
        d = self.mapping(d)
        g, m = self.resources(d, path)
        q = Queue(
            path,
            self.text(path + ("name",), d.get("name")),
            self.boolean(d.get("parent")),
            g,
            m,
            self.uint(d.get("maxapplications")),
            self.text_map(d.get("properties"), path + ("properties",)) or {},
            self.opt_text(d, "adminacl", path),
            self.opt_text(d, "submitacl", path),
        )
        q.parent_given = d.get("parent") is not None  # `parent: ~` decodes as absent would
        ct = d.get("childtemplate")
        if isinstance(ct, dict):
            cp = path + ("childtemplate",)
            cg, cm = self.resources(ct, cp)
            q.childtemplate = ChildTemplate(cp, self.uint(ct.get("maxapplications")),
                                            self.text_map(ct.get("properties"), cp + ("properties",)) or {}, cg, cm)
        if isinstance(d.get("queues"), list):
            q.queues = [self.queue(c, path + ("queues", i)) for i, c in enumerate(d["queues"])]
        q.limits = self.limits(d.get("limits"), path + ("limits",))
        return q

    def rule(self, d, path) -> PlacementRule:
        d = self.mapping(d)
        f = self.mapping(d.get("filter"))
        fp = path + ("filter",)
        r = PlacementRule(
            path,
            self.text(path + ("name",), d.get("name")),
            self.boolean(d.get("create")),
            self.text(fp + ("type",), f.get("type")),
            self.text_list(f.get("users"), fp + ("users",)),
            self.text_list(f.get("groups"), fp + ("groups",)),
            None,
            self.text(path + ("value",), d.get("value")),
        )
        if isinstance(d.get("parent"), dict):
            r.parent = self.rule(d["parent"], path + ("parent",))
        return r

    def partition(self, d, path) -> Partition:
        d = self.mapping(d)
        p = Partition(path, self.text(path + ("name",), d.get("name")))
        if isinstance(d.get("queues"), list):
            p.queues = [self.queue(q, path + ("queues", i)) for i, q in enumerate(d["queues"])]
        if isinstance(d.get("placementrules"), list):
            p.placementrules = [self.rule(r, path + ("placementrules", i)) for i, r in enumerate(d["placementrules"])]
        p.limits = self.limits(d.get("limits"), path + ("limits",))
        ns = d.get("nodesortpolicy")
        if isinstance(ns, dict):
            p.nodesort_type = self.text(path + ("nodesortpolicy", "type"), ns.get("type"))
            rw = ns.get("resourceweights")
            if isinstance(rw, dict):
                p.resourceweights = {k: v for k, v in rw.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        pre = self.mapping(d.get("preemption"))
        p.preemption_enabled = self.boolean(pre.get("enabled"), True)
        p.quota_preemption_enabled = self.boolean(pre.get("quotapreemptionenabled"), False)
        p.preemption_block = any(k != "quotapreemptionenabled" for k in pre)  # quota preemption alone is not ask preemption
        ugr = d.get("usergroupresolver")
        if isinstance(ugr, dict):
            p.usergroupresolver = self.text(path + ("usergroupresolver", "type"), ugr.get("type"))
        return p


def decode(doc: Document) -> SchedulerConfig:
    data = doc.data if isinstance(doc.data, dict) else {}
    d = _Decoder(doc)
    parts = data.get("partitions")
    conf = SchedulerConfig(checksum=d.text(("checksum",), data.get("checksum")))
    if isinstance(parts, list):
        conf.partitions = [d.partition(p, ("partitions", i)) for i, p in enumerate(parts)]
    return conf
