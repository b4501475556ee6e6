"""The lint rules: one module per family, each registering its checks with
`prio.lint.registry.check` (the check's docstring is the rule's documentation). MODULES is the
explicit list of YuniKorn's and Kubernetes' families; each scheduler backend's own rule modules
are named by its row of prio.backends.REGISTRY (issue 47: its rules live in its package).
`load_all()` imports them in this order (the families, the backends', then the families after
them), which is the order checks run in."""
from __future__ import annotations

import importlib

MODULES = ("decoding", "structure", "resources", "limits", "acl", "placement", "nodesort",
           "properties", "priority", "preemption", "priorityclass", "crosscheck", "gangs", "configmap",
           "suppression", "upgrade")
_BEFORE_BACKENDS = MODULES.index("configmap")  # the backends' rules registered where their modules stood


def load_all() -> None:
    from prio import backends

    load(*MODULES[:_BEFORE_BACKENDS])
    for mod in backends.lint_modules():
        importlib.import_module(mod)
    load(*MODULES[_BEFORE_BACKENDS:])


def load(*mods: str) -> None:
    """Register the rules of these modules (of MODULES) only: a command that runs one family
    of rules need not import the others (the backends', ...) on every run."""
    for mod in mods:
        importlib.import_module(f"prio.lint.rules.{mod}")


def all_rules() -> dict:
    from prio.lint.registry import RULES

    load_all()
    return dict(sorted(RULES.items()))
