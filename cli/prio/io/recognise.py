"""What a parsed document is, by its shape alone: the predicates `prio.io.documents.kind_of`
uses to recognise YuniKorn's and Kubernetes' inputs, kept apart from the loaders that read each
kind (each other scheduler's are its package's: prio.backends' `recognise` modules)."""
from __future__ import annotations

import re

from prio import backends

# What YuniKorn's GET /ws/v1/config adds to the queues.yaml it serves (strict decoding refuses them).
REST_CONFIG_EXTRA = ("extra", "deadlockdetectionenabled", "deadlocktimeoutseconds")


def is_rest_config(data) -> bool:
    """A saved /ws/v1/config YAML answer: a queues.yaml plus the keys the REST API adds."""
    return isinstance(data, dict) and isinstance(data.get("partitions"), list) and \
        {"deadlockdetectionenabled", "deadlocktimeoutseconds"} <= set(data) and \
        set(data) <= {"partitions", "checksum", *REST_CONFIG_EXTRA}


def queue_config_part(data: dict) -> dict:
    """A /ws/v1/config answer without the keys the REST API adds: the queues.yaml YuniKorn runs."""
    return {k: v for k, v in data.items() if k not in REST_CONFIG_EXTRA}


# The YuniKorn Helm chart's values: `yunikornDefaults` is rendered into the yunikorn-defaults
# ConfigMap's data (its `queues.yaml`, or `<service.policyGroup>.yaml`); `configuration` is the
# deprecated string rendered there as queues.yaml unless yunikornDefaults has a queues.yaml.
HELM_DEFAULTS, HELM_CONFIGURATION = "yunikornDefaults", "configuration"


def is_helm_values(data) -> bool:
    """A values file of YuniKorn's Helm chart: yunikornDefaults (a mapping) or configuration (a
    string), and no queue config or Kubernetes object of its own."""
    if not isinstance(data, dict) or "partitions" in data or "kind" in data or "apiVersion" in data:
        return False
    return isinstance(data.get(HELM_DEFAULTS), dict) or isinstance(data.get(HELM_CONFIGURATION), str)


def is_native(data) -> bool:
    """A prio snapshot: a mapping with an `applications` list and no Kubernetes `kind`."""
    return isinstance(data, dict) and isinstance(data.get("applications"), list) and "kind" not in data


def is_queue_object(d) -> bool:
    return isinstance(d, dict) and isinstance(d.get("queuename"), str) and "applicationID" not in d


def is_queues_dump(data) -> bool:
    """A `/ws/v1/partition/{p}/queues` (or `/queue/{q}`) response: one object with `queuename`,
    or the site docs' array holding it."""
    if is_queue_object(data):
        return True
    return isinstance(data, list) and len(data) >= 1 and all(is_queue_object(d) for d in data)


def is_app_object(d) -> bool:
    return isinstance(d, dict) and isinstance(d.get("applicationID"), str) and "queuename" not in d


def is_apps_dump(data) -> bool:
    """A list of ApplicationDAOInfo (the applications endpoints), or one (`/application/{id}`)."""
    if is_app_object(data):
        return True
    return isinstance(data, list) and len(data) >= 1 and all(is_app_object(d) for d in data)


NOT_POD_LISTS = ("ConfigMap", "Queue", "QueueList")


def _is_object(d, kind: str, bare: bool, part: str, field: str) -> bool:
    """An object of `kind`; in a typed list (PodList, NodeList) the API leaves out each item's
    kind (`bare`): then one holding `field` in its `part` (spec, status)."""
    if not isinstance(d, dict):
        return False
    if d.get("kind") == kind:
        return True
    return bare and "kind" not in d and isinstance(d.get(part), dict) and field in d[part]


def is_pod(d, bare: bool = False) -> bool:
    """A Pod object; in a PodList the API leaves out each item's kind (`bare`)."""
    return _is_object(d, "Pod", bare, "spec", "containers")


def is_pod_list(data) -> bool:
    """`kubectl get pods -o json|yaml`: a List (or PodList) holding Pods, maybe with
    PriorityClasses or other objects alongside (not ConfigMaps), or a single Pod."""
    got = _listed(data, "Pod", "PodList")
    if not isinstance(got, tuple):
        return got
    items, bare = got
    if not any(is_pod(i, bare) for i in items):
        return False
    return not any(isinstance(i, dict) and i.get("kind") in NOT_POD_LISTS for i in items)


def _listed(data, kind: str, list_kind: str):
    """What `kubectl get` wrote: True for one object of `kind`, (its items, whether they are
    bare: a list_kind leaves out each item's kind) for a List or list_kind holding some, else
    False."""
    if not isinstance(data, dict):
        return False
    got = data.get("kind")
    if got == kind:
        return True
    items = data.get("items")
    if got not in ("List", list_kind) or not isinstance(items, list) or not items:
        return False
    return items, got == list_kind


def is_node(d, bare: bool = False) -> bool:
    """A Node object; in a NodeList the API leaves out each item's kind (`bare`)."""
    return _is_object(d, "Node", bare, "status", "allocatable")


def is_node_list(data) -> bool:
    """`kubectl get nodes -o json|yaml`: a List (or NodeList) of Nodes only, or a single Node.
    (Nodes in a List beside Pods make a pod list: the pods are read with their nodes.)"""
    got = _listed(data, "Node", "NodeList")
    if not isinstance(got, tuple):
        return got
    items, bare = got
    return all(is_node(i, bare) for i in items)


# Every document prio reads has one of these keys at its top level (the predicates above,
# prio.io.endpoints.identify for the REST answers it names, and each backend's recognise module):
# a mapping with none is no input.
# (name, module) of each other scheduler's recognise module, in the registry's order: read once
# here, asked by prio.io.documents
RECOGNISERS = backends.recognisers()
TOP_KEYS = ("partitions", "applications", "kind", "apiVersion", "queuename", "applicationID",
            "timestamp", "Healthy", "HealthChecks", "Partitions", "nodeID",
            *(k for _, r in RECOGNISERS for k in r.TOP_KEYS))
# Each pattern starts with the line break before a line: the regular-expression engine then
# skips to line starts by itself (a 27 MB text in a fraction of a second; `^` with re.M tries
# every position).
_TOP_KEY = re.compile(r"""\n["']?(?:""" + "|".join(TOP_KEYS) + r""")["']?[ \t]*:""")
# What makes a text's top level hard to read line by line: documents, directives, merge keys,
# complex keys, anchors, aliases, tags, flow collections, sequences, block scalars, tabs.
_UNSURE = re.compile(r"\n(?:---|\.\.\.|[%?*&!\[{|>\-\t]|<<)")
_SKIP = re.compile(r"[ \t]*(?:#[^\n]*)?\n")  # a blank or comment line


def surely_no_input(text: str) -> bool:
    """Whether a YAML text is, without parsing it, a block mapping none of whose top-level keys
    any input prio reads has (a big YAML that is something else: a Helm chart's values, an
    inventory). False whenever that is not certain: the caller then parses as usual. Costs two
    regular-expression scans, against seconds and gigabytes for parsing a big file whole."""
    start = 0
    while True:  # the first line with content must start a mapping at column 0
        m = _SKIP.match(text, start)
        if not m:
            break
        start = m.end()
    end = text.find("\n", start)
    first = "\n" + text[start:end if end >= 0 else len(text)]
    if first[1:2] in ("", " ", '"', "'") or ":" not in first or _UNSURE.match(first) or _TOP_KEY.match(first):
        return False
    return not (_TOP_KEY.search(text, start) or _UNSURE.search(text, start))
