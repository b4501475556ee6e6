"""`prio preempt`: what YuniKorn's preemption would do for each pending ask, and why."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.optspec import Opt
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
    Opt("ask", ("--ask",), "Only this ask (an ask id, or APP/ASK).", metavar="ID"),
    "color", "partition", "priority_classes", "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
)


def run(o: Options) -> int:
    return shared.report(o, FORMATS, _preempt, redirect=False)  # the report is written whole, at the end



def _preempt(o: Options, fmt: str) -> int:
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    color = o.colored()
    from prio.cli.common import say_notes, width
    from prio.cli.outfile import write_text
    from prio.errors import InputError
    from prio.yunikorn import preemption, resources
    from prio.yunikorn.load.assemble import build, partition_of
    from prio.yunikorn.preemption import quota
    from prio.yunikorn.render import preempt as preempt_out
    from prio.yunikorn.ugm import limits_of

    # the files (the preemption sample by default), or --yunikorn's config, queues, nodes and
    # running allocations
    inp, live = shared.read_inputs(o, default_sample=DEFAULT_SAMPLE)
    from prio.cli.backend_run import yunikorn_only

    yunikorn_only("preempt", inp)
    if inp.snapshot is None:
        raise InputError(" ".join(inp.names) or "input", "prio preempt needs a snapshot with nodes and running allocations (a native snapshot: applications:, nodes:)")
    snap = inp.snapshot
    if snap.nodes is None and not snap.capacity:
        raise InputError(snap.source, "the snapshot has neither nodes nor a capacity: preemption is per node (add nodes: [{name, capacity}])")
    if snap.nodes is not None and not snap.capacity:
        snap.capacity = resources.total(n.capacity for n in snap.nodes)  # root's max is the sum of the nodes
    eng = build(inp, o.partition, o.engine)
    snapshot = eng.snapshot
    if eng.rejected:  # applications YuniKorn refuses are never placed: nothing to preempt for or from
        import dataclasses

        refused = {r.application for r in eng.rejected}
        snapshot = dataclasses.replace(snapshot, apps=[a for a in snapshot.apps if a.id not in refused])
    if any(a.task_groups for a in snapshot.apps):  # what YuniKorn knows of each gang (gangs.py)
        from prio.yunikorn import gangs

        snapshot, seen = gangs.preemption_view(snapshot, snapshot.priority_classes)
        inp.notes += gangs.preemption_notes(seen)
    say_notes(inp)
    part = partition_of(inp, eng)
    result = preemption.analyse(eng.root, snapshot,
                                part.preemption_enabled if part is not None else True,
                                (part.nodesort_type or "fair") if part is not None else "fair",
                                part.resourceweights if part is not None else None,
                                limits_of(part), eng.release)
    q = quota.analyse(eng.root, quota.runs_of(eng.root, snapshot), part.quota_preemption_enabled if part is not None else False,
                      release=eng.release, pending=quota.pending_queues(eng.apps))
    if part is None and any(a.armed for a in q.considered):
        sys.stderr.write("prio: note: no queue config: the partition switch quotapreemptionenabled is taken as YuniKorn's default, false\n")
    asks = result.asks
    if o.ask is not None:
        asks = [r for r in asks if o.ask in (r.ask, f"{r.application}/{r.ask}")]
        if not asks:
            from prio.suggest import did_you_mean

            known = ", ".join(r.ask for r in result.asks[:10]) or "none"
            hint = did_you_mean(o.ask, [f"{r.application}/{r.ask}" if "/" in o.ask else r.ask for r in result.asks])
            raise InputError("--ask", f"no pending ask {o.ask!r} in {snap.source}" + (hint or f" (asks: {known}{', ...' if len(result.asks) > 10 else ''})"))
    text = "".join(preempt_out.render("json" if fmt == "html" else fmt, result, asks, width=width(), color=color, quota=q))
    if fmt == "html":  # the json document in a page, with each ask's checks and candidates
        from prio.cli import htmlreport
        from prio.yunikorn.records import queue_tree
        from prio.yunikorn.render.html import VICTIM_ORDER, preempt_asks

        text = "".join(htmlreport.page("preempt", [text], htmlreport.header(
            "preempt", inp.names, live, eng.snapshot.partition, tree=queue_tree(eng), preempt=preempt_asks(asks, snapshot), victimOrder=VICTIM_ORDER)))
    write_text(o.output_file, text)
    return 0
