"""The check of ../shared/testdata/yunikorn-shim/pods/ as its README states it ("Checking prio"):
per pod, what prio's snapshot and explain make of a case's kubectl exports against what the
shim's own code sent the core and where the core placed each application.

`python tests/shim_pods.py [CASE...]` prints each disagreeing pod and the README's last line;
tests/loaders/test_shim_pods.py runs every case.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "shared", "testdata", "yunikorn-shim", "pods")


def cases() -> list:
    if not os.path.isdir(CORPUS):
        return []
    return sorted(n[: -len(".shim.json")] for n in os.listdir(CORPUS) if n.endswith(".shim.json"))


def _resources(res: dict | None) -> dict:
    """A snapshot's resources as the record writes them: vcore in millicores (the snapshot
    writes `500m` or whole cores), everything else whole units; zero amounts left out."""
    from prio.kube import quantity as kq

    out = {}
    for k, v in (res or {}).items():
        n = v if isinstance(v, int) and k != "vcore" else kq.as_sent("cpu" if k == "vcore" else k, v)[1]
        if n != 0:
            out[k] = n
    return out


def _seconds(t) -> int | None:
    from prio.yunikorn.load.reader import parse_time

    if t is None:
        return None
    s = parse_time(t)
    return None if s is None else int(s)


def _run(args: list, env: dict | None = None):
    from typer.testing import CliRunner

    from prio.cli.app import _register, app

    _register()
    return CliRunner(env=env).invoke(app, args)


def prio_view(case: str) -> dict:
    """What prio makes of a case: the snapshot document, explain's JSON, and the exit codes."""
    d = os.path.join(CORPUS, case)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "snap.yaml")
        snap = _run(["snapshot", d, "--output-file", out, "-o", "json"])
        docs = []
        if snap.exit_code == 0:
            with open(out) as f:
                docs = list(yaml.safe_load_all(f))
    explain = _run(["explain", d, "-o", "json"])
    ex = json.loads(explain.stdout) if explain.exit_code == 0 and explain.stdout.strip() else None
    return {"snapshotExit": snap.exit_code, "snapshotErr": snap.stderr, "work": next((d for d in reversed(docs) if isinstance(d, dict) and "partitions" not in d), None),
            "explainExit": explain.exit_code, "explainErr": explain.stderr, "explain": ex}


def _index(work: dict) -> tuple[dict, dict, dict]:
    """Asks and allocations of a snapshot by pod name (and namespace/name), with their app."""
    asks, allocs = {}, {}
    for app in work.get("applications") or ():
        for a in app.get("asks") or ():
            asks[a["id"]] = (a, app)
        for a in app.get("allocations") or ():
            allocs[a["id"]] = (a, app)
    nodes = {n["name"]: n for n in work.get("nodes") or ()}
    return asks, allocs, nodes


def _find(table: dict, pod: dict):
    return table.get(pod["name"]) or table.get(f"{pod['namespace']}/{pod['name']}")


