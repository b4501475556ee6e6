"""YuniKorn REST dumps: detection, queues, the runtime tree without a queues.yaml, applications and
asks, the published sample responses (read from the shared test data), and bad input."""
from __future__ import annotations

import json
import os

import pytest

from conftest import SHARED as SHARED_ROOT
from conftest import TESTS
from prio.errors import InputError
from prio.io import yamlnodes
from prio.io.gather import gather
from prio.yunikorn.engine import MIN, Engine
from prio.yunikorn.load import rest

HERE = TESTS
FIX = os.path.join(HERE, "fixtures", "rest")
SHARED = os.path.join(SHARED_ROOT, "testdata", "yunikorn-rest")
needs_shared = pytest.mark.skipif(not os.path.isdir(SHARED), reason="shared REST test data not available")


def fx(name):
    return os.path.join(FIX, name)


def shared(name):
    return os.path.join(SHARED, name)


def load(path):
    with open(path, encoding="utf-8") as fh:
        return yamlnodes.load(os.path.basename(path), fh.read())[0]


def text_doc(text, name="dump.json"):
    return yamlnodes.load(name, text)[0]


# ---- detection ----------------------------------------------------------------------------

def test_detection_of_fixtures():
    assert rest.is_queues_dump(load(fx("queues-priority.json")).data)
    assert not rest.is_apps_dump(load(fx("queues-priority.json")).data)
    assert rest.is_apps_dump(load(fx("apps-group-a.json")).data)
    assert not rest.is_queues_dump(load(fx("apps-group-a.json")).data)


@needs_shared
@pytest.mark.parametrize("name,queues,apps", [
    ("yunikorn-web__json-db__queues.json", True, False),
    ("yunikorn-site__docs__api__scheduler__queues.json", True, False),           # array root
    ("yunikorn-site__docs__api__scheduler__queue.json", True, False),            # one queue
    ("yunikorn-site__versioned_docs__version-0.12.2__api__scheduler__queues.json", True, False),
    ("yunikorn-web__json-db__apps.json", False, True),
    ("yunikorn-site__docs__api__scheduler__queue-applications.json", False, True),
    ("yunikorn-site__docs__api__scheduler__application.json", False, True),      # one app
    ("yunikorn-site__versioned_docs__version-0.12.2__api__scheduler__queue-applications.json", False, True),
    # not state dumps: bundles keyed by route, nodes, partitions
    ("yunikorn-web__json-db.json", False, False),
    ("yunikorn-history-server__web__mock-server__db.json", False, False),
    ("yunikorn-web__json-db__nodes.json", False, False),
    ("yunikorn-web__json-db__partitions.json", False, False),
    ("yunikorn-site__docs__api__scheduler__partitions.json", False, False),
    ("yunikorn-site__docs__api__scheduler__nodes.json", False, False),
    ("yunikorn-site__docs__api__scheduler__node.json", False, False),
])
def test_detection_of_published_responses(name, queues, apps):
    data = load(shared(name)).data
    assert rest.is_queues_dump(data) is queues
    assert rest.is_apps_dump(data) is apps


def test_detection_edge_cases():
    assert not rest.is_queues_dump([])
    assert not rest.is_apps_dump([])
    assert not rest.is_queues_dump({"queues": [{"queuename": "root"}]})
    assert not rest.is_apps_dump([{"applicationID": "a"}, {"other": 1}])
    assert not rest.is_queues_dump(None)


# ---- queues ---------------------------------------------------------------------------------

def test_load_queues_fixture():
    queues, snap = rest.load_queues("q.json", load(fx("queues-priority.json")))
    assert [q.path for q in queues] == ["root", "root.tenants", "root.tenants.group-a", "root.tenants.group-b",
                                         "root.system", "root.system.high-priority", "root.system.low-priority"]
    by = {q.path: q for q in queues}
    ga = by["root.tenants.group-a"]
    assert ga.is_leaf and ga.maxapps == 10
    assert ga.guaranteed == {"memory": 4294967296, "vcore": 4000}
    assert ga.max == {"memory": 17179869184, "vcore": 8000}
    assert ga.allocated == {"memory": 1073741824, "vcore": 1000}
    assert ga.current_priority == 120
    assert ga.properties["priority.offset"] == "20"
    assert by["root.tenants"].properties["priority.policy"] == "fence"
    assert by["root.system.low-priority"].current_priority == MIN
    assert snap.partition == "default"
    assert snap.capacity == {"memory": 64000000000, "pods": 330, "vcore": 16000}
    assert snap.apps == []


