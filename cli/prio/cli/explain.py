"""`prio explain`: the effective priority tree and the order pending asks are considered in."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.cli.guard import say
from prio.optspec import Opt
from prio.render.formats import names

FORMATS = names("explain")


SHORT_HELP = "Each queue's effective priority, offset and fence, and why."

HELP = """Show each queue's effective priority, offset and fence, and why."""

Options = shared.options(
    "ExplainOptions", "inputs", "sample", "output", "output_file", "color", "partition",
    Opt("queue", ("--queue",), "Only this queue's subtree.", metavar="PATH"),
    Opt("why", ("--why",), "Explain how this queue's priority was derived.", metavar="QUEUE"),
    Opt("why_ask", ("--why-ask",), "Why this ask waits where it does (an ask id, or APP/ASK): its step in the simulated order, "
                                   "and the decisive comparison with the ask placed before it.", metavar="ASK"),
    "why_workload", "why_job",
    Opt("behind", ("--behind",), "With --why-ask: compare with this ask instead of the one placed just before.", metavar="ASK"),
    "limit", "priority_classes", "armada_decay", "armada_weighting", "armada_model", "verbose", "yunikorn", "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
    Opt("pending", ("--pending",), "Why asks stay pending: each reason code with how many asks, per queue, and the first few "
                                   "(--limit N of them; 3 by default).", type=bool, default=False),
)


def run(o: Options) -> int:
    return shared.report(o, FORMATS, _explain)



def _explain(o: Options, fmt: str) -> int:
    """Load the inputs, refuse options that do not apply to them, and answer the one question
    asked: a backend's explain (prio.backends), --pending, --why-ask, --why, or the tree and the asks."""
    refused = _refused_together(o)
    if refused is not None:
        return refused
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    from prio.cli.backend_run import answer
    from prio.cli.common import say_notes
    from prio.yunikorn.load.assemble import build

    # the documents kept with inp (keep() below): the parsed snapshot is freed with the process
    inp, live = shared.read_inputs(o, keep_documents=True)
    refused = _refused_for_inputs(o, inp, fmt)
    if refused is not None:
        return refused
    if inp.backend is not None:  # a backend's inputs (prio.backends): its load, run and render
        return answer("explain", o, inp, fmt)
    eng = build(inp, o.partition, o.engine)
    from prio.cli.lifetime import keep

    keep(inp, eng)  # freed with the process, not on return (lifetime.py)
    say_notes(inp)
    refused = _refused_for_queues(o, eng)
    if refused is not None:
        return refused
    if o.pending:
        from prio.cli.why_pending import run_pending

        return run_pending(eng, fmt, o.limit, o.colored())
    if o.why_ask:
        return _why_ask(o, fmt, inp, eng)
    if o.why:
        from prio.yunikorn.explain import why as why_lines

        lines = why_lines(eng, o.why)
        return _print_lines(fmt, {"queue": o.why, "why": lines}, lines)
    return _tree(o, fmt, inp, eng, live)


def _refused_together(o: Options) -> int | None:
    """2 (said on stderr) where options that do not go together are given, before anything is
    read (a cluster, a server, a file): each question goes alone, and --behind with --why-ask.
    None where they go together."""
    if o.pending and (o.why or o.why_ask or o.queue):
        sys.stderr.write("prio: --pending goes alone (not with --why, --why-ask or --queue)\n")
        return 2
    if o.behind and not o.why_ask:
        sys.stderr.write("prio: --behind goes with --why-ask\n")
        return 2
    if o.why_ask and (o.why or o.queue):
        sys.stderr.write("prio: --why-ask goes alone (not with --why or --queue)\n")
        return 2
    return None


def _refused_for_inputs(o: Options, inp, fmt: str) -> int | None:
    """2 (said on stderr) where an option does not apply to the inputs' scheduler or to -o
    html: refused, never silently ignored. None where everything applies."""
    from prio.cli.backend_run import foreign_option

    refused = foreign_option(o, inp)
    if refused is not None:
        sys.stderr.write(f"prio: {refused}\n")
        return 2
    if inp.backend is not None:
        return None  # the backend's own refusals (prio.cli.backend_run.answer)
    if fmt == "html":
        from prio.cli import htmlreport

        for flag, given in (("--why", o.why), ("--why-ask", o.why_ask), ("--pending", o.pending)):
            if given:
                return htmlreport.refuse(flag)
    return None


