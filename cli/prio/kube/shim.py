"""What YuniKorn's Kubernetes shim makes of a pod, as pure functions of the pod's fields
(yunikorn-k8shim `pkg/common/utils/utils.go`, `pkg/cache/metadata.go`, `task.go`, `context.go`,
`pkg/common/si_helper.go`). The loader (`prio.yunikorn.load.kubectl`) reads the objects and reports
errors with their positions; the rules themselves live here, once.

- Application id (`GetApplicationIDFromPod`): the first non-empty of label
  `yunikorn.apache.org/app-id`, annotation `yunikorn.apache.org/app-id`, label `applicationId`,
  label `spark-app-selector`; an id ending in `-uniqueautogen` has that suffix replaced once by
  `-<pod uid>`; none: `GenerateApplicationID`.
- Queue (`GetQueueNameFromPod`): label `yunikorn.apache.org/queue`, annotation
  `yunikorn.apache.org/queue`, label `queue`, as written (the core's placement rules read it).
- User (`GetUserFromPod`): the `yunikorn.apache.org/user.info` annotation decoded as Go's
  `encoding/json` decodes it into `{user, groups}`; where it is absent or empty, the label
  `yunikorn.apache.org/username` (no groups), which every release prio knows reads, 1.5 to 1.9.0
  (the shim after v1.9.0 no longer does: YUNIKORN-3311).
- Preemption flags (`Task.isPreemptSelfAllowed`, `isPreemptOtherAllowed`), the placeholder
  flag (`strconv.ParseBool`), the DaemonSet pod's required node (`CreateTagsForTask`).
"""
from __future__ import annotations

import json
import re

SCHEDULER = "yunikorn"  # constants.SchedulerName: only pods naming exactly this are YuniKorn's
APP_ID_SOURCES = (("label", "yunikorn.apache.org/app-id"), ("annotation", "yunikorn.apache.org/app-id"),
                  ("label", "applicationId"), ("label", "spark-app-selector"))
QUEUE_SOURCES = (("label", "yunikorn.apache.org/queue"), ("annotation", "yunikorn.apache.org/queue"), ("label", "queue"))
USER_INFO = "yunikorn.apache.org/user.info"
USER_LABEL = "yunikorn.apache.org/username"  # constants.DefaultUserLabel (conf UserLabelKey: no ConfigMap key sets it)
DEFAULT_USER = "nobody"  # constants.DefaultUser
UNIQUE_SUFFIX = "-uniqueautogen"
ALLOW_PREEMPTION = "yunikorn.apache.org/allow-preemption"
TASK_GROUP_NAME = "yunikorn.apache.org/task-group-name"
TASK_GROUPS = "yunikorn.apache.org/task-groups"
SCHEDULING_POLICY = "yunikorn.apache.org/schedulingPolicyParameters"
PLACEHOLDER = "internal.yunikorn.apache.org/placeholder"
PARENT_QUEUE = "yunikorn.apache.org/parentqueue"  # a Namespace annotation: the tag namespace.parentqueue
NAMESPACE_QUOTA = "yunikorn.apache.org/namespace.quota"
NAMESPACE_GUARANTEED = "yunikorn.apache.org/namespace.guaranteed"
NAMESPACE_MAX_APPS = "yunikorn.apache.org/namespace.maxApps"
CPU_QUOTA = "yunikorn.apache.org/namespace.max.cpu"  # deprecated spellings of the quota
MEM_QUOTA = "yunikorn.apache.org/namespace.max.memory"
QUOTA_TAG, GUARANTEED_TAG, MAX_APPS_TAG = "namespace.resourcequota", "namespace.resourceguaranteed", "namespace.resourcemaxapps"
TERMINATED = ("Succeeded", "Failed")  # utils.IsPodTerminated
# The ConfigMap keys the shim's pkg/conf reads for what it sends the core
GENERATE_UNIQUE_APP_IDS = "admissionController.filtering.generateUniqueAppId"
DISABLE_GANG = "service.disableGangScheduling"

