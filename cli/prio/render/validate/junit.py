"""`prio validate -o junit`: JUnit XML for CI test dashboards (GitLab `reports: junit:`, Jenkins).

One `<testsuite>` per file. Each finding is a `<testcase>` with a `<failure>` whose `type` is its
severity (as ruff does: a dashboard has no "warning" state; the exit code still decides whether
the job fails). A clean file gets one passing testcase, so dashboards count it; a file prio could
not read gets a testcase with an `<error>`. No timestamps: the same input gives the same bytes."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from prio import backends
from prio.diagnostics import Report
from prio.render.printable import for_terminal, printable
from prio.render.validate.common import by_file, location

# Characters XML 1.0 cannot carry at all, even escaped (printable writes the controls out).
_INVALID = str.maketrans({"\ufffe": "\ufffd", "\uffff": "\ufffd"})

# what a skipped file is not (every backend's manifests named, from the registry)
_SKIPPED = f"not a queue config, ConfigMap, PriorityClass, {backends.spoken((e.manifests for e in backends.CLAIMED), 'or')} manifest"


def _x(s) -> str:
    """A value of the XML: control characters (XML 1.0 cannot carry most) and line breaks written
    out, so no text of an input starts a line of the output (ElementTree escapes the markup)."""
    return printable(str(s)).translate(_INVALID)


@for_terminal
def render(report: Report, input_errors=(), strict=False, **_) -> str:
    """Findings that fail the run (errors; warnings under --strict) are failing testcases; the
    others pass and carry their message in system-out, so a passing job shows no failed tests."""
    failing = ("error", "warning") if strict else ("error",)
    errors_of: dict = {}
    for e in input_errors:
        errors_of.setdefault(e.file, []).append(e)
    root = ET.Element("testsuites", name="prio")
    total = {"tests": 0, "failures": 0, "errors": 0}
    for name, findings in by_file(report, errors_of):
        suite = ET.SubElement(root, "testsuite", name=_x(name))
        counts = {"tests": 0, "failures": 0, "errors": 0}
        for e in errors_of.get(name, ()):
            case = ET.SubElement(suite, "testcase", name="read", classname=_x(name), file=_x(name))
            ET.SubElement(case, "error", message=_x(e.message), type="input").text = _x(str(e))
            counts["tests"] += 1
            counts["errors"] += 1
        for f in findings:
            where = f.path or (f"line {f.line}" if f.line else "file")
            attrs = {"name": _x(f"{f.rule} ({f.name}) {where}"), "classname": _x(name), "file": _x(name)}
            if f.line:
                attrs["line"] = str(f.line)
            case = ET.SubElement(suite, "testcase", attrs)
            line = _x(f"{location(f)}: {f.severity} {f.rule} ({f.name}) {f.message}")
            counts["tests"] += 1
            if f.severity in failing:
                ET.SubElement(case, "failure", message=_x(f.message), type=f.severity).text = line
                counts["failures"] += 1
            else:
                ET.SubElement(case, "system-out").text = line
        if counts["tests"] == 0:
            ET.SubElement(suite, "testcase", name="prio validate", classname=_x(name), file=_x(name))
            counts["tests"] = 1
        for k, v in counts.items():
            suite.set(k, str(v))
            total[k] += v
        suite.set("skipped", "0")
    for name in getattr(report, "skipped", ()):  # found in a directory, holding nothing prio validates
        suite = ET.SubElement(root, "testsuite", name=_x(name), tests="1", failures="0", errors="0", skipped="1")
        case = ET.SubElement(suite, "testcase", name="prio validate", classname=_x(name), file=_x(name))
        ET.SubElement(case, "skipped", message=_SKIPPED)
        total["tests"] += 1
    for k, v in total.items():
        root.set(k, str(v))
    root.set("skipped", str(len(getattr(report, "skipped", ()))))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
