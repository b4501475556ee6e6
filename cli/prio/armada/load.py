"""Turn already-parsed documents (an Armada scenario, optionally plus Armada Queue manifests) into
the Scenario model. Every problem becomes an InputError naming the file, line and column; no
NaN, infinity or negative half-time gets through."""
from __future__ import annotations

import difflib

from prio.armada import load_queues as armada_queues
from prio.armada.model import Job, Queue, Report, Scenario, Settings, add
from prio.armada.recognise import is_scenario
from prio.armada.units import parse_timestamp
from prio.errors import InputError
from prio.io import caps
from prio.io.document import Document
from prio.io.fields import Reader, kind_of_value

SCHEDULING_KEYS = ("useProbabilisticSchedulingForAllResources", "resourceScarcity", "minimumResourceToSchedule",
                   "maximalClusterFractionToSchedule", "maximalResourceFractionPerQueue",
                   "maximalResourceFractionToSchedulePerQueue", "queueLeaseBatchSize")
TOP_KEYS = ("model", "scheduler", "description", "priorityHalfTime", "capacity", "queues", "usage", "offer", "jobs", "seed",
            "rounds", "roundInterval", "cluster", "scheduling") + SCHEDULING_KEYS
ALIASES = {"priorityHalftime": "priorityHalfTime"}  # the spelling of Armada's docs
QUEUE_KEYS = ("name", "priorityFactor", "priority", "usage", "resourceLimits")
REPORT_KEYS = ("time", "cluster", "queues")
JOB_KEYS = ("queue", "requests", "count", "priority", "id", "runtime")
MAX_ROUNDS = 10_000


def _manifest_queues(file: str, doc: Document) -> list[tuple[Queue, Reader, tuple]]:
    """The queues an Armada Queue manifest defines, refusing what Armada refuses."""
    r = Reader(file, doc, name_path="always")
    r.check_issues()
    out = []
    for item in armada_queues.queue_items(doc.data):
        if not item.is_queue:
            continue
        data, path = item.data, item.path
        if not isinstance(data, dict):
            r.fail(path, f"expected an Armada Queue mapping, found {kind_of_value(data)}")
        fields = armada_queues.canonical_fields(data)
        if "name" not in fields:
            r.fail(path, "this Armada queue has no name")
        name = r.string(path + (fields["name"],), data[fields["name"]])
        if "priorityFactor" not in fields or data[fields["priorityFactor"]] is None:
            r.fail(path, f"queue {name} has no priorityFactor: Armada decodes it as 0 and refuses the queue "
                         "(priority factor cannot be lower than 1.0)")
        fpath = path + (fields["priorityFactor"],)
        raw = data[fields["priorityFactor"]]
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            r.fail(fpath, f"must be a number, found {kind_of_value(raw)} (Armada's decoder refuses it)")
        factor = r.number(fpath, raw)
        if factor < 1:
            r.fail(fpath, f"{factor:g} is below 1.0: Armada refuses the queue")
        limits = None
        if "resourceLimits" in data and data["resourceLimits"] is not None:
            limits = r.fractions(path + ("resourceLimits",), data["resourceLimits"], 1.0)
        out.append((Queue(name, factor, None, None, limits), r, path))
    return out


def build(docs: list[tuple[str, Document]]) -> Scenario:
    """The Scenario from (file name, Document) pairs: exactly one scenario document, plus any
    number of Armada Queue manifests whose queues form the queue list."""
    scenarios = []
    manifests = []
    for file, doc in docs:
        if doc.data is None:
            continue
        if is_scenario(doc.data):
            scenarios.append((file, doc))
        elif armada_queues.is_queue_manifest(doc.data):
            manifests.append((file, doc))
        else:
            pos = doc.start
            raise InputError(file, "not an Armada scenario (a mapping with model: armada) or an Armada Queue "
                                   "manifest (apiVersion: armadaproject.io/v1beta1)", pos.line, pos.column)
    if not scenarios:
        file = docs[0][0] if docs else "<input>"
        raise InputError(file, "no Armada scenario: give a YAML or JSON file with model: armada")
    if len(scenarios) > 1:
        file, doc = scenarios[1]
        raise InputError(file, f"a second Armada scenario (the first is in {scenarios[0][0]}); "
                               "prio reads one scenario at a time", doc.start.line, doc.start.column)
    file, doc = scenarios[0]
    return _scenario(file, doc, manifests)


