"""Which YuniKorn REST endpoint a saved response comes from, when it is one prio does not read:
the shapes of yunikorn-core's webservice DAOs (as in ../shared/testdata/yunikorn-rest-live/), so
a user who saved the wrong response hears which one it is and which to save instead. Pure."""
from __future__ import annotations

# What explain and simulate read from a YuniKorn, to name in every message.
SAVE = ("save /ws/v1/partition/{p}/queues (the queue tree; enough alone) and "
        "/ws/v1/partition/{p}/applications/active (the pending asks) instead, "
        "or read the scheduler directly with --yunikorn URL (prio snapshot keeps it as one file)")


def _items(data) -> list:
    if isinstance(data, list):
        return [d for d in data if isinstance(d, dict)]
    return [data] if isinstance(data, dict) else []


def _all(data, *keys) -> bool:
    items = _items(data)
    return bool(items) and all(all(k in d for k in keys) for d in items)


def _any_key(data, *keys) -> bool:
    items = _items(data)
    return bool(items) and all(any(k in d for k in keys) for d in items)


BUNDLE = "several REST responses in one file (a mock server's db.json)"


def identify(data) -> str | None:
    """The endpoint a response that prio does not read comes from (e.g. `/ws/v1/partition/{p}/nodes`),
    or None when it looks like none of them."""
    if isinstance(data, dict):
        if "timestamp" in data and ("partitions" in data or "queues" in data) and \
                any(k in data for k in ("applications", "nodes", "clusterInfo", "rmDiagnostics", "logLevel")):
            return "/ws/v1/fullstatedump"
        if "timestamp" not in data and isinstance(data.get("partitions"), list) and \
                any(k in data for k in ("apps", "clusters", "appHistory", "nodes")):
            return BUNDLE
        if "Healthy" in data and "HealthChecks" in data:
            return "/ws/v1/scheduler/healthcheck"
        if isinstance(data.get("Partitions"), list) and "partitions" not in data:
            return "/ws/v1/config (answered as JSON, with Go field names)"
        if "nodeID" in data:
            return "/ws/v1/partition/{p}/node/{node}"
    if not isinstance(data, (list, dict)) or not _items(data):
        return None
    if isinstance(data, list):
        if _all(data, "nodeID"):
            return "/ws/v1/partition/{p}/nodes"
        if _all(data, "clusterId", "name") and _any_key(data, "capacity", "nodeSortingPolicy", "state"):
            return "/ws/v1/partitions"
        if _all(data, "clusterName") and _any_key(data, "startTime", "partition"):
            return "/ws/v1/clusters"
        if _all(data, "utilizations"):
            return "/ws/v1/scheduler/node-utilizations"
        if _all(data, "name", "parameters") or _all(data, "name") and _any_key(data, "parameters", "filter", "parentRule"):
            return "/ws/v1/partition/{p}/placementrules"
        if _all(data, "userName") and _any_key(data, "queues"):
            return "/ws/v1/partition/{p}/usage/users"
        if _all(data, "groupName") and _any_key(data, "queues"):
            return "/ws/v1/partition/{p}/usage/groups"
        if _all(data, "timestamp", "totalApplications"):
            return "/ws/v1/history/apps"
        if _all(data, "timestamp", "totalContainers"):
            return "/ws/v1/history/containers"
    return None


def message(endpoint: str) -> str:
    """The one-line message for a saved response of `endpoint`."""
    if endpoint == BUNDLE:
        return ("this bundles several REST responses (a mock server's db.json?): save the /ws/v1/partition/{p}/queues "
                "response and the applications responses as files of their own")
    if endpoint.startswith("/ws/v1/config"):
        return ("this is YuniKorn's /ws/v1/config answered as JSON (Go field names): save its YAML answer instead "
                "(GET /ws/v1/config without Accept: application/json: the queues.yaml YuniKorn runs), "
                "or read the scheduler directly with --yunikorn URL")
    return f"this is YuniKorn's {endpoint} response, which holds no queue config or pending asks; {SAVE}"