def check(case: str) -> list:
    """Every disagreeing pod of a case: (pod, field, recorded, prio's)."""
    with open(os.path.join(CORPUS, case + ".shim.json")) as f:
        rec = json.load(f)
    view = prio_view(case)
    reported = [p for p in rec["pods"] if p["reported"] in ("ask", "allocation")]
    if view["work"] is None or view["explain"] is None:
        why = (view["snapshotErr"] or view["explainErr"]).strip().splitlines()
        return [(f"{p['namespace']}/{p['name']}", "read", p["reported"], why[-1] if why else "") for p in reported]
    work, ex = view["work"], view["explain"]
    asks, allocs, nodes = _index(work)
    apps = {a["applicationId"]: a for a in rec["applications"]}
    placed = {}  # application -> queue prio's explain gives its asks
    for a in ex.get("asks") or ():
        placed.setdefault(a["application"], a["queue"])
    rejected = {r["application"]: r for r in ex.get("rejected") or ()}
    any_ask_originator = any("originator" in a for a, _ in asks.values())
    bad = []
    foreign_on: dict = {}
    for p in rec["pods"]:
        who = f"{p['namespace']}/{p['name']}"
        got_ask, got_alloc = _find(asks, p), _find(allocs, p)
        kind = "ask" if got_ask else "allocation" if got_alloc else "none"
        want = p["reported"]
        if want == "foreign":
            for k, v in p["resources"].items():
                foreign_on.setdefault(p["node"], {}).setdefault(k, 0)
                foreign_on[p["node"]][k] += v
        if (want in ("none", "foreign") and kind != "none") or (want in ("ask", "allocation") and kind != want):
            bad.append((who, "reported", want, kind))
            continue
        if want not in ("ask", "allocation"):
            continue
        task, app = got_ask or got_alloc
        if app["id"] != p["applicationId"]:
            bad.append((who, "applicationId", p["applicationId"], app["id"]))
            continue
        rapp = apps.get(p["applicationId"], {})
        dependent = set(rapp.get("orderDependent") or ())
        if "user" not in dependent and app.get("user", "nobody") != rapp.get("user"):
            bad.append((who, "user", rapp.get("user"), app.get("user")))
        if "groups" not in dependent and list(app.get("groups") or []) != list(rapp.get("groups") or []):
            bad.append((who, "groups", rapp.get("groups"), app.get("groups")))
        core = rec["core"].get(p["applicationId"], {})
        if "queue" not in dependent:
            want_q = core.get("queue") or None
            if app["id"] in rejected:
                got_q = None
            elif app["id"] in placed:
                got_q = placed[app["id"]]
            else:
                got_q = app.get("queue")
            if core.get("rejected"):
                want_q = None
            if want_q != got_q and not (want_q is None and got_q is None):
                bad.append((who, "queue", core.get("queue") or f"rejected: {core.get('rejected')}", got_q or f"rejected: {rejected.get(app['id'], {}).get('reason')}"))
        if _resources(task.get("resources")) != {k: v for k, v in p["resources"].items() if v != 0}:
            bad.append((who, "resources", {k: v for k, v in p["resources"].items() if v != 0}, _resources(task.get("resources"))))
        if task.get("priority", 0) != p["priority"]:
            bad.append((who, "priority", p["priority"], task.get("priority", 0)))
        if p["createTime"] is not None and _seconds(task.get("createTime")) != p["createTime"]:
            bad.append((who, "createTime", p["createTime"], task.get("createTime")))
        if want == "ask":
            other = task.get("preemptionPolicy") != "Never"
            if other != p["allowPreemptOther"]:
                bad.append((who, "allowPreemptOther", p["allowPreemptOther"], other))
            if any_ask_originator and bool(task.get("originator", False)) != p["originator"]:
                bad.append((who, "originator", p["originator"], task.get("originator", False)))
        else:
            self_ = task.get("allowPreemption", True)
            if self_ != p["allowPreemptSelf"]:
                bad.append((who, "allowPreemptSelf", p["allowPreemptSelf"], self_))
            if bool(task.get("originator", False)) != p["originator"]:
                bad.append((who, "originator", p["originator"], task.get("originator", False)))
            if task.get("node") != p["node"]:
                bad.append((who, "node", p["node"], task.get("node")))
        for field, key in (("taskGroupName", "taskGroup"), ("placeholder", "placeholder"), ("requiredNode", "requiredNode")):
            if key in task or (key == "taskGroup" and "taskGroupName" in task):
                got = task.get(key, task.get("taskGroupName"))
                if (got or "") != (p[field] or "") and not (field == "placeholder" and bool(got) == bool(p[field])):
                    bad.append((who, field, p[field], got))
    for node, res in foreign_on.items():
        want = {k: v for k, v in res.items() if v != 0}
        got = _resources((nodes.get(node) or {}).get("occupied"))
        if want != got:
            bad.append((f"node {node}", "occupied", want, got))
    return bad


def main(argv: list) -> int:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cli"))
    names = argv or cases()
    total = good = 0
    for c in names:
        with open(os.path.join(CORPUS, c + ".shim.json")) as f:
            pods = [f"{p['namespace']}/{p['name']}" for p in json.load(f)["pods"]]
        bad = check(c)
        wrong = {b[0] for b in bad}
        total += len(pods)
        good += sum(1 for p in pods if p not in wrong)
        for b in bad:
            print(f"{c}: {b[0]}: {b[1]}: recorded {b[2]!r}, prio {b[3]!r}")
    print(f"pods read as YuniKorn's shim reads them: {good}/{total}")
    return 0 if good == total else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
