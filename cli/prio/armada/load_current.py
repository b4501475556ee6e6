"""Read an Armada scenario of the current scheduler (`model: armada`, `scheduler: current` or no
`scheduler`) into the model. Fields and job ids are those of
`../shared/testdata/armada-current/README.md`. What Armada itself refuses (a negative multiplier,
both resource lists, a job of an undefined priority class) and what prio cannot model is an
InputError naming the file, line and column; what Armada accepts but reads differently from what
it says (a priorityFactor <= 0, a considered resource the pool lacks) becomes a note, and
`prio validate` reports it as a warning."""
from __future__ import annotations

import difflib
import math
from decimal import ROUND_CEILING

from prio.armada.current.model import (
    DEFAULT_PRIORITY_CLASS,
    DEFAULT_PROTECTED_FRACTION,
    DEFAULT_RESOURCES_TO_CONSIDER,
    INT64_MAX,
    SCALE,
    Job,
    PriorityClass,
    Queue,
    Scenario,
)
from prio.armada.recognise import scheduler_of  # noqa: F401 - recognised by shape
from prio.io import caps
from prio.io.fields import Reader, kind_of_value
from prio.io.yamlnodes import Document

TOP_KEYS = ("model", "scheduler", "description", "totalResources", "resourcesToConsider",
            "resourcesToConsiderWithMultipliers", "protectedFractionOfFairShare", "preferLargeJobOrdering",
            "priorityClasses", "queues", "running", "jobs")
LEGACY_KEYS = ("priorityHalfTime", "priorityHalftime", "capacity", "usage", "offer", "seed", "rounds",
               "roundInterval", "cluster", "scheduling", "resourceScarcity")
CLASS_KEYS = ("priority", "preemptible", "maximumResourceFractionPerQueue")
QUEUE_KEYS = ("name", "priorityFactor")
JOB_KEYS = ("queue", "requests", "priorityClass", "count")
MULTIPLIER_KEYS = ("name", "multiplier")
INT32 = (-2**31, 2**31 - 1)

# Armada's shipped config (config/scheduler/config.yaml) when the scenario gives no classes.
DEFAULT_CLASSES = {
    "armada-default": PriorityClass("armada-default", 1000, False, {"memory": 1.0, "cpu": 1.0}),
    "armada-preemptible": PriorityClass("armada-preemptible", 1000, True, None),
}


