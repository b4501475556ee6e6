"""Lint Volcano setups (volcano-scheduler.conf, raw or in its ConfigMap; Queue, PodGroup and
PriorityClass objects), family `volcano`, PRIO701-PRIO714.

The config is read as Volcano reads it (prio.volcano.conf: `UnmarshalSchedulerConf` over
go-yaml v2, which ignores a key it does not know): what it refuses makes the whole file invalid
and a starting scheduler silently keeps its default config (PRIO701); what it ignores is said
with the key Volcano would read (PRIO702-PRIO704). The objects are checked together, as the set
of files named on the command line (target `volcano-set`): a reference is checked against the
objects among them, so validate the whole setup at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.diagnostics import Issue
from prio.io.document import Document, Pos
from prio.lint import objects, registry
from prio.lint.objects import Obj  # noqa: F401 - the objects' type, named in this module's docs
from prio.lint.registry import check, run
from prio.suggest import close

FAMILY = "volcano"
registry.target("volcano-set", "every Volcano document of the run (scheduler config, Queue, PodGroup, PriorityClass): prio.volcano.lint.VolcanoSet")


def _vconf():
    """Volcano's config reader, imported when a Volcano document is checked (every validate
    registers these rules; few runs hold a Volcano config)."""
    from prio.volcano import conf

    return conf
CONF_KEY = "volcano-scheduler.conf"


@dataclass
class ConfDoc:
    """The scheduler config of the run: its decoded text, where it was written."""

    file: str
    doc: Document  # the config's own document (positions shifted into the outer file)
    outer: Document  # the document holding it (the ConfigMap, or the raw config itself)
    source: str  # configmap or raw

    def issue(self, rule: str, path, message: str, fix: str = "", at: str = "value"):
        pos = self.doc.pos(tuple(path), at) if self.doc.index else self.outer.pos(("data", CONF_KEY))
        return (self.file, self.outer, Issue(rule, (), message, at, None, pos, fix))


@dataclass
class VolcanoSet:
    confs: list = field(default_factory=list)  # ConfDoc
    objects: list = field(default_factory=list)  # Obj
    units: list = field(default_factory=list)  # (file name, Document): every Volcano document, as read

    def of(self, kind: str) -> list:
        return [o for o in self.objects if o.kind == kind]

    def config(self):
        if not self.confs:
            return _vconf().default_config()
        c = self.confs[0]
        return _vconf().unmarshal(c.doc.data, c.source)

    def hierarchy(self) -> bool:
        cap = self.config().plugin("capacity")
        return cap is not None and cap.flags.get("enableHierarchy") is True


def _inner(file: str, text: str, outer: Document) -> Document:
    """The config text as its own document, its positions moved into the outer file (a literal
    block's lines are the file's lines; otherwise every position is the key's)."""
    from prio.io import yamlnodes

    docs = yamlnodes.load(file, text, go="v2")
    doc = docs[0] if docs else Document(None)
    key = outer.pos(("data", CONF_KEY), "key")
    value = outer.pos(("data", CONF_KEY))
    literal = key is not None and value is not None and value.line == key.line  # `key: |`: the block starts on the next line
    for e in doc.index.values():
        p = e.pos
        if literal:
            e.pos = Pos(key.line + p.line, p.column + key.column + 1)
            if e.key is not None:
                e.key = Pos(key.line + e.key.line, e.key.column + key.column + 1)
        else:
            e.pos, e.key = key or Pos(1, 1), None
    doc.start = key or outer.start
    return doc


def volcano_set(units) -> VolcanoSet:
    """`units`: (file name, Document) of every Volcano document of the run."""
    from prio.volcano import recognise

    vs = VolcanoSet(units=list(units))
    for file, doc in vs.units:
        data = doc.data
        if recognise.is_volcano_configmap(data):
            text = data["data"][CONF_KEY]
            if isinstance(text, str):
                vs.confs.append(ConfDoc(file, _inner(file, text, doc), doc, "configmap"))
        elif recognise.is_volcano_raw_config(data):
            vs.confs.append(ConfDoc(file, doc, doc, "raw"))
        elif isinstance(data, dict) and isinstance(data.get("metadata"), dict) and isinstance(data["metadata"].get("name"), str):
            vs.objects.append(objects.of(file, doc, data))
    return vs


def set_issues(units) -> list:
    """(file name, Document, Issue) for the Volcano documents of the run together."""
    return run("volcano-set", volcano_set(units))


def _plugins(c: ConfDoc):
    """(tier index, plugin index, plugin mapping) of the config as written."""
    data = c.doc.data if isinstance(c.doc.data, dict) else {}
    for ti, tier in enumerate(data.get("tiers") or [] if isinstance(data.get("tiers"), list) else []):
        plugins = tier.get("plugins") if isinstance(tier, dict) else None
        for pi, p in enumerate(plugins if isinstance(plugins, list) else []):
            if isinstance(p, dict):
                yield ti, pi, p


@check("PRIO701", "volcano-config-refused", "error", FAMILY, target="volcano-set")
def config_refused(vs: VolcanoSet) -> list:
    """Volcano refuses the scheduler config: it silently runs its default config instead.

    `UnmarshalSchedulerConf` fails on an action it does not know (`failed to find Action
    preemt`), on `drf` with `enableHierarchy: true` in the same tier as `proportion`, and on an
    empty config (no actions). A scheduler that starts with such a file logs the error and keeps
    its default config (`enqueue, allocate, backfill`): no preempt, no reclaim, none of the
    file's plugins or flags, and nothing on any object says so.

    Example (error):
        actions: "enqueue, allocate, preemt, backfill"
    Fix: spell every action as Volcano registers it (enqueue, allocate, backfill, preempt,
    reclaim, gangpreempt, gangreclaim, shuffle), and keep drf's hierarchy away from proportion.
    """
    out = []
    for c in vs.confs:
        err = _vconf().refusal(c.doc.data)
        if err is None:
            continue
        data = c.doc.data if isinstance(c.doc.data, dict) else {}
        path: tuple = ("actions",) if "actions" in data and err.startswith("failed to find Action") else ()
        if "conflicts" in err:
            path = next(((("tiers", ti, "plugins", pi, "enableHierarchy")) for ti, pi, p in _plugins(c)
                         if p.get("name") == "drf" and p.get("enableHierarchy") is True), ())
        why = "an empty config" if err == "failed to find Action " and not data.get("actions") else repr(err)
        out.append(c.issue("PRIO701", path, f"Volcano refuses this config ({why}) and keeps its default config "
                                            "(enqueue, allocate, backfill): no preempt or reclaim runs"))
    return out


def _flag_meant(key: str) -> str | None:
    """The flag Volcano reads that a misspelt key was meant to be."""
    for a, b in (("enabled", "enable"), ("enable", "enabled")):
        if key.startswith(a) and b + key[len(a):] in _vconf().FLAGS:
            return b + key[len(a):]
    found = close(key, _vconf().FLAGS, 1)
    return found[0] if found else None


@check("PRIO702", "volcano-flag-ignored", "warning", FAMILY, target="volcano-set")
def flag_ignored(vs: VolcanoSet) -> list:
    """A plugin option Volcano does not read: go-yaml v2 drops it without a word.

    Volcano decodes the config non-strictly, so a misspelt flag is simply not there and the
    plugin keeps its default (every `enable…`/`enabled…` flag defaults to true). The spellings
    are not uniform: proportion's share checks are `enabledOverused` and `enabledAllocatable`,
    most others `enable…` (`enableJobOrder`, `enablePreemptable`).

    Example (warning):
        - name: proportion
          enableOverused: false
    Fix: the key Volcano reads, `enabledOverused: false` (or drop the line to keep the check on).
    """
    out = []
    for c in vs.confs:
        for ti, pi, p in _plugins(c):
            for key in p:
                if str(key) in _vconf().PLUGIN_KEYS:
                    continue
                meant = _flag_meant(str(key))
                hint = f"; Volcano reads {meant}" if meant else ""
                out.append(c.issue("PRIO702", ("tiers", ti, "plugins", pi, key),
                                   f"Volcano ignores {key!r} on plugin {p.get('name')!r} (not a key it reads){hint}: "
                                   f"the plugin keeps its default", fix=f"write {meant}" if meant else "", at="key"))
    return out


@check("PRIO703", "volcano-unknown-plugin", "warning", FAMILY, target="volcano-set")
def unknown_plugin(vs: VolcanoSet) -> list:
    """A plugin Volcano does not know: the session skips it and runs the others.

    Volcano looks each plugin up by name when a session opens; one it has no builder for is
    logged and left out, so what it was meant to do (order jobs, gate preemption, score nodes)
    does not happen.

    Example (warning):
        - name: propotion
    Fix: a registered plugin name (proportion, capacity, drf, gang, priority, predicates,
    nodeorder, binpack, overcommit, conformance, ...).
    """
    out = []
    for c in vs.confs:
        if _vconf().refusal(c.doc.data) is not None:
            continue
        for ti, pi, p in _plugins(c):
            name = str(p.get("name") or "")
            if name not in _vconf().PLUGINS:
                found = close(name, _vconf().PLUGINS, 1)
                out.append(c.issue("PRIO703", ("tiers", ti, "plugins", pi, "name"),
                                   f"Volcano has no plugin {name!r}: sessions skip it" + (f"; did you mean {found[0]}?" if found else "")))
    return out


@check("PRIO704", "volcano-config-key-ignored", "warning", FAMILY, target="volcano-set")
def config_key_ignored(vs: VolcanoSet) -> list:
    """A top-level or tier key of the scheduler config that Volcano does not read.

    The config has `actions`, `tiers` (each a mapping with `plugins`), `configurations` and
    `metrics`; go-yaml v2 drops anything else, so a misspelt `action:` leaves the actions empty
    and the file refused (PRIO701), and a misspelt `plugin:` leaves its tier empty.

    Example (warning):
        tiers:
        - plugin:
          - name: priority
    Fix: `plugins:`.
    """
    out = []
    for c in vs.confs:
        data = c.doc.data if isinstance(c.doc.data, dict) else {}
        for key in data:
            if str(key) not in _vconf().TOP_KEYS:
                found = close(str(key), _vconf().TOP_KEYS, 1)
                out.append(c.issue("PRIO704", (key,), f"Volcano ignores the key {key!r}" + (f"; it reads {found[0]}" if found else ""),
                                   at="key"))
        for ti, tier in enumerate(data.get("tiers") if isinstance(data.get("tiers"), list) else []):
            for key in tier if isinstance(tier, dict) else {}:
                if key != "plugins":
                    out.append(c.issue("PRIO704", ("tiers", ti, key), f"Volcano ignores the tier key {key!r}; it reads plugins", at="key"))
    return out


@check("PRIO705", "volcano-deserved-ignored", "warning", FAMILY, target="volcano-set")
def deserved_ignored(vs: VolcanoSet) -> list:
    """A Queue sets `deserved` but the scheduler runs `proportion`, which never reads it.

    Under `proportion` each queue's deserved share is computed from the queue weights and what
    the queues request (capped by `capability`, raised to `guarantee`); `spec.deserved` is read
    only by the `capacity` plugin (volcano-sh/volcano#5814).

    Example (warning):
        kind: Queue
        spec: {weight: 1, deserved: {cpu: "8"}}
    Fix: set the share with `weight` (and `guarantee`), or run the `capacity` plugin instead of
    `proportion`.
    """
    cfg = vs.config()
    if cfg.plugin("proportion") is None or cfg.plugin("capacity") is not None:
        return []
    return [q.issue("PRIO705", ("spec", "deserved"), f"queue {q.name}: proportion ignores deserved; weight and requests set its share", at="key")
            for q in vs.of("Queue") if q.spec.get("deserved")]


def _quantities(value) -> dict:
    from prio.kube import quantity

    out = {}
    for k, v in (value or {}).items() if isinstance(value, dict) else ():
        try:
            out[str(k)] = quantity.parse(v)
        except quantity.QuantityError:
            continue
    return out


@check("PRIO706", "volcano-deserved-below-guarantee", "warning", FAMILY, target="volcano-set")
def deserved_below_guarantee(vs: VolcanoSet) -> list:
    """A Queue's `deserved` is below its `guarantee` for some resource.

    A queue is reclaimed down to its deserved share, but its guarantee is kept for it whatever
    the others need: a deserved below the guarantee cannot be reached, and the capacity plugin's
    webhook refuses such a Queue.

    Example (warning):
        spec: {deserved: {cpu: "2"}, guarantee: {resource: {cpu: "4"}}}
    Fix: a deserved of at least the guarantee.
    """
    out = []
    for q in vs.of("Queue"):
        d = _quantities(q.spec.get("deserved"))
        g = _quantities((q.spec.get("guarantee") or {}).get("resource") if isinstance(q.spec.get("guarantee"), dict) else None)
        for r in sorted(set(d) & set(g)):
            if d[r] < g[r]:
                out.append(q.issue("PRIO706", ("spec", "deserved", r), f"queue {q.name}: deserved {r} is below its guarantee"))
    return out


@check("PRIO707", "volcano-child-capability-above-parent", "warning", FAMILY, target="volcano-set")
def child_capability_above_parent(vs: VolcanoSet) -> list:
    """A Queue's `capability` is above its parent's under hierarchical capacity.

    With `capacity`'s `enableHierarchy: true` a queue can never use more than any ancestor
    allows: the part of a child's capability above its parent's is unreachable.

    Example (warning):
        kind: Queue
        metadata: {name: team-a}
        spec: {parent: org, capability: {cpu: "16"}}   # org's capability: cpu 8
    Fix: a child capability within its parent's.
    """
    queues = {q.name: q for q in vs.of("Queue")}
    out = []
    for q in queues.values():
        parent = queues.get(str(q.spec.get("parent") or ""))
        if parent is None:
            continue
        mine, theirs = _quantities(q.spec.get("capability")), _quantities(parent.spec.get("capability"))
        for r in sorted(set(mine) & set(theirs)):
            if mine[r] > theirs[r]:
                out.append(q.issue("PRIO707", ("spec", "capability", r), f"queue {q.name}: capability {r} is above its parent {parent.name}'s"))
    return out


@check("PRIO708", "volcano-queue-not-found", "warning", FAMILY, target="volcano-set")
def queue_not_found(vs: VolcanoSet) -> list:
    """A PodGroup names a queue that does not exist: Volcano leaves it out of every session.

    The scheduler's snapshot skips a job whose queue is missing (only a verbose log says so): it
    stays `Pending` with no condition, and its pods are never scheduled. (`root` and `default`
    always exist: the scheduler creates them.)

    Example (warning):
        kind: PodGroup
        spec: {queue: reserch}
    Fix: the name of an existing Queue.
    """
    names = {q.name for q in vs.of("Queue")} | {"root", "default"}
    out = []
    for g in vs.of("PodGroup"):
        q = str(g.spec.get("queue") or "default")
        if q not in names:
            found = close(q, sorted(names), 1)
            out.append(g.issue("PRIO708", ("spec", "queue"), f"PodGroup {g.namespace}/{g.name}: queue {q!r} does not exist; "
                                                            "Volcano leaves it out of every session" + (f"; did you mean {found[0]}?" if found else "")))
    return out


@check("PRIO709", "volcano-priority-class-not-found", "warning", FAMILY, target="volcano-set")
def priority_class_not_found(vs: VolcanoSet) -> list:
    """A PodGroup names a PriorityClass that does not exist: its job gets the default priority.

    Volcano gives a job the value of its PodGroup's `priorityClassName`; a class that does not
    exist silently gives the globalDefault class's value, else 0, which orders the job and
    decides what it may preempt.

    Example (warning):
        kind: PodGroup
        spec: {priorityClassName: hihg}
    Fix: the name of an existing PriorityClass.
    """
    names = {o.name for o in vs.of("PriorityClass")} | {"system-cluster-critical", "system-node-critical"}
    out = []
    for g in vs.of("PodGroup"):
        pc = g.spec.get("priorityClassName")
        if pc and pc not in names:
            found = close(str(pc), sorted(names), 1)
            out.append(g.issue("PRIO709", ("spec", "priorityClassName"),
                               f"PodGroup {g.namespace}/{g.name}: PriorityClass {pc!r} does not exist; the job gets the default priority"
                               + (f"; did you mean {found[0]}?" if found else "")))
    return out


@check("PRIO710", "volcano-job-on-parent-queue", "error", FAMILY, target="volcano-set")
def job_on_parent_queue(vs: VolcanoSet) -> list:
    """A PodGroup is in a queue that has child queues, under hierarchical capacity.

    With `capacity`'s `enableHierarchy: true` jobs belong in leaf queues only. One PodGroup on a
    non-leaf queue fails the plugin's hierarchy check for the whole session: nothing is
    allocated anywhere in the cluster, not only in that queue.

    Example (error):
        kind: PodGroup
        spec: {queue: org}   # org is the parent of team-a
    Fix: put the PodGroup in a leaf queue.
    """
    if not vs.hierarchy():
        return []
    parents = {str(q.spec.get("parent") or "root") for q in vs.of("Queue")} | {"root"}
    return [g.issue("PRIO710", ("spec", "queue"), f"PodGroup {g.namespace}/{g.name}: queue {g.spec.get('queue')!r} has child queues; "
                                                 "under hierarchical capacity this stops all allocation")
            for g in vs.of("PodGroup") if str(g.spec.get("queue") or "default") in parents]


@check("PRIO711", "volcano-min-member-zero", "warning", FAMILY, target="volcano-set")
def min_member_zero(vs: VolcanoSet) -> list:
    """A PodGroup with `minMember: 0` (or none): Volcano writes it `Completed` before anything runs.

    With nothing scheduled, scheduled (0) equals completed (0) and reaches minMember (0): the
    PodGroup is `Completed` at the first session, then `Running` once a pod is bound, and gang
    scheduling holds nothing back.

    Example (warning):
        kind: PodGroup
        spec: {minMember: 0}
    Fix: minMember as the number of pods that must start together (at least 1).
    """
    return [g.issue("PRIO711", ("spec", "minMember") if "minMember" in g.spec else ("spec",),
                    f"PodGroup {g.namespace}/{g.name}: minMember 0 makes it Completed before anything runs")
            for g in vs.of("PodGroup") if not g.spec.get("minMember")]


@check("PRIO712", "volcano-share-checks-off", "warning", FAMILY, target="volcano-set")
def share_checks_off(vs: VolcanoSet) -> list:
    """proportion's `enabledOverused` or `enabledAllocatable` is false: queues are no longer held to their share.

    `enabledOverused: false` lets allocate serve a queue above its deserved share;
    `enabledAllocatable: false` lets a task be placed whatever its queue holds. Either lets one
    queue take the cluster, which reclaim then has to win back.

    Example (warning):
        - name: proportion
          enabledOverused: false
    Fix: remove the flag (both default to true) unless that is the intent.
    """
    out = []
    for c in vs.confs:
        for ti, pi, p in _plugins(c):
            if p.get("name") != "proportion":
                continue
            for flag in ("enabledOverused", "enabledAllocatable"):
                if p.get(flag) is False:
                    out.append(c.issue("PRIO712", ("tiers", ti, "plugins", pi, flag),
                                       f"proportion's {flag}: false switches its share check off"))
    return out


@check("PRIO713", "volcano-preempt-not-gated-by-priority", "warning", FAMILY, target="volcano-set")
def preempt_not_gated(vs: VolcanoSet) -> list:
    """The `preempt` action runs but the `priority` plugin's `enablePreemptable` is false.

    Volcano picks victims tier by tier: a tier whose plugins return none hands the choice to the
    next. Without priority's check, `drf` in the next tier chooses by share alone, so a job can
    lose pods to one of the same or lower priority.

    Example (warning):
        actions: "enqueue, allocate, preempt, backfill"
        ...
          - name: priority
            enablePreemptable: false
    Fix: remove `enablePreemptable: false` from the priority plugin.
    """
    out = []
    for c in vs.confs:
        if "preempt" not in _vconf().action_names(c.doc.data):
            continue
        for ti, pi, p in _plugins(c):
            if p.get("name") == "priority" and p.get("enablePreemptable") is False:
                out.append(c.issue("PRIO713", ("tiers", ti, "plugins", pi, "enablePreemptable"),
                                   "preempt runs without priority's victim check: drf chooses victims by share alone"))
    return out


@check("PRIO714", "volcano-object-unreadable", "error", FAMILY, target="volcano-set")
def object_unreadable(vs: VolcanoSet) -> list:
    """An object holds a field the API server would refuse (a weight that is not a number, a
    quantity past int64, a list where Kubernetes has a mapping), or one prio's replay needs and
    lacks (a pod naming no PodGroup).

    An object the API server refuses never reaches Volcano: `kubectl apply` fails. `prio simulate` and
    `prio explain` refuse the file on it (exit 2), so validate says so first, at the same place,
    instead of passing a setup the analysis cannot read. One finding per file: the first field
    that does not read.

    Example (error):
        kind: Queue
        spec: {weight: abc}
    Fix: the type Kubernetes has for the field (an integer weight, a quantity such as "4" or 8Gi).
    """
    from prio.errors import InputError
    from prio.volcano import load as loader

    out = []
    files: dict = {}
    for file, doc in vs.units:
        files.setdefault(file, []).append(doc)
    for file, docs in files.items():
        try:
            loader.load(file, docs)
        except InputError as e:
            if e.line is None:
                continue  # nothing to point at (the analysis still says it)
            pos = Pos(e.line, e.column or 1)
            out.append((file, docs[0], Issue("PRIO714", (), f"simulate and explain cannot read this: {e.message}", "value", None, pos,
                                              "the type Kubernetes has for the field")))
    return out


registry.unit_check("volcano")  # checked with the other Volcano documents of the run
registry.set_check(("volcano",), ("volcano",), set_issues)
