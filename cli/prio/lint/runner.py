"""The validate pipeline: read -> split into units -> decode, schema, rules -> findings.

It prints nothing: it returns a Report and the input errors, and the CLI decides what to show."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio import backends
from prio.diagnostics import Finding, Issue, Report, format_path, sort_key
from prio.errors import InputError, NothingToCheck
from prio.io import documents, source
from prio.lint import schema
from prio.lint.context import Context
from prio.lint.registry import RULES, SET_CHECKS, UNIT_CHECKS, run
from prio.lint.rules import load, load_all
from prio.loaders import queues as queues_loader
from prio.values import describe
from prio.yunikorn.releases import NEWEST, Release, applies


@dataclass
class Options:
    priority_classes: list = field(default_factory=list)  # extra PriorityClass files (issue 5)
    release: Release = NEWEST  # the YuniKorn release judged for (--yunikorn-version, issue 46)


@dataclass
class FileResult:
    name: str
    text: str
    findings: list
    notes: list  # human notes for verbose mode (skipped kinds, ...)
    units: list = field(default_factory=list)  # what the file held, for the checks across files
    checked: bool = True  # False: nothing in it is something validate checks
    held: str = ""  # what it holds instead, when not checked


def resolve(name: str, doc, issues) -> list[Finding]:
    out = []
    for i in issues:
        rule = RULES[i.rule]
        pos = i.pos or doc.pos(i.path, i.at)
        out.append(Finding(i.rule, rule.name, i.severity or rule.severity, i.message, name,
                           pos.line if pos else None, pos.column if pos else None, format_path(i.path), i.fix))
    return out


# The families whose error-severity rules are refusals of YuniKorn's config validator (the others
# hold what YuniKorn takes with a warning or silently: properties, priority, preemption).
REFUSING = ("structure", "resources", "limits", "acl", "placement", "nodesort")


def config_errors(doc, conf, release: Release = NEWEST) -> list[str]:
    """Why YuniKorn `release` would refuse a decoded queue config, as lines (empty: it would take
    it): every error-severity finding of decoding, the schema and the queues rules, as validate
    reports them (without suppressions: a `# prio: ignore` does not make YuniKorn take it)."""
    load("decoding", *REFUSING)  # not the backends': explain and simulate need these alone
    from prio.lint.rules.decoding import release_issues

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


def check_queues(doc, release: Release = NEWEST) -> list[Issue]:
    """Every issue of one queues.yaml document, as YuniKorn `release` judges it: decoding,
    schema, then YuniKorn's rules (those that hold for that release)."""
    load_all()
    issues = list(doc.issues)
    if doc.data is not None and not isinstance(doc.data, dict):
        issues.append(Issue("PRIO003", (), f"a queues.yaml is a mapping with a partitions list, found {describe(doc.data, article=False)}"))
        return issues
    if doc.data is not None:
        issues.extend(schema.validate(doc.data))
    if release is not NEWEST:
        from prio.lint.rules.decoding import release_issues

        issues.extend(release_issues(doc, release))
    issues += run("queues", Context(queues_loader.decode(doc), release))
    return issues if release is NEWEST else [i for i in issues if applies(i.rule, release)]


def _not_validated(name: str, res: FileResult) -> InputError:
    """A file named on the command line that holds nothing validate checks. A saved REST response
    gets the same line explain and simulate give for it (prio.io.endpoints.message: for
    /ws/v1/config as JSON, to save the YAML answer), not a second wording."""
    from prio.io import endpoints

    for unit in res.units:
        found = endpoints.identify(unit.doc.data) if unit.kind == "other" else None
        if found is not None:
            return InputError(name, endpoints.message(found), unit.doc.start.line if unit.doc.index else None)
    return InputError(name, f"not something prio validates: it holds {res.held}")