def _scenario(file: str, doc: Document, manifests: list) -> Scenario:
    r = Reader(file, doc, name_path="always")
    r.check_issues()
    data = doc.data
    r.keys((), data, TOP_KEYS, ALIASES)

    # Scheduling settings may sit at the top or under `scheduling:`, as in Armada's config.
    sched: dict = {}
    sched_path: dict = {}
    if "scheduling" in data:
        block = r.mapping(("scheduling",), data["scheduling"])
        r.keys(("scheduling",), block, SCHEDULING_KEYS)
        for k, v in block.items():
            sched[k] = v
            sched_path[k] = ("scheduling", k)
    for k in SCHEDULING_KEYS:
        if k in data:
            if k in sched:
                r.fail((k,), f"{k} is set both here and under scheduling:", at="key")
            sched[k] = data[k]
            sched_path[k] = (k,)

    # half-time
    half_key = "priorityHalfTime" if "priorityHalfTime" in data else ("priorityHalftime" if "priorityHalftime" in data else None)
    if half_key is None:
        r.fail((), "missing priorityHalfTime (a Go duration such as 20m, Armada's default)")
    half = r.duration((half_key,), data[half_key])
    if half <= 0:
        r.fail((half_key,), f"must be a positive duration, found {data[half_key]!r} "
                            "(Armada's code divides by it: a zero half-time gives NaN priorities)")

    capacity = r.kube_resources(("capacity",), data["capacity"]) if data.get("capacity") is not None else None
    scarcity = None
    if sched.get("resourceScarcity") is not None:
        path = sched_path["resourceScarcity"]
        scarcity = {}
        for k, v in r.mapping(path, sched["resourceScarcity"]).items():
            scarcity[str(k)] = r.number(path + (k,), v, 0.0, "a weight")
        if not any(w > 0 for w in scarcity.values()):
            r.fail(path, "every weight is 0: every queue's usage would be 0 and the shares of an "
                         "offer would sum to 0")
    else:
        if capacity is None:
            r.fail((), "missing capacity: without resourceScarcity, the resource weights are computed from the "
                       "capacity (cpu 1, every other resource total_cpu / total)")
        if capacity.get("cpu", 0.0) <= 0:
            r.fail(("capacity",), "no cpu capacity: Armada weighs every resource against cpu (total_cpu / total), so "
                                  "every other resource would weigh 0; give capacity.cpu or an explicit resourceScarcity")

    settings_kw = {}
    if "useProbabilisticSchedulingForAllResources" in sched:
        settings_kw["probabilistic_only"] = r.boolean(sched_path["useProbabilisticSchedulingForAllResources"],
                                                      sched["useProbabilisticSchedulingForAllResources"])
    if sched.get("minimumResourceToSchedule") is not None:
        settings_kw["minimum_to_schedule"] = r.kube_resources(sched_path["minimumResourceToSchedule"],
                                                         sched["minimumResourceToSchedule"])
    for key, attr in (("maximalClusterFractionToSchedule", "max_cluster_fraction"),
                      ("maximalResourceFractionPerQueue", "max_fraction_per_queue"),
                      ("maximalResourceFractionToSchedulePerQueue", "max_fraction_to_schedule_per_queue")):
        if sched.get(key) is not None:
            settings_kw[attr] = r.fractions(sched_path[key], sched[key])
    if "queueLeaseBatchSize" in sched:
        settings_kw["batch_size"] = r.integer(sched_path["queueLeaseBatchSize"], sched["queueLeaseBatchSize"], 1, 1_000_000)
    settings = Settings(half, scarcity, capacity, **settings_kw)

    queues = _queues(r, data, manifests)
    names = {q.name for q in queues}

    home = r.string(("cluster",), data["cluster"]) if data.get("cluster") is not None else None
    reports, time_kind = _reports(r, data, home or "default")
    if home is None:
        home = reports[0].cluster if reports else "default"

    offer = r.kube_resources(("offer",), data["offer"]) if data.get("offer") is not None else None
    jobs = _jobs(r, data, names) if data.get("jobs") is not None else None

    seed = r.integer(("seed",), data["seed"], 0, 2**63 - 1) if data.get("seed") is not None else None
    rounds = r.integer(("rounds",), data["rounds"], 1, MAX_ROUNDS) if data.get("rounds") is not None else None
    interval = 60.0
    if data.get("roundInterval") is not None:
        interval = r.duration(("roundInterval",), data["roundInterval"])
        if interval < 0:
            r.fail(("roundInterval",), "cannot be negative")
    return Scenario(settings, queues, reports, offer, jobs, seed, rounds, interval, home, time_kind)


