"""`prio snapshot --anonymize` (issue 29, item 4): the anonymized file gives the same answers under
the new names on every recorded YuniKorn scenario, and holds no original name or input path."""
import glob
import json
import os
import re

import pytest
import yaml

from conftest import SHARED, run_cli
from replayed import replayed

SCENARIOS = sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-conformance*", "scheduling", "*.queues.yaml")))
FAMILIES = {}
for _q in SCENARIOS:  # the first scenario of each family and corpus: the quick run
    FAMILIES.setdefault((os.path.basename(os.path.dirname(os.path.dirname(_q))), os.path.basename(_q).split("-")[0]), _q)
QUICK = set(FAMILIES.values())
_TOKEN = re.compile(r"[^A-Za-z0-9_\-]+")
_NEW = re.compile(r"app-\d+(-\d+)?|node-\d+|n\d+")


def _name(path):
    return os.path.basename(os.path.dirname(os.path.dirname(path))) + "/" + os.path.basename(path)[: -len(".queues.yaml")]


def _isomorphic(old, new, fwd, back, where="$"):
    """old and new are equal up to one renaming of name-like tokens (fwd and back kept consistent
    both ways): same structure, same numbers, same separators."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and len(old) == len(new), where
        for (ko, vo), (kn, vn) in zip(old.items(), new.items()):
            _isomorphic(ko, kn, fwd, back, where + "." + str(ko))
            _isomorphic(vo, vn, fwd, back, where + "." + str(ko))
    elif isinstance(old, list):
        assert isinstance(new, list) and len(old) == len(new), where
        for i, (a, b) in enumerate(zip(old, new)):
            _isomorphic(a, b, fwd, back, f"{where}[{i}]")
    elif isinstance(old, str):
        assert isinstance(new, str), where
        po, pn = re.split(r"([^A-Za-z0-9_\-]+)", old), re.split(r"([^A-Za-z0-9_\-]+)", new)
        assert len(po) == len(pn), (where, old, new)
        for i, (a, b) in enumerate(zip(po, pn)):
            if i % 2:
                assert a == b, (where, old, new)  # separators
            elif a != b:  # a word of a message can be a name too (a queue named `a`): the same word is no renaming
                assert fwd.setdefault(a, b) == b and back.setdefault(b, a) == a, (where, old, new, a, fwd[a], back[b])
    else:
        assert old == new, where


def _originals(queues_path, asks_path):
    """Every name the two input files hold (users, groups, applications, asks, queues, nodes,
    filter expressions), root and the wildcards left out."""
    names = set()
    conf = yaml.safe_load(open(queues_path))
    work = yaml.safe_load(open(asks_path))

    def acl(s):
        return {e for part in str(s).split(" ") for e in part.split(",")}

    def queue(q):
        names.add(str(q.get("name")))
        for k in ("adminacl", "submitacl"):
            if k in q:
                names.update(acl(q[k]))
        for lim in q.get("limits") or []:
            names.update(map(str, (lim.get("users") or []) + (lim.get("groups") or [])))
        for c in q.get("queues") or []:
            queue(c)

    def rule(r):
        if r.get("value") and str(r.get("name")).lower() == "fixed":
            names.update(str(r["value"]).split("."))
        f = r.get("filter") or {}
        names.update(map(str, (f.get("users") or []) + (f.get("groups") or [])))
        if r.get("parent"):
            rule(r["parent"])

    for p in conf.get("partitions") or []:
        for q in p.get("queues") or []:
            queue(q)
        for r in p.get("placementrules") or []:
            rule(r)
        for lim in p.get("limits") or []:
            names.update(map(str, (lim.get("users") or []) + (lim.get("groups") or [])))
    for n in work.get("nodes") or []:
        names.add(str(n["name"]))
    for a in work.get("applications") or []:
        names.add(str(a["id"]))
        names.update(str(a.get("queue") or "").split("."))
        if a.get("user"):
            names.add(str(a["user"]))
        names.update(map(str, a.get("groups") or []))
        for t in (a.get("asks") or []) + (a.get("allocations") or []):
            if t.get("id"):
                names.add(str(t["id"]))
            if t.get("node"):
                names.add(str(t["node"]))
    # A name already of the new names' shape (the corpus's nodes are node-1, node-2) may come out
    # again as the name of something else: that is no leak.
    return {n for n in names - {"", "*", "root", "None", "default", "testuser"} if not _NEW.fullmatch(n)}  # kept: root.default, the default user


# Values that are not names: the partition, rule kinds, filter types, states; under these keys
# the keys are resource types or property names.
_NOT_NAMES = {"partition", "type", "state"}
_OPAQUE = {"properties", "resources", "maxresources", "capacity", "priorityClasses", "allocated"}


def _values(node, key=None, parent_key=None):
    """The string values of a file's documents that could hold a name."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in _OPAQUE:
                continue
            if k == "name" and key in ("partitions", "placementrules", "parent"):
                continue  # a partition's name, a rule's kind
            yield from _values(v, k, key)
    elif isinstance(node, list):
        for v in node:
            yield from _values(v, key, parent_key)
    elif isinstance(node, str) and key not in _NOT_NAMES:
        yield node


