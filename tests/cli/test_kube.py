"""--kube and `kubectl prio` (issue 32): the cluster of the kubeconfig read through the user's own
kubectl, here a stand-in on PATH (tests/fixtures/kube-cluster/fake_kubectl.py) serving recorded
`kubectl get ... -o json` answers made from the samples' ConfigMap, pods and PriorityClasses,
with four nodes and users added. The same answers as the files they hold; only `get` is ever
run; every fault is one line, exit 2.

The cluster: gpu-1 (7910m cpu, 1 GPU), gpu-2 (the same, cordoned), worker-1 and worker-3 (3920m
cpu each); a node-exporter DaemonSet pod of the default scheduler (100m) on every node, kube-proxy
(100m) on worker-1, an ingress controller (2 cpu) on worker-3; YuniKorn's spark-etl-driver (1
cpu, alice) runs on worker-1. tenant-a holds every user to 4 cores. Pending: sim-1 (4 cpu) finds
no node once sim-0 took gpu-1, gpu-train-0 asks for 2 GPUs, alice's spark-etl-exec-2 is over her
4 cores."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from conftest import ROOT, TESTS, prio_env, run_cli

FIX = os.path.join(TESTS, "fixtures", "kube-cluster")


@pytest.fixture
def kube(tmp_path, monkeypatch):
    """A `kubectl` on PATH that is the stand-in; returns a function giving the command lines it ran."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "kubectl"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {os.path.join(FIX, 'fake_kubectl.py')} \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "kubectl.log"
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_KUBECTL_LOG", str(log))
    for v in ("FAKE_KUBECTL_FAULT", "FAKE_KUBECTL_NO_CONFIGMAP", "PRIO_KUBECTL_TIMEOUT"):
        monkeypatch.delenv(v, raising=False)
    return lambda: log.read_text().splitlines() if log.exists() else []


FILES = tuple(os.path.join(FIX, f"{name}.json") for name in ("configmaps", "pods", "nodes", "priorityclasses"))


def _json(r):
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("command", ["explain", "simulate", "preempt"])
def test_the_cluster_gives_what_its_objects_as_files_give(kube, command):
    assert _json(run_cli(command, "--kube", "-o", "json")) == _json(run_cli(command, *FILES, "-o", "json"))


def _unscheduled(r) -> dict:
    return {u["ask"]: u for u in _json(r)["unscheduled"]}


def test_asks_are_placed_on_the_clusters_nodes_and_held_by_node_and_user_causes(kube):
    r = run_cli("simulate", "--kube", "-o", "json")
    assert _json(r) == _json(run_cli("simulate", "--kube", "-o", "json", "--engine", "reference"))  # the walk agrees
    steps = [s for s in _json(r)["steps"] if "ask" in s]
    assert {s["node"] for s in steps} <= {"gpu-1", "worker-1", "worker-3"}  # gpu-2 is cordoned
    # worker-3's foreign pods (2100m) do not move it in the node order (the core's foreign
    # allocations notify no listener): scored as added, it takes web first
    assert [(s["ask"], s["node"]) for s in steps][:2] == [("metrics-agent-x2k9", "gpu-1"), ("web-5c7d9-abcde", "worker-3")]
    left = _unscheduled(run_cli("simulate", "--kube", "-o", "json"))
    assert set(left) == {"sim-0", "sim-1", "gpu-train-0", "spark-etl-exec-2"}
    # 4 cores: only gpu-1 is big enough; 7910m, less 100m of node-exporter (another scheduler's
    # pod) and the 4050m placed there; sim-0 reserves it
    assert left["sim-1"]["code"] == left["sim-0"]["code"] == "NodeUnschedulable"
    assert "the most free on one node is 3760m (gpu-1)" in left["sim-1"]["reason"]
    assert "it holds the reservation of gpu-1" in left["sim-0"]["reason"]
    assert "gpu-2 has room but is unschedulable" in left["sim-1"]["reason"]
    # 2 GPUs fit the partition (gpu-1 and gpu-2 have one each) but no node
    assert left["gpu-train-0"]["code"] == "NodeTooSmall"
    assert "needs nvidia.com/gpu 2, the largest node has 1" in left["gpu-train-0"]["reason"]
    # alice (user.info annotation) runs spark-etl-driver (1 core) and was given spark-etl-exec-1 (2)
    assert left["spark-etl-exec-2"]["code"] == "UserQuota"
    assert "user alice quota in root.tenants.tenant-a exceeded: needs vcore 2, 1 of 4 left" in left["spark-etl-exec-2"]["reason"]


