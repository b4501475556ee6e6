"""prio installed from a built wheel, run as a real process from another directory."""
import json
import os
import subprocess
import sys
import sysconfig

import pytest

from conftest import ROOT, sample

pytestmark = pytest.mark.slow  # builds, installs or runs subprocesses: outside the inner loop


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "--no-build-isolation", "-q", "-w", str(dist)],
                   check=True, capture_output=True)
    wheel = next(dist.glob("prio_scheduling-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "-q", str(wheel)], check=True, capture_output=True)
    # The runtime dependencies come from this environment, so the test needs no network.
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(purelib, "zz_deps.pth"), "w") as fh:
        fh.write(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin" / "prio", tmp


def run(prio, cwd, *args, stdin=None):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PRIO_OUTPUT")}
    return subprocess.run([str(prio), *args], cwd=cwd, capture_output=True, text=True, input=stdin, env=env, timeout=120)


def test_wheel_runs_the_walkthrough_from_anywhere(installed):
    prio, tmp = installed
    r = run(prio, tmp, "simulate", "-o", "json")
    assert r.returncode == 0, r.stderr
    steps = json.loads(r.stdout)["steps"]
    assert len(steps) == 11 and steps[0]["queue"] == "root.system.system-high"
    assert run(prio, tmp, "--version").stdout.startswith("prio ")


def test_wheel_ships_schema_and_samples(installed):
    prio, tmp = installed
    r = run(prio, tmp, "validate", "-o", "json", sample("mistakes.yaml"))
    assert r.returncode == 1
    assert json.loads(r.stdout)["summary"]["errors"] > 0
    r = run(prio, tmp, "explain", "--sample", "walkthrough", "-o", "plain")
    assert r.returncode == 0 and "tenant-a" in r.stdout
    r = run(prio, tmp, "validate", "-", stdin="partitions: [{name: default, queues: [{name: root}]}]\n")
    assert r.returncode == 0, r.stderr


def test_wheel_ships_the_report_page(installed):
    """-o html reads its stylesheet and script from the installed package."""
    prio, tmp = installed
    r = run(prio, tmp, "simulate", "--output-file", "report.html")
    assert r.returncode == 0, r.stderr
    page = (tmp / "report.html").read_text()
    assert "prio report: built in" in page and ".ti > .row" in page


def _stand_in_kubectl(tmp):
    """A directory holding the stand-in kubectl of tests/cli/test_kube.py."""
    import stat

    bindir = tmp / "fake-kubectl"
    bindir.mkdir(exist_ok=True)
    exe = bindir / "kubectl"
    fake = os.path.join(ROOT, "tests", "fixtures", "kube-cluster", "fake_kubectl.py")
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {fake} \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return bindir


def test_wheel_installs_the_kubectl_plugin(installed):
    """kubectl-prio from the wheel: `kubectl prio why POD` and `kubectl prio simulate` read the
    cluster through the kubectl on PATH (the stand-in), from any directory."""
    prio, tmp = installed
    plugin = prio.parent / "kubectl-prio"
    assert plugin.exists()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PRIO_OUTPUT")}
    env["PATH"] = f"{_stand_in_kubectl(tmp)}{os.pathsep}{env['PATH']}"
    r = subprocess.run([str(plugin), "why", "hotfix-build", "--context", "prod"], cwd=tmp, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("hotfix-build (application hotfix-1187")
    r = subprocess.run([str(plugin), "simulate", "-o", "json"], cwd=tmp, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    steps = json.loads(r.stdout)["steps"]
    # the cluster's nodes, in the core's order (tests/cli/test_kube.py: worker-3 keeps its place though
    # other schedulers' pods run there, and sim-0 holds gpu-1's reservation)
    assert len(steps) == 6 and {s["node"] for s in steps} == {"gpu-1", "worker-3"}
    r = subprocess.run([str(plugin), "--version"], cwd=tmp, capture_output=True, text=True, env=env, timeout=120)
    assert r.stdout.startswith("prio ")


def test_real_kubectl_runs_the_plugin(installed):
    """Where a real kubectl is installed, `kubectl prio` finds the wheel's kubectl-prio on PATH
    (kubectl's plugin mechanism); the plugin's own `kubectl get` goes to the stand-in."""
    import shutil

    real = shutil.which("kubectl")
    if real is None:
        pytest.skip("no kubectl installed")
    prio, tmp = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PRIO_OUTPUT")}
    env["PATH"] = os.pathsep.join([str(_stand_in_kubectl(tmp)), str(prio.parent), env["PATH"]])
    r = subprocess.run([real, "prio", "why", "sim-1"], cwd=tmp, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("sim-1 (application montecarlo-42")


def test_wheel_ships_the_kueue_crd_schemas(installed):
    """Kueue's vendored CRD schemas (prio/kueue/crds/, with their manifest and licence) are read
    from the installed package: a field the CRD does not define is PRIO610."""
    prio, tmp = installed
    (tmp / "cq.yaml").write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\n"
                                 "spec: {namespaceSelector: {}, cohort: org}\n")
    r = run(prio, tmp, "validate", "--no-config", "-o", "json", "cq.yaml")
    assert r.returncode == 1, r.stderr
    assert [f["rule"] for f in json.loads(r.stdout)["findings"]] == ["PRIO610"]
    import glob

    site = glob.glob(str(tmp / "venv" / "lib" / "python*" / "site-packages" / "prio" / "kueue" / "crds"))
    assert site and {"manifest.json", "LICENSE", "NOTICE", "clusterqueues.v1beta2.json"} <= set(os.listdir(site[0]))
