"""Placement as yunikorn-core's PlacementManager does it, with what the Kubernetes shim sends:
tag rules on the application's tags, `provided` names tested for "root." as written, submit and
admin ACLs up the tree, the recovery queue for forced applications, root.default only after the
last rule, and ConvertUGI's user-name check."""
from __future__ import annotations

import pytest

from prio.io import yamlnodes
from prio.yunikorn import acl, placement, tree
from prio.yunikorn.load import queues as queues_loader
from prio.yunikorn.snapshot import App


def _tree(text):
    [doc] = yamlnodes.load("q.yaml", text)
    part = queues_loader.decode(doc).partitions[0]
    return tree.from_config(part), part.placementrules or []


def _place(text, queue="", user="nobody", groups=(), tags=None, raw=None):
    root, rules = _tree(text)
    app = App("app-1", queue.lower(), (0, 1), user=user, groups=tuple(groups), tags=dict(tags or {}), queue_raw=raw)
    return placement.place(root, app, rules, acl.nobody_may_submit(root))


def cfg(rules="", root="submitacl: '*'", children="          - {name: tenants, parent: true}\n          - name: batch\n"):
    head = "partitions:\n  - name: default\n"
    if rules:
        head += "    placementrules:\n" + rules
    return head + f"    queues:\n      - name: root\n        {root}\n        queues:\n" + children


TAG = "      - {name: tag, value: namespace, create: true}\n"


def test_a_tag_rule_places_by_the_namespace_tag_whatever_the_queue_asked_for():
    assert _place(cfg(TAG), "root.batch", tags={"namespace": "team-a"}) == ("root.team-a", None)
    assert _place(cfg(TAG), tags={"NameSpace": "team-a"})[0] == "root.team-a"  # GetTag ignores case
    path, rejected = _place(cfg(TAG), "root.batch")  # no such tag: the rule does not match
    assert path is None and placement.NO_RULE in rejected.reason


def test_a_tag_rule_under_a_parent_rule():
    rules = "      - name: tag\n        value: namespace\n        create: true\n        parent: {name: fixed, value: root.tenants}\n"
    assert _place(cfg(rules), tags={"namespace": "ml"})[0] == "root.tenants.ml"


@pytest.mark.parametrize("raw,want", [("spark.prod", "root.spark_dot_prod"), ("Root.batch", "root.root_dot_batch"),
                                      ("root.batch", "root.batch")])
def test_provided_names_not_starting_with_root_dot_are_one_queue(raw, want):
    rules = "      - {name: provided, create: true}\n"
    assert _place(cfg(rules), raw.lower(), raw=raw)[0] == want


def test_a_provided_parent_queue_falls_through_to_the_next_rule():
    rules = "      - {name: provided, create: true}\n" + TAG
    assert _place(cfg(rules), "root.tenants", tags={"namespace": "web"})[0] == "root.web"


def test_without_an_acl_nobody_may_submit_and_the_rejection_says_why():
    path, rejected = _place(cfg(TAG, root="parent: true"), tags={"namespace": "a"})
    assert path is None and placement.NO_RULE in rejected.reason and placement.CLOSED in rejected.reason


@pytest.mark.parametrize("root_acl,user,groups,ok", [
    ("submitacl: 'alice'", "alice", (), True), ("submitacl: 'alice'", "bob", (), False),
    ("submitacl: ' data'", "bob", ("data",), True), ("adminacl: 'bob'", "bob", (), True),
    ("submitacl: '*'", "anyone", (), True), ("submitacl: ''", "alice", (), False),
])
def test_the_acl_of_root_admits_or_not(root_acl, user, groups, ok):
    path, _ = _place(cfg(TAG, root=root_acl), tags={"namespace": "a"}, user=user, groups=groups)
    assert (path == "root.a") == ok


def test_an_acl_below_root_admits_to_its_own_queues_only():
    children = "          - name: batch\n            submitacl: 'alice'\n          - name: other\n"
    rules = "      - {name: provided}\n"
    assert _place(cfg(rules, root="parent: true", children=children), "root.batch", user="alice")[0] == "root.batch"
    assert _place(cfg(rules, root="parent: true", children=children), "root.other", user="alice")[0] is None


def test_a_forced_application_no_rule_places_goes_to_the_recovery_queue():
    tags = {"application.create.force": "true", "namespace": "a"}
    assert _place(cfg(TAG, root="parent: true"), tags=tags) == (placement.RECOVERY_QUEUE, None)


def test_root_default_only_after_every_rule_and_only_if_it_admits():
    children = "          - name: default\n          - name: batch\n"
    rules = "      - {name: provided}\n"
    assert _place(cfg(rules, children=children), "root.nope")[0] == "root.default"
    assert _place(cfg(rules, root="parent: true", children=children), "root.nope")[0] is None


def test_a_user_name_the_core_refuses_rejects_only_when_groups_were_sent():
    path, rejected = _place(cfg(TAG), tags={"namespace": "a"}, user="bad user", groups=("x",))
    assert path is None and rejected.reason == placement.BAD_USER
    assert _place(cfg(TAG), tags={"namespace": "a"}, user="bad user")[0] == "root.a"  # resolved, not checked


def test_the_recovery_queue_is_fifo_whatever_roots_child_template(tmp_path):
    import json

    from conftest import run_cli

    q = tmp_path / "q.yaml"
    q.write_text("partitions:\n  - name: default\n    placementrules:\n      - {name: tag, value: namespace, create: true}\n"
                 "    queues:\n      - name: root\n        childtemplate:\n          properties: {application.sort.policy: fair}\n")
    pods = {"kind": "List", "items": [
        {"kind": "Pod", "metadata": {"name": "run", "namespace": "a", "labels": {"applicationId": "x"}},
         "spec": {"schedulerName": "yunikorn", "nodeName": "n1", "containers": []}, "status": {"phase": "Running"}},
        {"kind": "Pod", "metadata": {"name": "wait", "namespace": "a", "labels": {"applicationId": "x"}},
         "spec": {"schedulerName": "yunikorn", "containers": []}, "status": {"phase": "Pending"}}]}
    p = tmp_path / "pods.json"
    p.write_text(json.dumps(pods))
    r = run_cli("explain", str(q), str(p), "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert [a["queue"] for a in got["asks"]] == [placement.RECOVERY_QUEUE]  # no ACL: only the forced application gets in
    rq = next(x for x in got["queues"] if x["queue"] == placement.RECOVERY_QUEUE)
    assert rq["sortPolicy"] == "fifo"