def test_build_tree_fence_offset_and_own():
    queues, _ = rest.load_queues("q.json", load(fx("queues-priority.json")))
    root = rest.build_tree(queues)
    q = {n.path: n for n in root.walk()}
    assert [n.path for n in root.walk()] == [i.path for i in queues]  # dump order
    assert q["root.tenants"].fenced and q["root.tenants"].offset == 0
    assert q["root.tenants.group-a"].offset == 20 and not q["root.tenants.group-a"].fenced
    assert q["root.system.low-priority"].offset == -1000
    # the merged map's reset values ("0", "default") are not the queue's own
    assert q["root.tenants.group-b"].own == {}
    assert q["root.tenants.group-a"].own == {"priority.offset": "20"}
    assert q["root.tenants"].own == {"priority.policy": "fence"}
    assert q["root.tenants.group-b"].sort_policy == "fair"
    assert q["root.tenants.group-a"].leaf and not q["root.tenants"].leaf and not root.leaf
    assert all(n.conf_path is None for n in root.walk())
    assert q["root.tenants.group-a"].maxapps == 10


def test_dao_fields_win_over_merged_properties():
    dump = {"queuename": "root", "isLeaf": False, "currentPriority": 5, "isPriorityFence": False, "children": [
        {"queuename": "root.a", "isLeaf": True, "properties": {"priority.offset": "0", "priority.policy": "default"},
         "isPriorityFence": True, "priorityOffset": 7, "currentPriority": 7},
        {"queuename": "root.b", "isLeaf": True, "properties": {"priority.offset": "30"},
         "isPriorityFence": False, "currentPriority": 5},
    ]}
    queues, snap = rest.load_queues("d.json", text_doc(json.dumps(dump)))
    root = rest.build_tree(queues)
    q = {n.path: n for n in root.walk()}
    assert q["root.a"].fenced and q["root.a"].offset == 7
    assert q["root.b"].offset == 0  # priorityOffset omitted = 0
    assert any("priorityOffset differs" in n and "root.b" in n for n in snap.notes)


def test_old_dump_without_priority_fields_reads_properties():
    dump = {"queuename": "root", "isLeaf": False, "children": [
        {"queuename": "root.a", "isLeaf": True, "properties": {"priority.offset": "15", "priority.policy": "fence"}}]}
    queues, snap = rest.load_queues("d.json", text_doc(json.dumps(dump)))
    a = [n for n in rest.build_tree(queues).walk() if n.path == "root.a"][0]
    assert a.fenced and a.offset == 15
    assert any("isPriorityFence" in n for n in snap.notes)


def test_engine_on_rest_dumps_reproduces_current_priority():
    """queues + apps dumps through inputs.gather, tree from the dump, engine priorities equal the
    currentPriority YuniKorn reported."""
    inp = gather([fx("queues-priority.json"), fx("apps-group-a.json"), fx("apps-high-priority.json")])
    assert inp.config is None and len(inp.rest_queues) == 7
    root = rest.build_tree(inp.rest_queues)
    Engine(root, inp.snapshot)
    reported = {q.path: q.reported for q in root.walk()}
    for info in inp.rest_queues:
        assert reported[info.path] == info.current_priority, info.path
    assert inp.snapshot.capacity == {"memory": 64000000000, "pods": 330, "vcore": 16000}


@needs_shared
def test_site_docs_array_root_and_string_flags():
    queues, snap = rest.load_queues("q.json", load(shared("yunikorn-site__docs__api__scheduler__queues.json")))
    assert [(q.path, q.is_leaf) for q in queues] == [("root", False), ("root.default", True)]
    root = rest.build_tree(queues)
    d = root.children[0]
    assert d.fenced and d.offset == 3 and d.maxapps == 12
    assert snap.capacity["vcore"] == 8000 and snap.capacity["hugepages-1Gi"] == 0
    assert any("array root" in n for n in snap.notes)
    assert any("isLeaf given as a string" in n for n in snap.notes)


