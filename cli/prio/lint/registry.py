"""The rule registry: every rule prio can report, with its id, slug, severity and documentation.

A rule's documentation is the docstring of the function that checks it (yamllint style); rules
whose findings come from the loader or the schema are declared with `declare`. The docstring's
first line is the summary; the rest should say why it matters, show an example that fails and
the fix.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    family: str
    doc: str

    @property
    def summary(self) -> str:
        return " ".join(self.doc.strip().split("\n\n")[0].split())


RULES: dict[str, Rule] = {}
CHECKS: dict[str, list[Callable]] = {}  # family -> check functions, in declaration order


def declare(id: str, name: str, severity: str, family: str, doc: str) -> Rule:
    if id in RULES:
        raise ValueError(f"rule {id} declared twice")
    r = Rule(id, name, severity, family, inspect.cleandoc(doc))
    RULES[id] = r
    return r


def check(id: str, name: str, severity: str, family: str):
    """Decorator: register a check function as rule `id`; its docstring documents the rule."""

    def wrap(fn: Callable) -> Callable:
        declare(id, name, severity, family, fn.__doc__ or "")
        fn.rule_id = id
        CHECKS.setdefault(family, []).append(fn)
        return fn

    return wrap


def by_name_or_id(key: str) -> Rule | None:
    key = key.strip()
    if key.upper() in RULES:
        return RULES[key.upper()]
    for r in RULES.values():
        if r.name == key:
            return r
    return None