def _queue_entry(r: Reader, path: tuple, item) -> Queue:
    data = r.mapping(path, item)
    r.keys(path, data, QUEUE_KEYS)
    if "name" not in data:
        r.fail(path, "a queue needs a name")
    name = r.string(path + ("name",), data["name"])
    factor = 1.0
    if data.get("priorityFactor") is not None:
        factor = r.number(path + ("priorityFactor",), data["priorityFactor"])
        if factor < 1:
            r.fail(path + ("priorityFactor",), f"{factor:g} is below 1.0: Armada refuses such a queue "
                                                "(and a factor of 0 would give an infinite share)")
    priority = None
    if data.get("priority") is not None:
        priority = r.number(path + ("priority",), data["priority"], 0.0)
    usage = r.kube_resources(path + ("usage",), data["usage"]) if data.get("usage") is not None else None
    limits = r.fractions(path + ("resourceLimits",), data["resourceLimits"], 1.0) \
        if data.get("resourceLimits") is not None else None
    return Queue(name, factor, priority, usage, limits)


def _queues(r: Reader, data: dict, manifests: list) -> list[Queue]:
    from_manifests: dict = {}
    order = []
    for file, doc in manifests:
        for q, mr, path in _manifest_queues(file, doc):
            if q.name in from_manifests:
                mr.fail(path, f"queue {q.name} is defined twice in the Armada queue manifests")
            from_manifests[q.name] = q
            order.append(q.name)
    entries = []
    if data.get("queues") is not None:
        for i, item in enumerate(r.sequence(("queues",), data["queues"])):
            entries.append((i, _queue_entry(r, ("queues", i), item)))
    if not entries and not from_manifests:
        r.fail((), "no queues: list them under queues: or pass an Armada Queue manifest")
    seen = set()
    out = {name: from_manifests[name] for name in order}
    for i, q in entries:
        if q.name in seen:
            r.fail(("queues", i, "name"), f"queue {q.name} is listed twice")
        seen.add(q.name)
        if q.name in from_manifests:
            m = from_manifests[q.name]
            item = data["queues"][i]
            if item.get("priorityFactor") is not None and q.factor != m.factor:
                r.fail(("queues", i, "priorityFactor"), f"queue {q.name} has priorityFactor {m.factor:g} in its "
                                                        f"Armada manifest; the scenario says {q.factor:g}")
            if q.limits is not None and m.limits is not None and q.limits != m.limits:
                r.fail(("queues", i, "resourceLimits"), f"queue {q.name} has other resourceLimits in its manifest")
            out[q.name] = Queue(q.name, m.factor, q.priority, q.usage, q.limits if q.limits is not None else m.limits)
        else:
            out[q.name] = q
    return list(out.values())


