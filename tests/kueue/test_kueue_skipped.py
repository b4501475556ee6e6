"""An object the Kubernetes API server refuses (what the loader marks as prio.errors.APIRefusal:
a field of the wrong type, a missing required field, a number past its range, a list longer
than the CRD allows) never reached the cluster: simulate, explain and diff skip it with one note
on stderr (`file:line:col: KIND NAME: reason (skipped: ...)`) and replay the rest exactly as the
input without it (the metamorphic checks below: same stdout, same other notes). What is not
one object's refusal (unreadable files, bad YAML, no Kueue object, prio's own needs of an
object, a Cohort cycle, a Configuration) stays one line, exit 2; with every ClusterQueue and
Workload skipped there is nothing to schedule (one line, exit 2)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kueue_inputs import FLAVOR, cluster_queue, local_queue, one_line_exit_2, setup, workload
from test_kueue_schemas import conforms

from conftest import run_cli
from strategies import examples

SKIPPED = "(skipped: the API server refuses this object)"
API = "apiVersion: kueue.x-k8s.io/v1beta2\n"


def _doc(kind: str, body: str, api: str = API) -> str:
    return f"{api}kind: {kind}\n{body}"


def running(ns: str, name: str, cq: str, cpu: int = 1) -> str:
    return (f"{API}kind: Workload\nmetadata: {{namespace: {ns}, name: {name}, creationTimestamp: \"2026-01-01T00:00:00Z\"}}\n"
            f"spec:\n  queueName: queue\n  podSets:\n"
            f"  - template: {{spec: {{containers: [{{name: c, resources: {{requests: {{cpu: {cpu}}}}}}}]}}}}\n"
            f"status:\n  admission: {{clusterQueue: {cq}, podSetAssignments: [{{name: main, count: 1, flavors: {{cpu: default}}, "
            f"resourceUsage: {{cpu: \"{cpu}\"}}}}]}}\n")


# A setup with something of every kind the bad objects below shadow (a name they share, a
# namespace they name): two ClusterQueues in a cohort, a WorkloadPriorityClass, a PriorityClass,
# a Namespace, running and pending Workloads that preempt and borrow.
GOOD = [
    FLAVOR,
    _doc("Cohort", "metadata: {name: org}\n"),
    cluster_queue("cq", "org", cpu=4).replace("  resourceGroups:", "  preemption: {withinClusterQueue: LowerPriority, "
                                                                    "reclaimWithinCohort: Any}\n  resourceGroups:"),
    cluster_queue("other", "org", cpu=2),
    local_queue("a", "cq"),
    local_queue("b", "other"),
    _doc("WorkloadPriorityClass", "metadata: {name: high}\nvalue: 100\n"),
    _doc("PriorityClass", "metadata: {name: pc}\nvalue: 5\n", "apiVersion: scheduling.k8s.io/v1\n"),
    _doc("Namespace", "metadata: {name: a, labels: {team: a}}\n", "apiVersion: v1\n"),
    running("b", "r", "other", cpu=2),
    workload("a", "w1", cpu=3, second=1),
    workload("b", "w2", cpu=2, second=2),
    workload("a", "w3", cpu=2, second=3).replace("name: w3,", "name: w3, labels: {kueue.x-k8s.io/priority-class: high},"),
]

# (label, object) the API server refuses, each where the loader finds it: most in their shapes,
# some after reading what would leak if the object were half kept (a feature's note, a drain,
# a later creationTimestamp moving the clock, a name that a good object also has).
BAD = {
    "flavor": ("ResourceFlavor default", _doc("ResourceFlavor", "metadata: {name: default}\nspec: {nodeLabels: [x]}\n")),
    "cohort": ("Cohort org", _doc("Cohort", "metadata: {name: org}\nspec: {parentName: 7}\n")),
    "cohort-quota": ("Cohort org", _doc("Cohort", "metadata: {name: org}\nspec:\n  fairSharing: {weight: heavy}\n")),
    "cq-quota": ("ClusterQueue other", cluster_queue("other", cpu=4).replace("nominalQuota: 4", "nominalQuota: lots").replace(
        "  namespaceSelector:", "  stopPolicy: HoldAndDrain\n  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n"
                                "  namespaceSelector:")),
    "cq-missing": ("ClusterQueue extra", cluster_queue("extra", "org", cpu=8).replace("nominalQuota: 8", "borrowingLimit: 1")),
    "lq": ("LocalQueue a/queue", _doc("LocalQueue", "metadata: {namespace: a, name: queue}\nspec: {clusterQueue: 7}\n")),
    "wpc": ("WorkloadPriorityClass high", _doc("WorkloadPriorityClass", "metadata: {name: high}\nvalue: 3000000000\n")),
    "pc": ("PriorityClass pc", _doc("PriorityClass", "metadata: {name: pc}\nvalue: many\n", "apiVersion: scheduling.k8s.io/v1\n")),
    "namespace": ("Namespace a", _doc("Namespace", "metadata: {name: a, labels: [team]}\n", "apiVersion: v1\n")),
    "wl-time": ("Workload a/late", workload("a", "late", second=9).replace('"2026-01-01T00:00:09Z"', "yesterday")),
    "wl-count": ("Workload a/w1", workload("a", "w1", cpu=1, second=0).replace(
        "  - template:", "  - count: many\n    template:").replace("2026-01-01T00:00:00Z", "2026-06-01T00:00:00Z")),
    "wl-priority": ("Workload b/late", workload("b", "late", second=0).replace("2026-01-01T00:00:00Z", "2026-06-01T00:00:00Z")
                    .replace("spec:\n", "spec:\n  maximumExecutionTimeSeconds: 60\n  priority: 3000000000\n")),
    "wl-status": ("Workload b/r", running("b", "r", "other").replace('resourceUsage: {cpu: "1"}', "resourceUsage: {cpu: [1]}")),
    "node": ("Node n1", _doc("Node", "metadata: {name: n1, labels: {zone: [x]}}\n", "apiVersion: v1\n")),
    "no-name": ("a Workload", _doc("Workload", "metadata: {namespace: a}\nspec: {queueName: 7}\n")),
    "no-kind": ("an object", f"{API}kind: [Workload]\nmetadata: {{name: w1}}\n"),
    # refused past their shapes: no name at all (the API server names every object), no podSets
    # (the CRD's minItems 1), a topologyRequest both required and preferred (Kueue's webhook)
    "wl-nameless": ("a Workload", workload("a", "w9", second=4).replace("name: w9, ", "")),
    "cq-nameless": ("a ClusterQueue", cluster_queue("extra", "org", cpu=8).replace("name: extra", "labels: {x: y}")),
    "wl-no-podsets": ("Workload a/empty", workload("a", "empty", second=5).split("  podSets:")[0] + "  podSets: []\n"),
    "wl-topology": ("Workload a/tas", workload("a", "tas", second=6).replace(
        "  - template:", "  - topologyRequest: {required: zone, preferred: rack}\n    template:")),
    # what the CRD's schema refuses beyond what the loader reads: a name's pattern, a length
    "cq-cohort-pattern": ("ClusterQueue extra", cluster_queue("extra", "Org_1", cpu=8)),
    "lq-pattern": ("LocalQueue b/other-queue", local_queue("b", "Other").replace("name: queue", "name: other-queue")),
    "wl-queue-pattern": ("Workload a/w8", workload("a", "w8", second=7).replace("queueName: queue", "queueName: Queue")),
    "wl-podset-long": ("Workload a/w7", workload("a", "w7", second=8).replace("  - template:", f"  - name: {'p' * 64}\n    template:")),
}


def _write(tmp_path, docs) -> str:
    f = tmp_path / "k.yaml"
    f.write_text(setup(*docs))
    return str(f)


def _outputs(path: str) -> dict:
    """Each command's stdout and exit code on `path`, and the notes said (the same whatever the
    format: the exit code and the stderr never depend on which stream is read)."""
    out = {}
    notes = None
    for command, fmt in (("simulate", "json"), ("simulate", "plain"), ("explain", "json"), ("explain", "plain")):
        r = run_cli(command, path, "-o", fmt)
        assert "Traceback" not in r.stderr, r.stderr
        if fmt == "json" and r.exit_code == 0:
            conforms(command, json.loads(r.stdout))  # valid JSON, the schema's, notes apart
        out[command, fmt] = (r.exit_code, r.stdout)
        said = r.stderr.splitlines()
        if command == "simulate":
            if notes is None:
                notes = said
            assert said == notes, (fmt, said, notes)
    out["notes"] = notes
    return out


def _with_and_without(tmp_path, good: list, bad: list, at: list) -> tuple:
    """(the outputs with `bad` placed before the good objects' positions `at`, without them)."""
    docs = list(good)
    for obj, i in sorted(zip(bad, at), key=lambda p: -p[1]):
        docs.insert(i, obj)
    return _outputs(_write(tmp_path, docs)), _outputs(_write(tmp_path, good))


def _split(notes: list) -> tuple:
    return [n for n in notes if n.endswith(SKIPPED)], [n for n in notes if not n.endswith(SKIPPED)]


@pytest.mark.parametrize("name", sorted(BAD))
def test_an_object_the_api_server_refuses_is_skipped_and_the_rest_replays_as_without_it(tmp_path, name):
    label, obj = BAD[name]
    path = str(tmp_path / "k.yaml")
    with_it, without = _with_and_without(tmp_path, GOOD, [obj], [len(GOOD) // 2])
    skips, others = _split(with_it.pop("notes"))
    assert others == without.pop("notes")
    assert with_it == without
    (note,) = skips
    assert note.startswith(f"prio: note: {path}:") and f": {label}: " in note, note
    assert note.count(label) == 1, note  # the label once: the reason after it does not say it again
    assert all(code == 0 for code, _ in with_it.values()), with_it


def test_the_note_names_the_field_refused_at_its_line_and_column(tmp_path):
    docs = list(GOOD)
    docs.insert(3, BAD["cq-missing"][1])
    text = setup(*docs)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "borrowingLimit: 1" in ln)
    r = run_cli("simulate", _write(tmp_path, docs), "-o", "json")
    assert r.exit_code == 0, r.stderr
    (note,) = [n for n in r.stderr.splitlines() if n.endswith(SKIPPED)]
    assert note == (f"prio: note: {tmp_path / 'k.yaml'}:{line}:43: ClusterQueue extra: "
                    f"spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Required value {SKIPPED}")


@settings(max_examples=examples(15), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(BAD)), st.integers(0, len(GOOD))), max_size=4))
def test_any_bad_objects_anywhere_leave_the_replay_of_the_rest(tmp_path_factory, picked):
    """Metamorphic: whatever refused objects are placed wherever among a good setup, each is one
    note, in the order written, and every output is the good setup's alone."""
    tmp_path = tmp_path_factory.mktemp("skip")
    bad = [BAD[k][1] for k, _ in picked]
    with_it, without = _with_and_without(tmp_path, GOOD, bad, [i for _, i in picked])
    skips, others = _split(with_it.pop("notes"))
    assert others == without.pop("notes")
    assert with_it == without
    order = sorted(range(len(picked)), key=lambda j: (picked[j][1], -j))  # (inserted last first: before the earlier)
    assert [n.split(": ")[3] for n in skips] == [BAD[picked[j][0]][0] for j in order], skips


