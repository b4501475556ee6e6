"""Builders the tests share: small queue configs, an engine from a queue config and a snapshot
given as text, and the state a run leaves, to compare two runs by."""
from __future__ import annotations

import json

from conftest import sample
from prio.io import yamlnodes
from prio.yunikorn import acl, engine, tree
from prio.yunikorn.load import native
from prio.yunikorn.load import queues as config

# The head of a queues.yaml of one partition, default: child queues of root follow, each
# "          - name: ..." (ten spaces), their keys two spaces further in. Root admits everyone
# (without an ACL anywhere YuniKorn lets no one submit).
UNDER_ROOT = "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n"
# The smallest config with a leaf: root.a, nothing set.
QUEUE_A = UNDER_ROOT + "          - name: a\n"
# Two queues guaranteed 10 vcore each. a uses 1 vcore and half the memory no one guarantees; b
# uses 6 vcore. From YuniKorn 1.6 (getFairShare) a's share is max(1/10, 50/100 over its fair max) =
# 0.5 against b's 0.6: a first. 1.5 (CompUsageRatioSeparately over getShares) divides by the
# guarantee alone, the memory share is the usage itself (50): b first (--yunikorn-version tests).
FAIR_QUEUES = UNDER_ROOT + ("          - name: a\n            resources: {guaranteed: {vcore: 10}}\n"
                            "          - name: b\n            resources: {guaranteed: {vcore: 10}}\n")
FAIR_SNAPSHOT = """capacity: {vcore: 100, memory: 100}
applications:
  - {id: app-a, queue: root.a, allocated: {vcore: 1, memory: 50}, asks: [{id: a-0, priority: 0, resources: {vcore: 1}}]}
  - {id: app-b, queue: root.b, allocated: {vcore: 6}, asks: [{id: b-0, priority: 0, resources: {vcore: 1}}]}
"""


def walkthrough_queues_lowered() -> str:
    """samples/walkthrough-queues.yaml with tenant-a's priority.offset 10 made -10: the config
    change the diff tests compare the sample with."""
    with open(sample("walkthrough-queues.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    assert text.count('priority.offset: "10"') == 1
    return text.replace('priority.offset: "10"', 'priority.offset: "-10"')


def kueue_sample_split() -> tuple:
    """samples/kueue.yaml as a Kueue setup (everything but the Workloads), the same setup with
    team-a's reclaimWithinCohort Never, and the work (the Workloads): what the Kueue diff tests
    compare."""
    with open(sample("kueue.yaml"), encoding="utf-8") as fh:
        docs = fh.read().split("\n---\n")
    work = [d for d in docs if "kind: Workload\n" in d]
    setup = "\n---\n".join(d for d in docs if d not in work) + "\n"
    assert "    reclaimWithinCohort: Any" in setup
    return setup, setup.replace("reclaimWithinCohort: Any", "reclaimWithinCohort: Never"), "\n---\n".join(work) + "\n"


def build_engine(queues: str | dict, snapshot, choice: str = "auto", placement: bool = True) -> engine.Engine:
    """An engine over the first partition of `queues` (queues.yaml text) with `snapshot` (the
    native snapshot format, as JSON text or a dict), its placement rules applied; with
    placement=False the queues the snapshot names are taken as given (created where missing).
    `queues` as a dict is a REST queues dump (tests/strategies.py rest_scenarios): the tree is
    built as --yunikorn builds it, with no placement rules."""
    if not isinstance(snapshot, str):
        snapshot = json.dumps(snapshot)
    if isinstance(queues, dict):
        from prio.yunikorn.load import rest

        infos, _ = rest.load_queues("queues.json", yamlnodes.load("queues.json", json.dumps(queues))[0])
        return engine.Engine(rest.build_tree(infos), native.load("a.json", yamlnodes.load("a.json", snapshot)[0]), None, choice)
    d = yamlnodes.load("q.yaml", queues)[0]
    partition = config.decode(d).partitions[0]
    root = tree.from_config(partition)
    if acl.nobody_may_submit(root):
        # A scheduling test's config without any ACL: root admits everyone, as the recorded
        # corpora's harness made it (YuniKorn itself would admit no one: test_placement_acl.py)
        root.acl = (acl.parse("*"), acl.NOBODY)
    return engine.Engine(root, native.load("a.json", yamlnodes.load("a.json", snapshot)[0]),
                         partition.placementrules if placement else None, choice, partition)


def run_state(e: engine.Engine) -> tuple:
    """What the rest of prio reads after a run, per queue and per application."""
    qs = [(q.path, q.pending, q.allocated, q.live, q.running, q.reported, q.placed, q.first_step, q.last_step)
          for q in e.root.walk()]
    apps = [(st.app_id, list(st.alloc), st.live, st.first, st.prio, st.pending, st.usage, st.running,
             dict(st.dead)) for st in e.apps]
    nodes = [(n.name, n.available, n.reserved) for n in e.cluster.nodes] if e.cluster is not None else None
    users = ({u: (t.usage, t.running) for u, t in e.ugm.users.items()}, {g: (t.usage, t.running) for g, t in e.ugm.groups.items()}) \
        if e.ugm is not None else None
    return qs, apps, e.steps_done, nodes, dict(e.step_nodes), set(e.tied_leftovers), users


def step_rows(steps) -> list:
    """Steps as comparable rows: every field, the tie notes as their text."""
    return [(tuple(s[:6]), tuple(map(str, s.tie)), s.note) for s in steps]


def paths_of(data, path=()):
    """Every path of a parsed document (mappings' keys and lists' indexes), itself (`()`) first:
    the fields a test changes one at a time."""
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths_of(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths_of(v, path + (i,))