def _reports(r: Reader, data: dict, default_cluster: str) -> tuple[list[Report], str]:
    if data.get("usage") is None:
        return [], "offset"
    out = []
    kind = None
    previous = None
    for i, item in enumerate(r.sequence(("usage",), data["usage"])):
        path = ("usage", i)
        rep = r.mapping(path, item)
        r.keys(path, rep, REPORT_KEYS)
        if "time" not in rep:
            r.fail(path, "a usage report needs a time (a Go duration from the start such as 10m, or an RFC 3339 timestamp)")
        raw = rep["time"]
        stamp = parse_timestamp(raw)
        if stamp is not None:
            this_kind, t = "timestamp", stamp
        else:
            this_kind, t = "offset", r.duration(path + ("time",), raw)
        if kind is None:
            kind = this_kind
        elif kind != this_kind:
            r.fail(path + ("time",), "mixes timestamps and durations: write every report time the same way")
        if previous is not None and t < previous[0]:
            r.fail(path + ("time",), f"this report ({raw}) is earlier than the one before it ({previous[1]}): reports "
                                     "must be in time order (Armada would decay with a negative time step, a factor "
                                     "above 1, and overshoot)")
        previous = (t, raw)
        cluster = r.string(path + ("cluster",), rep["cluster"]) if rep.get("cluster") is not None else default_cluster
        queues: dict = {}
        qdata = rep.get("queues")
        if isinstance(qdata, list):
            for j, entry in enumerate(qdata):
                epath = path + ("queues", j)
                e = r.mapping(epath, entry)
                r.keys(epath, e, ("name", "resources"))
                name = r.string(epath + ("name",), e.get("name"))
                res = r.kube_resources(epath + ("resources",), e.get("resources") or {})
                queues[name] = add(queues.get(name, {}), res)
        elif qdata is not None:
            for name, res in r.mapping(path + ("queues",), qdata).items():
                queues[str(name)] = r.kube_resources(path + ("queues", name), res if res is not None else {})
        out.append(Report(t, cluster, queues, str(raw)))
    return out, kind or "offset"


def _jobs(r: Reader, data: dict, names: set) -> list[Job]:
    out = []
    ids = set()
    per_queue: dict = {}
    n = 0
    max_jobs = caps.JOBS.value()
    for i, item in enumerate(r.sequence(("jobs",), data["jobs"])):
        path = ("jobs", i)
        e = r.mapping(path, item)
        r.keys(path, e, JOB_KEYS)
        if "queue" not in e:
            r.fail(path, "a job entry needs a queue")
        queue = r.string(path + ("queue",), e["queue"])
        if queue not in names:
            close = difflib.get_close_matches(queue, sorted(names), n=1)
            r.fail(path + ("queue",), f"unknown queue {queue!r}" + (f"; did you mean {close[0]!r}?" if close else ""))
        if "requests" not in e:
            r.fail(path, "a job entry needs requests (the resources one job asks for)")
        requests = r.kube_resources(path + ("requests",), e["requests"])
        count = r.integer(path + ("count",), e["count"], 0, max_jobs) if e.get("count") is not None else 1
        n += count
        if n > max_jobs:  # the total, before a job is made
            r.fail(path + ("count",), caps.JOBS.exceeded(n, "in total with the counts expanded"))
        priority = r.number(path + ("priority",), e["priority"]) if e.get("priority") is not None else 0.0
        runtime = None
        if e.get("runtime") is not None:
            runtime = r.duration(path + ("runtime",), e["runtime"])
            if runtime <= 0:
                r.fail(path + ("runtime",), "a job's runtime must be positive")
        base = r.string(path + ("id",), e["id"]) if e.get("id") is not None else None
        for k in range(count):
            if base is None:
                per_queue[queue] = per_queue.get(queue, 0) + 1
                job_id = f"{queue}-{per_queue[queue]}"
            else:
                job_id = base if count == 1 else f"{base}-{k + 1}"
            if job_id in ids:
                r.fail(path + (("id",) if base is not None else ()), f"job id {job_id!r} is used twice")
            ids.add(job_id)
            out.append(Job(job_id, queue, dict(requests), priority, runtime, len(out)))
    return out