@needs_shared
def test_single_queue_response_gets_its_ancestors():
    queues, snap = rest.load_queues("q.json", load(shared("yunikorn-site__docs__api__scheduler__queue.json")))
    root = rest.build_tree(queues)
    assert [n.path for n in root.walk()] == ["root", "root.default"]
    assert snap.capacity is None
    assert any("not root" in n for n in snap.notes)


@needs_shared
def test_legacy_0_12_shape():
    queues, snap = rest.load_queues("q.json", load(shared("yunikorn-site__versioned_docs__version-0.12.2__api__scheduler__queues.json")))
    assert queues[0].max == {"memory": 8000, "vcore": 8000}
    assert queues[1].guaranteed == {"memory": 54, "vcore": 80}
    assert snap.partition == "default"  # "[mycluster]default"
    assert any("0.12" in n for n in snap.notes)
    root = rest.build_tree(queues)
    assert root.sort_policy == "fifo"  # stateaware means fifo


@needs_shared
def test_web_mock_queues():
    queues, snap = rest.load_queues("q.json", load(shared("yunikorn-web__json-db__queues.json")))
    assert len(queues) == 7
    assert all(q.current_priority == MIN for q in queues)
    assert any("root.inactive (Stopped)" in n for n in snap.notes)
    root = rest.build_tree(queues)
    assert [n.path for n in root.walk()] == [q.path for q in queues]
    assert {n.path for n in root.walk() if n.leaf} == {"root.inactive", "root.b", "root.c", "root.default", "root.a.a1"}


# ---- applications -----------------------------------------------------------------------------

def test_load_apps_fixture():
    snap = rest.load_apps("a.json", load(fx("apps-group-a.json")))
    [app] = snap.apps  # the Completed app is left out
    assert app.id == "spark-pi-7f9c" and app.queue == "root.tenants.group-a" and app.state == "Running"
    assert app.allocated == {"memory": 1073741824, "vcore": 1000}
    assert app.submit_time == (1717400000123456789, 0)  # exact nanoseconds
    assert [(a.id, a.priority, a.resources) for a in app.asks] == [
        ("0d5b2c1e-1111-4c9b-9d55-2f0e7c1a0001", 100, {"memory": 1073741824, "vcore": 1000}),
        ("0d5b2c1e-1111-4c9b-9d55-2f0e7c1a0002", 0, {"memory": 1073741824, "vcore": 1000})]
    assert app.asks[0].create_time == (1717400005 * 10**9, 0)
    assert app.line == 2
    assert any("Completed" in n for n in snap.notes)


@needs_shared
def test_site_docs_apps_and_overflowing_request_time():
    snap = rest.load_apps("a.json", load(shared("yunikorn-site__docs__api__scheduler__queue-applications.json")))
    assert [a.id for a in snap.apps] == ["application-0001", "application-0002"]
    a1 = snap.apps[0]
    assert [(k.priority, k.resources) for k in a1.asks] == [(0, {"memory": 4000000000, "vcore": 4000})]
    assert snap.apps[1].asks == []
    assert any("beyond int64" in n for n in snap.notes)


@needs_shared
def test_single_app_and_legacy_apps():
    snap = rest.load_apps("a.json", load(shared("yunikorn-site__docs__api__scheduler__application.json")))
    assert [a.id for a in snap.apps] == ["application-0001"]
    snap = rest.load_apps("a.json", load(shared("yunikorn-site__versioned_docs__version-0.12.2__api__scheduler__queue-applications.json")))
    assert [(a.id, a.allocated, a.asks) for a in snap.apps] == [
        ("application-0001", {"memory": 4000, "vcore": 4000}, []), ("application-0002", {"memory": 4000, "vcore": 4000}, [])]


