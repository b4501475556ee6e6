"""Lint Armada's own queue definitions (`apiVersion: armadaproject.io/v1beta1`, `kind: Queue`).

`armadactl create -f FILE` decodes one JSON or YAML document with Kubernetes' YAMLOrJSONDecoder
into `pkg/client/queue.Queue`: Go's encoding/json underneath, so keys match field names without
regard to case, unknown keys are dropped silently, and a value of the wrong type fails the whole
file. The server then refuses a priorityFactor below 1.0, a permission subject kind other than
Group or User, and an empty label key or value. Severity follows the project's rule: what Armada
refuses is an error; what it accepts but ignores or misreads is a warning.

prio also reads a `kind: List` / `kind: QueueList` with `items:` (or `queues:`), a bare YAML list of
queues, and multi-document files (each document linted on its own), so one file can hold every
queue; armadactl itself creates one queue per file.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.armada.load_queues import (
    API_VERSION,
    CONTAINER_KEYS,
    DEPRECATED,
    ENVELOPE,
    HINTS,
    KINDS,
    LIST_KINDS,
    QUEUE_FIELDS,
    SUBJECT_KINDS,
    VERBS,
    canonical_fields,
    queue_items,
)
from prio.diagnostics import Issue
from prio.io.document import Document
from prio.lint import registry
from prio.lint.registry import check, run
from prio.values import describe

registry.target("armada-queue", "one Armada Queue document: the lint context of its items")


@dataclass
class LintContext:
    doc: Document
    items: list = field(default_factory=list)  # [QueueItem]

    @property
    def data(self):
        return self.doc.data

    def queues(self):
        """(item, mapping, canonical fields) for every queue item that is a mapping."""
        for item in self.items:
            if item.is_queue and isinstance(item.data, dict):
                yield item, item.data, canonical_fields(item.data)


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# ---- rules ---------------------------------------------------------------------------------------

@check("PRIO401", "armada-priority-factor-below-one", "error", "armada", target="armada-queue")
def priority_factor_below_one(ctx: LintContext) -> list:
    """An Armada queue's priorityFactor is below 1.0, or missing.

    Armada refuses such a queue: `NewPriorityFactor` fails with "priority factor cannot be lower
    than 1.0" (since January 2022; armadactl's help still says "must be > 0"). A missing
    priorityFactor decodes as 0 and is refused the same way. The factor multiplies the queue's
    priority, so a lower factor means a larger share: 1 is the best a queue can have.

    Example (error):
        apiVersion: armadaproject.io/v1beta1
        kind: Queue
        name: analytics
        priorityFactor: 0.5
    Fix: use 1 for the most favoured queues and larger factors (2, 3, ...) for the others.
    """
    out = []
    for item, data, f in ctx.queues():
        key = f.get("priorityFactor")
        if key is None or data[key] is None:
            out.append(Issue("PRIO401", item.path + ((key,) if key else ()),
                             "no priorityFactor: Armada decodes it as 0 and refuses the queue (priority factor "
                             "cannot be lower than 1.0)"))
        elif _num(data[key]) and data[key] < 1:
            out.append(Issue("PRIO401", item.path + (key,),
                             f"priorityFactor {data[key]:g} is below 1.0: Armada refuses the queue"))
    return out


@check("PRIO402", "armada-resource-limits-ignored", "warning", "armada", target="armada-queue")
def resource_limits_ignored(ctx: LintContext) -> list:
    """An Armada queue sets `resourceLimits`, which Armada ignores.

    The per-queue `resourceLimits` map (fractions of the cluster) belonged to Armada's legacy
    scheduler. It is deprecated in the API ("These are ignored and should be removed") and
    armadactl's Queue no longer has the field, so the decoder drops it silently, although
    Armada's own example/queue.yaml still shows it. prio's legacy model (explain/simulate) still
    applies it, as Armada up to 2022 did.

    Example (warns):
        apiVersion: armadaproject.io/v1beta1
        kind: Queue
        name: analytics
        priorityFactor: 1
        resourceLimits: {cpu: 0.2, memory: 0.1}
    Fix: remove it; limit a queue per priority class with ResourceLimitsByPriorityClassName
    (maximumResourceFraction), or globally in the scheduler configuration.
    """
    out = []
    for item, data, _ in ctx.queues():
        for key in data:
            if isinstance(key, str) and key.lower() == DEPRECATED.lower():
                out.append(Issue("PRIO402", item.path + (key,),
                                 "resourceLimits is deprecated and ignored by Armada; limit the queue per "
                                 "priority class with ResourceLimitsByPriorityClassName instead", at="key"))
    return out


def _unknown(path: tuple, key, known: tuple) -> Issue:
    hint = HINTS.get(str(key).lower())
    if hint is None:
        import difflib  # lazy: kept off the start-up of validate
        close = difflib.get_close_matches(str(key), list(known), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
    return Issue("PRIO403", path + (key,), f"unknown key {key!r}: Armada's decoder drops it silently; {hint}", at="key")


def _known(key, known: tuple) -> bool:
    return isinstance(key, str) and any(key.lower() == k.lower() for k in known)


@check("PRIO403", "armada-unknown-key", "warning", "armada", target="armada-queue")
def unknown_key(ctx: LintContext) -> list:
    """A key Armada does not know, in a queue, a permission or a subject.

    armadactl decodes queue files with Kubernetes' YAMLOrJSONDecoder, which is not strict: an
    unknown key (a typo such as `priorityfactr`, or `userOwners` copied from `armadactl get queue`
    output) is dropped without a word, and whatever it meant to set keeps its default. Keys
    match field names without regard to case, as Go's encoding/json does.

    Example (warns):
        apiVersion: armadaproject.io/v1beta1
        kind: Queue
        name: analytics
        priorityFactr: 2
    Fix: correct the spelling, or remove the key. The fields are name, priorityFactor,
    permissions (subjects with kind and name, verbs), cordoned, labels, retryPolicies and
    ResourceLimitsByPriorityClassName.
    """
    out = []
    data = ctx.data
    if isinstance(data, dict) and data.get("kind") in LIST_KINDS:
        for key in data:
            if not _known(key, CONTAINER_KEYS):
                out.append(_unknown((), key, CONTAINER_KEYS))
    for item, q, _ in ctx.queues():
        allowed = QUEUE_FIELDS + ENVELOPE
        for key in q:
            if not _known(key, allowed) and not _known(key, (DEPRECATED,)):
                out.append(_unknown(item.path, key, allowed))
        perms = q.get(canonical_fields(q).get("permissions", "permissions"))
        if isinstance(perms, list):
            for i, p in enumerate(perms):
                if not isinstance(p, dict):
                    continue
                for key in p:
                    if not _known(key, ("subjects", "verbs")):
                        out.append(_unknown(item.path + ("permissions", i), key, ("subjects", "verbs")))
                subjects = next((p[k] for k in p if isinstance(k, str) and k.lower() == "subjects"), None)
                if isinstance(subjects, list):
                    for j, s in enumerate(subjects):
                        if isinstance(s, dict):
                            for key in s:
                                if not _known(key, ("kind", "name")):
                                    out.append(_unknown(item.path + ("permissions", i, "subjects", j), key, ("kind", "name")))
    return out


@check("PRIO404", "armada-invalid-header", "error", "armada", target="armada-queue")
def invalid_header(ctx: LintContext) -> list:
    """An Armada queue file whose apiVersion or kind armadactl does not accept.

    `armadactl create -f` reads apiVersion and kind first and stops with "invalid resource field
    'apiVersion'" unless it is exactly armadaproject.io/v1beta1, and with "invalid resource kind"
    unless kind is Queue or RetryPolicy (case matters). Items of a List may leave both out; if
    they give them, the same values apply.

    Example (error):
        apiVersion: armadaproject.io/v1
        kind: queue
        name: analytics
        priorityFactor: 1
    Fix: apiVersion: armadaproject.io/v1beta1 and kind: Queue.
    """
    out = []
    for item in ctx.items:
        data = item.data
        if not isinstance(data, dict):
            continue
        f = canonical_fields(data)
        api = data.get(f["apiVersion"]) if "apiVersion" in f else None
        kind = data.get(f["kind"]) if "kind" in f else None
        if item.standalone or api is not None:
            if api is None:
                out.append(Issue("PRIO404", item.path, f"missing apiVersion: armadactl requires {API_VERSION}"))
            elif api != API_VERSION:
                out.append(Issue("PRIO404", item.path + (f["apiVersion"],),
                                 f"apiVersion {api!r} is not {API_VERSION}: armadactl refuses the file"))
        if item.standalone or kind is not None:
            if kind is None:
                out.append(Issue("PRIO404", item.path, "missing kind: armadactl requires kind: Queue"))
            elif kind not in KINDS:
                close = [k for k in KINDS if isinstance(kind, str) and k.lower() == kind.lower()]
                hint = f"; did you mean {close[0]}?" if close else ""
                out.append(Issue("PRIO404", item.path + (f["kind"],),
                                 f"kind {kind!r} is not Queue or RetryPolicy: armadactl refuses the file{hint}"))
    return out


@check("PRIO405", "armada-queue-name-missing", "warning", "armada", target="armada-queue")
def queue_name_missing(ctx: LintContext) -> list:
    """An Armada queue without a name.

    Neither armadactl nor the server checks that a queue has a name: the file is accepted and a
    queue with an empty name is stored, which no job submission can address. prio cannot use
    such a queue either.

    Example (warns):
        apiVersion: armadaproject.io/v1beta1
        kind: Queue
        priorityFactor: 1
    Fix: add `name: <queue>` at the top level of the queue (not under metadata).
    """
    out = []
    for item, data, f in ctx.queues():
        key = f.get("name")
        value = data.get(key) if key else None
        if value is None or (isinstance(value, str) and not value.strip()):
            out.append(Issue("PRIO405", item.path + ((key,) if key else ()),
                             "this queue has no name: Armada stores it with an empty name that no job can use"))
    return out


def _type_issues(path: tuple, value, expect: str) -> list:
    """Type problems of one value against a tiny schema language:
    str, bool, number, [T] (list of T), {T} (map of str to T), or a named object."""
    if value is None:
        return []  # JSON null leaves the zero value
    if expect == "str":
        ok = isinstance(value, str)
    elif expect == "bool":
        ok = isinstance(value, bool)
    elif expect == "number":
        ok = _num(value)
    elif expect.startswith("["):
        if not isinstance(value, list):
            return [Issue("PRIO406", path, f"expected a list, found {_what(value)}: Armada's decoder refuses the file")]
        out = []
        for i, v in enumerate(value):
            out += _type_issues(path + (i,), v, expect[1:-1])
        return out
    elif expect.startswith("{"):
        if not isinstance(value, dict):
            return [Issue("PRIO406", path, f"expected a mapping, found {_what(value)}: Armada's decoder refuses the file")]
        out = []
        for k, v in value.items():
            out += _type_issues(path + (k,), v, expect[1:-1])
        return out
    elif expect in OBJECTS:
        if not isinstance(value, dict):
            return [Issue("PRIO406", path, f"expected a mapping, found {_what(value)}: Armada's decoder refuses the file")]
        out = []
        for fname, ftype in OBJECTS[expect].items():
            key = next((k for k in value if isinstance(k, str) and k.lower() == fname.lower()), None)
            if key is not None:
                out += _type_issues(path + (key,), value[key], ftype)
        return out
    else:  # pragma: no cover - schema typo
        raise ValueError(expect)
    if ok:
        return []
    names = {"str": "a string", "bool": "true or false", "number": "a number"}
    return [Issue("PRIO406", path, f"expected {names[expect]}, found {_what(value)}: Armada's decoder refuses the file")]


OBJECTS = {
    "subject": {"kind": "str", "name": "str"},
    "permission": {"subjects": "[subject]", "verbs": "[str]"},
    "poolLimits": {"maximumResourceFraction": "{number}"},
    "pcLimits": {"maximumResourceFraction": "{number}", "maximumResourceFractionByPool": "{poolLimits}"},
}
FIELD_TYPES = {"name": "str", "priorityFactor": "number", "permissions": "[permission]", "cordoned": "bool",
               "labels": "{str}", "retryPolicies": "[str]", "ResourceLimitsByPriorityClassName": "{pcLimits}",
               "apiVersion": "str", "kind": "str"}


def _what(value) -> str:
    return "a boolean" if isinstance(value, bool) else describe(value)


@check("PRIO406", "armada-invalid-field-type", "error", "armada", target="armada-queue")
def invalid_field_type(ctx: LintContext) -> list:
    """A queue field holds a value of the wrong type.

    armadactl decodes the file into typed Go fields through encoding/json: a string where a
    number belongs (`priorityFactor: "2"`), a number or boolean as a label value, or a single
    value where a list belongs fails the whole file ("cannot unmarshal ... into Go struct
    field"). Quoting matters: `"2"` is a string, `2` a number, `yes`/`true` a boolean.

    Example (error):
        apiVersion: armadaproject.io/v1beta1
        kind: Queue
        name: analytics
        priorityFactor: "2"
        labels: {tier: 1}
    Fix: priorityFactor: 2 and labels: {tier: "1"}.
    """
    out = []
    data = ctx.data
    if isinstance(data, dict) and data.get("kind") in LIST_KINDS:
        key = "items" if "items" in data else "queues"
        if not isinstance(data.get(key), list):
            out.append(Issue("PRIO406", (key,) if key in data else (),
                             f"a {data.get('kind')} needs its queues as a list under items:"))
    for item in ctx.items:
        if not item.is_queue:
            continue
        if not isinstance(item.data, dict):
            out.append(Issue("PRIO406", item.path, f"expected a queue mapping, found {_what(item.data)}"))
            continue
        f = canonical_fields(item.data)
        for fname, key in f.items():
            out += _type_issues(item.path + (key,), item.data[key], FIELD_TYPES[fname])
    return out


def _permissions(item_path: tuple, data: dict):
    f = canonical_fields(data)
    perms = data.get(f["permissions"]) if "permissions" in f else None
    if not isinstance(perms, list):
        return
    for i, p in enumerate(perms):
        if isinstance(p, dict):
            yield item_path + (f["permissions"], i), p


@check("PRIO407", "armada-invalid-permission-subject", "error", "armada", target="armada-queue")
def invalid_permission_subject(ctx: LintContext) -> list:
    """A permission subject whose kind is not Group or User.

    Armada maps each subject's kind with NewPermissionSubjectKind, which accepts exactly "Group"
    and "User" (case matters) and otherwise fails with "invalid kind value"; the queue is
    refused.

    Example (error):
        permissions:
          - subjects: [{kind: group, name: analysts}]
            verbs: [submit]
    Fix: kind: Group (or User).
    """
    out = []
    for item, data, _ in ctx.queues():
        for ppath, p in _permissions(item.path, data):
            skey = next((k for k in p if isinstance(k, str) and k.lower() == "subjects"), None)
            subjects = p.get(skey) if skey else None
            if not isinstance(subjects, list):
                continue
            for j, s in enumerate(subjects):
                if not isinstance(s, dict):
                    continue
                kkey = next((k for k in s if isinstance(k, str) and k.lower() == "kind"), None)
                kind = s.get(kkey) if kkey else None
                if isinstance(kind, str) and kind in SUBJECT_KINDS:
                    continue
                if kind is not None and not isinstance(kind, str):
                    continue  # PRIO406
                spath = ppath + (skey, j) + ((kkey,) if kkey else ())
                close = [k for k in SUBJECT_KINDS if isinstance(kind, str) and k.lower() == kind.lower()]
                hint = f"; did you mean {close[0]}?" if close else ""
                shown = "no kind" if kind is None else f"kind {kind!r}"
                out.append(Issue("PRIO407", spath, f"permission subject has {shown}: Armada accepts only Group or User "
                                                   f"and refuses the queue{hint}"))
    return out


@check("PRIO408", "armada-unknown-permission-verb", "warning", "armada", target="armada-queue")
def unknown_permission_verb(ctx: LintContext) -> list:
    """A permission verb Armada does not know.

    Armada stores any string as a verb but only ever checks submit, cancel, preempt,
    reprioritize and watch; any other verb (a typo, a wildcard such as "*", or Kubernetes' verbs
    such as "create") grants nothing.

    Example (warns):
        permissions:
          - subjects: [{kind: Group, name: analysts}]
            verbs: [submit, "*"]
    Fix: list the verbs explicitly: submit, cancel, preempt, reprioritize, watch.
    """
    out = []
    for item, data, _ in ctx.queues():
        for ppath, p in _permissions(item.path, data):
            vkey = next((k for k in p if isinstance(k, str) and k.lower() == "verbs"), None)
            verbs = p.get(vkey) if vkey else None
            if not isinstance(verbs, list):
                continue
            for j, v in enumerate(verbs):
                if isinstance(v, str) and v not in VERBS:
                    import difflib  # lazy: kept off the start-up of validate
                    close = difflib.get_close_matches(v.lower(), list(VERBS), n=1, cutoff=0.6)
                    hint = f"; did you mean {close[0]!r}?" if close else f"; Armada's verbs are {', '.join(VERBS)}"
                    out.append(Issue("PRIO408", ppath + (vkey, j), f"verb {v!r} grants nothing{hint}"))
    return out


@check("PRIO409", "armada-empty-label", "error", "armada", target="armada-queue")
def empty_label(ctx: LintContext) -> list:
    """A queue label with an empty key or value.

    Armada requires queue labels to be Kubernetes-like key/value pairs and refuses the queue with
    "queue labels must not have an empty key or value".

    Example (error):
        labels: {team: ""}
    Fix: give every label a non-empty key and value, or remove it.
    """
    out = []
    for item, data, f in ctx.queues():
        labels = data.get(f["labels"]) if "labels" in f else None
        if not isinstance(labels, dict):
            continue
        for k, v in labels.items():
            if str(k) == "" or (isinstance(v, str) and v == "") or v is None:
                out.append(Issue("PRIO409", item.path + (f["labels"], k),
                                 f"label {str(k)!r} has an empty key or value: Armada refuses the queue"))
    return out


@check("PRIO410", "armada-duplicate-queue", "warning", "armada", target="armada-queue")
def duplicate_queue(ctx: LintContext) -> list:
    """The same queue name is defined twice in one list.

    Armada stores queues by name (create is an upsert), so the later definition silently
    replaces the earlier one.

    Example (warns):
        kind: List
        items:
          - {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 1}
          - {apiVersion: armadaproject.io/v1beta1, kind: Queue, name: a, priorityFactor: 3}
    Fix: keep one definition per queue.
    """
    out = []
    seen: dict = {}
    for item, data, f in ctx.queues():
        name = data.get(f["name"]) if "name" in f else None
        if not isinstance(name, str) or not name:
            continue
        if name in seen:
            out.append(Issue("PRIO410", item.path + (f["name"],),
                             f"queue {name!r} is already defined at {_describe(seen[name])}; this definition "
                             "replaces it"))
        else:
            seen[name] = item.path
    return out


def _describe(path: tuple) -> str:
    from prio.diagnostics import format_path

    return format_path(path) or "the top"


def lint_queue_document(doc: Document) -> list[Issue]:
    """Every armada-family finding for one document (a Queue, a List/QueueList, or a bare list)."""
    ctx = LintContext(doc, queue_items(doc.data))
    return run("armada-queue", ctx)


registry.unit_check("armada-queue", lint_queue_document)