def _refused_for_queues(o: Options, eng) -> int | None:
    """2 (said on stderr) where --queue or --why names no queue of the partition (with the
    nearest names)."""
    for target in (o.queue, o.why):
        if target:
            from prio.yunikorn.explain import find

            try:
                find(eng.root, target)
            except KeyError:
                from prio.suggest import did_you_mean

                flag = "--queue" if target == o.queue else "--why"
                say(f"prio: {flag}: no queue {target!r} in this partition{did_you_mean(target, [q.path for q in eng.root.walk()])}")
                return 2
    return None


def _why_ask(o: Options, fmt: str, inp, eng) -> int:
    """--why-ask (and --behind): the ask's step in the simulated order and the decisive
    comparison, from the reference rules (yunikorn.explain.why_ask runs its own engines)."""
    from prio.yunikorn.explain import why_ask as why_ask_lines
    from prio.yunikorn.load.assemble import build

    facts: dict = {}
    try:
        lines = why_ask_lines(lambda: build(inp, o.partition, o.engine), o.why_ask, o.behind, facts)
    except KeyError as e:
        from prio.suggest import did_you_mean
        from prio.yunikorn.explain import running

        key = e.args[0]
        runs = running(eng, key) if key == o.why_ask else None
        if runs is not None:  # a bound pod: where it runs, not "no pending ask"
            doc = {"ask": o.why_ask, "running": True, "lines": runs}
            return _print_lines(fmt, doc, runs)
        flag = "--behind" if key == o.behind and key != o.why_ask else "--why-ask"
        known = [f"{st.app.id}/{a.id}" if "/" in key else a.id for st in eng.apps for a in st.asks]
        say(f"prio: {flag}: no pending ask {key!r}{did_you_mean(key, known)}")
        return 2
    except ValueError as e:
        say(f"prio: {e}")
        return 2
    doc = {"ask": o.why_ask, **{k: facts.get(k) for k in ("step", "placedBefore", "waitsBehind", "partsAt", "rule", "values", "tie")},
           **({"preemption": facts["preemption"]} if facts.get("preemption") else {}), "lines": lines}
    return _print_lines(fmt, doc, lines)


def _tree(o: Options, fmt: str, inp, eng, live) -> int:
    """The default answer: every queue's effective priority (--queue: one subtree), the pending
    asks in the order they are considered, and the PriorityClasses' ranges; -o html embeds the
    json document in the report's page."""
    from prio.cli.common import width, write_chunks
    from prio.yunikorn.explain import iter_ask_rows, queue_rows

    if inp.rest_queues:
        from prio.yunikorn.explain import reported_differences

        diff = reported_differences(eng, inp.rest_queues)
        if diff:
            say(f"prio: note: {len(diff)} queue priorit{'y differs' if len(diff) == 1 else 'ies differ'} from the dump's currentPriority "
                             f"(YuniKorn refreshes parents only on ask events; a partial applications dump differs too): {'; '.join(diff[:5])}")
    rows = queue_rows(eng, o.queue)
    limit = o.limit
    if limit is None and fmt == "table":
        limit = 200
    total = None
    html, fmt = fmt == "html", "json" if fmt == "html" else fmt  # the page embeds the json document
    if fmt == "json":
        from prio.yunikorn.explain import iter_ask_groups

        asks = iter_ask_groups(eng, o.queue)  # streamed, every one
    else:
        rows_iter = iter_ask_rows(eng, o.queue)
        from itertools import islice

        asks = list(islice(rows_iter, limit))
        total = len(asks) + sum(1 for _ in rows_iter)  # what the table leaves out, counted alike
    ranges = None
    defined = list(inp.classes) + list(eng.snapshot.priority_classes)
    if defined:
        from prio.yunikorn.classranges import class_ranges

        ranges = class_ranges(eng.root, defined)
        if o.queue:  # --queue narrows every table, this one too
            from prio.yunikorn.explain import find

            top = find(eng.root, o.queue).path
            ranges = [x for x in ranges if x["queue"] == top or x["queue"].startswith(top + ".")]
    from prio.yunikorn.render import explain as explain_out

    chunks = explain_out.render(fmt, rows, asks, ranges=ranges, width=width(), total=total, color=o.colored(), rejected=eng.rejected)
    if html:
        from prio.cli import htmlreport
        from prio.yunikorn.records import queue_tree
        from prio.yunikorn.render.html import gangs

        chunks = htmlreport.page("explain", chunks, htmlreport.header("explain", inp.names, live, eng.snapshot.partition,
                                                                     tree=queue_tree(eng, o.queue), queue=o.queue,
                                                                     gangs=gangs(eng.snapshot)))
    write_chunks(chunks)
    return 0


def _print_lines(fmt: str, doc: dict, lines: list) -> int:
    if fmt == "json":
        import json

        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        from prio.render.printable import printable

        sys.stdout.write(printable("\n".join(lines), lines=True) + "\n")
    return 0
