"""PriorityClass manifests -> facts and `PriorityClass` objects, as the API server reads them.

`PC` reads one manifest (what every rule and the loaders need); `manifests(units)` finds the
PriorityClass documents among a run's units (items of a `kind: List` included);
`classes_from_docs(units)` keeps the classes the API server would store."""
from __future__ import annotations

from prio.io.document import Document
from prio.kube.priorityclass import HIGHEST_USER, PREEMPTION_POLICIES, SYSTEM_PREFIX, PriorityClass, is_dns_subdomain
from prio.values import int32_value


class PC:
    """One PriorityClass document, with the facts every rule needs already read."""

    def __init__(self, doc):
        self.doc = doc
        d = doc.data if isinstance(doc.data, dict) else {}
        self.data = d
        md = d.get("metadata")
        self.metadata = md if isinstance(md, dict) else {}
        n = self.metadata.get("name")
        self.name = n if isinstance(n, str) and n else None
        self.has_value = "value" in d and d["value"] is not None
        self.value = int32_value(d.get("value")) if self.has_value else None
        gd = d.get("globalDefault")
        self.global_default = gd is True

    @property
    def system_name(self) -> bool:
        return self.name is not None and self.name.startswith(SYSTEM_PREFIX)


def manifests(units):
    """(file name, Document) pairs of PriorityClass documents, from (name, Document) tuples,
    documents.Unit objects or bare Documents; a `kind: List` document gives its PriorityClass
    items (as Documents without positions: use documents.units for positions)."""
    out = []
    for u in units:
        if isinstance(u, tuple):
            name, doc = u[0], u[1]
            doc = getattr(doc, "doc", doc)  # a documents.Unit in the tuple
        elif hasattr(u, "kind") and hasattr(u, "doc"):
            if u.kind != "priorityclass":
                continue
            name, doc = "", u.doc
        else:
            name, doc = "", u
        data = getattr(doc, "data", None)
        if not isinstance(data, dict):
            continue
        if data.get("kind") == "PriorityClass":
            out.append((name, doc))
        elif data.get("kind") == "List" and isinstance(data.get("items"), list):
            out += [(name, Document(it)) for it in data["items"] if isinstance(it, dict) and it.get("kind") == "PriorityClass"]
    return out


def classes_from_docs(units) -> list[PriorityClass]:
    """The classes the manifests define, as the API server would store them: a class it would
    refuse (bad name, value not an int32, a reserved or too high value) is left out, a class
    without a value is 0, and for a name defined twice the first definition counts. The
    built-in system classes are not included (prio.kube.priorityclass always adds them)."""
    out = []
    seen = set()
    for _, doc in manifests(units):
        pc = PC(doc)
        if pc.name is None or not is_dns_subdomain(pc.name) or pc.name in seen:
            continue
        if pc.has_value and pc.value is None:
            continue
        if pc.system_name:
            continue  # a built-in (prio always has it) or a name the API server refuses
        value = pc.value if pc.value is not None else 0
        if value > HIGHEST_USER:
            continue
        policy = pc.data.get("preemptionPolicy")
        seen.add(pc.name)
        notes = pc.metadata.get("annotations")
        from prio.kube.shim import ALLOW_PREEMPTION  # (imported where a class is read: validate does not need the shim)

        allow = not (isinstance(notes, dict) and notes.get(ALLOW_PREEMPTION) == "false")
        out.append(PriorityClass(pc.name, value, pc.global_default, policy if policy in PREEMPTION_POLICIES else PREEMPTION_POLICIES[0],
                                 allow))
    return out
