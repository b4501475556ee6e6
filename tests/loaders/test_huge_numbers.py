"""Numbers no scheduler holds, in every loader's input (issue 43, items 1 and 7): each number of a
bundled input replaced in turn by one of 5,000 digits (past Python's 4,300, where int() and
str() of an int raise), quoted and not, or by an overflowing float. Every case is either read as
the scheduler would read it, or one line naming the file, exit 2, the number shown by its ends
(`999999...999 (5000 digits)`): never "internal error", never a screenful of nines.

One case per loader: Kueue (YAML, and JSON as kubectl prints it), a native snapshot, a queue
config, PriorityClasses, a kubectl pod list, a REST applications dump, both Armada models, Volcano."""
from __future__ import annotations

import json
import os
import re

import pytest

from conftest import ROOT, run_cli, sample

BIG = "9" * 5000
# a number standing alone: not part of a name, a version, a time or a quantity's suffix
_NUMBER = re.compile(r"(?<![\w.\-:/])\d+(?:\.\d+)?(?![\w.:\-/])")


def _variants(text: str, quoted: bool):
    """(line, text) for each number of `text` (comments aside) replaced by BIG."""
    lines = text.splitlines(True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    for m in _NUMBER.finditer(text):
        line = next(i for i, s in enumerate(starts) if s > m.start())
        if lines[line - 1].lstrip().startswith("#"):
            continue
        inside = text[m.start() - 1:m.start()] == '"'
        new = BIG if inside or not quoted else f'"{BIG}"'
        yield line, text[:m.start()] + new + text[m.end():]
        if not inside and not quoted:
            yield line, text[:m.start()] + "1.0e+999" + text[m.end():]


def _check(r, name: str, line: int) -> None:
    where = f"{name} (the number on line {line})"
    assert r.exit_code in (0, 1, 2), (where, r.exit_code, r.stderr[-300:])
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr, (where, r.stderr[:300])
    if r.exit_code == 2:
        lines = [ln for ln in r.stderr.splitlines() if not ln.startswith(("prio: note:", " "))]
        assert len(lines) == 1 and lines[0].startswith("prio: ") and name in lines[0], (where, r.stderr[:300])
        assert len(lines[0]) < 400 and BIG[:40] not in r.stderr, (where, lines[0][:300])


def _kueue_json() -> str:
    """samples/kueue.yaml as kubectl prints it: one JSON List."""
    import yaml

    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        items = [d for d in yaml.safe_load_all(fh) if d]
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1, default=str)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


# (case, the file's text and suffix, the command with F for the file)
CASES = {
    "kueue": (lambda: _read(sample("kueue.yaml")), ".yaml", ["simulate", "F"]),
    "kueue-json": (_kueue_json, ".json", ["explain", "F", "-o", "json"]),
    "native": (lambda: _read(sample("preemption-asks.yaml")), ".yaml", ["preempt", sample("preemption-queues.yaml"), "F"]),
    "gang": (lambda: _read(sample("gang-asks.yaml")), ".yaml", ["simulate", sample("gang-queues.yaml"), "F", "-o", "json"]),
    "config": (lambda: _read(sample("quota-queues.yaml")), ".yaml", ["simulate", "F", sample("quota-asks.yaml")]),
    "priorityclasses": (lambda: _read(sample("priorityclasses.yaml")), ".yaml",
                        ["simulate", sample("walkthrough-queues.yaml"), sample("walkthrough-asks.yaml"), "F"]),
    "pods": (lambda: _read(os.path.join(ROOT, "tests", "fixtures", "kubectl", "pods-with-classes.yaml")), ".yaml",
             ["simulate", sample("walkthrough-queues.yaml"), "F"]),
    "rest-apps": (lambda: _read(os.path.join(ROOT, "tests", "fixtures", "rest", "apps-group-a.json")), ".json",
                  ["simulate", "F"]),
    "armada-current": (lambda: _read(sample("armada-current.yaml")), ".yaml", ["simulate", "F"]),
    "armada-legacy": (lambda: _read(sample("armada-scenario.yaml")), ".yaml", ["explain", "F", "-o", "json"]),
    "volcano": (lambda: _read(sample("volcano.yaml")), ".yaml", ["simulate", "F"]),
}