def test_explain_pending_names_node_and_user_causes(kube):
    r = run_cli("explain", "--kube", "--pending")
    assert r.exit_code == 0, r.stderr
    for words in ("NodeUnschedulable", "gpu-2 has room but is cordoned or draining", "at most 3760m free on a schedulable node (gpu-1)",
                  "NodeTooSmall", "UserQuota",
                  "user alice is short of vcore in root.tenants.tenant-a (needs 2, 1 of 4 left)"):
        assert words in r.stdout, words
    assert "6 pods of other schedulers bound to the nodes take room there (YuniKorn's foreign allocations)" in r.stderr


def test_preempt_uses_the_nodes_running_pods_and_cordons(kube):
    r = run_cli("preempt", "--kube")
    assert r.exit_code == 0, r.stderr
    assert "sim-0 (application montecarlo-42, queue root.tenants.tenant-b.child-b-1, priority -100): fits without preemption: allocated on gpu-1" in r.stdout
    assert "spark-etl-driver  spark-etl-0001  root.tenants.tenant-a.child-a-1  worker-1" in r.stdout  # the running pod, a candidate
    assert "gpu-2" not in r.stdout  # the emptiest node, but cordoned


def test_only_get_is_run_with_the_context_and_namespace_asked_for(kube):
    assert run_cli("explain", "--kube", "--context", "prod", "-o", "json").exit_code == 0
    ran = kube()
    assert len(ran) == 4 and all(line.startswith("--context prod get ") for line in ran)
    assert "get configmap yunikorn-configs yunikorn-defaults -n yunikorn --ignore-not-found -o json" in ran[0]
    # every scheduler's pods: the others' take room on the nodes; finished pods hold none
    assert "get pods --all-namespaces --field-selector status.phase!=Succeeded,status.phase!=Failed -o json" in ran[1]
    assert ran[2].endswith("get nodes -o json")
    assert ran[3].endswith("get priorityclasses -o json")


def test_credentials_that_may_not_list_nodes_give_one_pool_and_a_note(kube, monkeypatch):
    monkeypatch.setenv("FAKE_KUBECTL_FAULT", "forbidden-nodes")
    r = run_cli("simulate", "--kube", "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert ("prio: note: kubectl get nodes -o json: forbidden: your credentials may not read this (prio needs get on it): "
            'Error from server (Forbidden): nodes is forbidden: User "jane"') in r.stderr
    assert "without the nodes the cluster is one pool" in r.stderr
    assert not any("node" in s for s in _json(r)["steps"])
    r = run_cli("preempt", "--kube")
    assert r.exit_code == 2 and "neither nodes nor a capacity" in r.stderr


def test_why_ask_for_a_pod_by_name(kube):
    r = run_cli("explain", "--kube", "--why-ask", "hotfix-build")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("hotfix-build (application hotfix-1187, priority 4000, queue root.tenants.tenant-b.child-b-2)")


def test_kubectl_prio_why_says_what_the_docs_show(kube):
    """docs/kubectl.md's example: `kubectl prio why POD` for a node cause (no room, the cordoned
    node named), a node too small, and a user's limit; each line as the page shows it."""
    from prio.cli.kubectl_plugin import prio_args

    with open(os.path.join(ROOT, "docs", "kubectl.md"), encoding="utf-8") as fh:
        block = fh.read().split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    commands, shown = block[::2], block[1::2]
    assert [c.split()[:3] for c in commands] == [["kubectl", "prio", "why"]] * 3
    for command, line in zip(commands, shown):
        r = run_cli(*prio_args(command.split()[2:]))
        assert r.exit_code == 0, r.stderr
        assert r.stdout.splitlines()[0] == line
    assert "gpu-2 has room but is unschedulable" in shown[0] and "larger than every node" in shown[1]


def test_snapshot_of_the_cluster_explains_offline_alike(kube, tmp_path, monkeypatch):
    """Nodes with what other schedulers' pods take (`occupied`), the running pods on their nodes,
    users and groups, and the cordoned node's `schedulable: false` all go into the file."""
    out = tmp_path / "incident.yaml"
    r = run_cli("snapshot", "--kube", "--output-file", str(out))
    assert r.exit_code == 0, r.stderr
    assert "4 nodes" in r.stderr and "1 running allocation" in r.stderr
    text = out.read_text()
    assert "  occupied: {vcore: 2100m, memory: 2336227328, pods: 2}" in text  # worker-3: node-exporter and ingress
    assert "  user: alice\n  groups: [data-eng]\n" in text and "  user: nobody\n" in text
    assert "name: gpu-2" in text and "schedulable: false" in text
    for command in ("explain", "simulate", "preempt"):
        assert _json(run_cli(command, str(out), "-o", "json")) == _json(run_cli(command, "--kube", "-o", "json")), command