# The core's built-in configuration, used when the ConfigMaps hold no `<policyGroup>.yaml`
# (yunikorn-core configs.DefaultSchedulerConfig): one tag rule on the namespace that creates the
# queue, and root open to everyone.
DEFAULT_CONFIG = """partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
    queues:
      - name: root
        submitacl: '*'
"""


def first_set(labels: dict, annotations: dict, sources) -> tuple[str, str]:
    """The first non-empty value among `sources` ((where, key) pairs) and where it was found
    ("" and "" when none is)."""
    found = {"label": labels, "annotation": annotations}
    for where, key in sources:
        v = found[where].get(key)
        if isinstance(v, str) and v != "":
            return v, f"{where} {key}"
    return "", ""


def generated_app_id(namespace: str, uid: str, unique: bool) -> str:
    """GenerateApplicationID: `yunikorn-<namespace>-autogen`, or with generateUniqueAppIds the
    namespace cut to 26 characters and the pod's uid; either cut to 63 characters."""
    if unique:
        gen = f"{namespace[:26]}{UNIQUE_SUFFIX}" if not uid else f"{namespace[:26]}-{uid}"
    else:
        gen = f"yunikorn-{namespace}-autogen"
    return gen[:63]


def app_id(labels: dict, annotations: dict, namespace: str, uid: str, unique: bool) -> tuple[str, bool]:
    """The pod's application id and whether it was generated (no label or annotation named it)."""
    found, _ = first_set(labels, annotations, APP_ID_SOURCES)
    if found.endswith(UNIQUE_SUFFIX):
        found = f"{found[: -len(UNIQUE_SUFFIX)]}-{uid}"
    if found:
        return found, False
    return generated_app_id(namespace, uid, unique), True


class _Strict(Exception):
    pass


def _no_constant(name):
    raise _Strict(name)  # Go's decoder knows no NaN or Infinity


def _go_field(pairs, fields) -> dict:
    """An object's members as Go's decoder assigns them to a struct: a key names the field it
    equals, else one it equals ignoring case; later members overwrite earlier ones."""
    out: dict = {}
    for k, v in pairs:
        name = next((f for f in fields if k == f), None) or next((f for f in fields if k.casefold() == f), None)
        if name is not None:
            out[name] = v
    return out


def user_info(value) -> tuple[str, tuple, bool]:
    """(user, groups, decoded): the user.info annotation as GetUserFromPod reads it. Go's
    encoding/json into si.UserGroupInformation: keys matched case-insensitively, unknown keys
    ignored, the last of a duplicated key kept, `null` leaving a field unset; anything that
    does not decode (not JSON, not an object, a user that is not a string, groups that are not
    a list of strings) gives the default user without groups. An empty user is the default user,
    the groups kept. `decoded` is False when the value did not decode."""
    if not isinstance(value, str) or value == "":
        return DEFAULT_USER, (), True
    try:
        raw = json.loads(value, object_pairs_hook=lambda p: ("__obj", p), parse_constant=_no_constant)
    except (ValueError, _Strict):
        return DEFAULT_USER, (), False
    if raw is None:
        return DEFAULT_USER, (), True
    if not (isinstance(raw, tuple) and raw[0] == "__obj"):
        return DEFAULT_USER, (), False
    got = _go_field(raw[1], ("user", "groups"))
    user, groups = got.get("user"), got.get("groups")
    if user is not None and not isinstance(user, str):
        return DEFAULT_USER, (), False
    if groups is not None:
        if not isinstance(groups, list) or any(g is not None and not isinstance(g, str) for g in groups):
            return DEFAULT_USER, (), False
        groups = tuple("" if g is None else g for g in groups)  # a null element decodes to ""
    return user or DEFAULT_USER, groups or (), True


