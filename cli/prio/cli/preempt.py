"""`prio preempt`: what YuniKorn's preemption would do for each pending ask, and why."""
from __future__ import annotations

import sys
from typing import List, Optional

import typer

from prio.cli.options import Color, use_color
from prio.render.formats import names
from prio.cli import options

FORMATS = names("preempt")
DEFAULT_SAMPLE = "preemption"


SHORT_HELP = "What YuniKorn's preemption would do for each pending ask, and why."


def command(
    inputs: List[str] = typer.Argument(None, metavar="INPUT", help="Queue config and a snapshot with nodes and running allocations (recognised by content). None: the bundled preemption sample."),
    sample: Optional[str] = typer.Option(None, "--sample", metavar="NAME", help="Use a bundled sample (default with no INPUT: preemption)."),
    output: Optional[str] = options.OUTPUT,
    output_file: Optional[str] = options.OUTPUT_FILE,
    ask: Optional[str] = typer.Option(None, "--ask", metavar="ID", help="Only this ask (an ask id, or APP/ASK)."),
    color: Color = options.COLOR,
    partition: Optional[str] = options.PARTITION,
    priority_classes: List[str] = options.PRIORITY_CLASSES,
    verbose: bool = options.VERBOSE,
    yunikorn: Optional[str] = options.YUNIKORN,
    header: List[str] = options.HEADER,
    cacert: Optional[str] = options.CACERT,
    timeout: Optional[float] = options.TIMEOUT,
):
    """For each pending ask: may YuniKorn preempt for it, where its fence root is, which running
    tasks are candidates and why, and the victims it would pick in order (or its reason why not).
    Needs a config and a snapshot with nodes and running allocations."""
    from prio.cli.common import guarded, pick_format
    from prio.cli.live import remote

    to_file = output_file not in (None, "", "-")
    fmt = pick_format(output, FORMATS, to_file)
    stream = sys.stdout if not to_file else None
    raise typer.Exit(guarded(lambda: run(inputs or [], sample, fmt, ask, partition, priority_classes, output_file,
                                         use_color(color, sys.stdout) and stream is not None, verbose,
                                         remote(yunikorn, header, cacert, timeout, inputs, sample))))


def _partition_of(inp, eng):
    """The config's partition the engine was built for (None without a config)."""
    if inp.config is None:
        return None
    want = (eng.snapshot.partition or "default").lower()
    for p in inp.config.partitions:
        if p.display_name.lower() == want:
            return p
    return inp.config.partitions[0] if len(inp.config.partitions) == 1 else None


def run(paths, sample, fmt, ask, partition, classes, output_file=None, color=False, verbose=False, live=None) -> int:
    from prio.cli.common import load_inputs, say_notes, say_recognised, width, write_report
    from prio.errors import InputError
    from prio.render import preempt as preempt_out
    from prio.loaders.assemble import build
    from prio.yunikorn import preemption, resources

    if live is not None:  # --yunikorn: config, queues, nodes and running allocations from the server
        from prio.cli import live as live_mod

        inp = live_mod.load(live, paths, sample, classes, partition, verbose)
    else:
        if not paths and not sample:
            sample = DEFAULT_SAMPLE
        inp = load_inputs(paths, sample, classes)
    if verbose:
        say_recognised(inp)
    if inp.armada:
        raise InputError(inp.armada[0][0], "prio preempt models YuniKorn's preemption; this is an Armada scenario")
    if inp.snapshot is None:
        raise InputError(" ".join(inp.names) or "input", "prio preempt needs a snapshot with nodes and running allocations (a native snapshot: applications:, nodes:)")
    snap = inp.snapshot
    if snap.nodes is None and not snap.capacity:
        raise InputError(snap.source, "the snapshot has neither nodes nor a capacity: preemption is per node (add nodes: [{name, capacity}])")
    if snap.nodes is not None and not snap.capacity:
        snap.capacity = resources.total(n.capacity for n in snap.nodes)  # root's max is the sum of the nodes
    eng = build(inp, partition)
    say_notes(inp)
    part = _partition_of(inp, eng)
    snapshot = eng.snapshot
    if eng.rejected:  # applications YuniKorn refuses are never placed: nothing to preempt for or from
        import dataclasses

        refused = {r.application for r in eng.rejected}
        snapshot = dataclasses.replace(snapshot, apps=[a for a in snapshot.apps if a.id not in refused])
    result = preemption.analyse(eng.root, snapshot,
                                part.preemption_enabled if part is not None else True,
                                (part.nodesort_type or "fair") if part is not None else "fair",
                                part.resourceweights if part is not None else None)
    asks = result.asks
    if ask is not None:
        asks = [r for r in asks if ask in (r.ask, f"{r.application}/{r.ask}")]
        if not asks:
            from prio.suggest import did_you_mean

            known = ", ".join(r.ask for r in result.asks[:10]) or "none"
            hint = did_you_mean(ask, [f"{r.application}/{r.ask}" if "/" in ask else r.ask for r in result.asks])
            raise InputError("--ask", f"no pending ask {ask!r} in {snap.source}" + (hint or f" (asks: {known}{', ...' if len(result.asks) > 10 else ''})"))
    text = "".join(preempt_out.render(fmt, result, asks, width=width(), color=color))
    write_report(text, output_file)
    return 0
