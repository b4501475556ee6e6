"""The validate pipeline: read -> split into units -> decode, schema, rules -> findings.

It prints nothing: it returns a Report and the input errors, and the CLI decides what to show."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio import config as config_mod
from prio import documents, schema, source
from prio.errors import InputError
from prio.findings import Finding, Issue, Report, format_path, sort_key
from prio.rules import load_all
from prio.rules.context import Context
from prio.rules.registry import CHECKS, RULES


@dataclass
class Options:
    priority_classes: list = field(default_factory=list)  # extra PriorityClass files (issue 5)


@dataclass
class FileResult:
    name: str
    text: str
    findings: list
    notes: list  # human notes for verbose mode (skipped kinds, ...)
    units: list = field(default_factory=list)  # what the file held, for the checks across files


def resolve(name: str, doc, issues) -> list[Finding]:
    out = []
    for i in issues:
        rule = RULES[i.rule]
        pos = i.pos or doc.pos(i.path, i.at)
        out.append(Finding(i.rule, rule.name, i.severity or rule.severity, i.message, name,
                           pos.line if pos else None, pos.column if pos else None, format_path(i.path)))
    return out


from prio.rules import FAMILIES

QUEUE_FAMILIES = tuple(f for f in FAMILIES if f != "decoding")  # decoding findings come from the loader


def check_queues(doc) -> list[Issue]:
    """Every issue of one queues.yaml document: decoding, schema, then YuniKorn's rules."""
    load_all()
    issues = list(doc.issues)
    if doc.data is not None and not isinstance(doc.data, dict):
        issues.append(Issue("PRIO003", (), f"a queues.yaml is a mapping with a partitions list, found {schema._describe(doc.data)}"))
        return issues
    if doc.data is not None:
        issues.extend(schema.validate(doc.data))
    ctx = Context(config_mod.decode(doc))
    for fam in QUEUE_FAMILIES:
        for fn in CHECKS.get(fam, ()):
            issues.extend(fn(ctx))
    return issues


def check_text(name: str, text: str, found: bool = False) -> FileResult:
    """Check one file. `found`: it came from a directory, not from the command line, so a YAML
    file that is plainly something else (a Helm values.yaml: no partitions, no kind) is skipped
    rather than reported as a queue config full of unknown keys."""
    load_all()
    notes: list[str] = []
    findings: list[Finding] = []
    units = documents.units(name, text)
    for unit in units:
        if unit.kind == "queues" and found and not unit.label and isinstance(unit.doc.data, dict) \
                and unit.doc.data and "partitions" not in unit.doc.data:
            notes.append(f"{name}: skipped: found in a directory, and not a queue config (no partitions key)")
            continue
        if unit.kind == "queues":
            findings += resolve(name, unit.doc, check_queues(unit.doc))
        elif unit.kind == "armada-queue":
            from prio.armada import lint as armada_lint

            findings += resolve(name, unit.doc, armada_lint.lint_queue_document(unit.doc))
        elif unit.kind == "armada-scenario":
            from prio.armada.current import lint as current_lint

            findings += resolve(name, unit.doc, current_lint.lint_scenario(unit.doc))
        elif unit.kind == "priorityclass":
            from prio.k8s import lint as k8s_lint

            findings += resolve(name, unit.doc, k8s_lint.lint_priority_class(unit.doc))
        else:
            notes.append(f"{name}:{unit.doc.start.line}: skipped {unit.label or 'a document'}: not a queue config, PriorityClass or Armada queue")
    findings.sort(key=sort_key)
    return FileResult(name, text, findings, notes, units)


def check_paths(paths: list[str], options: Options | None = None):
    """Check every path. Returns (report, results per file, input errors)."""
    report = Report()
    results: list[FileResult] = []
    errors: list[InputError] = []
    extra = list(options.priority_classes) if options else []
    named = set(paths) | set(extra)
    todo = source.expand(list(paths))
    todo += [p for p in source.expand(extra) if p not in todo]  # --priority-classes files are linted too
    for path in todo:
        try:
            src = source.read(path)
            res = check_text(src.name, src.text, found=path not in named)
        except InputError as e:
            errors.append(e)
            continue
        report.files.append(src.name)
        results.append(res)
    across_files(results)
    for res in results:
        report.findings.extend(res.findings)
    return report, results, errors


def across_files(results: list[FileResult]) -> None:
    """What only the whole set of files shows: several globalDefault PriorityClasses, one class
    defined twice, and queue offsets checked against the classes actually defined."""
    from prio.k8s.crosscheck import set_issues

    by_name = {r.name: r for r in results}
    added = set()
    for name, doc, issue in set_issues([(r.name, r.units) for r in results]):
        by_name[name].findings.extend(resolve(name, doc, [issue]))
        added.add(name)
    for name in added:
        by_name[name].findings.sort(key=sort_key)