def _anonymize(tmp_path, q, a, *extra):
    out = tmp_path / "anon.yaml"
    r = run_cli("snapshot", q, a, "--anonymize", "--output-file", str(out), *extra)
    assert r.exit_code == 0, r.stderr
    return out, r


def _check(tmp_path, q):
    a = q[: -len(".queues.yaml")] + ".asks.yaml"
    q = replayed(q)  # the config the harness ran: root's submitacl '*' where it has none
    want = run_cli("simulate", q, a, "-o", "json")
    out, r = _anonymize(tmp_path, q, a)
    got = run_cli("simulate", str(out), "-o", "json")
    assert want.exit_code == got.exit_code, (want.stderr, got.stderr)
    fwd, back = {}, {}
    _isomorphic(json.loads(want.stdout), json.loads(got.stdout), fwd, back)
    text = out.read_text()
    originals = _originals(q, a)
    leaked = set()
    for doc in yaml.safe_load_all(text):
        for v in _values(doc):
            leaked |= set(_TOKEN.split(v)) & originals
            leaked |= {o for o in originals if len(o) > 3 and o in v}  # filter expressions, ids with dots
    assert not leaked, leaked
    comments = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert not any(os.path.basename(a)[:-len(".asks.yaml")] in c for c in comments), comments
    assert os.path.basename(q)[:-len(".queues.yaml")] not in text and os.path.basename(q)[:-len(".queues.yaml")] not in r.stderr
    for ln in text.splitlines():  # no comment of the config survives
        assert not ln.startswith("#") or ln.startswith(("# prio snapshot", "# first document", "# prio explain", "# source: (anonymized",
                                                        "# partition:", "# YuniKorn rejected")), ln


@pytest.mark.parametrize("q", sorted(QUICK), ids=_name)
def test_anonymized_snapshot_gives_the_same_steps_one_per_family(tmp_path, q):
    _check(tmp_path, q)


@pytest.mark.slow
@pytest.mark.parametrize("q", [s for s in SCENARIOS if s not in QUICK], ids=_name)
def test_anonymized_snapshot_gives_the_same_steps(tmp_path, q):
    _check(tmp_path, q)


# ---- what the conformance corpora do not draw -----------------------------------------------

CONFIG = """# team config: alice's team owns gpu  (a comment that names people)
partitions:
- name: default
  placementrules:
  - name: user
    create: true
    filter: {type: deny, users: [mallory]}
    parent: {name: fixed, value: root.people}
  - name: fixed
    value: root.ops.shared
    filter: {type: allow, groups: ['^ops.*']}
  queues:
  - name: root
    submitacl: '*'
    queues:
    - name: people
      parent: true
      adminacl: alice,bob ops-admins
      queues:
      - name: alice
      - name: john_dot_doe
    - name: ops
      parent: true
      queues:
      - name: shared
        submitacl: ' ops-team,ops-admins'
        limits:
        - limit: bob's own limit
          users: [bob]
          maxapplications: 1
        - limit: the ops group
          groups: [ops-team]
          maxresources: {vcore: 3}
"""

