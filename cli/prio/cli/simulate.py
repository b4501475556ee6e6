"""`prio simulate`: the scheduling order, one allocation per step, with every priority change."""
from __future__ import annotations

import sys
from typing import List, Optional

import typer

from prio.cli.options import Color, use_color
from prio.cli import options
from prio.render.formats import names

FORMATS = names("simulate")


SHORT_HELP = 'The scheduling order, step by step, with every priority change.'


def command(
    inputs: List[str] = options.INPUTS,
    sample: Optional[str] = options.SAMPLE,
    output: Optional[str] = options.OUTPUT,
    output_file: Optional[str] = options.OUTPUT_FILE,
    color: Color = options.COLOR,
    steps: Optional[int] = typer.Option(None, "--steps", min=0, metavar="N", help="Stop after this many steps."),
    limit: Optional[int] = typer.Option(None, "--limit", min=0, metavar="N", help="Step rows to show in table, plain and markdown output (default: 1000 in table, all otherwise; json has every step)."),
    partition: Optional[str] = options.PARTITION,
    priority_classes: List[str] = options.PRIORITY_CLASSES,
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, metavar="N", help="Armada scenarios: scheduling rounds to run."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="Armada scenarios: random seed (overrides the scenario's)."),
    armada_decay: str = options.ARMADA_DECAY,
    armada_weighting: str = options.ARMADA_WEIGHTING,
    armada_model: Optional[str] = options.ARMADA_MODEL,
    verbose: bool = options.VERBOSE,
    yunikorn: Optional[str] = options.YUNIKORN,
    header: List[str] = options.HEADER,
    cacert: Optional[str] = options.CACERT,
    timeout: Optional[float] = options.TIMEOUT,
):
    """Step through the scheduling order and every priority change it causes."""
    from prio.cli.common import guarded, pick_format, to_file, with_output_file
    from prio.cli.live import remote

    fmt = pick_format(output, FORMATS, to_file(output_file))
    raise typer.Exit(guarded(lambda: with_output_file(output_file, lambda: run(inputs or [], sample, fmt, steps, partition, priority_classes, rounds, seed, armada_decay, armada_weighting, limit, use_color(color, sys.stdout) and not to_file(output_file), verbose, armada_model,
                                         remote(yunikorn, header, cacert, timeout, inputs, sample)))))


def run(paths, sample, fmt, steps, partition, classes, rounds, seed, armada_decay, armada_weighting, limit=None, color=False, verbose=False, armada_model=None, live=None) -> int:
    from prio.cli.common import check_armada_options, load_inputs, say_notes, say_recognised, width, write_chunks
    from prio.loaders.assemble import build

    if live is not None:
        from prio.cli import live as live_mod

        inp = live_mod.load(live, paths, sample, classes, partition, verbose)
    else:
        inp = load_inputs(paths, sample, classes)
    if verbose:
        say_recognised(inp)
    check_armada_options(inp, armada_decay, armada_weighting, armada_decay=armada_decay, armada_weighting=armada_weighting, rounds=rounds, seed=seed, armada_model=armada_model)
    if inp.armada and (steps is not None or limit is not None):  # refused, not silently ignored
        sys.stderr.write(f"prio: {'--steps' if steps is not None else '--limit'} applies to YuniKorn inputs, not Armada scenarios\n")
        return 2
    if inp.armada:
        from prio.cli.armada import run_simulate

        sys.stdout.write(run_simulate(inp.armada, fmt, decay=armada_decay, weighting=armada_weighting, rounds=rounds, seed=seed, width=width(), model=armada_model))
        return 0
    eng = build(inp, partition)
    say_notes(inp)
    progress = None
    total = eng.snapshot.ask_count()
    if sys.stderr.isatty() and total >= 20000:
        progress = _progress(total if steps is None else min(total, steps))
    try:
        result = eng.run(steps, progress.update if progress else None)
    finally:
        if progress:
            progress.close()
    unscheduled = eng.leftovers()
    from prio.cli.lifetime import keep

    keep(inp, eng, result)  # freed with the process, not on return (lifetime.py)
    from prio.render import simulate as simulate_out

    if limit is None and fmt == "table":
        limit = 1000  # a terminal table of a million rows helps nobody, and rich takes minutes on it
    stopped = ""
    if steps is not None and len(result) >= steps:
        still = sum(len(st.asks) for st in eng.apps) - len(result) - len(unscheduled)
        if still > 0:
            stopped = f"Stopped after step {len(result)} (--steps {steps}): {still} ask{'s' if still != 1 else ''} still pending."
            if fmt == "json":
                sys.stderr.write(f"prio: note: {stopped}\n")
    write_chunks(simulate_out.render(fmt, result, unscheduled, eng, width=width(), limit=limit, color=color, stopped=stopped))
    return 0


class _progress:
    """A rich progress bar on stderr (only on a terminal, never in machine output)."""

    def __init__(self, total: int):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self.p = Progress("simulating", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=Console(stderr=True), transient=True)
        self.task = self.p.add_task("steps", total=total)
        self.p.start()

    def update(self, n: int) -> None:
        self.p.update(self.task, completed=n)

    def close(self) -> None:
        self.p.stop()
