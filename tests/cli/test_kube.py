"""--kube and `kubectl prio` (issue 32): the cluster of the kubeconfig read through the user's own
kubectl, here a stand-in on PATH (tests/fixtures/kube-cluster/fake_kubectl.py) serving recorded
`kubectl get ... -o json` answers made from the samples' ConfigMap, pods and PriorityClasses.
The same answers as the files they hold; only `get` is ever run; every fault is one line, exit 2."""
from __future__ import annotations

import json
import os
import stat
import sys

import pytest

from conftest import ROOT, TESTS, run_cli

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


FILES = (os.path.join(FIX, "configmaps.json"), os.path.join(FIX, "pods.json"), os.path.join(FIX, "priorityclasses.json"))


def _json(r):
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("command", ["explain", "simulate"])
def test_the_cluster_gives_what_its_objects_as_files_give(kube, command):
    assert _json(run_cli(command, "--kube", "-o", "json")) == _json(run_cli(command, *FILES, "-o", "json"))


def test_preempt_needs_nodes_which_kube_does_not_read_yet(kube):
    """Nodes are not read from the cluster yet (docs/kubectl.md): preempt says what it lacks, as
    for a pod-list file."""
    r = run_cli("preempt", "--kube")
    assert r.exit_code == 2 and "neither nodes nor a capacity" in r.stderr
    assert r.stderr == run_cli("preempt", *FILES).stderr.replace(FILES[1], "<kube pods>")


def test_only_get_is_run_with_the_context_and_namespace_asked_for(kube):
    assert run_cli("explain", "--kube", "--context", "prod", "-o", "json").exit_code == 0
    ran = kube()
    assert len(ran) == 3 and all(line.startswith("--context prod get ") for line in ran)
    assert "get configmap yunikorn-configs yunikorn-defaults -n yunikorn --ignore-not-found -o json" in ran[0]
    assert "get pods --all-namespaces --field-selector spec.schedulerName=yunikorn -o json" in ran[1]
    assert ran[2].endswith("get priorityclasses -o json")


def test_why_ask_for_a_pod_by_name(kube):
    r = run_cli("explain", "--kube", "--why-ask", "hotfix-build")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("hotfix-build (application hotfix-1187, priority 4000, queue root.tenants.tenant-b.child-b-2)")


def test_snapshot_of_the_cluster_explains_offline_alike(kube, tmp_path):
    out = tmp_path / "incident.yaml"
    assert run_cli("snapshot", "--kube", "--output-file", str(out)).exit_code == 0
    assert _json(run_cli("explain", str(out), "-o", "json")) == _json(run_cli("explain", "--kube", "-o", "json"))


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


@pytest.mark.parametrize("fault,env,words", [
    ("no kubectl", {"PATH": "/nonexistent"}, "kubectl is not on PATH"),
    ("no context", {"FAKE_KUBECTL_FAULT": "nocontext"}, "kubectl has no current context: give --context NAME"),
    ("forbidden", {"FAKE_KUBECTL_FAULT": "forbidden"}, 'forbidden: your credentials may not read this (prio needs get on it): Error from server (Forbidden): pods is forbidden: User "jane"'),
    ("unreachable", {"FAKE_KUBECTL_FAULT": "unreachable"}, "the API server cannot be reached: The connection to the server 10.0.0.1:6443 was refused"),
    ("no ConfigMap", {"FAKE_KUBECTL_NO_CONFIGMAP": "1"}, "no yunikorn-configs or yunikorn-defaults ConfigMap in namespace yunikorn"),
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


def test_an_unknown_context_and_another_namespace(kube):
    r = run_cli("explain", "--kube", "--context", "staging")
    assert r.exit_code == 2 and 'no such context in your kubeconfig' in r.stderr and 'context "staging" does not exist' in r.stderr
    r = run_cli("explain", "--kube", "--namespace", "scheduling")
    assert r.exit_code == 2 and "ConfigMap in namespace scheduling" in r.stderr


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