@needs_shared
def test_web_mock_apps_with_queues_through_the_engine():
    inp = gather([shared("yunikorn-web__json-db__queues.json"), shared("yunikorn-web__json-db__apps.json")])
    root = rest.build_tree(inp.rest_queues)
    eng = Engine(root, inp.snapshot)
    assert {st.app.id for st in eng.apps} == {"application-sleep-0005", "application-sleep-0002",
                                              "application-sleep-0001", "application-sleep-0006"}
    assert all(q.reported == MIN for q in root.walk())  # no requests anywhere


def test_pending_count_of_old_asks_expands():
    dump = [{"applicationID": "a", "queueName": "root.x", "requests": [
        {"allocationKey": "k", "priority": "5", "pendingCount": 3, "resource": {"vcore": 100}}]}]
    [app] = rest.load_apps("a.json", text_doc(json.dumps(dump))).apps
    assert [(k.id, k.priority) for k in app.asks] == [("k-1", 5), ("k-2", 5), ("k-3", 5)]


def test_priority_as_number_is_tolerated():
    dump = [{"applicationID": "a", "queueName": "ROOT.X", "requests": [{"allocationKey": "k", "priority": -7}]}]
    [app] = rest.load_apps("a.json", text_doc(json.dumps(dump))).apps
    assert app.queue == "root.x" and app.asks[0].priority == -7


# ---- bad input: InputError with a position, never a traceback ------------------------------------

BAD_APPS = [
    ('[{"applicationID": "a", "queueName": "root.x",\n  "requests": [{"allocationKey": "k",\n    "priority": "high"}]}]',
     3, "priority of ask k 'high' is not an integer"),
    ('[{"applicationID": "a", "queueName": "root.x",\n  "requests": [{"allocationKey": "k",\n    "priority": "3000000000"}]}]',
     3, "outside the int32 range"),
    ('[{"applicationID": "a", "queueName": "root.x",\n  "requests": [{"allocationKey": "k"}]}]', 2, "has no priority"),
    ('[{"applicationID": "a",\n  "queueName": "root..x"}]', 2, "queueName must be a full queue path"),
    ('[{"applicationID": "a"}]', 1, "queueName must be a full queue path"),
    ('[{"applicationID": "a", "queueName": "root.x"},\n {"applicationID": "a", "queueName": "root.y"}]', 2, "appears twice"),
    ('[{"applicationID": "a", "queueName": "root.x", "requests": [{"allocationKey": "k", "priority": "1",\n  "resource": {"vcore": -1}}]}]',
     2, "negative"),
    ('[{"applicationID": "a", "queueName": "root.x", "requests": [{"allocationKey": "k", "priority": "1",\n  "resource": {"vcore": "lots"}}]}]',
     2, "must be an integer"),
    ('[{"applicationID": "a", "queueName": "root.x",\n "submissionTime": "yesterday"}]', 2, "nanoseconds"),
    ('[{"applicationID": "a", "queueName": "root.x", "requests": {"k": 1}}]', 1, "requests must be a list"),
    ('[{"applicationID": "a", "queueName": "root.x", "partition": "p1"},\n {"applicationID": "b", "queueName": "root.x", "partition": "p2"}]',
     1, "mixes partitions"),
]


@pytest.mark.parametrize("text,line,msg", BAD_APPS)
def test_bad_apps(text, line, msg):
    with pytest.raises(InputError) as e:
        rest.load_apps("bad.json", text_doc(text, "bad.json"))
    assert e.value.file == "bad.json" and e.value.line == line, str(e.value)
    assert msg in e.value.message


BAD_QUEUES = [
    ('{"queuename": "root", "children": [\n  {"queuename": "root.a.b"}]}', 2, "does not say so"),
    ('{"queuename": "root", "children": [\n  {"queuename": "root.a"}, {"queuename": "root.a"}]}', 2, "appears twice"),
    ('{"queuename": "root",\n "isLeaf": "maybe"}', 2, "isLeaf must be true or false"),
    ('{"queuename": "root",\n "maxResource": {"vcore": 1.5}}', 2, "must be an integer"),
    ('{"queuename": "root",\n "maxResource": "[vcore=5]"}', 2, "cannot read"),
    ('{"queuename": "root",\n "priorityOffset": 99999999999}', 2, "outside the int32 range"),
    ('{"queuename": "root",\n "children": {"a": 1}}', 2, "children must be a list"),
    ('{"queuename": "root", "children": [\n  "root.a"]}', 2, "must be an object"),
    ('{"queuename": "root", "isLeaf": true, "children": [\n  {"queuename": "root.a"}]}', 1, "says isLeaf but has"),
    ('[{"queuename": "root"}, {"queuename": "root"}]', 1, "2 queue trees"),
    ('{"queuename": "root",\n "currentPriority": "x"}', 2, "currentPriority 'x' is not an integer"),
]


