"""Armada Queue manifests (`apiVersion: armadaproject.io/v1beta1`, `kind: Queue`, a `kind: List`
or `QueueList` of them, or a bare list) -> their queue items and fields, as `armadactl` decodes
them (Go's encoding/json: keys match field names without regard to case)."""
from __future__ import annotations

from dataclasses import dataclass

from prio.armada.recognise import _is_armada_header, is_queue_manifest  # noqa: F401 - recognised by shape

API_VERSION = "armadaproject.io/v1beta1"
KINDS = ("Queue", "RetryPolicy")
LIST_KINDS = ("List", "QueueList")
# pkg/client/queue.Queue: json names (ResourceLimitsByPriorityClassName has no json tag).
QUEUE_FIELDS = ("name", "permissions", "priorityFactor", "ResourceLimitsByPriorityClassName", "cordoned",
                "labels", "retryPolicies")
ENVELOPE = ("apiVersion", "kind")
DEPRECATED = "resourceLimits"
CONTAINER_KEYS = ("apiVersion", "kind", "items", "queues", "metadata")
VERBS = ("submit", "cancel", "preempt", "reprioritize", "watch")
SUBJECT_KINDS = ("Group", "User")
HINTS = {
    "userowners": "armadactl create -f does not read userOwners (it appears in `armadactl get queue` output); "
                  "give owners as permissions with kind User",
    "groupowners": "armadactl create -f does not read groupOwners (it appears in `armadactl get queue` output); "
                   "give owners as permissions with kind Group",
    "metadata": "an Armada queue is not a Kubernetes object: its name goes at the top level (name: ...), not "
                "under metadata",
    "weight": "Armada has no queue weight; a queue's share follows 1 / priorityFactor",
    "priority": "Armada queues have no priority field; lower priorityFactor means a larger share",
}


@dataclass(frozen=True)
class QueueItem:
    data: object
    path: tuple
    standalone: bool  # a document of its own: its apiVersion and kind are what armadactl checks
    is_queue: bool  # False for a RetryPolicy


def _item_is_queue(data) -> bool:
    return not (isinstance(data, dict) and data.get("kind") == "RetryPolicy")


def queue_items(data) -> list[QueueItem]:
    """The queue definitions in one document, with their paths."""
    if isinstance(data, list):
        return [QueueItem(d, (i,), False, _item_is_queue(d)) for i, d in enumerate(data)]
    if not isinstance(data, dict):
        return []
    if data.get("kind") in LIST_KINDS:
        key = "items" if "items" in data else "queues"
        items = data.get(key)
        if not isinstance(items, list):
            return []
        return [QueueItem(d, (key, i), False, _item_is_queue(d)) for i, d in enumerate(items)]
    return [QueueItem(data, (), True, _item_is_queue(data))]


def canonical_fields(data: dict) -> dict:
    """Canonical field name -> the key used, matched like encoding/json: exact first, then
    ignoring case."""
    out = {}
    for name in QUEUE_FIELDS + ENVELOPE:
        if name in data:
            out[name] = name
            continue
        for key in data:
            if isinstance(key, str) and key.lower() == name.lower():
                out[name] = key
                break
    return out
