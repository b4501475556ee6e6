"""Resolving a pod's priority the way Kubernetes' Priority admission plugin does."""
from __future__ import annotations

from prio.snapshot import PriorityClass

HIGHEST_USER = 1_000_000_000
SYSTEM_CLUSTER_CRITICAL = 2_000_000_000
SYSTEM_NODE_CRITICAL = 2_000_001_000
BUILTIN = {
    "system-cluster-critical": SYSTEM_CLUSTER_CRITICAL,
    "system-node-critical": SYSTEM_NODE_CRITICAL,
}


class ResolveError(ValueError):
    pass


def catalogue(classes) -> dict:
    """name -> PriorityClass, with the built-in system classes always present."""
    out = {n: PriorityClass(n, v) for n, v in BUILTIN.items()}
    for c in classes:
        out[c.name] = c
    return out


def global_default(classes):
    """The class admission uses for pods without a name: the lowest-valued globalDefault one."""
    defaults = [c for c in classes if c.global_default]
    return min(defaults, key=lambda c: (c.value, c.name)) if defaults else None


def resolve(name: str | None, classes, pod_priority: int | None = None) -> int:
    """The priority a pod gets: its class's value; with no class name, the global default's value
    or 0. An unknown class, or a pod priority that disagrees with its class, is an error."""
    cat = catalogue(classes)
    if name:
        c = cat.get(name)
        if c is None:
            known = ", ".join(sorted(cat)) or "none"
            raise ResolveError(f"priorityClassName {name!r} resolves to no PriorityClass (known: {known})")
        value = c.value
    else:
        d = global_default(list(cat.values()))
        value = d.value if d else 0
    if pod_priority is not None and name and pod_priority != value:
        raise ResolveError(f"priority {pod_priority} disagrees with PriorityClass {name!r} ({value}): admission rejects such a pod")
    return value if pod_priority is None or name else pod_priority
