"""The validate pipeline: read -> split into units -> decode, schema, rules -> findings.

It prints nothing: it returns a Report and the input errors, and the CLI decides what to show."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio import backends
from prio.diagnostics import Finding, Report, format_path, sort_key
from prio.errors import InputError, NothingToCheck
from prio.io import documents, source
from prio.lint.registry import COMPANIONS, OTHER_CHECKS, RULES, SET_CHECKS, TAKES_RELEASE, UNIT_CHECKS
from prio.lint.rules import load_all


@dataclass
class Options:
    priority_classes: list = field(default_factory=list)  # extra PriorityClass files (issue 5)
    release: object = None  # the YuniKorn release judged for (--yunikorn-version, issue 46; None: the newest)


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


def check_text(name: str, text: str, found: bool = False, release=None) -> FileResult:
    """Check one file, for YuniKorn `release` (None: the newest). `found`: it came from a directory, not from the
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
        claimed = next((check for claims, check in OTHER_CHECKS if claims(unit.doc)), None) if unit.kind == "other" else None
        if unit.kind == "other" and claimed is None:
            held.append(unit.label or "a document")
        if claimed is not None:  # e.g. a pod list: the only thing of it validate checks is the shim's task-groups annotation
            findings += resolve(name, unit.doc, claimed(unit.doc))
        elif unit.kind in UNIT_CHECKS:  # a scheduler's document: its rules module's check
            check = UNIT_CHECKS[unit.kind]
            if check is not None:  # None: read with the other documents of the run alone (set_issues)
                findings += resolve(name, unit.doc, check(unit.doc, release) if unit.kind in TAKES_RELEASE else check(unit.doc))
        else:
            notes.append(f"{name}:{unit.doc.start.line}: skipped {unit.label or 'a document'}: not a queue config, PriorityClass, "
                         f"{backends.spoken((e.manifests for e in backends.CLAIMED), 'or')} object")
    findings.sort(key=sort_key)
    checked = len(held) < len(units)
    return FileResult(name, text, findings, notes, units, checked, ", ".join(dict.fromkeys(held)))


def check_paths(paths: list[str], options: Options | None = None):
    """Check every path. Returns (report, results per file, input errors)."""
    report = Report()
    results: list[FileResult] = []
    errors: list[InputError] = []
    extra = list(options.priority_classes) if options else []
    release = options.release if options else None
    named = set(paths) | set(extra)
    below: dict = {}  # each directory named -> the files found below it
    todo: list = []
    for p in list(paths) + list(extra):  # --priority-classes files are linted too
        found = source.expand([p], report.notes)
        if found != [p]:
            below[p] = found
        todo += [f for f in found if f not in todo]
    done: set = set()
    snapshots: list = []  # (path, name, result) of files checked only beside a kind of the run (prio snapshots: their gangs against the configs)
    for path in todo:
        try:
            src = source.read(path)
            res = check_text(src.name, src.text, found=path not in named, release=release)
        except InputError as e:
            errors.append(e)
            continue
        if not res.checked and path in named and _companions(res.units):
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
    beside = {kind for _, kind in COMPANIONS}
    with_config = any(u.kind in beside for r in results for u in r.units)
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
                f"yunikorn-configs ConfigMap, PriorityClass, {backends.spoken((e.manifests for e in backends.CLAIMED), 'or')} manifest" if found
                else "no .yaml, .yml or .json files below it")))
    across_files(results)
    for res in results:
        report.findings.extend(res.findings)
    return report, results, errors


def set_issues(files) -> list:
    """What only the whole set of files shows: `files` is [(file name, [documents.Unit, ...])]
    for every file of the run, --priority-classes files included. Returns (file name, Document,
    Issue) triples: each scheduler's documents of the run together (the SET_CHECKS its rules
    module registered, in the order registered: YuniKorn's PriorityClasses defined twice or
    globalDefault more than once, each backend's objects, a snapshot's gangs against the run's
    queue configs, the queue configs against the classes defined)."""
    load_all()
    found: list = []
    for starts, reads, check, pass_units in SET_CHECKS:
        if any(u.kind in starts for _, units in files for u in units):
            found += check([(name, u if pass_units else u.doc) for name, units in files for u in units if u.kind in reads])
    return found


def _companions(units) -> list:
    """The units checked only beside a unit of a kind of the run (registry.companion: a prio
    snapshot beside a queue config)."""
    return [u for u in units if u.kind == "other" and any(claims(u.doc) for claims, _ in COMPANIONS)]


def across_files(results: list[FileResult]) -> None:
    """Attach the findings across files (`set_issues`) to the files they point into."""
    found = set_issues([(r.name, r.units) for r in results])
    by_name = {r.name: r for r in results}
    for name, doc, issue in found:
        by_name[name].findings.extend(resolve(name, doc, [issue]))
    for name in {name for name, _, _ in found}:
        by_name[name].findings.sort(key=sort_key)