def test_a_list_item_that_is_no_object_is_skipped(tmp_path):
    items = "".join(f"- {json.dumps(x)}\n" for x in (7, {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
                                                       "metadata": {"name": "spare"}}))
    good = [d for d in GOOD if d != FLAVOR]
    with_it, without = (_outputs(_write(tmp_path, [FLAVOR, f"apiVersion: v1\nkind: List\nitems:\n{items}", *good])),
                        _outputs(_write(tmp_path, [FLAVOR, f"apiVersion: v1\nkind: List\nitems:\n{items.split(chr(10), 1)[1]}",
                                                   *good])))
    skips, others = _split(with_it.pop("notes"))
    assert others == without.pop("notes") and with_it == without
    (note,) = skips
    assert ": an object: expected a Kubernetes object, found " in note, note


def test_diff_skips_on_each_side_and_its_findings_say_the_refusal(tmp_path):
    """diff replays each side without what the API server refuses (the side's note), and the
    validate findings it compares name the refusal (PRIO622, added in NEW)."""
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(setup(*GOOD[:9]))
    new.write_text(setup(*GOOD[:9], BAD["cq-missing"][1]))
    r = run_cli("diff", str(old), str(new), _write(tmp_path, GOOD[9:]), "-o", "json")
    assert r.exit_code == 0, r.stderr
    (note,) = [n for n in r.stderr.splitlines() if n.endswith(SKIPPED)]
    assert note.startswith(f"prio: note: {new}:") and ": ClusterQueue extra: " in note
    skipped = json.loads(r.stdout)
    assert [f["rule"] for f in skipped.pop("findings")["added"]] == ["PRIO622"]
    new.write_text(setup(*GOOD[:9]))
    without = json.loads(run_cli("diff", str(old), str(new), str(tmp_path / "k.yaml"), "-o", "json").stdout)
    assert without.pop("findings") == {"added": [], "removed": []} and skipped == without


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_the_html_page_is_the_one_without_the_object_and_shows_its_note(tmp_path, command):
    from htmlpage import data_and_context

    pages = []
    for docs in ([*GOOD, BAD["cq-quota"][1], BAD["wl-count"][1]], GOOD):
        r = run_cli(command, _write(tmp_path, docs), "-o", "html")
        assert r.exit_code == 0, r.stderr
        pages.append((data_and_context(r.stdout), r.stderr.splitlines()))
    ((data, context), said), ((data_without, context_without), said_without) = pages
    assert data == data_without
    notes = context.pop("notes")
    assert [n for n in notes if not n.endswith(SKIPPED)] == context_without.pop("notes")
    assert len([n for n in notes if n.endswith(SKIPPED)]) == 2 and len(_split(said)[0]) == 2
    for key in ("inputs", "generated"):  # (the file's modification time; the clock, which may tick between the runs)
        context.pop(key), context_without.pop(key)
    assert context == context_without