def user_of(annotations: dict, labels: dict) -> tuple[str, tuple, bool]:
    """(user, groups, decoded) as GetUserFromPod gives them (v1.5.2 to v1.9.0): the user.info
    annotation when it is set (user_info: one that does not decode is the default user, the
    label is not looked at), else the username label's value when not empty, else the default
    user."""
    value = annotations.get(USER_INFO)
    if isinstance(value, str) and value != "":
        return user_info(value)
    label = labels.get(USER_LABEL)
    if isinstance(label, str) and label != "":
        return label, (), True
    return DEFAULT_USER, (), True


def parse_bool(value) -> bool | None:
    """Go's strconv.ParseBool: None for a value it refuses."""
    if value in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if value in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    return None


def placeholder(annotations: dict) -> bool:
    """GetPlaceholderFlagFromPodSpec: the placeholder annotation through ParseBool."""
    return bool(parse_bool(annotations.get(PLACEHOLDER)))


def allow_preempt_self(annotations: dict, class_annotations: dict | None) -> bool:
    """Task.isPreemptSelfAllowed: the pod's allow-preemption annotation when it is exactly
    `true` or `false`, else its PriorityClass's (exactly `false` forbids), else allowed."""
    v = annotations.get(ALLOW_PREEMPTION)
    if v == "true":
        return True
    if v == "false":
        return False
    return not (class_annotations or {}).get(ALLOW_PREEMPTION) == "false"


def required_node(spec: dict, owners) -> str:
    """CreateTagsForTask's required node: for a pod a DaemonSet owns, the first value of the
    last `matchFields` requirement on `metadata.name` of its required node affinity ("" when
    there is none)."""
    if not any(isinstance(o, dict) and o.get("kind") == "DaemonSet" for o in owners or ()):
        return ""
    aff = ((spec.get("affinity") or {}).get("nodeAffinity") or {}) if isinstance(spec.get("affinity"), dict) else {}
    req = aff.get("requiredDuringSchedulingIgnoredDuringExecution") if isinstance(aff, dict) else None
    found = ""
    for term in (req or {}).get("nodeSelectorTerms") or () if isinstance(req, dict) else ():
        for m in (term or {}).get("matchFields") or () if isinstance(term, dict) else ():
            if isinstance(m, dict) and m.get("key") == "metadata.name" and m.get("values"):
                found = str(m["values"][0])
    return found


def _resource(quantities: dict) -> dict | None:
    """common.GetResource: a map of Kubernetes quantities in YuniKorn's units, or None when one
    of them does not parse (the whole map is then ignored)."""
    from prio.kube import quantity as kq

    out = {}
    for name, text in quantities.items():
        try:
            key, value = kq.as_sent(str(name), text)
        except kq.QuantityError:
            return None
        out[key] = value
    return out


def _string_map(text: str) -> dict | None:
    """A JSON object of strings, as Go's json.Unmarshal into map[string]string takes it."""
    try:
        m = json.loads(text, parse_constant=_no_constant)
    except (ValueError, _Strict):
        return None
    if m is None:
        return {}
    if not isinstance(m, dict) or not all(isinstance(v, str) or v is None for v in m.values()):
        return None
    return {k: v or "" for k, v in m.items()}


def _as_tag(res: dict | None) -> str | None:
    """A resource as the tag carries it: si.Resource marshalled by Go (keys sorted); None for
    none or one of zeros (common.IsZero: the shim sends no tag)."""
    if not res or all(v == 0 for v in res.values()):
        return None
    return json.dumps({"resources": {k: {"value": res[k]} for k in sorted(res)}}, separators=(",", ":"))