def check_text(name: str, text: str, found: bool = False, release: Release = NEWEST) -> FileResult:
    """Check one file, for YuniKorn `release`. `found`: it came from a directory, not from the
    command line, so a YAML file that is plainly something else (a Helm values.yaml: no
    partitions, no kind) is skipped rather than reported as a queue config full of unknown keys."""
    load_all()
    notes: list[str] = []
    findings: list[Finding] = []
    units = documents.units(name, text)
    held: list[str] = []
    for unit in units:
        if unit.kind == "queues" and found and not unit.label and isinstance(unit.doc.data, dict) \
                and unit.doc.data and "partitions" not in unit.doc.data:
            notes.append(f"{name}: skipped: found in a directory, and not a queue config (no partitions key)")
            held.append("a YAML mapping without partitions")
            continue
        if unit.kind == "queues" and found and not unit.label and isinstance(unit.doc.data, list):
            notes.append(f"{name}: skipped: found in a directory, and not a queue config (a list at the top)")
            held.append("a YAML list")
            continue
        gang_pods = unit.kind == "other" and _gang_pods(unit)
        if unit.kind == "other" and not gang_pods:
            held.append(unit.label or "a document")
        if gang_pods:  # the only thing of a pod list validate checks: the shim's task-groups annotation
            findings += resolve(name, unit.doc, run("pods", unit.doc))
        elif unit.kind == "queues":
            findings += resolve(name, unit.doc, check_queues(unit.doc, release))
        elif unit.kind in UNIT_CHECKS:  # a backend's document (prio.backends): its rules module's check
            check = UNIT_CHECKS[unit.kind]
            if check is not None:  # None: read with the other documents of the run alone (set_issues)
                findings += resolve(name, unit.doc, check(unit.doc))
        elif unit.kind == "configmap":
            findings += resolve(name, unit.doc, run("configmap", unit.doc))
        elif unit.kind == "priorityclass":
            from prio.lint.rules import priorityclass as k8s_lint

            findings += resolve(name, unit.doc, k8s_lint.lint_priority_class(unit.doc))
        else:
            notes.append(f"{name}:{unit.doc.start.line}: skipped {unit.label or 'a document'}: not a queue config, PriorityClass, "
                         f"{backends.spoken((e.manifests for e in backends.REGISTRY), 'or')} object")
    findings.sort(key=sort_key)
    checked = len(held) < len(units)
    return FileResult(name, text, findings, notes, units, checked, ", ".join(dict.fromkeys(held)))


def check_paths(paths: list[str], options: Options | None = None):
    """Check every path. Returns (report, results per file, input errors)."""
    report = Report()
    results: list[FileResult] = []
    errors: list[InputError] = []
    extra = list(options.priority_classes) if options else []
    release = options.release if options else NEWEST
    named = set(paths) | set(extra)
    below: dict = {}  # each directory named -> the files found below it
    todo: list = []
    for p in list(paths) + list(extra):  # --priority-classes files are linted too
        found = source.expand([p], report.notes)
        if found != [p]:
            below[p] = found
        todo += [f for f in found if f not in todo]
    done: set = set()
    snapshots: list = []  # (path, name, result) of prio snapshots named: their gangs against the configs
    for path in todo:
        try:
            src = source.read(path)
            res = check_text(src.name, src.text, found=path not in named, release=release)
        except InputError as e:
            errors.append(e)
            continue
        if not res.checked and path in named and _snapshots(res.units):
            snapshots.append((path, src.name, res, len(errors)))  # checked against the run's queue configs, if any (below)
            continue
        if not res.checked:
            if path in named:  # named explicitly: saying "no problems" about it would be a lie
                errors.append(_not_validated(src.name, res))
            else:
                report.skipped.append(src.name)
                report.notes += res.notes or [f"{src.name}: skipped: {res.held}"]
            continue
        done.add(path)
        report.files.append(src.name)
        results.append(res)
    with_config = any(u.kind == "queues" for r in results for u in r.units)
    for _, name, res, at in reversed(snapshots) if not with_config else ():
        # alone, nothing in it is checked: saying "no problems" about it would be a lie (said in its place)
        errors.insert(at, _not_validated(name, res))
    for path, name, res, _ in snapshots if with_config else ():
        done.add(path)
        report.files.append(name)
        results.append(res)
    for d, found in below.items():
        if not any(f in done for f in found):
            skipped = sum(1 for f in found if f not in done)
            errors.append(NothingToCheck(d, "nothing to check: " + (
                f"none of its {skipped} YAML/JSON file{'s' if skipped != 1 else ''} is a queue config, "
                f"yunikorn-configs ConfigMap, PriorityClass, {backends.spoken((e.manifests for e in backends.REGISTRY), 'or')} manifest" if found
                else "no .yaml, .yml or .json files below it")))
    across_files(results)
    for res in results:
        report.findings.extend(res.findings)
    return report, results, errors