def test_a_name_in_a_note_never_starts_a_line_nor_carries_a_control_character(tmp_path):
    evil = _doc("ClusterQueue", 'metadata: {name: "x\\nprio: all clear\\u001b[2J"}\nspec: {namespaceSelector: [x]}\n')
    for fmt in ("json", "plain"):
        r = run_cli("simulate", _write(tmp_path, [*GOOD, evil]), "-o", fmt)
        assert r.exit_code == 0, r.stderr
        (note,) = [n for n in r.stderr.splitlines() if "ClusterQueue x" in n]
        assert note.startswith("prio: note: ") and "\x1b" not in r.stderr and "x\\x0aprio: all clear\\x1b[2J" in note, note
        assert not any(ln.startswith("prio: all clear") for ln in r.stderr.splitlines())


@pytest.mark.parametrize("fmt", ["json", "plain"])
@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_every_cluster_queue_and_workload_skipped_is_nothing_to_schedule(tmp_path, command, fmt):
    bad_cq, bad_wl = BAD["cq-missing"][1], BAD["wl-count"][1]
    docs = [FLAVOR, local_queue("a", "cq"), bad_cq, bad_wl]
    text = setup(*docs)
    line = one_line_exit_2(run_cli(command, _write(tmp_path, docs), "-o", fmt))
    at = next(i for i, ln in enumerate(text.splitlines(), 1) if "borrowingLimit: 1" in ln)
    assert line == (f"prio: {tmp_path / 'k.yaml'}:{at}:43: nothing to schedule: the API server refuses every ClusterQueue "
                    "and Workload of the inputs (2 skipped; the first, ClusterQueue extra: "
                    "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Required value)"), line


