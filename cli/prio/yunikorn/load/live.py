"""A running YuniKorn, read over its REST API (read-only), turned into prio's inputs.

What is fetched, for one partition: `/ws/v1/partitions` (which partitions exist),
`/ws/v1/config` (the queue config YuniKorn runs, YAML; the JSON form with Go field names is read
too), `/ws/v1/partition/{p}/queues` (the runtime tree: currentPriority to compare with, the
cluster capacity as root's max, the version's shape), `/applications/active` (pending asks and
running allocations), `/applications/rejected` (listed, never scheduled), `/nodes` (with
`schedulable`: a cordoned node takes nothing new) and `/usage/users` and `/usage/groups` (the
usage YuniKorn's user/group manager tracks, for the user and group limits: prio.yunikorn.load.rest_usage).

An older YuniKorn without `/applications/{state}` is read queue by queue
(`/queue/{q}/applications`); one without `/ws/v1/config` falls back to the queue tree of the
queues endpoint; one without the usage endpoints takes the users' usage from the running
allocations alone. The HTTP side is prio.io.http; the shapes are read by prio.yunikorn.load.rest."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from prio.errors import InputError
from prio.io import caps, yamlnodes
from prio.yunikorn.load.inputs import Inputs, merge

PROGRESS_EVERY = 20  # per-queue fetches: a progress line from this many on
MANY_APPS = 1000  # a single applications list this long gets a line of its own

# /ws/v1/config as JSON: Go field names. Structs are renamed key by key (the YAML keys are the
# lowercased field names); maps (properties, resources) keep their keys.
_GO_MAPS = {"Properties", "Guaranteed", "Max", "MaxResources", "ResourceWeights", "Args"}


@dataclass
class Live:
    url: str
    partition: str
    partitions: list
    inputs: Inputs
    config_text: str | None = None  # the queue config (partitions:) as YAML, for prio snapshot
    rejected: list = field(default_factory=list)  # {"application", "queue", "reason", "user", "submitTime"}
    nodes: list = field(default_factory=list)  # {"name", "capacity"} (internal units)
    raw_apps: dict = field(default_factory=dict)  # application id -> its ApplicationDAOInfo
    shape: str = ""
    queue_fields: frozenset = frozenset()  # every field the queues endpoint's queues carry (the release shows in them)
    allocations: int = 0  # running allocations read (prio preempt's victims)
    fetched: list = field(default_factory=list)  # (url, what) for -v


def fetch(client, partition: str | None = None, progress=None) -> Live:
    """Everything prio needs from the server, as Inputs (config, snapshot, REST queues).

    `progress(line)` hears how far per-queue fetching has got (a line on stderr)."""
    from prio.yunikorn.load import rest

    live_fetched: list = []

    def get_json(path, what, query=""):
        data = client.get_json(path, query)
        live_fetched.append((client.url(path, query), what))
        return data

    parts = get_json("/ws/v1/partitions", "partitions")
    names = _partition_names(client.url("/ws/v1/partitions"), parts)
    part = _pick_partition(client.url("/ws/v1/partitions"), names, partition)
    inp = Inputs()
    live = Live(client.base, part, names, inp, fetched=live_fetched)
    if len(names) > 1:
        inp.notes.append(f"{client.base}: partition {part}; the server also has {', '.join(n for n in names if n != part)} (--partition NAME)")
    pq = f"/ws/v1/partition/{part}"

    _fetch_config(client, live)

    # The runtime queue tree: currentPriority (explain compares), capacity, the version's shape.
    qurl = client.url(pq + "/queues")
    qdata = get_json(pq + "/queues", "the queue tree")
    infos, qsnap = rest.load_queues(qurl, _doc(qurl, qdata))
    inp.rest_queues = infos
    live.shape = queue_shape(qdata)
    live.queue_fields = frozenset(queue_fields(qdata))
    inp.recognised.append((qurl, f"the queue tree, {len(infos)} queues; shape: {live.shape}"))

    # Applications: pending asks and running allocations.
    snaps = [qsnap] if qsnap is not None else []
    apps = _fetch_active(client, pq, infos, live, progress)
    aurl = client.url(pq + "/applications/active")
    caps.OBJECTS.check(aurl, len(apps), what="applications")  # before a sort or an application is read
    # YuniKorn lists applications in map order: sorted here, so every run reads them alike.
    apps.sort(key=lambda a: (_sort_time(a.get("submissionTime")), str(a.get("applicationID"))) if isinstance(a, dict) else (0, ""))
    for a in apps:
        if isinstance(a, dict) and isinstance(a.get("applicationID"), str):
            live.raw_apps[a["applicationID"]] = a
    asnap = rest.load_apps(aurl, _doc(aurl, apps), already=qsnap.ask_count() if qsnap is not None else 0)
    asnap.partition = part
    snaps.append(asnap)
    if len(apps) >= MANY_APPS and progress:
        progress(f"read {len(apps)} applications ({asnap.ask_count()} pending asks)")
    inp.recognised.append((aurl, f"{len(asnap.apps)} active applications, {asnap.ask_count()} pending asks"))

    # Rejected applications: listed, never scheduled (YuniKorn refused to place them).
    rej = _served(lambda: get_json(pq + "/applications/rejected", "rejected applications"))
    if rej is _ABSENT:
        rej = []
        inp.notes.append(f"{client.url(pq + '/applications/rejected')}: not on this server (HTTP 404, an older YuniKorn): rejected applications are not listed")
    if isinstance(rej, list):
        caps.OBJECTS.check(client.url(pq + "/applications/rejected"), len(rej), what="rejected applications")
    live.rejected = _rejected(client.url(pq + "/applications/rejected"), rej)
    if live.rejected:
        shown = "; ".join(f"{r['application']} ({r['reason'] or 'no reason given'})" for r in live.rejected[:5])
        more = f" and {len(live.rejected) - 5} more" if len(live.rejected) > 5 else ""
        inp.notes.append(f"YuniKorn rejected {len(live.rejected)} application{'s' if len(live.rejected) != 1 else ''}, "
                         f"left out (never scheduled): {shown}{more}")

    # Nodes: for the snapshot's `nodes` (preemption is per node).
    nodes = _served(lambda: get_json(pq + "/nodes", "nodes"))
    if nodes is _ABSENT:
        nodes = None
        inp.notes.append(f"{client.url(pq + '/nodes')}: not on this server (HTTP 404): preemption takes one node of the cluster's capacity")
    if isinstance(nodes, list):
        caps.OBJECTS.check(client.url(pq + "/nodes"), len(nodes), what="nodes")
    live.nodes = _nodes(client.url(pq + "/nodes"), nodes if nodes is not None else [])

    # The running side, for prio preempt and prio snapshot: nodes and running allocations.
    from prio.yunikorn.load import rest_running

    asnap.nodes = rest_running.nodes(live.nodes) if nodes is not None else None
    from prio.yunikorn.nodes import unschedulable_note

    said = unschedulable_note(asnap.nodes)
    if said:
        inp.notes.append(f"{client.url(pq + '/nodes')}: {said}")
    live.allocations = rest_running.allocations(aurl, apps, asnap, [n["name"] for n in live.nodes] if nodes is not None else None, inp.notes)
    asnap.apps += rest_running.rejected_apps(live.rejected)  # listed under rejected, never placed

    # The users' and groups' usage YuniKorn tracks: the user/group manager's starting point.
    snap = merge(snaps) if len(snaps) > 1 else snaps[0]
    snap.tracked = _fetch_usage(client, pq, inp.notes, get_json, asnap.apps)
    snap.partition = part
    snap.nodes = asnap.nodes
    snap.source = client.base
    inp.snapshot = snap
    inp.notes += [n for n in snap.notes if n not in inp.notes]
    inp.names.append(client.base)
    return live


_ABSENT = object()  # _served: the server has no such endpoint


def _served(call):
    """call()'s answer, or _ABSENT where the server answers HTTP 404: an endpoint an older
    YuniKorn does not have (the caller says what is then assumed). Any other failure is raised."""
    try:
        return call()
    except InputError as e:
        if "HTTP 404" not in e.message:
            raise
        return _ABSENT


def _fetch_config(client, live: Live) -> None:
    """The queue config YuniKorn runs (/ws/v1/config, YAML or JSON with Go's field names) into
    live.inputs; without the endpoint (HTTP 404) a note: the queues come from the queues
    endpoint."""
    from prio.io import http

    inp = live.inputs
    resp = _served(lambda: client.get("/ws/v1/config", accept="application/x-yaml, application/json;q=0.5"))
    if resp is _ABSENT:
        inp.notes.append(f"{client.url('/ws/v1/config')}: no config endpoint on this server (HTTP 404): the queues are "
                         "taken from the queues endpoint (effective properties, no config order)")
        return
    live.config_text = config_yaml(resp)
    live.fetched.append((resp.url, "the queue config (" + ("JSON, Go field names" if resp.media_type in http.JSON_TYPES else "YAML") + ")"))
    docs = yamlnodes.load_fast(resp.url, live.config_text)
    if not docs:
        raise InputError(resp.url, "the config endpoint answered an empty config")
    from prio.yunikorn.load.inputs import set_config

    set_config(inp, resp.url, docs[0])
    inp.recognised.append((resp.url, "the queue config YuniKorn runs"))


def _fetch_usage(client, pq: str, notes: list, get_json, apps):
    """/usage/users and /usage/groups as ugm.Served (None when neither is served: an older
    YuniKorn, HTTP 404, whose users' usage is then what the running allocations read hold),
    with a note naming the users YuniKorn tracks more for than those allocations hold."""
    from prio.values import count
    from prio.yunikorn.load import rest_usage
    from prio.yunikorn.quantity import show_resources
    from prio.yunikorn.ugm import beyond

    got, missing = {}, []
    for kind in ("users", "groups"):
        got[kind] = _served(lambda kind=kind: get_json(f"{pq}/usage/{kind}", f"the {kind}' usage"))
        if got[kind] is _ABSENT:
            got[kind] = None
            missing.append(client.url(f"{pq}/usage/{kind}"))
    if missing:
        notes.append(f"{' and '.join(missing)}: not on this server (HTTP 404, an older YuniKorn): the users' and groups' "
                     "usage for their limits is what the running allocations read hold")
    if got["users"] is None and got["groups"] is None:
        return None
    served = rest_usage.read(client.url(f"{pq}/usage/users"), got["users"], client.url(f"{pq}/usage/groups"), got["groups"])
    more = beyond(served, apps)
    if more:
        # the applications of other partitions are counted, not named: prio snapshot --anonymize
        # renames only what the snapshot holds, and its notes must name nothing else
        said = "; ".join(f"{user}: {show_resources(extra) if extra else 'no resources'}"
                         + (f", {count(len(others), 'running application')} not read here" if others else "")
                         for user, extra, others in more[:5])
        notes.append(f"{client.url(f'{pq}/usage/users')}: YuniKorn tracks more for {len(more)} user{'s' if len(more) != 1 else ''} "
                     f"than the running allocations read here hold ({said}{' ...' if len(more) > 5 else ''}; other partitions "
                     "share the tracker, or the state changed between requests): counted for the user and group limits")
    return served


def _sort_time(v) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _doc(name: str, data):
    """Already-parsed JSON as a Document without positions (errors then name the JSON path)."""
    return yamlnodes.Document(data)


def _partition_names(url: str, data) -> list:
    if not isinstance(data, list) or not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in data):
        raise InputError(url, "expected a list of partitions with a name each (is this YuniKorn's REST API?)")
    names = sorted({re.sub(r"^\[[^\]]*\]", "", p["name"]) for p in data})
    if not names:
        raise InputError(url, "the scheduler has no partitions yet (no resource manager registered?)")
    return names


def _pick_partition(url: str, names: list, want: str | None) -> str:
    if want:
        for n in names:
            if n.lower() == want.lower():
                return n
        raise InputError(url, f"no partition {want!r} on this server (partitions: {', '.join(names)})")
    return "default" if "default" in names else names[0]


def _fetch_active(client, pq: str, infos, live: Live, progress) -> list:
    """/applications/active, or (older YuniKorn, HTTP 404) every leaf's /queue/{q}/applications."""
    data = _served(lambda: client.get_json(pq + "/applications/active"))
    if data is not _ABSENT:
        live.fetched.append((client.url(pq + "/applications/active"), "active applications"))
        if data is not None:  # (a null answer is read queue by queue, as a 404 is)
            if not isinstance(data, list):
                raise InputError(client.url(pq + "/applications/active"), "expected a list of applications")
            return data
    leaves = [q.path for q in infos if q.is_leaf]
    live.inputs.notes.append(f"{client.url(pq + '/applications/active')}: not on this server (HTTP 404, an older YuniKorn): "
                             f"applications read queue by queue ({len(leaves)} leaf queues)")
    out, seen = [], set()
    for i, q in enumerate(leaves, 1):
        path = f"{pq}/queue/{q}/applications"
        got = client.get_json(path)
        if not isinstance(got, list):
            raise InputError(client.url(path), "expected a list of applications")
        for a in got:
            key = a.get("applicationID") if isinstance(a, dict) else None
            if key not in seen:
                seen.add(key)
                out.append(a)
        caps.OBJECTS.check(client.url(path), len(out), "in total over the leaf queues so far", "applications")
        if progress and len(leaves) >= PROGRESS_EVERY and (i % PROGRESS_EVERY == 0 or i == len(leaves)):
            progress(f"fetched the applications of {i} of {len(leaves)} queues ({len(out)} applications)")
    live.fetched.append((client.url(f"{pq}/queue/{{q}}/applications"), f"applications of {len(leaves)} leaf queues, one request each"))
    return out


def _rejected(url: str, data) -> list:
    if not isinstance(data, list):
        raise InputError(url, "expected a list of applications")
    out = []
    for a in data:
        if not isinstance(a, dict) or not isinstance(a.get("applicationID"), str):
            raise InputError(url, "a rejected application needs an applicationID")
        out.append({"application": a["applicationID"], "queue": str(a.get("queueName") or ""),
                    "reason": str(a.get("rejectedMessage") or ""), "user": a.get("user"),
                    "submitTime": a.get("submissionTime")})
    return sorted(out, key=lambda r: (r["submitTime"] if isinstance(r["submitTime"], int) else 0, r["application"]))


def _nodes(url: str, data) -> list:
    if not isinstance(data, list):
        raise InputError(url, "expected a list of nodes")
    out = []
    for n in data:
        if not isinstance(n, dict) or not isinstance(n.get("nodeID"), str):
            raise InputError(url, "a node needs a nodeID")
        cap = n.get("capacity") or {}
        if not isinstance(cap, dict) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in cap.values()):
            raise InputError(url, f"node {n['nodeID']}: capacity must map resource names to whole numbers")
        schedulable = n.get("schedulable", True)  # absent (an older YuniKorn): schedulable
        if not isinstance(schedulable, bool):
            raise InputError(url, f"node {n['nodeID']}: schedulable must be true or false, found {schedulable!r}")
        row = {"name": n["nodeID"], "capacity": dict(cap)}
        if not schedulable:  # cordoned or draining: YuniKorn places nothing on it
            row["schedulable"] = False
        out.append(row)
    return sorted(out, key=lambda n: n["name"])


def queue_fields(data) -> set:
    """Every field the queues of the queues endpoint's tree carry."""
    seen: set = set()
    stack = [data]
    n = 0
    while stack and n < 1_000_000:
        q = stack.pop()
        n += 1
        if not isinstance(q, dict):
            continue
        seen |= set(q)
        stack += [c for c in (q.get("children") or []) if isinstance(c, dict)] if isinstance(q.get("children"), list) else []
    return seen


def queue_shape(data) -> str:
    """Which version's shape the queues endpoint has, from the fields it carries."""
    seen = queue_fields(data)
    legacy = isinstance(data, dict) and isinstance(data.get("maxResource"), str)
    if legacy:
        return "YuniKorn 0.12 (resources as strings)"
    if {"isPreemptionFence", "preemptionDelay"} & seen:
        return ("current: queues carry currentPriority, prioritySorting, isPriorityFence, priorityOffset, "
                "preemptionEnabled, isPreemptionFence, preemptionDelay")
    if "isPriorityFence" in seen:
        return "queues carry currentPriority, isPriorityFence and priorityOffset, no preemption fields"
    if "currentPriority" in seen:
        return "older: currentPriority but no isPriorityFence/priorityOffset (fence and offset from the properties)"
    return "older: no priority fields (fence and offset from the properties, nothing to compare with)"


def config_yaml(resp) -> str:
    """The queue config of a /ws/v1/config response as YAML text with `partitions:` only.

    The YAML form is kept as served, minus the top-level keys that are not part of the config
    (checksum, extra, deadlockdetectionenabled, ...: YuniKorn's strict decoding rejects them).
    The JSON form (Go field names) is renamed to the YAML keys."""
    from prio.io import http

    if resp.media_type in http.JSON_TYPES:
        data = http.decode_json(resp)
        if not isinstance(data, dict) or not isinstance(data.get("Partitions", data.get("partitions")), list):
            raise InputError(resp.url, "expected the scheduler config (Partitions)")
        import yaml

        conf = {"partitions": _from_go(data.get("Partitions", data.get("partitions")))}
        return yaml.safe_dump(conf, sort_keys=False, default_flow_style=False, allow_unicode=True)
    try:
        text = resp.body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(resp.url, f"the config is not UTF-8 (invalid byte at {e.start})") from None
    if resp.media_type and "yaml" not in resp.media_type and resp.media_type != "text/plain":
        raise InputError(resp.url, f"expected the config as YAML or JSON, the server sent {resp.media_type}")
    return strip_top_level(text, keep=("partitions",))


def strip_top_level(text: str, keep=("partitions",)) -> str:
    """YAML text without the top-level mapping entries whose key is not in `keep`."""
    out = []
    dropping = False
    for line in text.splitlines(keepends=True):
        if line[:1] not in ("", " ", "\t", "#", "\n", "\r", "-"):
            m = re.match(r"([^:#\s][^:]*):(\s|$)", line)
            if m:
                dropping = m.group(1).strip().strip("'\"") not in keep
        if not dropping:
            out.append(line)
    return "".join(out)


def _from_go(v, key: str = ""):
    if isinstance(v, list):
        return [_from_go(x) for x in v]
    if not isinstance(v, dict):
        return v
    if key in _GO_MAPS:
        return {str(k): x for k, x in v.items()}
    out = {}
    for k, x in v.items():
        if x is None or x == {} or x == [] or x == "" or (k == "MaxApplications" and x == 0):
            continue
        y = _from_go(x, k)
        if y == {} or y == []:
            continue
        out[k.lower()] = y
    return out
