"""Generate benchmark inputs: a 10,000-queue config and a snapshot of pending asks, in the shapes
issue 13 names.

Usage: python benchmarks/generate.py OUTDIR [--queues 10000] [--asks 1000000] [--seed 1] [--shape capacity]

Shapes (`SHAPES`):
- capacity: 100 tenants (some fenced, offsets, guaranteed) of leaves (fair and fifo, offsets),
  PriorityClass-like ask priorities, vcore+memory asks and a capacity every ask fits in.
- nocap-pods: what a snapshot without node data looks like: 100 parents x 100 leaves, some
  offsets and fences, ask priorities -100..100, no capacity, no guaranteed, the default
  `{pods: 1}` resources (one resource type).
- nocap-vcore-memory: the same with vcore+memory asks (two resource types).
- equal-priorities: where siblings tie the most: no offsets or fences, every ask at priority 0,
  no capacity, vcore+memory asks (only usage and pending dominance order siblings).

Shapes of issue 27 (`FENCED_SHAPES`, run.py times them at 200,000 asks): a config of 100
parents x 100 leaves (`--queues` counts the leaves here: 10,000 leaves, 10,100 queues under
root), a third of the parents fenced (`priority.policy: fence`, no offset: every 3rd, 34 of
100), a fifth of the leaves with a `priority.offset` (every 5th, -10..10 but never 0), no other
properties; no capacity, no guaranteed, ask priorities uniformly -100..100.
- fenced-pods: `{pods: 1}` asks (one resource type).
- fenced-vcore-memory: vcore+memory asks (two resource types).
The same seed and size give both the same config.

Shape of issue 28 (`CLUSTER_SHAPES`): a real cluster's shape.
- cluster: the capacity shape's config and asks, the same (same seed, same draws), on nodes and
  users instead of one pool: 1,000 nodes per 1,000,000 asks (at least 3; varied sizes, half
  again the asks' total between them, as the capacity shape's capacity), 1,000 users per
  1,000,000 asks (at least 10; each in one of a tenth as many groups), and user/group `limits:`
  on a tenth of the queues (every 10th tenant and every 10th leaf: wildcard and named users,
  groups, some maxapplications), tight enough that some asks are held by them. The partition
  turns preemption off (`preemption: {enabled: false}`): with guarantees and nodes YuniKorn's
  preemption inside the run would take the reference engine. run.py times it against the
  capacity shape: the same run without nodes and limits.

Shapes of issue 42 (`KUBE_SHAPES`): a cluster read from kubectl JSON (`nodes.json`, `pods.json`
beside a `queues.yaml`, one provided rule), `--asks` pods (run.py: a tenth of its --asks, so
100,000) of YuniKorn in applications of 1-40 on one node per 100 pods (1,000), every node with
labels (pool, zone, instance type), a tenth tainted `nvidia.com/gpu=present:NoSchedule` (and
labelled so), a twentieth `dedicated=spark:NoSchedule`; every pod with the tolerations admission
adds (not-ready, unreachable), and a third of the pods with a nodeSelector (a pool), GPU
tolerations and selector, or a required zone affinity.
- kube-predicates: that.
- kube-plain: the same draws without node labels and taints and without the pods' selectors,
  affinity and tolerations: the same run without predicates.

Shapes of issue 45 (`GANG_SHAPES`): gang applications on a cluster, which only the reference engine
schedules. `--asks` real pods in applications of 100 (so 1,000 gangs of 100 members for 100,000
asks), each a gang of two task groups (a driver of 1 and executors of 99, minMember = the pods of
each, minResource = the pods' own: every pod takes its placeholder's place), priorities 0..100 by
application, in `--queues` fifo leaves under 10 parents (run.py: 100), on one node per 100 pods (1,000 nodes
of 16-48 vcore and 64-192 Gi: room for about half again the asks' total, so every gang completes).
- gangs: that (100,000 placeholders, then 100,000 real pods taking their places).
- gangs-plain: the same applications and asks without the gang fields: the same asks without gangs.

Shape of preemption inside the run (`PREEMPT_SHAPES`, docs/performance.md): what a live cluster
with guarantees looks like to `prio simulate`, which only the reference engine schedules.
- preempt: `--asks` applications of one ask each (priority 0, 10 or 100; 1-2 vcore, 1-4 Gi; create
  times one second apart), spread over `--queues` leaves under root.prod (guaranteed 40 vcore,
  80 Gi), on one node of 40 vcore and 80 Gi per 50 asks (room for about half of them), each node
  running a 4-vcore task of root.batch (priority -10, no guarantee: a victim). The partition's
  preemption is on (the default).

Shape of issue 48 (`KUEUE_SHAPES`): Kueue at production size, one `kueue.yaml` (run.py: a
hundredth of its --asks Workloads, so 10,000).
- kueue: 30 ClusterQueues (`--queues`, at most 30) under a cohort tree of three levels (a root,
  three groups, six teams), two flavors (on-demand; spot, tainted, tolerated by a third of the
  workloads) in a cpu+memory group and a GPU group on a third of the queues, borrowing and
  lending limits, preemption within the queue and reclaim in the cohort, every fifth queue
  StrictFIFO; `--asks` / 100 Workloads (at least 30) of 1-8 pods, priorities from four
  WorkloadPriorityClasses, created a second apart, a tenth running at the start.
"""
from __future__ import annotations

