"""Files shipped inside the package: the JSON Schemas and the samples.

In a wheel they live at prio/schemas and prio/samples; in a source checkout (PYTHONPATH=cli)
they are the repository's top-level schemas/ and samples/ folders, the single source of truth.
"""
from __future__ import annotations

import os

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../prio


def _dir(name: str) -> str:
    inside = os.path.join(_PACKAGE, name)
    if os.path.isdir(inside):
        return inside
    return os.path.join(os.path.dirname(os.path.dirname(_PACKAGE)), name)


def schema_path(name: str = "yunikorn-queues.schema.json") -> str:
    return os.path.join(_dir("schemas"), name)


def samples_dir() -> str:
    return _dir("samples")


def sample_names() -> list[str]:
    """Names `--sample` takes: NAME for a NAME-queues + NAME-asks pair, else the file's stem."""
    d = samples_dir()
    stems = sorted(f.rsplit(".", 1)[0] for f in os.listdir(d) if f.endswith((".yaml", ".yml", ".json")))
    pairs = {s[: -len("-queues")] for s in stems if s.endswith("-queues") and s[: -len("-queues")] + "-asks" in stems}
    return sorted(pairs | {s for s in stems if not any(s in (p + "-queues", p + "-asks") for p in pairs)})


def sample_path(name: str) -> str | None:
    d = samples_dir()
    for ext in ("", ".yaml", ".yml", ".json"):
        p = os.path.join(d, name + ext)
        if os.path.isfile(p):
            return p
    return None