ASKS = """applications:
- {id: web-frontend, queue: root.people.alice, user: alice, asks: [{priority: 5, resources: {vcore: 1}}]}
- {id: batch-night, queue: root.default, user: bob, asks: [{priority: 5, resources: {vcore: 1}}, {priority: 5, resources: {vcore: 1}}]}
- {id: adhoc, queue: root.default, user: john.doe, asks: [{priority: 5, resources: {vcore: 1}}]}
- {id: backup, queue: root.default, user: mallory, groups: [ops-team], asks: [{priority: 5, resources: {vcore: 2}}, {priority: 5, resources: {vcore: 2}}]}
- {id: report, queue: root.default, user: bob, groups: [ops-team], asks: [{priority: 5, resources: {vcore: 1}}]}
"""

SECRETS = ("alice", "bob", "john", "doe", "mallory", "ops", "people", "shared", "web-frontend", "batch-night", "adhoc",
           "backup", "report", "team config", "gpu", "own limit")


def _files(tmp_path, config=CONFIG, asks=ASKS):
    q, a = tmp_path / "team-queues.yaml", tmp_path / "team-asks.yaml"
    q.write_text(config)
    a.write_text(asks)
    return str(q), str(a)


def test_placement_rules_acls_limits_follow_the_renaming(tmp_path):
    q, a = _files(tmp_path)
    want = run_cli("simulate", q, a, "-o", "json")
    out, r = _anonymize(tmp_path, q, a)
    got = run_cli("simulate", str(out), "-o", "json")
    old, new = json.loads(want.stdout), json.loads(got.stdout)
    assert {s["queue"] for s in old["steps"]} >= {"root.people.alice", "root.people.john_dot_doe", "root.ops.shared"}
    _isomorphic(old, new, {}, {})  # the user rule, the deny filter, the group regex and the limits alike
    text = out.read_text()
    for word in SECRETS + ("team-queues", "team-asks"):
        assert word not in text and word not in r.stderr, word
    conf = next(yaml.safe_load_all(text))["partitions"][0]
    people, ops = conf["queues"][0]["queues"]
    assert re.fullmatch(r"[a-z]\d+,[a-z]\d+ [a-z]\d+", people["adminacl"])  # users and groups renamed, the shape kept
    assert re.fullmatch(r" [a-z]\d+,[a-z]\d+", ops["queues"][0]["submitacl"]) and conf["queues"][0]["submitacl"] == "*"
    assert [x["limit"] for x in ops["queues"][0]["limits"]] == ["limit", "limit"]
    assert re.fullmatch(r"\^\(\?:[a-z]\d+\)\$", conf["placementrules"][1]["filter"]["groups"][0])  # what the expression matched
    # The same words in the validate verdict: the anonymized config is as valid as the original.
    assert json.loads(run_cli("validate", str(out), "-o", "json").stdout)["summary"]["errors"] == 0


def test_keep_queue_names_keeps_queues_and_renames_the_rest(tmp_path):
    q, a = _files(tmp_path)
    want = json.loads(run_cli("simulate", q, a, "-o", "json").stdout)
    out, _ = _anonymize(tmp_path, q, a, "--keep-queue-names")
    got = json.loads(run_cli("simulate", str(out), "-o", "json").stdout)
    # Queues keep their names, but for those a user rule makes of a renamed user (bob).
    assert [s["queue"] for s in got["steps"] if "people" not in s["queue"]] == [s["queue"] for s in want["steps"] if "people" not in s["queue"]]
    assert "root.people.alice" in {s["queue"] for s in got["steps"]} and "root.people.bob" not in {s["queue"] for s in got["steps"]}
    text = out.read_text()
    for word in ("mallory", "web-frontend", "own limit", "team config", "ops-team"):
        assert word not in text
    assert "alice" in text  # a user named like a queue keeps the name the queue shows anyway
    _isomorphic(want, got, {}, {})


def test_keep_options_need_anonymize(tmp_path):
    q, a = _files(tmp_path)
    for opt in ("--keep-queue-names", "--keep-node-names"):
        r = run_cli("snapshot", q, a, opt, "--output-file", str(tmp_path / "x.yaml"))
        assert r.exit_code == 2 and f"{opt}: goes with --anonymize" in r.stderr, r.stderr
    # refused before anything is read: an input that does not exist is not even opened
    r = run_cli("snapshot", str(tmp_path / "missing.yaml"), "--keep-queue-names", "--output-file", str(tmp_path / "x.yaml"))
    assert r.exit_code == 2 and r.stderr.strip() == "prio: --keep-queue-names: goes with --anonymize", r.stderr
    assert not (tmp_path / "x.yaml").exists()