import argparse
import json
import os
import random

# Bumped whenever the same arguments generate other inputs (cached inputs are named by it).
GENERATION = 3  # 3: root admits everyone (submitacl: "*"): without an ACL YuniKorn, and prio, reject every application

SHAPES = ("capacity", "nocap-pods", "nocap-vcore-memory", "equal-priorities")
FENCED_SHAPES = ("fenced-pods", "fenced-vcore-memory")
CLUSTER_SHAPES = ("cluster",)
PREEMPT_SHAPES = ("preempt",)
KUBE_SHAPES = ("kube-predicates", "kube-plain")
KUEUE_SHAPES = ("kueue",)
VOLCANO_SHAPES = ("volcano",)
GANG_SHAPES = ("gangs", "gangs-plain")


def _limits(lrnd, indent: str, users: int, leaf: bool) -> list[str]:
    """A queue's `limits:` (the cluster shape): a wildcard user limit, a named user and a group
    above or below it, sometimes a wildcard group or a maxapplications. Drawn from their own
    generator, so the config's other lines are the capacity shape's."""
    scale = 1 if leaf else 8  # a tenant's subtree holds about 100 leaves' work
    out = [f"{indent}limits:",
           f"{indent}  - limit: each user",
           f"{indent}    users: [\"*\"]",
           f"{indent}    maxresources: {{vcore: {lrnd.choice([4, 6, 8]) * scale}, memory: {lrnd.choice([16, 24, 32]) * scale}Gi}}"]
    u = lrnd.randrange(users)
    out += [f"{indent}  - limit: user-{u}",
            f"{indent}    users: [user-{u}]",
            f"{indent}    maxresources: {{vcore: {lrnd.choice([2, 12]) * scale}}}"]
    g = lrnd.randrange(max(1, users // 10))
    out += [f"{indent}  - limit: group-{g}",
            f"{indent}    groups: [group-{g}]",
            f"{indent}    maxresources: {{vcore: {lrnd.choice([10, 20]) * scale}, memory: {lrnd.choice([40, 80]) * scale}Gi}}"]
    if lrnd.random() < 0.3:
        out += [f"{indent}  - limit: everyone else",
                f"{indent}    groups: [\"*\"]",
                f"{indent}    maxapplications: {lrnd.choice([3, 5, 10]) * scale}"]
    return out


def _config(rnd, queues: int, guaranteed: bool, offsets: bool, lrnd=None, users: int = 0) -> tuple[list[str], list[str]]:
    # root -> 100 tenants (some fenced, with offsets) -> leaves (the rest); with lrnd, limits on
    # every 10th tenant and every 10th leaf (the cluster shape)
    tenants = max(1, min(100, queues // 100))
    per = max(1, (queues - tenants) // tenants)
    lines = ["partitions:", "  - name: default"]
    if lrnd is not None:
        lines += ["    preemption:", "      enabled: false"]
    lines += ["    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    leaves = []
    for t in range(tenants):
        lines += [f"          - name: tenant-{t}",
                  "            properties:",
                  f"              priority.policy: {'fence' if t % 3 == 0 and offsets else 'default'}",
                  f"              priority.offset: \"{rnd.randint(-100, 100) if offsets else 0}\""]
        if guaranteed:
            lines += ["            resources:",
                      f"              guaranteed: {{vcore: {rnd.randint(50, 200)}, memory: {rnd.randint(100, 400)}Gi}}"]
        if lrnd is not None and t % 10 == 0:
            lines += _limits(lrnd, "            ", users, False)
        lines += ["            queues:"]
        for l in range(per):
            name = f"leaf-{l}"
            leaves.append(f"root.tenant-{t}.{name}")
            lines += [f"              - name: {name}",
                      "                properties:",
                      f"                  application.sort.policy: {'fair' if l % 2 else 'fifo'}",
                      f"                  priority.offset: \"{rnd.randint(-10, 10) if offsets else 0}\""]
            if lrnd is not None and l % 10 == 0:
                lines += _limits(lrnd, "                ", users, True)
    return lines, leaves


def _fenced_config(rnd, queues: int) -> tuple[list[str], list[str]]:
    # root -> 100 parents (a third fenced) -> 100 leaves each (a fifth with an offset)
    parents = max(1, min(100, queues // 100))
    per = max(1, queues // parents)
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'", "        queues:"]
    leaves = []
    for t in range(parents):
        lines += [f"          - name: parent-{t}"]
        if t % 3 == 0:
            lines += ["            properties:", "              priority.policy: fence"]
        lines += ["            queues:"]
        for l in range(per):
            name = f"leaf-{l}"
            leaves.append(f"root.parent-{t}.{name}")
            lines += [f"              - name: {name}"]
            if l % 5 == 0:
                lines += ["                properties:",
                          f"                  priority.offset: \"{rnd.choice((-1, 1)) * rnd.randint(1, 10)}\""]
    return lines, leaves


def _write(outdir: str, lines: list, snapshot: dict) -> tuple[str, str]:
    """The config lines as queues.yaml and the snapshot as asks.json in outdir: their paths."""
    qpath, spath = os.path.join(outdir, "queues.yaml"), os.path.join(outdir, "asks.json")
    with open(qpath, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    with open(spath, "w") as fh:
        json.dump(snapshot, fh)
    return qpath, spath


def _preempt(outdir: str, leaves: int, n: int, rnd) -> tuple[str, str]:
    """The preempt shape (module docstring)."""
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root", "        submitacl: '*'", "        queues:",
             "          - name: prod", "            resources:", "              guaranteed: {vcore: 40, memory: 80Gi}",
             "            queues:"]
    lines += [f"              - name: leaf{j}" for j in range(leaves)]
    lines.append("          - name: batch")
    n_nodes = max(3, n // 50)
    apps = [{"id": f"app-{i:06d}", "queue": f"root.prod.leaf{rnd.randrange(leaves)}",
             "asks": [{"id": f"ask-{i}", "priority": rnd.choice([0, 10, 100]),
                       "resources": {"vcore": rnd.choice([1, 2]), "memory": f"{rnd.choice([1, 2, 4])}Gi"},
                       "createTime": f"2024-05-01T{10 + i // 3600:02d}:{(i // 60) % 60:02d}:{i % 60:02d}Z"}]}
            for i in range(n)]
    apps.append({"id": "batch", "queue": "root.batch", "asks": [],
                 "allocations": [{"id": f"b-{j}", "priority": -10, "resources": {"vcore": 4, "memory": "8Gi"},
                                  "node": f"node-{j}", "createTime": "2024-05-01T09:00:00Z"} for j in range(n_nodes)]})
    snapshot = {"nodes": [{"name": f"node-{j}", "capacity": {"vcore": 40, "memory": "80Gi"}} for j in range(n_nodes)],
                "applications": apps}
    return _write(outdir, lines, snapshot)


def _gangs(outdir: str, leaves: int, n: int, rnd, gang: bool) -> tuple[str, str]:
    """The gang shapes (module docstring): the same draws with or without the gang fields."""
    parents = 10
    leaves = max(parents, leaves)
    lines = ["partitions:", "  - name: default", "    preemption: {enabled: false}", "    queues:", "      - name: root",
             "        submitacl: '*'", "        queues:"]
    for p in range(parents):
        lines += [f"          - name: p{p}", "            queues:"]
        lines += [f"              - name: l{j}" for j in range(p, leaves, parents)]
    apps = []
    cores = gib = 0
    for i in range(max(1, n // 100)):
        p = rnd.randrange(leaves)
        drv = {"vcore": 1000, "memory": 2 << 30}
        exe = {"vcore": rnd.choice([500, 1000, 2000]), "memory": rnd.choice([1, 2, 4]) << 30}
        prio = rnd.randrange(101)
        app = {"id": f"gang-{i:05d}", "queue": f"root.p{p % parents}.l{p}",
               "asks": [{"id": f"gang-{i:05d}-driver", "priority": prio, "resources": {"vcore": "1", "memory": "2Gi"}},
                        {"id": f"gang-{i:05d}-exec", "priority": prio, "count": 99,
                         "resources": {"vcore": f"{exe['vcore']}m", "memory": f"{exe['memory'] >> 30}Gi"}}]}
        if gang:
            app["taskGroups"] = [{"name": "driver", "minMember": 1, "minResource": {"vcore": "1", "memory": "2Gi"}},
                                 {"name": "executor", "minMember": 99,
                                  "minResource": {"vcore": f"{exe['vcore']}m", "memory": f"{exe['memory'] >> 30}Gi"}}]
            app["asks"][0]["taskGroup"], app["asks"][1]["taskGroup"] = "driver", "executor"
        cores += drv["vcore"] + 99 * exe["vcore"]
        gib += 2 + 99 * (exe["memory"] >> 30)
        apps.append(app)
    n_nodes = max(3, n // 100)
    sizes = [rnd.choice((1, 2, 3)) for _ in range(n_nodes)]
    total = sum(sizes)
    snapshot = {"partition": "default",
                "nodes": [{"name": f"node-{j:04d}", "capacity": {"vcore": str(cores // 1000 * 3 // 2 * z // total + 1),
                                                                  "memory": f"{gib * 3 // 2 * z // total + 1}Gi"}}
                          for j, z in enumerate(sizes)],
                "applications": apps}
    return _write(outdir, lines, snapshot)


_POOLS = ("general", "spark", "ml", "batch")
_ZONES = ("eu-west-1a", "eu-west-1b", "eu-west-1c")
_ADMITTED = [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
             {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]


def _kube(outdir: str, pods: int, rnd, predicates: bool) -> tuple[str, str]:
    """KUBE_SHAPES: queues.yaml, nodes.json and pods.json in `outdir`; (queues.yaml, outdir)."""
    leaves = 100
    lines = ["partitions:", "  - name: default", "    placementrules:", "      - name: provided", "        create: false",
             "    queues:", "      - name: root", "        submitacl: '*'", "        queues:", "          - name: tenants",
             "            queues:"]
    for k in range(leaves):
        lines.append(f"              - name: t{k}")
        if k % 5 == 0:
            lines += ["                properties:", f"                  priority.offset: \"{k % 20 - 10}\""]
    qpath = os.path.join(outdir, "queues.yaml")
    with open(qpath, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    nodes = []
    for j in range(max(3, pods // 100)):
        labels = {"kubernetes.io/hostname": f"node-{j}", "pool": _POOLS[j % 4], "topology.kubernetes.io/zone": _ZONES[j % 3],
                  "node.kubernetes.io/instance-type": rnd.choice(("m6i.24xlarge", "r6i.24xlarge", "c6i.24xlarge"))}
        taints = []
        if j % 10 == 3:
            labels["nvidia.com/gpu.present"] = "true"
            taints.append({"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"})
        elif j % 20 == 7:
            taints.append({"key": "dedicated", "value": "spark", "effect": "NoSchedule"})
        node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{j}"}, "spec": {},
                "status": {"allocatable": {"cpu": "96", "memory": "384Gi", "pods": "250"}}}
        if predicates:
            node["metadata"]["labels"] = labels
            if taints:
                node["spec"]["taints"] = taints
        nodes.append(node)
    items = []
    n = i = 0
    while n < pods:
        k = min(pods - n, rnd.randint(1, 40))
        queue = f"root.tenants.t{rnd.randrange(leaves)}"
        prio = rnd.choice((-100, 0, 1000, 2000, 4000))
        for _ in range(k):
            spec: dict = {"schedulerName": "yunikorn", "priority": prio,
                          "containers": [{"name": "main", "resources": {"requests": {
                              "cpu": f"{rnd.choice([250, 500, 1000])}m", "memory": f"{rnd.choice([1, 2, 4])}Gi"}}}]}
            kind = rnd.randrange(9)  # a third of the pods (0, 1, 2) say something about their node
            if predicates:
                spec["tolerations"] = list(_ADMITTED)
                if kind == 0:
                    spec["nodeSelector"] = {"pool": rnd.choice(_POOLS)}
                elif kind == 1:
                    spec["nodeSelector"] = {"nvidia.com/gpu.present": "true"}
                    spec["tolerations"] = _ADMITTED + [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
                elif kind == 2:
                    spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": list(_ZONES[:2])}]}]}}}
            t = f"2026-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
            items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {
                "name": f"pod-{n}", "namespace": "batch", "creationTimestamp": t,
                "labels": {"applicationId": f"app-{i}", "queue": queue}}, "spec": spec, "status": {"phase": "Pending"}})
            n += 1
        i += 1
    with open(os.path.join(outdir, "nodes.json"), "w") as fh:
        json.dump({"apiVersion": "v1", "kind": "List", "items": nodes}, fh)
    with open(os.path.join(outdir, "pods.json"), "w") as fh:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, fh)
    return qpath, outdir


def _kueue(outdir: str, cqs: int, n: int, rnd) -> tuple[str, str]:
    """The kueue shape (module docstring): one kueue.yaml, returned twice (config and input)."""
    docs = ["apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: on-demand}\n",
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: spot}\n"
            "spec: {nodeTaints: [{key: spot, value: 'true', effect: NoSchedule}]}\n",
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: org}\n"]
    for g in range(3):
        docs.append(f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {{name: g{g}}}\nspec: {{parentName: org}}\n")
        for t in range(2):
            docs.append(f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {{name: g{g}-t{t}}}\n"
                        f"spec: {{parentName: g{g}}}\n")
    for name, value in (("low", 10), ("normal", 100), ("high", 1000), ("critical", 10000)):
        docs.append(f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {{name: {name}}}\nvalue: {value}\n")
    names = [f"cq-{i:02d}" for i in range(min(30, max(1, cqs)))]
    gpu = set(names[::3])
    for i, name in enumerate(names):
        cohort = f"g{i % 3}-t{i // 3 % 2}" if i % 10 else f"g{i % 3}"
        cpu, mem = rnd.choice([16, 32, 64]), rnd.choice([64, 128, 256])
        lines = [f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {{name: {name}}}\nspec:",
                 "  namespaceSelector: {}", f"  cohortName: {cohort}",
                 f"  queueingStrategy: {'StrictFIFO' if i % 5 == 4 else 'BestEffortFIFO'}",
                 "  preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any,"
                 " borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}}",
                 "  resourceGroups:", "  - coveredResources: [cpu, memory]", "    flavors:"]
        for flavor, share in (("on-demand", 1), ("spot", 2)):
            limit = f", borrowingLimit: {cpu}" if i % 4 else ""
            lines += [f"    - name: {flavor}", "      resources:",
                      f"      - {{name: cpu, nominalQuota: {cpu // share}{limit}}}",
                      f"      - {{name: memory, nominalQuota: {mem // share}Gi" + (f", lendingLimit: {mem // 4}Gi}}" if i % 3 == 1 else "}")]
        if name in gpu:
            lines += ["  - coveredResources: [nvidia.com/gpu]", "    flavors:", "    - name: on-demand",
                      f"      resources: [{{name: nvidia.com/gpu, nominalQuota: {rnd.choice([4, 8])}}}]"]
        docs.append("\n".join(lines) + "\n")
        docs.append(f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {{namespace: {name}, name: queue}}\n"
                    f"spec: {{clusterQueue: {name}}}\n")
    classes = ("low", "normal", "normal", "high", "critical")
    for j in range(max(30, n)):
        name = rnd.choice(names)
        count, cpu, mem = rnd.randint(1, 8), rnd.choice(["500m", "1", "2"]), rnd.choice(["1Gi", "2Gi", "4Gi"])
        stamp = f"2026-01-01T{j // 3600 % 24:02d}:{j // 60 % 60:02d}:{j % 60:02d}Z"  # a second apart
        requests = f"{{cpu: '{cpu}', memory: {mem}" + (", nvidia.com/gpu: 1}" if name in gpu and j % 7 == 0 else "}")
        tol = "\n        tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]" if j % 3 == 0 else ""
        doc = (f"apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  namespace: {name}\n  name: w{j:05d}\n"
               f"  creationTimestamp: '{stamp}'\n  labels: {{kueue.x-k8s.io/priority-class: {rnd.choice(classes)}}}\n"
               f"spec:\n  queueName: queue\n  podSets:\n  - name: main\n    count: {count}\n    template:\n"
               f"      spec:\n        containers:\n        - {{name: c, image: busybox, resources: {{requests: {requests}}}}}{tol}\n")
        if j % 10 == 0 and "gpu" not in requests:
            milli = int(float(cpu) * 1000) * count if cpu != "500m" else 500 * count
            doc += (f"status:\n  admission:\n    clusterQueue: {name}\n    podSetAssignments:\n    - name: main\n"
                    f"      count: {count}\n      flavors: {{cpu: on-demand, memory: on-demand}}\n"
                    f"      resourceUsage: {{cpu: {milli}m, memory: {int(mem[:-2]) * count}Gi}}\n"
                    f"  conditions:\n  - {{type: QuotaReserved, status: 'True', reason: QuotaReserved, "
                    f"lastTransitionTime: '{stamp}'}}\n")
        docs.append(doc)
    path = os.path.join(outdir, "kueue.yaml")
    with open(path, "w") as fh:
        fh.write("---\n".join(docs))
    return path, path


def _volcano(outdir: str, queues: int, pods: int, rnd) -> tuple[str, str]:
    """One multi-document YAML of Volcano objects (issue 49's row): `queues` Queues (weights 1-4,
    a tenth with a capability), PodGroups of 1-40 pods (minMember 1 to all of them, a third with
    minResources, priority classes low/mid/high or none) spread over the queues, and one node
    per 100 pods (32 or 64 cpu, 128 or 256 Gi: room for about half of the pods), Volcano's default
    config; the `pods` pods of 250m-2 cpu and 1-4 Gi, all pending."""
    docs = []
    for c, v in (("low", 100), ("mid", 500), ("high", 1000)):
        docs.append(f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {c}}}\nvalue: {v}\n")
    for q in range(queues):
        cap = f", capability: {{cpu: '{rnd.choice([16, 32, 64])}'}}" if q % 10 == 0 else ""
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {{name: q{q}}}\n"
                    f"spec: {{weight: {rnd.randint(1, 4)}{cap}}}\n")
    n_nodes = max(1, pods // 100)
    for i in range(n_nodes):
        cpu, mem = rnd.choice([(32, 128), (64, 256)])
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata: {{name: node-{i:05d}}}\nstatus:\n  allocatable: {{cpu: '{cpu}', memory: {mem}Gi}}\n")
    n, g = 0, 0
    while n < pods:
        k = min(pods - n, rnd.randint(1, 40))
        cpu, mem = rnd.choice(["250m", "500m", "1", "2"]), rnd.choice([1, 2, 4])
        pc = rnd.choice(["low", "mid", "high", None])
        mm = rnd.randint(1, k)
        minres = f", minResources: {{cpu: '{mm}', memory: {mm}Gi}}" if g % 3 == 0 else ""
        pcs = f", priorityClassName: {pc}" if pc else ""
        t = f"2026-01-01T{g // 3600 % 24:02d}:{g // 60 % 60:02d}:{g % 60:02d}Z"
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {{name: j{g}, creationTimestamp: '{t}'}}\n"
                    f"spec: {{minMember: {mm}, queue: q{rnd.randrange(queues)}{minres}{pcs}}}\n")
        for i in range(k):
            docs.append(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: j{g}-{i}\n  creationTimestamp: '{t}'\n"
                        f"  annotations: {{scheduling.k8s.io/group-name: j{g}}}\n"
                        f"spec:\n  {'priorityClassName: ' + pc + chr(10) + '  ' if pc else ''}containers:\n"
                        f"  - name: main\n    resources: {{requests: {{cpu: '{cpu}', memory: {mem}Gi}}}}\n")
        n += k
        g += 1
    path = os.path.join(outdir, "volcano.yaml")
    with open(path, "w") as fh:
        fh.write("---\n".join(docs))
    return path, path


def generate(outdir: str, queues: int = 10_000, asks: int = 1_000_000, seed: int = 1,
             shape: str = "capacity") -> tuple[str, str]:
    rnd = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    if shape in PREEMPT_SHAPES:
        return _preempt(outdir, queues, asks, rnd)
    if shape in KUBE_SHAPES:
        return _kube(outdir, asks, rnd, shape == "kube-predicates")
    if shape in KUEUE_SHAPES:
        return _kueue(outdir, queues, asks, rnd)
    if shape in VOLCANO_SHAPES:
        return _volcano(outdir, queues, asks, rnd)
    if shape in GANG_SHAPES:
        return _gangs(outdir, queues, asks, rnd, shape == "gangs")
    cluster = shape in CLUSTER_SHAPES
    nocap = shape not in ("capacity",) + CLUSTER_SHAPES
    # the cluster shape's own draws (users, nodes, limits) come from another generator: its
    # config and asks are otherwise the capacity shape's
    lrnd = random.Random(seed + 1) if cluster else None
    users = max(10, asks // 1000)
    if shape in FENCED_SHAPES:
        lines, leaves = _fenced_config(rnd, queues)
    else:
        lines, leaves = _config(rnd, queues, guaranteed=not nocap, offsets=shape != "equal-priorities",
                                lrnd=lrnd, users=users)
    qpath = os.path.join(outdir, "queues.yaml")
    with open(qpath, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    if shape == "equal-priorities":
        classes = [0]
    elif nocap:
        classes = list(range(-100, 101))
    else:
        classes = [-100, 0, 1000, 2000, 4000]
    pods = shape in ("nocap-pods", "fenced-pods")
    apps = []
    n = 0
    i = 0
    while n < asks:
        k = min(asks - n, rnd.randint(1, 40))
        app_asks = []
        for _ in range(k):
            a = {"priority": rnd.choice(classes)}
            if not pods:
                a["resources"] = {"vcore": f"{rnd.choice([250, 500, 1000])}m", "memory": f"{rnd.choice([1, 2, 4])}Gi"}
            app_asks.append(a)
        app = {"id": f"app-{i}", "queue": rnd.choice(leaves), "asks": app_asks}
        if cluster:
            u = lrnd.randrange(users)
            app["user"] = f"user-{u}"
            app["groups"] = [f"group-{u % max(1, users // 10)}"]
        apps.append(app)
        n += k
        i += 1
    snapshot: dict = {"partition": "default"}
    if cluster:
        # nodes of varied sizes (1x-3x a base), half again the asks' total between them
        cores = sum(int(a["resources"]["vcore"][:-1]) for app in apps for a in app["asks"]) // 1000
        gib = sum(int(a["resources"]["memory"][:-2]) for app in apps for a in app["asks"])
        n_nodes = max(3, asks // 1000)
        sizes = [lrnd.choice((1, 2, 3)) for _ in range(n_nodes)]
        total = sum(sizes)
        snapshot["nodes"] = [{"name": f"node-{j}", "capacity": {"vcore": str(cores * 3 // 2 * z // total + 1),
                                                                   "memory": f"{gib * 3 // 2 * z // total + 1}Gi"}}
                             for j, z in enumerate(sizes)]
    elif not nocap:
        # A real partition always has a capacity (root's max is the nodes' total; YuniKorn
        # schedules nothing without nodes): room for every ask, so the step count is the ask count.
        cores = sum(int(a["resources"]["vcore"][:-1]) for app in apps for a in app["asks"]) // 1000
        gib = sum(int(a["resources"]["memory"][:-2]) for app in apps for a in app["asks"])
        snapshot["capacity"] = {"vcore": str(cores * 3 // 2 + 1), "memory": f"{gib * 3 // 2 + 1}Gi"}
    snapshot["applications"] = apps
    spath = os.path.join(outdir, "asks.json")
    with open(spath, "w") as fh:
        json.dump(snapshot, fh)
    return qpath, spath


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--queues", type=int, default=10_000)
    ap.add_argument("--asks", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shape", choices=SHAPES + FENCED_SHAPES + CLUSTER_SHAPES + PREEMPT_SHAPES + KUBE_SHAPES + KUEUE_SHAPES
                    + VOLCANO_SHAPES + GANG_SHAPES, default="capacity")
    a = ap.parse_args()
    print(*generate(a.outdir, a.queues, a.asks, a.seed, a.shape))
