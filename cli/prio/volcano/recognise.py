"""Volcano's documents by their shape alone (issue 47: a backend recognises its own inputs): the
hooks prio.io.documents asks each registry row's recognise module, and the predicates Volcano's
loader and rules share. Volcano reads a file whole (`whole_file`): its Pods and PriorityClasses
beside its Queues and PodGroups are its. Imports nothing of prio (tests/arch/test_backends.py),
so io may ask it."""
from __future__ import annotations

VOLCANO_API_GROUPS = ("scheduling.volcano.sh/", "batch.volcano.sh/")
VOLCANO_CONF_KEY = "volcano-scheduler.conf"

# The top-level keys of its documents besides kind and apiVersion (prio.io.recognise.TOP_KEYS):
# the scheduler config itself.
TOP_KEYS = ("actions", "tiers")
KINDS = ()  # it claims whole files, not documents
CHECKED = ()
LABELS: dict = {}


def is_volcano_object(data) -> bool:
    """A Volcano object (apiVersion scheduling.volcano.sh/... : Queue, PodGroup)."""
    return isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and \
        data["apiVersion"].strip().startswith(VOLCANO_API_GROUPS)


def is_volcano_configmap(data) -> bool:
    """A ConfigMap carrying volcano-scheduler.conf (any name and namespace)."""
    return isinstance(data, dict) and data.get("kind") == "ConfigMap" and isinstance(data.get("data"), dict) \
        and VOLCANO_CONF_KEY in data["data"]


def is_volcano_raw_config(data) -> bool:
    """Volcano's scheduler config itself: no kind, a top-level `actions` or `tiers`."""
    return isinstance(data, dict) and "kind" not in data and ("actions" in data or "tiers" in data) \
        and "partitions" not in data


def whole_file(docs_data) -> bool:
    """Whether a file's documents are Volcano's: any Volcano object or scheduler config among them."""
    return any(is_volcano_object(d) or is_volcano_configmap(d) or is_volcano_raw_config(d) for d in docs_data)