def namespace_tags(annotations: dict) -> dict:
    """The application tags Context.updateApplicationTags takes from the pod's Namespace: the
    quota (`namespace.quota`, else the deprecated `namespace.max.cpu` / `.max.memory`), the
    guaranteed resources, maxApps (a non-negative integer) and the parent queue."""
    tags = {}
    quota = None
    if annotations.get(NAMESPACE_QUOTA):
        m = _string_map(annotations[NAMESPACE_QUOTA])
        quota = _resource(m) if m is not None else None
    elif annotations.get(CPU_QUOTA) or annotations.get(MEM_QUOTA):
        quota = _resource({k: v for k, v in (("cpu", annotations.get(CPU_QUOTA)), ("memory", annotations.get(MEM_QUOTA))) if v})
    if _as_tag(quota):
        tags[QUOTA_TAG] = _as_tag(quota)
    if annotations.get(NAMESPACE_GUARANTEED):
        m = _string_map(annotations[NAMESPACE_GUARANTEED])
        guaranteed = _resource(m) if m is not None else None
        if _as_tag(guaranteed):
            tags[GUARANTEED_TAG] = _as_tag(guaranteed)
    apps = annotations.get(NAMESPACE_MAX_APPS)
    if apps and re.fullmatch(r"[+-]?[0-9]+", apps) and int(apps) >= 0:
        tags[MAX_APPS_TAG] = apps
    if annotations.get(PARENT_QUEUE):
        tags["namespace.parentqueue"] = str(annotations[PARENT_QUEUE])
    return tags


def tag_resource(value: str | None) -> dict | None:
    """Application.getResourceFromTags: the resource a quota or guaranteed tag carries, None
    when there is none, it does not parse, or it is not strictly greater than zero."""
    if not value:
        return None
    try:
        data = json.loads(value)
        res = {str(k): int(v.get("value", 0)) for k, v in (data.get("resources") or {}).items()}
    except (ValueError, AttributeError, TypeError):
        return None
    # StrictlyGreaterThanZero: one amount above zero and none below
    return res if any(v > 0 for v in res.values()) and not any(v < 0 for v in res.values()) else None


def settings(data: dict) -> dict:
    """What the shim's pkg/conf reads from the merged ConfigMaps for what it sends the core:
    `generateUniqueAppIds` and `disableGangScheduling` (ParseBool; a value it refuses keeps the
    default, false)."""
    return {"generateUniqueAppIds": bool(parse_bool(data.get(GENERATE_UNIQUE_APP_IDS))),
            "disableGangScheduling": bool(parse_bool(data.get(DISABLE_GANG)))}


# ---- gang scheduling: the originator pod's annotations ----------------------------------------

GANG_STYLES = ("Soft", "Hard")  # constants.SchedulingPolicyStyleParamValues; anything else is Soft


class _Obj(list):
    """A JSON object's members in order (object_pairs_hook), told apart from a JSON list."""


def task_groups(text: str | None) -> list:
    """GetTaskGroupsFromAnnotation: the annotation's task groups as (name, minMember, minResource:
    in YuniKorn's units, `cpu` as vcore, plus the `pods: 1` the shim adds to every pod it
    reports), or [] when the shim takes none (decode_task_groups says why)."""
    return decode_task_groups(text)[0]


