"""What `prio explain` says about Volcano objects: the config in force, the queue order and the
job order the configured plugins give at the first session (before anything is scheduled)."""
from __future__ import annotations

import functools

from prio.volcano.conf import Config
from prio.volcano.report import config_data
from prio.volcano.session import Job, Session


def resources_text(r: dict | None, empty: str = "-") -> str:
    """Volcano's resources as a person reads them: cpu in cores, memory in Gi, `pods` (the one
    every request carries) as a count, other resources in their own unit; an unbounded dimension
    (a capability of 0) says so."""
    parts = []
    r = r or {}
    for k in sorted(r):
        v = r[k]
        if v == float("inf"):
            parts.append(f"{k} unbounded")
        elif k == "memory":
            parts.append(f"memory {v / 2 ** 30:g}Gi")
        elif k == "pods":
            parts.append(f"pods {v:g}")
        else:
            parts.append(f"{k} {v / 1000:g}")
    return ", ".join(parts) or empty


def explain(cluster, cfg: Config) -> dict:
    ssn = Session(cluster, cfg)

    def queue_cmp(a: str, b: str) -> int:
        return -1 if ssn.queue_order(a, b) else (1 if ssn.queue_order(b, a) else 0)

    order = functools.cmp_to_key(queue_cmp)
    used = sorted({j.queue for j in ssn.jobs.values()}, key=order)
    queues = []
    for q in used:
        spec = ssn.queues[q]
        attr = ssn.qattr.get(q) or {}
        queues.append({"queue": q, "weight": spec.weight, "priority": spec.priority, "state": spec.state,
                       "deserved": resources_text(attr.get("deserved")), "allocated": resources_text(attr.get("allocated"))})

    def job_cmp(a: Job, b: Job) -> int:
        return -1 if ssn.job_order(a, b) else (1 if ssn.job_order(b, a) else 0)

    jorder = functools.cmp_to_key(job_cmp)
    jobs = []
    for q in used:
        for j in sorted((j for j in ssn.jobs.values() if j.queue == q), key=jorder):
            jobs.append({"podGroup": j.key, "queue": q, "priority": j.priority, "minMember": j.min_available,
                         "phase": j.group.phase, "pods": len(j.tasks)})
    missing = sorted(k for k in cluster.groups if k not in ssn.jobs)
    return {"model": "volcano", "config": config_data(cfg), "queues": queues, "jobs": jobs, "notInSession": missing}