def test_an_object_naming_a_skipped_one_is_refused_as_naming_a_missing_one_and_says_it_was_skipped(tmp_path):
    """A skipped object is absent for the rest: a Workload of a skipped WorkloadPriorityClass is
    refused as one of a class that does not exist (exit 2, prio cannot give it a priority), and
    the line says where one of that name was skipped."""
    docs = [d for d in GOOD if "kind: WorkloadPriorityClass" not in d]
    path = _write(tmp_path, [BAD["wpc"][1], *docs])
    line = one_line_exit_2(run_cli("simulate", path, "-o", "json"))
    assert line.endswith(f"WorkloadPriorityClass 'high' does not exist (one was skipped at {path}:4:8: the API server "
                         "refuses it)"), line
    assert one_line_exit_2(run_cli("simulate", _write(tmp_path, docs), "-o", "json")).endswith("'high' does not exist")


def test_why_workload_of_a_skipped_workload_says_it_was_skipped(tmp_path):
    r = run_cli("explain", _write(tmp_path, [*GOOD, BAD["wl-priority"][1]]), "--why-workload", "b/late")
    assert r.exit_code == 2 and r.stdout == "", r.stderr
    note, line = r.stderr.splitlines()
    assert note.endswith(SKIPPED) and ": Workload b/late: " in note, note
    assert line.endswith("no Workload b/late: it was skipped, the API server refuses it (its note above)"), line


