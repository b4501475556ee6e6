"""`prio snapshot`: capture the queue config and the pending work (from a running YuniKorn or
from REST/kubectl exports) as one file that explain and simulate read back offline."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.cli.guard import say
from prio.optspec import Opt
from prio.render.formats import help_text, names

FORMATS = names("snapshot")


SHORT_HELP = "Capture a running YuniKorn's (or exports') state as a native snapshot plus its config."

HELP = """Write a native snapshot plus the queue config to --output-file, from --yunikorn URL or from exports."""

Options = shared.options(
    "SnapshotOptions",
    shared.SHARED["inputs"].but(help="REST dumps, kubectl pod lists, a queue config, a native snapshot, PriorityClasses "
                                     "(recognised by content). Not with --yunikorn."),
    shared.SHARED["output_file"].but(help="Where to write the snapshot (YAML: the queue config, then the native snapshot, as two "
                                          "documents). '-' is stdout.", metavar="FILE"),
    Opt("anonymize", ("--anonymize",), "Rename every application, ask, allocation, user, group, queue and node in both documents "
                                       "(app-1, app-1-1, n1, node-1), keeping every number and order: the file gives the same "
                                       "answers under the new names.", type=bool, default=False),
    Opt("keep_queue_names", ("--keep-queue-names",), "With --anonymize: queues keep their names (users and groups named "
                                                     "like a queue too).", type=bool, default=False),
    Opt("keep_node_names", ("--keep-node-names",), "With --anonymize: nodes keep their names.", type=bool, default=False),
    shared.SHARED["output"].but(help="What to print about the capture: " + help_text("snapshot")),
    "partition", "priority_classes", "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
    shared.SHARED["yunikorn_version"].but(help="The YuniKorn release the snapshot records (yunikornVersion: what explain, "
                                               "simulate, preempt and diff then judge it for) and judges its config for. Default: "
                                               "PRIO_YUNIKORN_VERSION, else .prio.yaml's yunikornVersion, else the one "
                                               "--yunikorn's REST shape or --kube's images show; none of them: nothing recorded."),
    common=False,
)


def run(o: Options) -> int:
    from prio.cli.common import guarded
    from prio.cli.envformat import env_format

    fmt = o.output or env_format(FORMATS) or "text"
    if fmt not in FORMATS:
        say(f"prio: unknown output format {fmt!r} (choose from {', '.join(FORMATS)})")
        raise SystemExit(2)
    return guarded(lambda: _snapshot(o, fmt), o.input_names())



def _snapshot(o: Options, fmt: str) -> int:
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    live = o.remote()
    from prio.errors import InputError

    if not o.output_file:
        raise InputError("--output-file", "is required: where to write the snapshot (- for stdout)")
    record = None  # the YuniKorn release the snapshot records (yunikornVersion), when it is known
    if (o.keep_queue_names or o.keep_node_names) and not o.anonymize:  # refused before anything is read
        raise InputError("--keep-queue-names" if o.keep_queue_names else "--keep-node-names", "goes with --anonymize")
    from prio.cli.outfile import refuse_inputs, write_text
    from prio.yunikorn.load import restdump

    refuse_inputs(o.output_file, o.input_names())  # before anything is read
    dump = len(o.inputs) == 1 and not o.priority_classes and restdump.layout(o.inputs[0]) is not None
    if live is not None or dump:  # a server, or a saved dump of one (read as the server it recorded)
        from prio.cli import live as live_mod

        o.release()  # an unknown one ends the run before the server is asked
        if dump:
            from prio.backends import judge

            state = restdump.read(o.inputs[0], o.partition)
            judge(state.inputs, live_mod.server_release(state, o.version_asked()), schedules=False)  # (it schedules nothing)
        else:
            state = live_mod.fetch(live, o.partition, o.verbose, o.inputs, None, o.priority_classes, o.version_asked(), judge=True,
                                   schedules=False)
        inp = state.inputs
        from prio.yunikorn import releases

        if o.version_asked() is not None or releases.from_queue_fields(state.queue_fields) != releases.NAMES:
            record = inp.release.name  # asked for, or what the server's REST shape shows
        source, raw_apps, nodes, rejected, config_text = state.url, state.raw_apps, state.nodes, state.rejected, state.config_text
    else:
        if not o.inputs:
            raise InputError("nothing to capture", "give --yunikorn URL or input files (REST dumps, kubectl pod lists, a queue config)")
        from prio.backends import judge
        from prio.cli.common import say_recognised
        from prio.io.gather import gather

        asked = o.asked_release()  # the option, .prio.yaml, or --kube's images (with_cluster)
        inp = judge(gather(list(o.inputs), list(o.priority_classes)), asked, schedules=False)
        if asked is not None:
            record = asked.name
        if o.verbose:
            say_recognised(inp)
        from prio.cli.backend_run import offered

        offered("snapshot", inp)
        source = ", ".join(inp.names)
        raw_apps, nodes, rejected, config_text = {}, [], [], None
    from prio.yunikorn.capture import capture

    got = capture(inp, o.partition, record=record, source=source, anonymize=o.anonymize, keep_queues=o.keep_queue_names,
                  keep_nodes=o.keep_node_names, raw_apps=raw_apps, nodes=nodes, rejected=rejected, config_text=config_text)
    text, snap, rejected = got.text, got.snapshot, got.rejected
    if o.output_file == "-":
        sys.stdout.write(text)
    else:
        write_text(o.output_file, text)
    _say_written(o, fmt, snap, source, rejected, got.names, inp)
    return 0


def _say_written(o, fmt: str, snap, source: str, rejected: list, names, inp) -> None:
    """What was written, once the file is: its summary (json: on stdout, or on stderr when the
    snapshot itself went to stdout; else one line on stderr) and the inputs' notes, named as
    the file names things (--anonymize: renamed, no input named)."""
    summary = {"output": o.output_file, "source": source if not o.anonymize else "(anonymized)", "partition": snap.partition,
               "applications": len(snap.apps) - len(rejected), "pendingAsks": snap.ask_count(),
               "runningAllocations": sum(len(a.allocations or ()) for a in snap.apps), "nodes": len(snap.nodes or ()),
               "rejected": [names.app(r["application"]) for r in rejected]}  # as the file names them (--anonymize too)
    for note in inp.notes:  # anonymized: the notes name things as the file does, and no input
        say(f"prio: note: {_hide(note, names, [source, *inp.names]) if o.anonymize else note}")
    if fmt == "json":
        import json

        if o.output_file == "-":
            sys.stderr.write(json.dumps(summary) + "\n")
        else:
            sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    else:
        from prio.values import count

        rej = f", {len(rejected)} rejected" if rejected else ""
        running = sum(len(a.allocations or ()) for a in snap.apps)
        run_s = f", {count(running, 'running allocation')}" if running else ""
        nodes_s = f", {count(len(snap.nodes), 'node')}" if snap.nodes else ""
        say(f"prio: wrote {o.output_file}: partition {snap.partition}, {count(len(snap.apps) - len(rejected), 'application')}, "
                         f"{count(snap.ask_count(), 'pending ask')}{run_s}{nodes_s}{rej}")


def _hide(note: str, names, sources) -> str:
    """A note with its names renamed and the inputs (file names, the server's URL) left out."""
    for s in sorted({s for s in sources if s}, key=len, reverse=True):
        note = note.replace(s, "(input)")
    return names.text(note)