def to_units(r: Reader, path: tuple, name: str, value) -> int:
    """A Kubernetes quantity as Armada stores it: an integer at the resource's resolution,
    rounded up (Quantity.ScaledValue)."""
    from prio.kube import quantity as kq

    if isinstance(value, bool) or value is None or not isinstance(value, (int, float, str)):
        r.fail(path, f"expected a quantity such as \"4\", \"500m\" or \"20Gi\", found {kind_of_value(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        r.fail(path, f"expected a finite quantity, found {value!r}")
    try:
        d = kq.parse(value)
    except kq.QuantityError as e:
        r.fail(path, str(e))
    if d < 0:
        r.fail(path, f"a resource amount cannot be negative, found {value!r}")
    v = int((d * SCALE.get(name, 1)).to_integral_value(rounding=ROUND_CEILING))
    if v > INT64_MAX:
        r.fail(path, f"{value!r} does not fit Armada's int64 resource amounts")
    return v


def _resource_map(r: Reader, path: tuple, value) -> dict:
    data = r.mapping(path, value)
    return {str(k): to_units(r, path + (k,), str(k), v) for k, v in data.items()}


def build(file: str, doc: Document, manifests: list | None = None) -> Scenario:
    r = Reader(file, doc, name_path="always")
    r.check_issues()
    data = doc.data
    for key in data:
        if key in LEGACY_KEYS:
            r.fail((key,), "belongs to Armada's legacy usage-decay model: add `scheduler: legacy` to the "
                           "scenario (or pass --armada-model legacy); the current scheduler has no decay", at="key")
    r.keys((), data, TOP_KEYS)
    notes: list = []

    if "totalResources" not in data or data["totalResources"] is None:
        r.fail((), "missing totalResources: the pool's total resources (Kubernetes quantities), "
                   "e.g. totalResources: {cpu: \"100\", memory: 400Gi}")
    total_map = _resource_map(r, ("totalResources",), data["totalResources"])

    # resources to consider
    has_plain = data.get("resourcesToConsider") is not None
    has_mult = data.get("resourcesToConsiderWithMultipliers") is not None
    if has_plain and has_mult:
        r.fail(("resourcesToConsiderWithMultipliers",), "give only one of resourcesToConsider and "
               "resourcesToConsiderWithMultipliers (Armada refuses the config: \"only one of "
               "DominantResourceFairnessResourcesToConsider and ExperimentalDominantResourceFairnessResourcesToConsider "
               "should be set\")", at="key")
    considered: list = []
    if has_mult:
        path = ("resourcesToConsiderWithMultipliers",)
        for i, item in enumerate(r.sequence(path, data[path[0]])):
            e = r.mapping(path + (i,), item)
            r.keys(path + (i,), e, MULTIPLIER_KEYS)
            name = r.string(path + (i, "name"), e.get("name"))
            m = 0.0
            if e.get("multiplier") is not None:
                m = r.number(path + (i, "multiplier"), e["multiplier"])
                if m < 0:
                    r.fail(path + (i, "multiplier"), f"negative multiplier {e['multiplier']!r} for {name}: Armada "
                           "refuses the config (\"ExperimentalDominantResourceFairnessResourcesToConsider has "
                           "negative multiplier\")")
            considered.append((name, m if m > 0 else 1.0))  # defaultMultiplier: 0 or absent means 1
        if not considered:
            r.fail(path, "an empty list: Armada refuses a config that considers no resource")
    elif has_plain:
        path = ("resourcesToConsider",)
        for i, item in enumerate(r.sequence(path, data[path[0]])):
            considered.append((r.string(path + (i,), item), 1.0))
        if not considered:
            r.fail(path, "an empty list: Armada refuses a config that considers no resource")
    else:
        considered = [(n, 1.0) for n in DEFAULT_RESOURCES_TO_CONSIDER]
        notes.append("no resourcesToConsider: Armada's default config, " + ", ".join(DEFAULT_RESOURCES_TO_CONSIDER))
    for name, _ in considered:
        if name not in total_map:
            notes.append(f"{name} is considered for fairness but the pool has none of it (not in totalResources): "
                         "it counts for nothing")

    protected = DEFAULT_PROTECTED_FRACTION
    if data.get("protectedFractionOfFairShare") is not None:
        protected = r.number(("protectedFractionOfFairShare",), data["protectedFractionOfFairShare"])
    prefer_large = False
    if data.get("preferLargeJobOrdering") is not None:
        prefer_large = r.boolean(("preferLargeJobOrdering",), data["preferLargeJobOrdering"])

    classes = _classes(r, data)
    if classes is None:
        classes = dict(DEFAULT_CLASSES)

    queues = _queues(r, data)
    names = {q.name for q in queues}
    for q in queues:
        if q.priority_factor is not None and q.priority_factor <= 0:
            notes.append(f"queue {q.name}: priorityFactor {q.priority_factor:g} counts as unset: weight 1")

    # The resource vector: the pool's resources, then any other a job requests (total 0).
    raw_running = _entries(r, data, "running", names, classes)
    raw_jobs = _entries(r, data, "jobs", names, classes)
    resources = list(total_map)
    for _, _, req, _, _ in raw_running + raw_jobs:
        for k in req:
            if k not in resources:
                resources.append(k)
                notes.append(f"jobs request {k}, which the pool does not have (not in totalResources): they never fit")
    resources = tuple(resources)
    total = tuple(total_map.get(k, 0) for k in resources)
    mult_by_name = {}
    for name, m in considered:
        mult_by_name[name] = m  # a name listed twice: the last wins, as maps.FromSlice does
    multipliers = tuple(mult_by_name.get(k, 0.0) for k in resources)

    n_jobs = sum(e[-1] for e in raw_running) + sum(e[-1] for e in raw_jobs)
    if n_jobs > caps.JOBS.value():  # the total, before a job is made
        r.fail((), caps.JOBS.exceeded(n_jobs, "in total with the counts expanded"))
    running = _expand(raw_running, "r", True, resources)
    jobs = _expand(raw_jobs, "j", False, resources)
    return Scenario(resources, total, multipliers, tuple(considered), protected, prefer_large, classes, queues,
                    running, jobs, notes)


def _classes(r: Reader, data: dict) -> dict | None:
    if data.get("priorityClasses") is None:
        return None
    out = {}
    block = r.mapping(("priorityClasses",), data["priorityClasses"])
    for name, spec in block.items():
        path = ("priorityClasses", name)
        s = r.mapping(path, spec)
        r.keys(path, s, CLASS_KEYS)
        if s.get("priority") is None:
            r.fail(path, f"priority class {name} needs a priority (a whole number)")
        prio = r.integer(path + ("priority",), s["priority"], *INT32)
        pre = r.boolean(path + ("preemptible",), s["preemptible"]) if s.get("preemptible") is not None else False
        frac = None
        if s.get("maximumResourceFractionPerQueue") is not None:
            frac = r.fractions(path + ("maximumResourceFractionPerQueue",), s["maximumResourceFractionPerQueue"])
        out[str(name)] = PriorityClass(str(name), prio, pre, frac)
    if not out:
        r.fail(("priorityClasses",), "no priority classes: every job needs one")
    return out


def _queues(r: Reader, data: dict) -> list:
    if data.get("queues") is None:
        r.fail((), "no queues: list them under queues: ({name, priorityFactor?})")
    out, seen = [], set()
    for i, item in enumerate(r.sequence(("queues",), data["queues"])):
        path = ("queues", i)
        e = r.mapping(path, item)
        r.keys(path, e, QUEUE_KEYS)
        if "name" not in e:
            r.fail(path, "a queue needs a name")
        name = r.string(path + ("name",), e["name"])
        if name in seen:
            r.fail(path + ("name",), f"queue {name} is listed twice")
        seen.add(name)
        pf = r.number(path + ("priorityFactor",), e["priorityFactor"]) if e.get("priorityFactor") is not None else None
        out.append(Queue(name, pf))
    if not out:
        r.fail(("queues",), "no queues: list at least one")
    return out


def _entries(r: Reader, data: dict, key: str, names: set, classes: dict) -> list:
    """[(index, queue, requests, priority class, count)] of `running` or `jobs`."""
    if data.get(key) is None:
        return []
    out = []
    for i, item in enumerate(r.sequence((key,), data[key])):
        path = (key, i)
        e = r.mapping(path, item)
        r.keys(path, e, JOB_KEYS)
        if "queue" not in e:
            r.fail(path, f"a {key} entry needs a queue")
        queue = r.string(path + ("queue",), e["queue"])
        if queue not in names:
            close = difflib.get_close_matches(queue, sorted(names), n=1)
            r.fail(path + ("queue",), f"unknown queue {queue!r}" + (f"; did you mean {close[0]!r}?" if close else
                                                                     "; list it under queues:"))
        if e.get("requests") is None:
            r.fail(path, f"a {key} entry needs requests (the resources one job asks for)")
        req = _resource_map(r, path + ("requests",), e["requests"])
        pc = DEFAULT_PRIORITY_CLASS
        if e.get("priorityClass") is not None:
            pc = r.string(path + ("priorityClass",), e["priorityClass"])
        if pc not in classes:
            close = difflib.get_close_matches(pc, sorted(classes), n=1)
            where = path + ("priorityClass",) if e.get("priorityClass") is not None else path
            r.fail(where, f"priority class {pc!r} is not defined" + (f"; did you mean {close[0]!r}?" if close else
                   f"; defined: {', '.join(sorted(classes))}") + " (Armada refuses a job of an unknown class)")
        count = r.integer(path + ("count",), e["count"], 0, caps.JOBS.value()) if e.get("count") is not None else 1
        out.append((i, queue, req, pc, count))
    return out


def _expand(entries: list, prefix: str, running: bool, resources: tuple) -> list:
    out = []
    for i, queue, req, pc, count in entries:
        vec = tuple(req.get(k, 0) for k in resources)
        for k in range(count):
            out.append(Job(f"{prefix}{i}-{k}", queue, vec, pc, running, len(out)))
    return out
