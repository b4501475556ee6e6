"""Armada's documents by their shape alone (issue 47: a backend recognises its own inputs): the
hooks prio.io.documents asks each registry row's recognise module, and the predicates Armada's
loaders and rules share. Imports nothing of prio (tests/arch/test_backends.py), so io may ask it."""
from __future__ import annotations

# Armada Queue manifests (prio.armada.load_queues reads them)
ARMADA_API_GROUP = "armadaproject.io/"
ARMADA_LIST_KINDS = ("List", "QueueList")

# The top-level keys of its documents besides kind and apiVersion (prio.io.recognise.TOP_KEYS).
TOP_KEYS = ("model",)
# The document kinds it claims (prio.io.documents.BACKEND_OF_KIND), and what validate checks.
KINDS = ("armada-scenario", "armada-queue")
CHECKED = KINDS
LABELS = {"armada-scenario": "an Armada scenario (explain and simulate read it)"}  # for --verbose


def is_scenario(data) -> bool:
    """A mapping with `model: armada` (or `armada-legacy`)."""
    return isinstance(data, dict) and isinstance(data.get("model"), str) and \
        data["model"].strip().lower() in ("armada", "armada-legacy")


def scheduler_of(data) -> str | None:
    """The `scheduler` a scenario names ("current" or "legacy"), `legacy` for `model:
    armada-legacy`, or None when it names none."""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("model"), str) and data["model"].strip().lower() == "armada-legacy":
        return "legacy"
    s = data.get("scheduler")
    return s.strip().lower() if isinstance(s, str) else None


def is_current_scenario(data) -> bool:
    """An Armada scenario for the current scheduler (validate lints its settings; a legacy
    scenario is read by explain and simulate only)."""
    return is_scenario(data) and scheduler_of(data) in (None, "current")


def _is_armada_header(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and \
        data["apiVersion"].strip().startswith(ARMADA_API_GROUP)


def is_queue_manifest(data) -> bool:
    """An Armada resource (apiVersion armadaproject.io/...), a List/QueueList holding one, or a bare
    list of them."""
    if _is_armada_header(data):
        return True
    if isinstance(data, dict) and data.get("kind") in ARMADA_LIST_KINDS:
        items = data.get("items", data.get("queues"))
        return isinstance(items, list) and any(_is_armada_header(i) for i in items)
    if isinstance(data, list) and data:
        return all(isinstance(i, dict) for i in data) and any(_is_armada_header(i) for i in data)
    return False


def early(data) -> str | None:
    """Its kind of any parsed document, asked before every other test (a bare list of Queues is
    not a REST answer): one Queue, a List/QueueList of them, or a bare list of them."""
    return "armada-queue" if is_queue_manifest(data) else None


def kind(data: dict) -> str | None:
    """Its kind of a mapping no earlier row claimed, or None."""
    return "armada-scenario" if is_scenario(data) else None


def unit_kind(kind: str, data: dict) -> str:
    """What validate checks of a document of its kind: a legacy scenario is not linted."""
    if kind == "armada-scenario" and not is_current_scenario(data):
        return "other"
    return kind
