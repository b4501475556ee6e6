"""`prio simulate`: the scheduling order, one allocation per step, with every priority change."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.optspec import Opt
from prio.render.formats import names

FORMATS = names("simulate")


SHORT_HELP = 'The scheduling order, step by step, with every priority change.'

HELP = """Step through the scheduling order and every priority change it causes."""

Options = shared.options(
    "SimulateOptions", "inputs", "sample", "output", "output_file", "color",
    Opt("steps", ("--steps",), "Stop after this many steps.", type=int, min=0, metavar="N"),
    Opt("no_preemption", ("--no-preemption",), "With nodes: leave YuniKorn's preemption out of the order (an ask "
        "that finds no room waits, as if the partition's preemption were off).", type=bool, default=False),
    shared.SHARED["limit"].but(help="Step rows to show in table, plain and markdown output (default: 1000 in table, all "
                                    "otherwise; json has every step)."),
    "partition", "priority_classes", "rounds", "seed",
    "armada_decay", "armada_weighting", "armada_model", "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
)


def run(o: Options) -> int:
    return shared.report(o, FORMATS, _simulate)



def _simulate(o: Options, fmt: str) -> int:
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    color, limit = o.colored(), o.limit
    from prio.cli.backend_run import answer, foreign_option
    from prio.cli.common import say_notes, width, write_chunks
    from prio.yunikorn.load.assemble import build

    inp, live = shared.read_inputs(o)
    refused = foreign_option(o, inp)
    if refused is not None:
        sys.stderr.write(f"prio: {refused}\n")
        return 2
    if inp.backend is not None:  # a backend's inputs (prio.backends): its load, run and render
        return answer("simulate", o, inp, fmt)
    eng = build(inp, o.partition, o.engine)
    eng.loop_preemption = not o.no_preemption
    say_notes(inp)
    html = fmt == "html"
    if html:  # the tree as the snapshot has it, before the run schedules anything
        from prio.yunikorn.records import queue_tree

        tree = queue_tree(eng)
    progress = None
    total = eng.snapshot.ask_count()
    if sys.stderr.isatty() and total >= 20000:
        progress = _progress(total if o.steps is None else min(total, o.steps))
    try:
        result = eng.run(o.steps, progress.update if progress else None)
    finally:
        if progress:
            progress.close()
    unscheduled = eng.leftovers()
    from prio.cli.lifetime import keep

    keep(inp, eng, result)  # freed with the process, not on return (lifetime.py)
    from prio.yunikorn.render import simulate as simulate_out

    if limit is None and fmt == "table":
        limit = 1000  # a terminal table of a million rows helps nobody, and rich takes minutes on it
    stopped = ""
    if o.steps is not None and len(result) >= o.steps:
        still = sum(len(st.asks) for st in eng.apps) - len(result) - len(unscheduled)
        if still > 0:
            stopped = f"Stopped after step {len(result)} (--steps {o.steps}): {still} ask{'s' if still != 1 else ''} still pending."
            if fmt in ("json", "html"):
                sys.stderr.write(f"prio: note: {stopped}\n")
    from prio.yunikorn.records import simulation

    record = simulation(eng, result, unscheduled)  # what the renderer reads: no engine
    chunks = simulate_out.render("json" if html else fmt, record, width=width(), limit=limit, color=color, stopped=stopped)
    if html:
        from prio.cli import htmlreport

        def again():  # a fresh engine for --why-ask, scheduling as this run did
            e = build(inp, o.partition, o.engine)
            e.loop_preemption = eng.loop_preemption
            return e

        from prio.yunikorn.render.html import gangs, reason_codes

        chunks = htmlreport.page("simulate", chunks, htmlreport.header(
            "simulate", inp.names, live, eng.snapshot.partition, tree=tree, codes=reason_codes(), gangs=gangs(eng.snapshot),
            whyAsk=htmlreport.why_asks(again, eng) if o.steps is None else {}))  # --why-ask answers of the whole run
    write_chunks(chunks)
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
