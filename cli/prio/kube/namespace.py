"""A Namespace's labels as the API server stores them: since Kubernetes 1.21 it sets
`kubernetes.io/metadata.name: NAME` on every Namespace (the NamespaceDefaultLabelName feature, GA
in 1.22), overriding any value written, so a label selector can pick namespaces by name."""
from __future__ import annotations

NAME_LABEL = "kubernetes.io/metadata.name"


def labels(name: str, written: dict | None = None) -> dict:
    """The labels of Namespace `name` given the ones its manifest writes (none for a namespace
    only named by other objects)."""
    return {**{str(k): str(v) for k, v in (written or {}).items()}, NAME_LABEL: name}