NOTHING = "Kueue objects without a ClusterQueue or a Workload: nothing to schedule"


@pytest.mark.parametrize("case,docs,says", [
    ("only a flavor", [FLAVOR], NOTHING),
    ("only a bad flavor", [BAD["flavor"][1]], NOTHING),  # no ClusterQueue or Workload was there to skip
    ("bad YAML", ["kind: ClusterQueue\nmetadata: {name: [\n"], ""),
    ("a cycle", [FLAVOR, _doc("Cohort", "metadata: {name: org}\nspec: {parentName: org}\n"), *GOOD[2:]],
     "Cohort parents form a cycle (org -> org)"),
    ("prio's need", [*GOOD, workload("a", "undated").replace(', creationTimestamp: "2026-01-01T00:00:00Z"', "")],
     "Workload a/undated needs metadata.creationTimestamp"),
    ("twice", [*GOOD, workload("a", "w1")], "Workload a/w1 is defined twice"),
    ("a refused feature", [*GOOD, _doc("AdmissionCheck", "metadata: {name: x}\n")], "AdmissionCheck x: "),
    ("a bad Configuration", [_doc("Configuration", "fairSharing: {preemptionStrategies: LessThanInitialShare}\n",
                                  "apiVersion: config.kueue.x-k8s.io/v1beta2\n"), *GOOD], "expected a list, found 'LessThanInitialShare'"),
])
def test_what_is_not_one_objects_refusal_stays_one_line_exit_2(tmp_path, case, docs, says):
    path = _write(tmp_path, docs)
    for command in ("simulate", "explain"):
        for fmt in ("json", "plain"):
            line = one_line_exit_2(run_cli(command, path, "-o", fmt))
            assert line.startswith(f"prio: {path}") and says in line and "skipped" not in line, (case, line)


def test_an_unreadable_file_stays_one_line_exit_2(tmp_path):
    line = one_line_exit_2(run_cli("simulate", str(tmp_path / "absent.yaml"), "-o", "json"))
    assert "absent.yaml" in line and "skipped" not in line


def test_validate_still_reports_the_refusal_as_a_finding(tmp_path):
    """validate reads the same objects strictly: a refusal is its finding (PRIO622 here), not a
    skip, and its exit code is 1."""
    r = run_cli("validate", "--no-config", "-o", "json", _write(tmp_path, [*GOOD, BAD["cq-missing"][1]]))
    assert r.exit_code == 1 and SKIPPED not in r.stderr, r.stderr
    assert "PRIO622" in {f["rule"] for f in json.loads(r.stdout)["findings"]}
