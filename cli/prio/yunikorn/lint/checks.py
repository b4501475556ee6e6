"""What validate checks of YuniKorn's documents, registered with prio.lint.registry as the
backends' rules modules register theirs: a queue config (decoding, schema, the queues rules,
for the release judged), a ConfigMap the shim reads, a PriorityClass, a pod list carrying the
shim's task-groups annotation, and what only the run's files together show (PriorityClasses
defined twice, gangs of a snapshot against the run's configs, queue configs against the run's
classes). Also `config_errors`, the refusal check explain and simulate run on their config
(prio.yunikorn.lint.judged.check_config)."""
from __future__ import annotations

import importlib

from prio.diagnostics import Issue, sort_key
from prio.lint import registry
from prio.lint.registry import RULES, run
from prio.values import describe
from prio.yunikorn.lint import schema
from prio.yunikorn.lint.context import Context
from prio.yunikorn.load import queues as queues_loader
from prio.yunikorn.releases import NEWEST, Release, applies

# The families whose error-severity rules are refusals of YuniKorn's config validator (the others
# hold what YuniKorn takes with a warning or silently: properties, priority, preemption).
REFUSING = ("structure", "resources", "limits", "acl", "placement", "nodesort")


def load(*families: str) -> None:
    """Register the rules of these families of YuniKorn's alone: the refusal check runs them,
    and need not import every other rule (the backends', ...) on every run."""
    for family in families:
        importlib.import_module(f"prio.yunikorn.lint.{family}")


def config_errors(doc, conf, release: Release = NEWEST) -> list[str]:
    """Why YuniKorn `release` would refuse a decoded queue config, as lines (empty: it would take
    it): every error-severity finding of decoding, the schema and the queues rules, as validate
    reports them (without suppressions: a `# prio: ignore` does not make YuniKorn take it)."""
    load("decoding", *REFUSING)  # not the backends': explain and simulate need these alone
    from prio.lint.rules import load_all
    from prio.lint.runner import resolve
    from prio.yunikorn.lint.decoding import release_issues

    issues = list(doc.issues) + release_issues(doc, release)
    if doc.data is not None:
        issues.extend(schema.validate(doc.data))
    ctx = Context(conf, release)
    for family in REFUSING:  # the error rules alone: these families' findings never raise their rule's severity
        issues.extend(run("queues", ctx, family=family, severity="error"))
    if any(i.rule not in RULES for i in issues):  # an issue the loader raised under another module's rule
        load_all()
    found = sorted(resolve("", doc, issues), key=sort_key)
    return [f"line {f.line}: {f.rule} {f.message}" if f.line else f"{f.rule} {f.message}"
            for f in found if f.severity == "error"]


def check_queues(doc, release: Release | None = None) -> list[Issue]:
    """Every issue of one queues.yaml document, as YuniKorn `release` (None: the newest) judges
    it: decoding, schema, then YuniKorn's rules (those that hold for that release)."""
    release = release or NEWEST
    issues = list(doc.issues)
    if doc.data is not None and not isinstance(doc.data, dict):
        issues.append(Issue("PRIO003", (), f"a queues.yaml is a mapping with a partitions list, found {describe(doc.data, article=False)}"))
        return issues
    if doc.data is not None:
        issues.extend(schema.validate(doc.data))
    if release is not NEWEST:
        from prio.yunikorn.lint.decoding import release_issues

        issues.extend(release_issues(doc, release))
    issues += run("queues", Context(queues_loader.decode(doc), release))
    return issues if release is NEWEST else [i for i in issues if applies(i.rule, release)]


def _configmap(doc) -> list[Issue]:
    return run("configmap", doc)


def _priority_class(doc) -> list[Issue]:
    from prio.yunikorn.lint import priorityclass

    return priorityclass.lint_priority_class(doc)


def _gang_pods(doc) -> bool:
    """A pod list (or Pod) some pod of which carries the task-groups annotation (PRIO804): the
    only thing of a pod list validate checks."""
    from prio.io.documents import kind_of

    if kind_of(doc.data) != "pods":
        return False
    from prio.yunikorn.lint.gangs import gang_pods

    return bool(gang_pods(doc.data))


def _pods(doc) -> list[Issue]:
    return run("pods", doc)


def _classes_defined(files) -> list:
    """Several globalDefault PriorityClasses and one class defined twice (PRIO307/PRIO312)."""
    from prio.yunikorn.lint.priorityclass import cross_file

    return list(cross_file(files))


def is_snapshot(doc) -> bool:
    """A prio snapshot (native format): validate checks it only beside a queue config of the run
    (its gangs against the configs), and names it as a file it checked then."""
    from prio.io.documents import kind_of

    return isinstance(doc.data, dict) and kind_of(doc.data) == "native"


def _gang_issues(files) -> list:
    """Each prio snapshot of the run against each queue config of the run: its gang applications
    (PRIO801-PRIO803), reported in the snapshot. A snapshot prio cannot read is left to the
    commands that read it."""
    snapshots = [(name, u) for name, u in files if u.kind == "other" and is_snapshot(u.doc)]
    if not snapshots:
        return []  # the common run: no snapshot, so no config is decoded a second time, nothing imported
    from prio.errors import InputError
    from prio.yunikorn.lint import gangs
    from prio.yunikorn.load import native

    confs = [queues_loader.decode(u.doc) for _, u in files if u.kind == "queues" and isinstance(u.doc.data, dict)]
    found = []
    for name, u in snapshots if confs else ():
        try:
            snap = native.load(name, u.doc)
        except InputError:
            continue
        if any(a.task_groups for a in snap.apps):
            for conf in confs:
                found += [(name, u.doc, i) for i in gangs.issues(conf, snap)]
    return found


def _against_classes(files) -> list:
    """When any user class is defined, every queue config against those classes (PRIO310/PRIO311)."""
    from prio.yunikorn.lint.crosscheck import cross_check_issues
    from prio.yunikorn.load.priorityclasses import classes_from_docs

    classes = classes_from_docs([(name, u.doc) for name, u in files if u.kind == "priorityclass"])
    found = []
    for name, u in files if classes else ():
        if u.kind == "queues" and isinstance(u.doc.data, dict):
            found += [(name, u.doc, i) for i in cross_check_issues(queues_loader.decode(u.doc), classes)]
    return found


registry.unit_check("queues", check_queues, release=True)
registry.unit_check("configmap", _configmap)
registry.unit_check("priorityclass", _priority_class)
registry.other_check(_gang_pods, _pods)
registry.companion(is_snapshot, "queues")
# what only the run's files together show; the last two read the units (their kinds), not only
# the documents
registry.set_check(("priorityclass",), ("priorityclass",), _classes_defined)
registry.set_check(("other",), ("other", "queues"), _gang_issues, units=True)
registry.set_check(("priorityclass",), ("priorityclass", "queues"), _against_classes, units=True)
