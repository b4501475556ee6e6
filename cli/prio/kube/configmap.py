"""What the YuniKorn Kubernetes shim reads from ConfigMaps, as pure data and functions.

The shim watches exactly two ConfigMaps in its namespace: `yunikorn-defaults` (rendered by Helm)
and `yunikorn-configs` (managed by the user); `FlattenConfigMaps` merges them key by key, the
second winning. The queue config is the key `<service.policyGroup>.yaml`, `queues.yaml` with the
default policy group; a `binaryData` key with `.gz` appended is gunzipped into the same key. Any
other ConfigMap, and any other key, is never read: a near miss is a config that silently does
not apply (YuniKorn keeps its defaults)."""
from __future__ import annotations

NAMES = ("yunikorn-configs", "yunikorn-defaults")
DEFAULT_POLICY_GROUP = "queues"
POLICY_GROUP_KEY = "service.policyGroup"


def queues_key(data) -> str:
    """The data key the shim takes the queue config from: `<service.policyGroup>.yaml`."""
    group = data.get(POLICY_GROUP_KEY) if isinstance(data, dict) else None
    group = group.strip() if isinstance(group, str) and group.strip() else DEFAULT_POLICY_GROUP
    return f"{group}.yaml"


def near_miss_name(name) -> str | None:
    """The ConfigMap name `name` was probably meant to be, when it is close to one the shim reads
    but not it (`yunikorn-config`, `yunikorn-configs-prod`, `Yunikorn-Configs`); else None."""
    if not isinstance(name, str) or name in NAMES:
        return None
    low = name.strip().lower()
    for n in NAMES:
        if low == n or low.startswith(n[:-1]) or n.startswith(low) and len(low) >= len("yunikorn-c"):
            return n
    import difflib  # lazy: kept off the start-up of validate

    close = difflib.get_close_matches(low, NAMES, n=1, cutoff=0.8)
    return close[0] if close else None


def near_miss_key(keys, wanted: str) -> str | None:
    """A key of `keys` that looks like a misspelt `wanted` (`queues.yml`, `Queues.yaml`,
    `queue.yaml`); None when none does."""
    stem = wanted.rsplit(".", 1)[0].lower()
    for k in keys:
        if not isinstance(k, str) or k == wanted:
            continue
        low = k.lower()
        base = low[:-3] if low.endswith(".gz") else low
        if base.rsplit(".", 1)[0] in (stem, stem.rstrip("s"), stem + "s") and base.endswith((".yaml", ".yml", ".json")) \
                or low in (stem, wanted.lower()):
            return k
    import difflib  # lazy: kept off the start-up of validate

    close = difflib.get_close_matches(wanted, [k for k in keys if isinstance(k, str)], n=1, cutoff=0.8)
    return close[0] if close else None


def carries_queues(data: dict, binary: dict, key: str) -> bool:
    return key in data or f"{key}.gz" in binary
