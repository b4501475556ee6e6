"""The rule registry: every rule prio can report, with its id, slug, severity, documentation and
target (what its check looks at), and the one way to run the checks of a target.

A rule's documentation is the docstring of the function that checks it (yamllint style); rules
whose findings come from the loader, the schema or the suppression pass are declared with
`declare`. The docstring's first line is the summary; the rest should say why it matters, show an
example that fails and the fix.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable  # not typing: validate does not load it
from dataclasses import dataclass
from functools import cached_property

# What a check receives, by target. Every rule names one; `run(target, ...)` runs them all.
TARGETS = {
    "queues": "one queues.yaml: the lint Context (the decoded config and facts derived from it)",
    "priorityclass": "one PriorityClass manifest, read (prio.yunikorn.load.priorityclasses.PC)",
    "priorityclass-set": "every PriorityClass manifest of the run: (file name, Document) pairs",
    "queues-vs-classes": "a partition's queue tree and the PriorityClasses defined: (root, classes)",
    "queues-vs-snapshot": "a partition's queue tree and a prio snapshot checked with it: (root, snapshot.Snapshot)",
    "pods": "a `kubectl get pods` export (a List, PodList or one Pod) of which some pod carries the task-groups annotation: its Document",
    "configmap": "one ConfigMap that is, or looks meant to be, one the YuniKorn shim reads: its Document",
    "decoder": "declared only: reported while the YAML is decoded or checked against the schema",
    "suppressions": "declared only: reported when `# prio: ignore` directives are applied",
    "upgrade": "declared only: reported by `validate --upgrade-to`, the findings of two YuniKorn releases compared",
}  # and each backend's targets, added by its rules module (`target`)

# Each scheduler's documents (issue 47), filled by its rules module as it is imported: a unit
# kind (prio.io.documents) -> its check of one such unit (None: read with the run's set alone);
# the kinds whose check takes the release judged (YuniKorn's, --yunikorn-version); the checks
# that claim a unit of no kind of its own ("other": a pod list with the shim's annotation); and
# the checks of the run's documents together: (the kinds that start one, the kinds it reads,
# the check of [(file name, Document)] -> (file name, Document, Issue) triples, and whether it
# is handed the units instead of their documents).
UNIT_CHECKS: dict = {}
TAKES_RELEASE: set = set()
OTHER_CHECKS: list = []
SET_CHECKS: list = []
COMPANIONS: list = []  # (claims(doc), kind): a file of such units is checked only beside a unit of kind in the run


def target(name: str, what: str) -> None:
    """A backend's target: what its checks of that name receive (`prio rule` shows it)."""
    TARGETS[name] = what


def unit_check(kind: str, check=None, release: bool = False) -> None:
    """`check(doc) -> [Issue]` runs on each unit of `kind` (None: the kind is the backend's, read
    with the run's set alone); with `release`, `check(doc, release)`."""
    UNIT_CHECKS[kind] = check
    if release:
        TAKES_RELEASE.add(kind)


def other_check(claims, check) -> None:
    """`check(doc) -> [Issue]` runs on a unit of no kind of its own that `claims(doc)` is true of."""
    if all(c is not check for _, c in OTHER_CHECKS):
        OTHER_CHECKS.append((claims, check))


def companion(claims, beside: str) -> None:
    """A file whose units `claims(doc)` is true of holds nothing validate checks alone: named with
    a unit of kind `beside` in the run, it is checked with it (its SET_CHECKS), and said to be;
    named alone, it is a file with nothing to check."""
    if all(c is not claims for c, _ in COMPANIONS):
        COMPANIONS.append((claims, beside))


def set_check(starts: tuple, reads: tuple, check, units: bool = False) -> None:
    """`check` runs on every unit of the kinds `reads` when the run holds a unit of `starts`
    (`units`: it is handed (file name, Unit) pairs, not (file name, Document))."""
    if all(c is not check for _, _, c, _ in SET_CHECKS):  # a module imported again registers once
        SET_CHECKS.append((starts, reads, check, units))


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    family: str
    raw_doc: str  # the docstring as written: `doc` is it cleaned (inspect.cleandoc), made when first read
    target: str = "queues"

    @cached_property
    def doc(self) -> str:
        """The documentation: a validate run that reports nothing never reads it, so its 136
        rules are not cleaned at every start."""
        return inspect.cleandoc(self.raw_doc)

    @property
    def summary(self) -> str:
        return " ".join(self.doc.strip().split("\n\n")[0].split())


RULES: dict[str, Rule] = {}
CHECKS: dict[str, list[Callable]] = {}  # target -> check functions, in registration order


def declare(id: str, name: str, severity: str, family: str, doc: str, target: str = "decoder") -> Rule:
    if id in RULES:
        raise ValueError(f"rule {id} declared twice")
    if target not in TARGETS:
        raise ValueError(f"rule {id}: unknown target {target!r}")
    r = Rule(id, name, severity, family, doc, target)
    RULES[id] = r
    return r


def check(id: str, name: str, severity: str, family: str, target: str = "queues"):
    """Decorator: register a check function as rule `id` on `target`; its docstring documents
    the rule."""

    def wrap(fn: Callable) -> Callable:
        declare(id, name, severity, family, fn.__doc__ or "", target)
        fn.rule_id = id
        CHECKS.setdefault(target, []).append(fn)
        return fn

    return wrap


def run(target: str, *subject, family: str | None = None, severity: str | None = None) -> list:
    """Every issue the checks of `target` (of one `family`, of rules of one `severity`, if
    given) find in `subject`, in registration order. `severity` picks by the rule's severity,
    not by what a finding says of its own (prio.yunikorn.lint.checks.config_errors knows its families never raise one)."""
    out: list = []
    for fn in CHECKS.get(target, ()):
        rule = RULES[fn.rule_id]
        if (family is None or rule.family == family) and (severity is None or rule.severity == severity):
            out.extend(fn(*subject))
    return out


def by_name_or_id(key: str) -> Rule | None:
    key = key.strip()
    if key.upper() in RULES:
        return RULES[key.upper()]
    for r in RULES.values():
        if r.name == key:
            return r
    return None
