"""prio snapshot's capture (issue 47: the command gathers, this composes, the command writes):
YuniKorn's inputs, as gathered from files or a server, -> the engine explain would build
(prio.yunikorn.load.assemble.build: the partition, placement and its rejections) -> the native
snapshot plus the queue config it ran with, as one YAML text (prio.yunikorn.render.snapshot),
renamed throughout with --anonymize."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Captured:
    """What prio snapshot writes and says: the file's text, the snapshot it holds, the names as the
    file gives them (render.snapshot's Names: renamed with --anonymize), the applications rejected."""

    text: str
    snapshot: object  # prio.yunikorn.snapshot.Snapshot
    names: object
    rejected: list


def capture(inp, partition: str | None, *, record: str | None, source: str, anonymize: bool, keep_queues: bool,
            keep_nodes: bool, raw_apps: dict, nodes: list, rejected: list, config_text: str | None) -> Captured:
    """The snapshot of `inp` (the gathered inputs; from a server: its raw applications, nodes,
    rejections and config text as it served them). `record`: the YuniKorn release the file
    records (yunikornVersion), None where none is known (an input snapshot's own stays)."""
    from prio.yunikorn.load.assemble import build
    from prio.yunikorn.render import snapshot as snapshot_out
    from prio.yunikorn.snapshot import Snapshot

    eng = build(inp, partition)  # the partition as explain would pick it; fails as explain would
    # where placement put each application, written as its queue (pods: the queue the core gives);
    # not when anonymized: a queue a user rule made names the user (the queue asked for and the
    # tags, renamed, place it again)
    placed = {st.app.id: st.leaf.path for st in eng.apps if not st.app.placed} if inp.config is not None and not anonymize else {}
    if not rejected and eng.rejected:  # from files: the applications the config's placement rules refuse
        rejected = [{"application": r.application, "queue": r.queue, "reason": r.reason} for r in eng.rejected]
    snap = inp.snapshot or Snapshot(source="(no pending work)")
    snap.partition = eng.snapshot.partition or partition or "default"
    if record is not None:  # else what an input snapshot recorded, if anything
        snap.yunikorn_version = record
    if partition:
        snap.partition = partition
    if config_text is None:
        config_text = config_text_of(inp)
    used: dict = {}
    keep = {"anonymize": anonymize, "keep_queues": keep_queues, "keep_nodes": keep_nodes}
    if config_text is None:  # nothing describes the queues: the snapshot alone (all queues dynamic)
        text = snapshot_out.render_snapshot_only(snap, source=source, names_out=used, **keep)
    else:
        text = snapshot_out.render(config_text, snap, source=source, raw_apps=raw_apps, nodes=nodes,
                                   rejected=rejected, names_out=used, placed=placed, **keep)
    return Captured(text, snap, used["names"], rejected)


def config_text_of(inp) -> str | None:
    """The queue config the inputs used, as YAML text: a plain config file's first document as
    written (so YuniKorn reads it exactly as before); a ConfigMap's embedded config re-emitted
    from its data; for a REST queues dump, a config built from the effective properties; None
    when nothing describes the queues."""
    if inp.default_config:
        from prio.kube.shim import DEFAULT_CONFIG

        return "# YuniKorn's built-in default config: no queues.yaml was given\n" + DEFAULT_CONFIG
    if inp.config is not None and inp.config_text:  # a ConfigMap's queues.yaml, as written there
        return inp.config_text if inp.config_text.endswith("\n") else inp.config_text + "\n"
    if inp.config is not None and inp.config_text is not None:  # embedded, its text not at hand: re-emitted
        from prio.yunikorn.render.snapshot import config_text

        return config_text(inp.config_doc.data)
    if inp.config is not None:
        text = _first_document_text(inp.config_name, inp.config_doc)
        if text is not None:
            return text
        from prio.yunikorn.render.snapshot import config_text

        return config_text(inp.config_doc.data)
    if inp.rest_queues:
        from prio.yunikorn.render.snapshot import config_from_queues

        return config_from_queues(inp.rest_queues, (inp.snapshot.partition if inp.snapshot else None) or "default")
    return None


def _first_document_text(name: str, doc) -> str | None:
    """The config file's first document as written (None: standard input, or no longer readable)."""
    from prio.errors import InputError
    from prio.io import source, yamlnodes

    if name == "<stdin>":
        return None
    try:
        text = source.read(name, source.MAX_SNAPSHOT_BYTES).text
        nodes = yamlnodes.parse(name, text)
    except InputError:
        return None
    for n in nodes:
        if n.start_mark.line + 1 == doc.start.line and n.start_mark.column == 0:
            return text[n.start_mark.index:n.end_mark.index].rstrip() + "\n"
    return None