@pytest.mark.parametrize("quoted", [False, True], ids=["plain", "quoted"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_number_of_thousands_of_digits_is_read_or_one_line(tmp_path, case, quoted):
    text_of, suffix, command = CASES[case]
    text = text_of()
    f = tmp_path / f"in{suffix}"
    tried = 0
    for line, changed in _variants(text, quoted):
        f.write_text(changed)
        _check(run_cli(*[str(f) if a == "F" else a for a in command]), f.name, line)
        tried += 1
    assert tried >= 3, f"{case}: too few numbers to try"


@pytest.mark.parametrize("where,big,words", [
    ("nominalQuota: 6", f"nominalQuota: {BIG}", "is more than Kueue counts: it holds this as int64 millicores of cpu"),
    ("requests: {cpu: 2}", f"requests: {{cpu: {BIG}}}", "is more than Kueue counts"),
    ('resourceUsage: {cpu: "2"}', f'resourceUsage: {{cpu: "{BIG}"}}', "is more than Kueue counts"),
    ("count: 1\n    template", f"count: {BIG}\n    template", "must be between 0 and 2147483647"),
    ("{name: main, count: 1,", f"{{name: main, count: {BIG},", "must be between 0 and 2147483647"),
])
def test_kueue_says_which_number_is_out_of_its_range(tmp_path, where, big, words):
    """The cases of the first report: a 5,000-digit quota, request, usage or count."""
    text = _read(sample("kueue.yaml"))
    assert where in text
    f = tmp_path / "k.yaml"
    f.write_text(text.replace(where, big, 1))
    r = run_cli("simulate", str(f))  # the API server refuses the object: skipped, in one note
    assert r.exit_code == 0, r.stderr[:300]
    (note,) = [ln for ln in r.stderr.splitlines() if ln.endswith("(skipped: the API server refuses this object)")]
    assert words in note and "999999...999 (5000 digits)" in note, note[:300]
    assert note.startswith("prio: note: ") and re.search(r"k\.yaml:\d+:\d+: ", note), note[:200]


def test_a_kueue_quantity_past_int64_is_refused_and_one_within_is_read(tmp_path):
    text = _read(sample("kueue.yaml"))
    f = tmp_path / "k.yaml"
    f.write_text(text.replace("nominalQuota: 6", "nominalQuota: 9223372036854776", 1))  # * 1000 millicores: past int64
    r = run_cli("simulate", str(f))
    assert r.exit_code == 2 and "9223372036854776 is more than Kueue counts" in r.stderr, r.stderr
    f.write_text(text.replace("nominalQuota: 6", "nominalQuota: 9223372036854775", 1))
    assert run_cli("simulate", str(f)).exit_code == 0


def test_a_kueue_weight_past_int64_thousandths_is_refused(tmp_path):
    text = _read(sample("kueue.yaml"))
    f = tmp_path / "k.yaml"
    f.write_text(text.replace("  cohortName: org\n", "  cohortName: org\n  fairSharing: {weight: 1e30}\n", 1))
    r = run_cli("simulate", str(f))
    assert r.exit_code == 2 and "1e30 is more than Kueue counts: it holds this as int64 thousandths" in r.stderr, r.stderr


@pytest.mark.parametrize("value", [".inf", "9223372037", BIG[:400]])
def test_a_time_past_go_s_range_is_one_line(tmp_path, value):
    """A submitTime of seconds past int64 nanoseconds (infinity, 400 digits) once overflowed."""
    f = tmp_path / "s.yaml"
    f.write_text(f"applications:\n  - id: a\n    queue: root.tenant-a\n    submitTime: {value}\n    asks: [{{priority: 1}}]\n")
    r = run_cli("simulate", sample("walkthrough-queues.yaml"), str(f))
    assert r.exit_code == 2 and "s.yaml:4:" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert "years 1678 to 2262" in r.stderr and len(r.stderr) < 300
    f.write_text("applications:\n  - id: a\n    queue: root.tenant-a\n    submitTime: 9223372036\n    asks: [{priority: 1}]\n")
    assert run_cli("simulate", sample("walkthrough-queues.yaml"), str(f)).exit_code == 0
