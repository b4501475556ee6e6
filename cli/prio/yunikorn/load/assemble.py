"""From gathered inputs to a ready engine: pick the partition, build the tree (from the config,
a REST dump, or the snapshot alone), attach the pending work."""
from __future__ import annotations

from prio.errors import InputError
from prio.io import package_data
from prio.yunikorn.engine import Engine
from prio.yunikorn.snapshot import Snapshot
from prio.yunikorn.tree import QNode, empty_root, from_config

WALKTHROUGH = ("walkthrough-queues", "walkthrough-asks")  # the default sample: YuniKorn's priority walkthrough


def sample_paths(name: str | None) -> list[str]:
    """The files of a bundled sample: NAME, or NAME-queues + NAME-asks, or the walkthrough."""
    if name is None:
        names = WALKTHROUGH
    else:
        single = package_data.sample_path(name)
        if single:
            return [single]
        names = (f"{name}-queues", f"{name}-asks")
    paths = [package_data.sample_path(n) for n in names]
    if not all(paths):
        raise InputError(name or "walkthrough", f"no bundled sample {name!r} (available: {', '.join(package_data.sample_names())})")
    return paths


def build(inp, partition: str | None = None, engine: str | None = None) -> Engine:
    """The engine on the gathered inputs; `engine`: which one schedules (ENGINES, default auto)."""
    snap = inp.snapshot or Snapshot(source="(no snapshot)")
    if partition and inp.snapshot is not None and snap.partition.lower() not in ("", "default", partition.lower()):
        raise InputError(snap.source, f"the snapshot is for partition {snap.partition!r}, not {partition!r}")
    want = (partition or snap.partition or "default").lower()
    root: QNode
    others_conf: list = []
    rules = None
    conf = None
    if inp.config is not None:
        parts = inp.config.partitions
        match = [p for p in parts if p.display_name.lower() == want]
        if not match:
            names = ", ".join(p.display_name for p in parts) or "none"
            raise InputError(inp.config_name, f"no partition {want!r} in the config (partitions: {names})"
                             + ("; use --partition" if len(parts) > 1 else ""))
        others = [p.display_name for p in parts if p is not match[0]]
        if others:
            inp.notes.append(f"{inp.config_name}: partition {match[0].display_name}; also configured: "
                             f"{', '.join(others)} (--partition NAME)")
        root = from_config(match[0])
        rules = match[0].placementrules
        conf = match[0]
        others_conf = [p for p in parts if p is not match[0]]
    elif inp.rest_queues:
        from prio.yunikorn.load import rest

        root = rest.build_tree(inp.rest_queues)
    else:
        root = empty_root()  # queues only from the snapshot: all dynamic
    eng = Engine(root, snap, rules, engine or "auto", conf, inp.release)
    if inp.config is not None and others_conf:
        _note_other_partitions(inp, eng, others_conf)
    return eng


def partition_of(inp, eng):
    """The config's partition the engine was built for (None without a config)."""
    if inp.config is None:
        return None
    want = (eng.snapshot.partition or "default").lower()
    for p in inp.config.partitions:
        if p.display_name.lower() == want:
            return p
    return inp.config.partitions[0] if len(inp.config.partitions) == 1 else None


def _note_other_partitions(inp, eng: Engine, others) -> None:
    """A queue the snapshot names that this partition lacks but another partition has: most
    likely the wrong partition, not a dynamic queue."""
    from prio.yunikorn.config import queue_path, walk

    dynamic = {q.path for q in eng.root.walk() if q.dynamic and q.leaf}
    refused = {r.queue.lower() for r in eng.rejected}
    dynamic |= refused
    for p in others:
        r = p.root()
        if r is None:
            continue
        found = sorted(dynamic & {queue_path(q, anc) for q, anc in walk(r)})
        if found:
            how = "its application rejected" if set(found) <= refused else "taken as dynamic"
            inp.notes.append(f"{', '.join(found[:3])} {'is' if len(found) == 1 else 'are'} not in partition "
                             f"{eng.snapshot.partition or 'default'} ({how}) but configured in partition "
                             f"{p.display_name}: --partition {p.display_name}?")
