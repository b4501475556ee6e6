"""Kueue's documents by their shape alone (issue 47: a backend recognises its own inputs): the
hooks prio.io.documents asks each registry row's recognise module. Imports nothing of prio
(tests/arch/test_backends.py), so io may ask it."""
from __future__ import annotations

# Kueue objects (prio.kueue.load reads them)
KUEUE_API_GROUPS = ("kueue.x-k8s.io/", "config.kueue.x-k8s.io/")

TOP_KEYS = ()  # its documents are Kubernetes objects: kind and apiVersion (prio.io.recognise.TOP_KEYS)
# The document kinds it claims (prio.io.documents.BACKEND_OF_KIND): its objects, and the
# Namespaces whose labels feed a ClusterQueue's namespaceSelector. validate checks both.
KINDS = ("kueue", "namespace")
CHECKED = KINDS
LABELS: dict = {}


def _is_kueue_header(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and \
        data["apiVersion"].strip().startswith(KUEUE_API_GROUPS)


def is_kueue(data) -> bool:
    """A Kueue object (apiVersion kueue.x-k8s.io/... or config.kueue.x-k8s.io/...), or a List
    (`kubectl get ... -o yaml`) holding one."""
    if _is_kueue_header(data):
        return True
    if isinstance(data, dict) and str(data.get("kind", "")).endswith("List") and isinstance(data.get("items"), list):
        kind = str(data.get("kind"))
        if kind != "List" and str(data.get("apiVersion", "")).startswith(KUEUE_API_GROUPS):
            return True  # a typed list straight from the API: items carry no apiVersion
        return any(_is_kueue_header(i) for i in data["items"])
    return False


def is_namespace(data) -> bool:
    """A core/v1 Namespace (its labels feed a ClusterQueue's namespaceSelector)."""
    return isinstance(data, dict) and data.get("kind") == "Namespace" and str(data.get("apiVersion", "")).strip() == "v1"


def kind(data: dict) -> str | None:
    """Its kind of a mapping no earlier row claimed, or None."""
    if is_kueue(data):
        return "kueue"
    return "namespace" if is_namespace(data) else None


def unit_kind(kind: str, data: dict) -> str:
    """What validate checks of a document of its kind: `kubectl get ... -o yaml`'s List is split,
    each Kueue object linted on its own."""
    if kind == "kueue" and isinstance(data.get("items"), list) and str(data.get("kind", "")).endswith("List"):
        return "list"
    return kind


def beside(kind: str, kinds, data) -> bool:
    """Whether it claims a document of another kind for the company it keeps (`kinds`: every
    document's kind in its file): a Node beside Kueue objects is a TAS flavor's node (issue 48)."""
    return kind == "nodes" and "kueue" in kinds and isinstance(data, dict) and data.get("kind") == "Node"