@pytest.mark.parametrize("text,line,msg", BAD_QUEUES)
def test_bad_queues(text, line, msg):
    with pytest.raises(InputError) as e:
        rest.load_queues("bad.json", text_doc(text, "bad.json"))
    assert e.value.line == line, str(e.value)
    assert msg in e.value.message


def test_large_json_without_positions_names_the_path():
    from prio.io.yamlnodes import Document

    doc = Document([{"applicationID": "a", "queueName": "root.x", "requests": [{"allocationKey": "k", "priority": "x"}]}])
    with pytest.raises(InputError) as e:
        rest.load_apps("big.json", doc)
    assert e.value.line is None
    assert str(e.value).startswith("big.json: [0].requests[0].priority: ")


def test_cli_explain_or_gather_reports_one_line(tmp_path):
    p = tmp_path / "apps.json"
    p.write_text('[{"applicationID": "a", "queueName": "root.x",\n  "requests": [{"allocationKey": "k", "priority": "1.5"}]}]')
    with pytest.raises(InputError) as e:
        gather([str(p)])
    assert str(e.value).startswith(f"{p}:2:")


# ---- anything else is an InputError, never a traceback ----------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                     st.sampled_from(["", "root", "root.a", "ROOT.A.B", "100", "-5", "x", "[memory:1 vcore:2]",
                                      "true", "fence", "1e3", "<nil>", "[c]default"]))
_KEYS = st.sampled_from(["queuename", "children", "isLeaf", "properties", "maxResource", "guaranteedResource",
                         "allocatedResource", "maxRunningApps", "currentPriority", "isPriorityFence", "priorityOffset",
                         "partition", "status", "applicationID", "queueName", "requests", "allocationKey", "priority",
                         "requestTime", "resource", "submissionTime", "usedResource", "applicationState",
                         "pendingCount", "priority.offset", "priority.policy", "vcore", "memory"])
_JSON = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(_KEYS, inner, max_size=6)), max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(st.one_of(_JSON, st.fixed_dictionaries({"queuename": st.sampled_from(["root", "root.a"])}, optional={
    "children": st.lists(st.dictionaries(_KEYS, _JSON, max_size=5), max_size=3), "isLeaf": _SCALARS,
    "properties": _JSON, "maxResource": _JSON, "isPriorityFence": _SCALARS, "priorityOffset": _SCALARS}),
    st.lists(st.fixed_dictionaries({"applicationID": st.sampled_from(["a", "b"])}, optional={
        "queueName": _SCALARS, "requests": st.lists(st.dictionaries(_KEYS, _JSON, max_size=5), max_size=3),
        "usedResource": _JSON, "submissionTime": _SCALARS, "applicationState": _SCALARS}), min_size=1, max_size=3)))
def test_fuzz_never_a_traceback(data):
    d = text_doc(json.dumps(data))
    try:
        if rest.is_queues_dump(d.data):
            queues, _ = rest.load_queues("f.json", d)
            rest.build_tree(queues)
        if rest.is_apps_dump(d.data):
            rest.load_apps("f.json", d)
    except InputError as e:
        assert e.file == "f.json" and e.message


# ---- gangs: placeholderData and the placeholders of ApplicationDAOInfo (issue 45) ----------------

def _site_application():
    with open(shared("yunikorn-site__docs__api__scheduler__application.json")) as f:
        return json.load(f)


def _load(data):
    return rest.load_apps("app.json", yamlnodes.Document(data))