def decode_task_groups(text: str | None) -> tuple[list, str | None]:
    """GetTaskGroupsFromAnnotation: (task groups, None), or ([], why) when the shim refuses the
    annotation: JSON that does not decode into its struct, a group without name or minResource,
    a minMember that is not positive, a negative quantity, two names for one resource (cpu and
    vcore, or an explicit pods), a request past int64 (validateTaskGroupResources). The shim
    then logs the error, records a TaskGroupsError warning event on the pod and creates the
    application without task groups. No annotation (or JSON null): ([], None)."""
    from prio.kube import quantity as kq

    if not text:
        return [], None
    try:
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=lambda p: _Obj(p))
    except (ValueError, _Strict) as e:
        return [], f"not JSON: {e}" if isinstance(e, ValueError) else f"not JSON: {e.args[0]} is no JSON value"
    if data is None:
        return [], None
    if not isinstance(data, list) or isinstance(data, _Obj):
        return [], "not a JSON list of task groups"
    decoded = []
    for n, item in enumerate(data, 1):  # json.Unmarshal: the whole value decodes first
        if not isinstance(item, _Obj):
            return [], f"task group {n} is not a JSON object"
        g = _go_field(item, ("name", "minmember", "minresource"))  # (matched ignoring case)
        name, members, res = g.get("name"), g.get("minmember", 0), g.get("minresource")
        if name is not None and not isinstance(name, str):
            return [], f"task group {n}: name is not a string"
        if members is not None and (isinstance(members, bool) or not isinstance(members, int) or not -(1 << 31) <= members < (1 << 31)):
            return [], f"task group {n}: minMember is not an int32"  # a fraction, a string or past int32 does not decode
        if res is not None and not isinstance(res, _Obj):
            return [], f"task group {n}: minResource is not an object of quantities"
        for key, q in res or ():
            if q is None:  # Quantity.UnmarshalJSON: null is zero
                continue
            if (not isinstance(q, (str, int, float)) or isinstance(q, bool)):
                return [], f"task group {n}: minResource {key} is not a quantity"
            try:
                kq.parse(q if isinstance(q, str) else str(q))
            except kq.QuantityError:
                return [], f"task group {n}: minResource {key}: {q!r} is not a quantity"
        decoded.append((name or "", members or 0, res))
    out = []
    totals: dict = {}
    for name, members, res in decoded:
        if not name:
            return [], "can't get taskGroup Name from pod annotation"
        if res is None:
            return [], "can't get taskGroup MinResource from pod annotation"
        if members == 0:
            return [], "can't get taskGroup MinMember from pod annotation"
        if members < 0:
            return [], "minMember cannot be negative"
        if totals.get("pods", 0) > kq.INT64_MAX - members:
            return [], 'aggregate placeholder request for "pods" overflows int64 across taskGroups'
        totals["pods"] = totals.get("pods", 0) + members
        minimum = {"pods": 1}
        for key, q in res:
            key, q = str(key), 0 if q is None else q
            d = kq.parse(q if isinstance(q, str) else str(q))
            if d < 0:
                return [], f"minResource {key!r} in taskGroup {name!r} cannot be negative"
            k, v = kq.as_sent(key, q)
            if k in minimum:  # cpu with vcore, or pods: GetTGResource would let one overwrite the other
                return [], f"minResource {key!r} in taskGroup {name!r} collides with another resource under canonical key {k!r}"
            if d > kq.INT64_MAX // (members * (1000 if key == "cpu" else 1)):
                return [], f"minResource {key!r} in taskGroup {name!r} overflows int64 when scaled by minMember {members}"
            if totals.get(k, 0) > kq.INT64_MAX - members * v:
                return [], f"aggregate placeholder request for {k!r} overflows int64 across taskGroups"
            totals[k] = totals.get(k, 0) + members * v
            minimum[k] = v
        out.append((name, members, minimum))
    return out, None


def scheduling_policy(text: str | None) -> tuple[str, int]:
    """GetSchedulingPolicyParam: (gangSchedulingStyle, placeholderTimeoutInSeconds) from
    `key=value` parameters separated by spaces; a malformed part is skipped, a timeout that is not
    an integer is 0, an unknown style Soft."""
    style, timeout = "Soft", 0
    for part in (text or "").split(" "):
        kv = part.split("=")
        if len(kv) != 2:
            continue
        if kv[0] == "placeholderTimeoutInSeconds":
            timeout = int(kv[1]) if re.fullmatch(r"[+-]?[0-9]+", kv[1]) and -(1 << 63) <= int(kv[1]) < (1 << 63) else 0
        elif kv[0] == "gangSchedulingStyle":
            style = kv[1] if kv[1] in GANG_STYLES else "Soft"
    return style, timeout