def test_the_page_says_what_a_snapshot_of_a_cordoned_node_holds():
    # docs/kubectl.md once said a cordoned node was written as schedulable, after the snapshot
    # format had carried `schedulable: false` (the test above).
    with open(os.path.join(ROOT, "docs", "kubectl.md"), encoding="utf-8") as fh:
        page = " ".join(fh.read().split())
    assert "as schedulable" not in page
    assert "`schedulable: false` for a cordoned one" in page


def test_snapshot_keeps_the_users_of_the_pods(kube, tmp_path):
    out = tmp_path / "incident.yaml"
    assert run_cli("snapshot", "--kube", "--output-file", str(out)).exit_code == 0
    import yaml

    apps = {a["id"]: a for a in list(yaml.safe_load_all(out.read_text()))[1]["applications"]}
    assert (apps["hotfix-1187"]["user"], apps["hotfix-1187"]["groups"]) == ("dave", ["release", "dev"])
    assert apps["metrics-agent"]["user"] == "nobody" and "groups" not in apps["metrics-agent"]  # no user.info: the shim's default
    assert [(a["id"], a["node"], a.get("originator")) for a in apps["spark-etl-0001"]["allocations"]] == [("spark-etl-driver", "worker-1", True)]


def test_diff_live_is_the_clusters_config_on_its_pods(kube, tmp_path):
    new = tmp_path / "new.yaml"
    new.write_text(open(os.path.join(ROOT, "samples", "walkthrough-queues.yaml")).read().replace(
        'priority.offset: "10"', 'priority.offset: "-10"'))
    r = run_cli("diff", "live", str(new), "--kube", "-o", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert any(q["queue"] == "root.tenants.tenant-a" for q in d["queues"])
    assert not any("get configmap" in line for line in kube()[3:])  # read once
    r = run_cli("diff", str(new), str(new), "--kube", "-o", "json")  # two files: the cluster's work only
    assert r.exit_code == 0, r.stderr
    assert not any("get configmap" in line for line in kube()[3:])


def test_a_kubectl_json_configmap_is_not_told_to_use_a_literal_block(kube, tmp_path):
    # JSON has no literal block (|): PRIO007's fix cannot be applied to `kubectl get -o json`,
    # and `diff live new.yaml` reported its disappearance as a change of findings.
    r = run_cli("validate", os.path.join(ROOT, "tests", "fixtures", "kube-cluster", "configmaps.json"), "-o", "json")
    assert "PRIO007" not in {f["rule"] for f in json.loads(r.stdout)["findings"]}


def test_diff_live_against_the_same_config_as_a_file_finds_no_change_of_findings(kube, tmp_path):
    new = tmp_path / "new.yaml"
    new.write_text(json.loads(open(os.path.join(ROOT, "tests", "fixtures", "kube-cluster", "configmaps.json")).read())
                   ["items"][0]["data"]["queues.yaml"])
    d = json.loads(run_cli("diff", "live", str(new), "--kube", "-o", "json").stdout)
    assert not [f for f in d["findings"]["added"] + d["findings"]["removed"] if f["rule"] == "PRIO007"], d["findings"]


@pytest.mark.parametrize("fault,env,words", [
    ("no kubectl", {"PATH": "/nonexistent"}, "kubectl is not on PATH"),
    ("no context", {"FAKE_KUBECTL_FAULT": "nocontext"}, "kubectl has no current context: give --context NAME"),
    ("forbidden", {"FAKE_KUBECTL_FAULT": "forbidden"}, 'forbidden: your credentials may not read this (prio needs get on it): Error from server (Forbidden): pods is forbidden: User "jane"'),
    ("unreachable", {"FAKE_KUBECTL_FAULT": "unreachable"}, "the API server cannot be reached: The connection to the server 10.0.0.1:6443 was refused"),
    ("not JSON", {"FAKE_KUBECTL_FAULT": "notjson"}, "kubectl's output is not JSON"),
    ("deadline", {"FAKE_KUBECTL_FAULT": "slow", "PRIO_KUBECTL_TIMEOUT": "0.5"}, "kubectl did not answer within 0.5 seconds"),
])
def test_faults_are_one_line(kube, monkeypatch, fault, env, words):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    r = run_cli("simulate", "--kube")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("prio: ") and words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("env,words", [
    ({"PRIO_MAX_ASKS": "17"}, "kubectl get pods --all-namespaces --field-selector status.phase!=Succeeded,status.phase!=Failed "
                              "-o json: 18 pods, more than prio reads (17); PRIO_MAX_ASKS=N raises the cap"),
    ({"PRIO_MAX_OBJECTS": "3"}, "kubectl get nodes -o json: 4 nodes, more than prio reads (3); PRIO_MAX_OBJECTS=N raises the cap"),
    ({"PRIO_MAX_OBJECTS": "5"}, "kubectl get priorityclasses -o json: 6 PriorityClasses, more than prio reads (5)"),
    ({"PRIO_MAX_INPUT_BYTES": "1000"}, "kubectl printed more than 1000 bytes; prio reads at most that much; "
                                       "PRIO_MAX_INPUT_BYTES=N raises the cap"),
])
def test_the_clusters_answers_are_counted_before_a_model_is_built(kube, monkeypatch, env, words):
    """issue 43, item 1: a pod list is bounded by its count, not only by kubectl's output size;
    each answer is counted as it comes, named by the command that gave it, exit 2."""
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    r = run_cli("simulate", "--kube")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("prio: ") and words in r.stderr, r.stderr
    for k in env:
        monkeypatch.delenv(k)
    monkeypatch.setenv("PRIO_MAX_ASKS", "18")
    monkeypatch.setenv("PRIO_MAX_OBJECTS", "6")
    assert run_cli("simulate", "--kube").exit_code == 0


def test_the_asks_cap_counts_the_clusters_pods_with_the_files_given(kube, monkeypatch, tmp_path):
    f = tmp_path / "more.json"
    f.write_text(json.dumps({"applications": [{"id": "extra", "queue": "root.default", "asks": [{"priority": 1}]}]}))
    monkeypatch.setenv("PRIO_MAX_ASKS", "18")
    r = run_cli("simulate", "--kube", str(f))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "<kube pods>: 19 pods in total with the 1 of the inputs before it, more than prio reads (18)" in r.stderr, r.stderr


@pytest.mark.parametrize("change,words", [
    (lambda n: n.pop("status"), "node gpu-1: no status.allocatable, so what the node offers is unknown"),
    (lambda n: n["spec"].update(unschedulable="yes"), "node gpu-1: spec.unschedulable must be true or false, found 'yes'"),
    (lambda n: n["status"]["allocatable"].update(cpu="7.9 cores"), "invalid quantity '7.9 cores'"),
])
def test_a_node_prio_cannot_read_is_one_line(kube, tmp_path, monkeypatch, change, words):
    with open(os.path.join(FIX, "nodes.json"), encoding="utf-8") as fh:
        nodes = json.load(fh)
    change(nodes["items"][0])
    (tmp_path / "nodes.json").write_text(json.dumps(nodes, indent=4))
    monkeypatch.setenv("FAKE_KUBECTL_NODES", str(tmp_path / "nodes.json"))
    r = run_cli("simulate", "--kube")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("prio: <kube nodes>") and words in r.stderr, r.stderr


def test_an_unknown_context_and_another_namespace(kube):
    r = run_cli("explain", "--kube", "--context", "staging")
    assert r.exit_code == 2 and 'no such context in your kubeconfig' in r.stderr and 'context "staging" does not exist' in r.stderr
    r = run_cli("diff", "--kube", "--yunikorn-namespace", "scheduling", "live", os.path.join(ROOT, "samples", "walkthrough-queues.yaml"))
    assert r.exit_code == 2 and "ConfigMap in namespace scheduling" in r.stderr  # diff's live needs the ConfigMap
    r = run_cli("explain", "--kube", "--namespace", "scheduling")  # the old spelling: still works, said renamed
    assert r.exit_code == 0 and "--namespace is now --yunikorn-namespace" in r.stderr
    assert "ConfigMap in namespace scheduling: taken as YuniKorn's built-in default config" in r.stderr


def test_without_yunikorns_configmaps_the_built_in_default_config_places_the_pods(kube, monkeypatch):
    """No yunikorn-configs or yunikorn-defaults ConfigMap: the shim runs the core's built-in
    config, one `tag namespace` rule that creates the queue, so every pod lands in
    root.<namespace> whatever its queue label."""
    monkeypatch.setenv("FAKE_KUBECTL_NO_CONFIGMAP", "1")
    r = run_cli("explain", "--kube", "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert "built-in default config" in r.stderr
    queues = {a["queue"] for a in json.loads(r.stdout)["asks"]}
    assert queues == {"root.team-a", "root.team-b", "root.ops", "root.monitoring", "root.web"}  # the pods' namespaces


def test_kubectl_prio_why_takes_the_pods_namespace_as_kubectl_does(kube):
    from prio.cli.kubectl_plugin import prio_args

    for args in (["why", "spark-etl-exec-2", "-n", "team-a"], ["why", "-n", "team-a", "spark-etl-exec-2"],
                 ["why", "team-a/spark-etl-exec-2"], ["why", "spark-etl-exec-2", "--namespace=team-a"], ["why", "-nteam-a", "spark-etl-exec-2"]):
        assert prio_args(args) == ["explain", "--kube", "--why-ask", "team-a/spark-etl-exec-2"], args
        r = run_cli(*prio_args(args))
        assert r.exit_code == 0, r.stderr
        assert r.stdout.startswith("spark-etl-exec-2 (application spark-etl-0001"), r.stdout
    r = run_cli(*prio_args(["why", "spark-etl-exec-2", "-n", "elsewhere"]))
    assert r.exit_code == 2 and "no pending ask 'elsewhere/spark-etl-exec-2'" in r.stderr


def test_kubectl_prio_why_of_a_running_pod_says_where_it_runs(kube):
    from prio.cli.kubectl_plugin import prio_args

    r = run_cli(*prio_args(["why", "spark-etl-driver", "-n", "team-a"]))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("spark-etl-driver (application spark-etl-0001, priority 2000, queue root.tenants.tenant-a.child-a-1) "
                               "is running on worker-1 since 2024-05-01T10:00:00Z"), r.stdout
    r = run_cli(*prio_args(["why", "team-a/spark-etl-driver", "-o", "json"]))
    assert json.loads(r.stdout)["running"] is True


def test_kubectl_prio_help_lists_why_and_why_has_its_own_help():
    r = subprocess.run([sys.executable, "-c", "import sys; sys.argv=['kubectl-prio', *sys.argv[1:]]; "
                        "from prio.cli.kubectl_plugin import main; main()", "--help"],
                       capture_output=True, text=True, env=prio_env(), timeout=60)
    assert r.returncode == 0 and "why POD [-n NAMESPACE]" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-c", "import sys; sys.argv=['kubectl-prio', *sys.argv[1:]]; "
                        "from prio.cli.kubectl_plugin import main; main()", "why", "--help"],
                       capture_output=True, text=True, env=prio_env(), timeout=60)
    assert r.returncode == 0 and r.stdout.startswith("Usage: kubectl prio why POD [-n NAMESPACE]"), r.stdout + r.stderr


