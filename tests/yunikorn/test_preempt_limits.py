"""prio preempt with user and group limits: YuniKorn checks the user's headroom before anything
else, and never tries preemption for an ask over it (Application.tryAllocate)."""
import json
import os

from conftest import ROOT, run_cli


def _sample(tmp_path, limits: str):
    q = open(os.path.join(ROOT, "samples", "preemption-queues.yaml")).read()
    q = q.replace("          - name: prod               # guaranteed resources: only queues with a guarantee on\n",
                  "          - name: prod               # guaranteed resources: only queues with a guarantee on\n" + limits)
    f = tmp_path / "q.yaml"
    f.write_text(q)
    return str(f), os.path.join(ROOT, "samples", "preemption-asks.yaml")


def _outcomes(tmp_path, limits):
    r = run_cli("preempt", *_sample(tmp_path, limits), "-o", "json")
    assert r.exit_code == 0, r.stderr
    return {k: (v["outcome"], v["reason"], v["victims"]) for k, v in json.loads(r.stdout)["asks"].items()}


def test_an_ask_over_its_users_limit_preempts_nothing(tmp_path):
    free = _outcomes(tmp_path, "")
    assert free["checkout-0"][0] == "preempted" and free["checkout-0"][2]
    held = _outcomes(tmp_path, "            limits: [{limit: each, users: ['*'], maxresources: {vcore: 2}}]\n")
    assert held["checkout-0"] == ("not placed", "Not enough user quota", [])
    roomy = _outcomes(tmp_path, "            limits: [{limit: each, users: ['*'], maxresources: {vcore: 8}}]\n")
    assert roomy["checkout-0"] == free["checkout-0"]
