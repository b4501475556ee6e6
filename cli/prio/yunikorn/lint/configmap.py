"""ConfigMaps meant for YuniKorn that YuniKorn never reads, or reads without a queue config.

The shim reads only the `yunikorn-configs` and `yunikorn-defaults` ConfigMaps, and in them only
the key `queues.yaml` (`<service.policyGroup>.yaml`); see `prio.kube.configmap`. Both mistakes are
silent in a cluster: the scheduler keeps running on its defaults."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.kube.configmap import NAMES, carries_queues, near_miss_key, near_miss_name, queues_key
from prio.lint.registry import check

FAMILY = "decoding"


def _parts(doc):
    d = doc.data if isinstance(doc.data, dict) else {}
    meta = d.get("metadata") if isinstance(d.get("metadata"), dict) else {}
    data = d.get("data") if isinstance(d.get("data"), dict) else {}
    binary = d.get("binaryData") if isinstance(d.get("binaryData"), dict) else {}
    return meta.get("name"), data, binary


@check("PRIO008", "configmap-missing-queues-key", "warning", FAMILY, target="configmap")
def missing_queues_key(doc):
    """A `yunikorn-configs` or `yunikorn-defaults` ConfigMap without a `queues.yaml` key.

    The shim takes the queue config from the key `queues.yaml` only (`<service.policyGroup>.yaml`
    when the policy group is changed; a `binaryData` key `queues.yaml.gz` counts too). A key
    spelled otherwise (`queues.yml`, `Queues.yaml`, `queue.yaml`) is never read: YuniKorn keeps the
    other ConfigMap's queues.yaml or its built-in default (one `root` queue), silently. A warning
    when a key looks like a misspelt queues.yaml; an info when the ConfigMap holds only other
    settings (legitimate: the queues may live in the other ConfigMap).

    Example (warns):
        kind: ConfigMap
        metadata:
          name: yunikorn-configs
        data:
          queues.yml: |
            partitions: ...
    Fix: name the key `queues.yaml`.
    """
    name, data, binary = _parts(doc)
    if name not in NAMES and near_miss_name(name) is None:
        return []
    key = queues_key(data)
    if carries_queues(data, binary, key):
        return []
    wrong = near_miss_key(list(data) + list(binary), key)
    if wrong is None:
        wrong = next((k for k, v in data.items() if isinstance(v, str) and "partitions:" in v), None)
    if wrong is not None:
        where = ("binaryData" if wrong in binary and wrong not in data else "data", wrong)
        return [Issue("PRIO008", where, f"ConfigMap {name} has no {key} key, and YuniKorn reads no other: "
                      f"the queue config under {wrong!r} is never read (did you mean {key!r}?)", at="key")]
    return [Issue("PRIO008", ("metadata", "name") if name else (), f"ConfigMap {name} has no {key} key: YuniKorn takes "
                  "the queue config from the other ConfigMap, else its built-in default (one root queue)", severity="info")]


@check("PRIO009", "configmap-not-read", "warning", FAMILY, target="configmap")
def not_read(doc):
    """A ConfigMap with a queue config that the YuniKorn shim never reads: its name is not
    `yunikorn-configs` or `yunikorn-defaults`.

    The shim watches exactly those two names in its namespace. A near miss (`yunikorn-config`,
    `yunikorn-configs-prod`, `Yunikorn-Configs`) or any other ConfigMap holding a `queues.yaml`
    applies nothing: YuniKorn keeps running on its previous or default queues. prio still lints
    the queues.yaml inside, as it would be read under the right name.

    Example (warns):
        kind: ConfigMap
        metadata:
          name: yunikorn-config
        data:
          queues.yaml: |
            partitions: ...
    Fix: name it `yunikorn-configs` (user settings) or leave `yunikorn-defaults` to Helm.
    """
    name, data, binary = _parts(doc)
    if name in NAMES:
        return []
    meant = near_miss_name(name)
    where = ("metadata", "name") if isinstance(name, str) else ()
    if meant is not None:
        return [Issue("PRIO009", where, f"ConfigMap {name!r} is never read by YuniKorn, which reads only "
                      f"{NAMES[0]} and {NAMES[1]}: did you mean {meant!r}?")]
    if carries_queues(data, binary, queues_key(data)):
        which = f"ConfigMap {name!r}" if isinstance(name, str) else "a ConfigMap without metadata.name"
        return [Issue("PRIO009", where, f"{which} holds a {queues_key(data)}, but YuniKorn reads only "
                      f"the ConfigMaps {NAMES[0]} and {NAMES[1]}")]
    return []
