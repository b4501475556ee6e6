"""Loading the lint rules: each scheduler's rule modules register their checks with
`prio.lint.registry.check` as they are imported (the check's docstring is the rule's
documentation). Each backend's modules are named by its row of prio.backends.REGISTRY (issue 47:
a scheduler's rules live in its package; YuniKorn's row, the first, names prio.yunikorn.lint's
families and the Kubernetes PriorityClass and shim ConfigMap families it reads); `suppression`
here declares the rules of `# prio: ignore` itself. `load_all()` imports them in that order (the
table's, then suppression), which is the order checks run in."""
from __future__ import annotations

import importlib


def load_all() -> None:
    from prio import backends

    for mod in (*backends.lint_modules(), "prio.lint.rules.suppression"):
        importlib.import_module(mod)


def all_rules() -> dict:
    from prio.lint.registry import RULES

    load_all()
    return dict(sorted(RULES.items()))
