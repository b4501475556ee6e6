"""`prio preempt`: what YuniKorn's preemption would do for each pending ask, and why."""
from __future__ import annotations

from prio.cli import analysis_options as shared
from prio.render.formats import names

FORMATS = names("preempt")
DEFAULT_SAMPLE = "preemption"


SHORT_HELP = "What YuniKorn's preemption would do for each pending ask, and why."

HELP = """For each pending ask: may YuniKorn preempt for it, where its fence root is, which running
    tasks are candidates and why, and the victims it would pick in order (or its reason why not).
    Then quota-change preemption (YuniKorn 1.8+): the queues whose usage is over their max, which
    are armed (quota.preemption.delay, partition switch quotapreemptionenabled) and the running
    tasks YuniKorn would preempt once the delay has passed. Needs a config and a snapshot with
    nodes and running allocations."""

Options = shared.options(
    "PreemptOptions",
    shared.SHARED["inputs"].but(help="Queue config and a snapshot with nodes and running allocations (recognised by content). "
                                     "None: the bundled preemption sample."),
    shared.SHARED["sample"].but(help="Use a bundled sample (default with no INPUT: preemption)."),
    "output", "output_file",
    "ask",
    "color", "partition", "priority_classes", "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
)


def run(o: Options) -> int:
    return shared.report(o, FORMATS, _preempt, redirect=False)  # the report is written whole, at the end



def _preempt(o: Options, fmt: str) -> int:
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    from prio.cli.backend_run import answer
    from prio.cli.outfile import write_text

    # the files (the preemption sample by default), or --yunikorn's config, queues, nodes and
    # running allocations
    inp, live = shared.read_inputs(o, default_sample=DEFAULT_SAMPLE)
    return answer("preempt", o, inp, fmt, live, write=lambda text: write_text(o.output_file, text))
