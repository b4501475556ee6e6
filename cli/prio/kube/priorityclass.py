"""Resolving a pod's priority the way Kubernetes' Priority admission plugin does.

- A pod that names a class gets that class's value; an unknown name is refused (no default is
  substituted).
- A pod that names no class gets the global default class: the lowest-valued class with
  `globalDefault: true` (several can exist after a race; the plugin takes the lowest value, prio
  breaks a tie in value by name), or priority 0 when there is none.
- A pod that already carries `spec.priority` is accepted only when it equals the computed value.
- `system-cluster-critical` (2000000000) and `system-node-critical` (2000001000) always exist:
  the API server creates them at startup and refuses to change or delete them. Since Kubernetes
  1.17 they may be used in any namespace (ResourceQuota, not admission, limits them now).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

HIGHEST_USER = 1_000_000_000
SYSTEM_CLUSTER_CRITICAL = 2_000_000_000
SYSTEM_NODE_CRITICAL = 2_000_001_000
SYSTEM_PREFIX = "system-"
BUILTIN = {
    "system-cluster-critical": SYSTEM_CLUSTER_CRITICAL,
    "system-node-critical": SYSTEM_NODE_CRITICAL,
}
PREEMPTION_POLICIES = ("PreemptLowerPriority", "Never")  # preemptionPolicy; the first is the default


@dataclass
class PriorityClass:
    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = PREEMPTION_POLICIES[0]
    # False when the class carries the annotation yunikorn.apache.org/allow-preemption: "false"
    # (the shim's Context.IsPreemptSelfAllowed: its pods are not preempted)
    allow_preemption: bool = True


class ResolveError(ValueError):
    pass


def catalogue(classes) -> dict:
    """name -> PriorityClass, with the built-in system classes always present. A user manifest
    cannot change a built-in (API validation refuses any other value), so the built-ins win."""
    out: dict = {}
    for c in classes:
        out.setdefault(c.name, c)  # the first definition: a second one would be an update, refused
    for n, v in BUILTIN.items():
        out[n] = PriorityClass(n, v)
    return out


def global_default(classes):
    """The class admission uses for pods without a name: the lowest-valued globalDefault one."""
    defaults = [c for c in classes if c.global_default]
    return min(defaults, key=lambda c: (c.value, c.name)) if defaults else None


def resolve_class(name: str | None, classes) -> PriorityClass | None:
    """The class a pod ends up with (None: no class and no global default, priority 0)."""
    cat = catalogue(classes)
    if name:
        c = cat.get(name)
        if c is None:
            user = sorted(n for n in cat if n not in BUILTIN)
            known = ", ".join(user) if user else "only the built-in system classes"
            raise ResolveError(f"priorityClassName {name!r} resolves to no PriorityClass (known: {known}); "
                               "admission rejects the pod")
        return c
    return global_default(list(cat.values()))


def resolve(name: str | None, classes, pod_priority: int | None = None) -> int:
    """The priority a pod gets: its class's value; with no class name, the global default's value
    or 0. An unknown class, or a pod priority that disagrees with the computed value, is an error."""
    c = resolve_class(name, classes)
    value = c.value if c is not None else 0
    if pod_priority is not None and pod_priority != value:
        if name:
            why = f"PriorityClass {name!r} has value {value}"
        elif c is not None:
            why = f"the pod names no class, so it gets the global default {c.name!r} ({value})"
        else:
            why = "the pod names no class and no class is the global default, so it gets 0"
        raise ResolveError(f"spec.priority {pod_priority} disagrees with its class: {why}; admission rejects such a pod")
    return value


_DNS_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_SUBDOMAIN = re.compile(rf"^{_DNS_LABEL}(\.{_DNS_LABEL})*$")


def is_dns_subdomain(s: str) -> bool:
    return len(s) <= 253 and bool(_DNS_SUBDOMAIN.match(s))