def set_issues(files) -> list:
    """What only the whole set of files shows: `files` is [(file name, [documents.Unit, ...])]
    for every file of the run, --priority-classes files included. Returns (file name, Document,
    Issue) triples: several globalDefault PriorityClasses and one class defined twice
    (PRIO307/PRIO312), each backend's objects of the run together (the SET_CHECKS its rules module
    registered), then, when any
    user class is defined, every queue config against those
    classes (PRIO310/PRIO311)."""
    from prio.lint.rules.crosscheck import cross_check_issues
    from prio.lint.rules.priorityclass import cross_file
    from prio.loaders.priorityclasses import classes_from_docs

    pcs = [(name, u.doc) for name, units in files for u in units if u.kind == "priorityclass"]
    found = list(cross_file(pcs))
    for starts, reads, check in SET_CHECKS:  # each backend's objects of the run together
        if any(u.kind in starts for _, units in files for u in units):
            found += check([(name, u.doc) for name, units in files for u in units if u.kind in reads])
    found += _gang_issues(files)
    classes = classes_from_docs(pcs)
    if classes:
        for name, units in files:
            for u in units:
                if u.kind == "queues" and isinstance(u.doc.data, dict):
                    found += [(name, u.doc, i) for i in cross_check_issues(queues_loader.decode(u.doc), classes)]
    return found


def _gang_pods(unit) -> bool:
    """A pod list (or Pod) some pod of which carries the task-groups annotation (PRIO804)."""
    from prio.io.documents import kind_of

    if kind_of(unit.doc.data) != "pods":
        return False
    from prio.lint.rules.gangs import gang_pods

    return bool(gang_pods(unit.doc.data))


def _snapshots(units) -> list:
    """The prio snapshots (native format) among a file's units."""
    from prio.io.documents import kind_of

    return [u for u in units if u.kind == "other" and isinstance(u.doc.data, dict) and kind_of(u.doc.data) == "native"]


def _gang_issues(files) -> list:
    """Each prio snapshot of the run against each queue config of the run: its gang applications
    (PRIO801-PRIO803), reported in the snapshot. A snapshot prio cannot read is left to the
    commands that read it."""
    snapshots = [(name, u) for name, units in files for u in _snapshots(units)]
    if not snapshots:
        return []  # the common run: no snapshot, so no config is decoded a second time, nothing imported
    from prio.errors import InputError
    from prio.lint.rules import gangs
    from prio.loaders import native

    confs = [queues_loader.decode(u.doc) for _, units in files for u in units if u.kind == "queues" and isinstance(u.doc.data, dict)]
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


def across_files(results: list[FileResult]) -> None:
    """Attach the findings across files (`set_issues`) to the files they point into."""
    found = set_issues([(r.name, r.units) for r in results])
    by_name = {r.name: r for r in results}
    for name, doc, issue in found:
        by_name[name].findings.extend(resolve(name, doc, [issue]))
    for name in {name for name, _, _ in found}:
        by_name[name].findings.sort(key=sort_key)
