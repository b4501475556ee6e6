"""`prio simulate`: the scheduling order, one allocation per step, with every priority change."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.render.formats import names

FORMATS = names("simulate")


SHORT_HELP = 'The scheduling order, step by step, with every priority change.'

HELP = """Step through the scheduling order and every priority change it causes."""

Options = shared.options(
    "SimulateOptions", "inputs", "sample", "output", "output_file", "color",
    "steps", "no_preemption",
    shared.SHARED["limit"].but(help="Step rows to show in table, plain and markdown output (default: 1000 in table, all "
                                    "otherwise; json has every step)."),
    "partition", "priority_classes", *shared.group("run"),
    *shared.group("model"), "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
)


def run(o: Options) -> int:
    return shared.report(o, FORMATS, _simulate)



def _simulate(o: Options, fmt: str) -> int:
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    from prio.cli.backend_run import answer, foreign_option

    inp, live = shared.read_inputs(o)
    refused = foreign_option(o, inp)
    if refused is not None:
        sys.stderr.write(f"prio: {refused}\n")
        return 2
    return answer("simulate", o, inp, fmt, live, progress=_progress if sys.stderr.isatty() else None)


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
