"""The lint rules: one module per family, each registering its checks with
`prio.lint.registry.check` (the check's docstring is the rule's documentation). MODULES is the
explicit list; `load_all()` imports them in this order, which is the order checks run in."""
from __future__ import annotations

import importlib

MODULES = ("decoding", "structure", "resources", "limits", "acl", "placement", "nodesort",
           "properties", "priority", "preemption", "priorityclass", "crosscheck", "gangs", "armada", "armada_current", "kueue", "volcano", "configmap",
           "suppression", "upgrade")


def load_all() -> None:
    load(*MODULES)


def load(*mods: str) -> None:
    """Register the rules of these modules (of MODULES) only: a command that runs one family
    of rules need not import the others (Armada's, Kueue's, ...) on every run."""
    for mod in mods:
        importlib.import_module(f"prio.lint.rules.{mod}")


def all_rules() -> dict:
    from prio.lint.registry import RULES

    load_all()
    return dict(sorted(RULES.items()))