def test_stderr_notes_name_rejected_applications_as_the_file_does(tmp_path):
    from yunikorn_replay import Replay

    sc = os.path.join(SHARED, "testdata", "yunikorn-rest-live", "conformance-placement-00009")
    if not os.path.isdir(sc):
        pytest.skip("no ../shared/testdata/yunikorn-rest-live")
    out = tmp_path / "s.yaml"
    with Replay(sc) as srv:
        plain = run_cli("snapshot", "--yunikorn", srv.url, "--output-file", str(tmp_path / "p.yaml"))
        r = run_cli("snapshot", "--yunikorn", srv.url, "--anonymize", "--output-file", str(out), "-o", "json")
    assert r.exit_code == 0, r.stderr
    real = re.findall(r"\b(app\d+) \(", plain.stderr)
    assert real, plain.stderr  # the plain run names them
    named = json.loads(r.stdout)["rejected"]
    for app in real:
        assert app not in r.stderr and app not in out.read_text()
    assert all(n in r.stderr for n in named) and "127.0.0.1" not in r.stderr + out.read_text()


def test_names_sort_as_the_originals_around_the_names_kept():
    from prio.yunikorn.render.anonymize import Names

    n = Names(True)
    olds = ["zed", "alpha", "default", "Zed", "mid", "testuser", "a.b", "a_dot_b"]
    for u in olds:
        n.see_user(u)
    n.keep("testuser")
    n.freeze()
    keyed = sorted({u.replace(".", "_dot_").lower() for u in olds})
    news = [n.user(k) for k in keyed]
    assert news == sorted(news) and n.user("default") == "default" and n.user("testuser") == "testuser"
    assert n.user("a.b") == n.user("a_dot_b")  # the same queue name: the same new name
    assert n.user("Zed") != n.user("zed") and n.user("Zed").lower() == n.user("zed").lower()  # one queue, two users
    assert n.user("Zed") < n.user("zed")
    from prio.yunikorn.placement import GROUP_NAME, QUEUE_NAME, USER_NAME

    assert all(USER_NAME.fullmatch(x) and GROUP_NAME.fullmatch(x) and QUEUE_NAME.fullmatch(x) for x in news)


def test_a_filter_expression_matches_what_it_matched():
    from prio.yunikorn.render.anonymize import NEVER, Names

    n = Names(True)
    for u in ("dave", "dora", "bob"):
        n.see_user(u)
    n.freeze()
    users = {"dave", "dora", "bob", ""}
    assert n.filter_entries(["^d.*"], False, users) == [f"^(?:{n.user('dave')}|{n.user('dora')})$"]
    assert n.filter_entries(["^x"], False, users) == [NEVER]
    assert n.filter_entries(["bob", "not valid!"], False, users) == [n.user("bob"), "-"]
    assert n.filter_entries([".*"], False, users)[0].startswith("^(?:|")  # it matched an application without a user


def test_a_pod_list_leaves_no_namespace_label_pod_or_node_name(tmp_path):
    from conftest import sample

    pods = json.load(open(sample("pods.json")))["items"]
    words = set()
    for p in pods:
        meta = p["metadata"]
        words |= {meta["name"], meta.get("namespace", "")} | set((meta.get("labels") or {}).values())
        words.add((p.get("spec") or {}).get("nodeName") or "")
    words = {w for w in words if len(w) > 3} - {"default"}
    args = (sample("walkthrough-queues.yaml"), sample("pods.json"), sample("priorityclasses.yaml"))
    want = json.loads(run_cli("simulate", *args, "-o", "json").stdout)
    out = tmp_path / "a.yaml"
    r = run_cli("snapshot", *args, "--anonymize", "--output-file", str(out))
    assert r.exit_code == 0, r.stderr
    text = out.read_text()
    assert not {w for w in words if w in text}, {w for w in words if w in text}
    _isomorphic(want, json.loads(run_cli("simulate", str(out), "-o", "json").stdout), {}, {})