def test_recorded_placeholder_data_whose_placeholders_are_gone_is_an_ordinary_application():
    """The site's recorded application: placeholderData of one group (count 2, 1 replaced, 1 timed
    out), a real allocation and no placeholder left: the shim makes none again, so it is
    scheduled as an ordinary application, and said so."""
    snap = _load(_site_application())
    (app,) = snap.apps
    assert app.task_groups == []
    assert [a.placeholder for a in app.allocations] == [False]
    assert any("placeholders were all replaced or timed out (placeholderData)" in n and "application-0001" in n for n in snap.notes)


def test_placeholder_data_is_the_task_groups_and_placeholders_are_read_on_asks_and_allocations():
    """The recorded shape with its allocation a placeholder still held (nothing replaced, nothing
    timed out) and a pending placeholder ask: a gang application (count as minMember, minResource),
    placeholder and taskGroupName on its allocations and asks, originator on an ask."""
    data = _site_application()
    data["placeholderData"][0].update(replaced=0, timedout=0)
    data["allocations"][0].update(placeholder=True, taskGroupName="task-group-example")
    data["requests"][0].update(placeholder=True, taskGroupName="task-group-example", originator=True)
    snap = _load(data)
    (app,) = snap.apps
    assert [(g.name, g.min_member, g.min_resource) for g in app.task_groups] == [
        ("task-group-example", 2, {"memory": 1000000000, "vcore": 100})]
    (alloc,) = app.allocations
    assert (alloc.placeholder, alloc.task_group, alloc.node) == (True, "task-group-example", "node-0001")
    (ask,) = app.asks
    assert (ask.placeholder, ask.task_group, ask.originator) == (True, "task-group-example", True)
    assert any("neither their gangSchedulingStyle" in n for n in snap.notes)


@pytest.mark.parametrize("field, value, message", [
    ("placeholderData", {"taskGroupName": "x"}, "placeholderData must be a list"),
    ("placeholderData", [{"taskGroupName": 3, "count": 1}], "taskGroupName must be a string"),
    ("placeholderData", [{"taskGroupName": "x", "count": -1}], "count"),
    ("placeholderData", [{"taskGroupName": "x", "count": 1}, {"taskGroupName": "x", "count": 1}], "appears twice in placeholderData"),
])
def test_bad_placeholder_data_is_one_line(field, value, message):
    data = _site_application()
    data[field] = value
    with pytest.raises(InputError) as e:
        _load(data)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_live_dump_reads_a_reserving_gang(tmp_path):
    """A saved REST dump (read as the server it recorded) whose application `low` reserves: one
    placeholder allocated on node-1, one pending (REST shows no real pod of a reserving gang). prio
    keeps the running one, schedules the pending one under its allocation key, and the gang
    completes."""
    import shutil

    from conftest import run_cli

    d = tmp_path / "dump"
    shutil.copytree(os.path.join(SHARED_ROOT, "testdata", "yunikorn-rest-live", "walkthrough", "ws"), d / "ws")
    p = d / "ws" / "v1" / "partition" / "default" / "applications" / "active.json"
    apps = json.loads(p.read_text())
    low = next(a for a in apps if a["applicationID"] == "low")
    low["placeholderData"] = [{"taskGroupName": "w", "count": 2, "minResource": {"pods": 1}}]
    low["requests"] = [{"allocationKey": "ph-2", "requestTime": 1704067202001000000, "resource": {"pods": 1}, "priority": "3",
                        "applicationId": "low", "placeholder": True, "taskGroupName": "w"}]
    low["allocations"] = [{"allocationKey": "ph-1", "requestTime": 1704067202001000000, "resource": {"pods": 1}, "priority": "3",
                           "nodeId": "node-1", "applicationId": "low", "placeholder": True, "taskGroupName": "w"}]
    p.write_text(json.dumps(apps))
    r = run_cli("simulate", str(d), "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    last = got["steps"][-1]
    assert (last["application"], last["ask"], last.get("placeholder"), last.get("taskGroup")) == ("low", "ph-2", True, "w")
    assert got["gangs"] == [{"application": "low", "state": "Running", "realAsksSent": True, "placeholdersPending": [],
                             "placeholdersHeld": ["ph-1", "ph-2"], "timeoutAt": 900}]
    assert "gangSchedulingStyle (Soft taken)" in r.stderr