def test_kube_options_combine_only_as_they_mean(kube):
    r = run_cli("explain", "--kube", "--yunikorn", "http://127.0.0.1:9")
    assert r.exit_code == 2 and "not both" in r.stderr
    r = run_cli("explain", "--kube", "--sample", "batch")
    assert r.exit_code == 2 and "not both" in r.stderr
    r = run_cli("explain", "--context", "prod")
    assert r.exit_code == 2 and "--context: goes with --kube" in r.stderr
    assert kube() == []  # nothing was run


def test_a_token_in_kubectls_message_is_not_repeated():
    from prio.io.kubectl import _fault

    line = _fault("error: You must be logged in to the server (Unauthorized): Bearer abc.def.ghi rejected\n", 1)
    assert "abc.def.ghi" not in line and "Bearer ***" in line and line.startswith("the API server refused your credentials")


@pytest.mark.parametrize("args,want", [
    (["why", "sim-1"], ["explain", "--kube", "--why-ask", "sim-1"]),
    (["why", "sim-1", "--context", "prod"], ["explain", "--kube", "--why-ask", "sim-1", "--context", "prod"]),
    (["why", "sim-1", "-n", "batch", "--behind", "sim-2"], ["explain", "--kube", "--why-ask", "batch/sim-1", "--behind", "sim-2"]),
    (["simulate", "-o", "json"], ["simulate", "--kube", "-o", "json"]),
    (["diff", "live", "new.yaml"], ["diff", "--kube", "live", "new.yaml"]),
    (["explain", "--sample", "batch"], ["explain", "--sample", "batch"]),
    (["explain", "--yunikorn=http://localhost:9080"], ["explain", "--yunikorn=http://localhost:9080"]),
    (["simulate", "--help"], ["simulate", "--help"]),
    (["validate", "queues.yaml"], ["validate", "queues.yaml"]),
    (["--version"], ["--version"]),
    ([], []),
])
def test_kubectl_prio_stands_for_prio_with_the_cluster(args, want):
    from prio.cli.kubectl_plugin import prio_args

    assert prio_args(args) == want
