"""Lint rules. Each family module registers its checks with `registry.check`; `all_rules()`
imports them all so the registry is complete."""
from __future__ import annotations

import importlib

FAMILIES = ("decoding", "structure", "resources", "limits", "acl", "placement", "nodesort",
            "properties", "priority", "preemption")
_EXTRA = ("prio.armada.lint", "prio.k8s.lint", "prio.suppress")


def load_all() -> None:
    for fam in FAMILIES:
        importlib.import_module(f"prio.rules.{fam}")
    for mod in _EXTRA:
        importlib.import_module(mod)


def all_rules() -> dict:
    from prio.rules.registry import RULES

    load_all()
    return dict(sorted(RULES.items()))
