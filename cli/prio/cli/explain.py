"""`prio explain`: the effective priority tree and the order pending asks are considered in."""
from __future__ import annotations

import sys
from typing import List, Optional

import typer

from prio.cli.options import Color, use_color
from prio.cli import options
from prio.render.formats import names

FORMATS = names("explain")


SHORT_HELP = "Each queue's effective priority, offset and fence, and why."


def command(
    inputs: List[str] = options.INPUTS,
    sample: Optional[str] = options.SAMPLE,
    output: Optional[str] = options.OUTPUT,
    output_file: Optional[str] = options.OUTPUT_FILE,
    color: Color = options.COLOR,
    partition: Optional[str] = options.PARTITION,
    queue: Optional[str] = typer.Option(None, "--queue", metavar="PATH", help="Only this queue's subtree."),
    why: Optional[str] = typer.Option(None, "--why", metavar="QUEUE", help="Explain how this queue's priority was derived."),
    why_ask: Optional[str] = typer.Option(None, "--why-ask", metavar="ASK", help="Why this ask waits where it does (an ask id, or APP/ASK): its step in the simulated order, and the decisive comparison with the ask placed before it."),
    behind: Optional[str] = typer.Option(None, "--behind", metavar="ASK", help="With --why-ask: compare with this ask instead of the one placed just before."),
    limit: Optional[int] = typer.Option(None, "--limit", min=0, metavar="N", help="Pending asks to list in table, plain and markdown output (default: 200 in table, all otherwise; json lists all)."),
    priority_classes: List[str] = options.PRIORITY_CLASSES,
    armada_decay: str = options.ARMADA_DECAY,
    armada_weighting: str = options.ARMADA_WEIGHTING,
    armada_model: Optional[str] = options.ARMADA_MODEL,
    verbose: bool = options.VERBOSE,
    yunikorn: Optional[str] = options.YUNIKORN,
    header: List[str] = options.HEADER,
    cacert: Optional[str] = options.CACERT,
    timeout: Optional[float] = options.TIMEOUT,
    pending: bool = typer.Option(False, "--pending", help="Why asks stay pending: each reason code with how many asks, per queue, and the first few (--limit N of them; 3 by default)."),
):
    """Show each queue's effective priority, offset and fence, and why."""
    from prio.cli.common import guarded, pick_format, to_file, with_output_file
    from prio.cli.live import remote

    fmt = pick_format(output, FORMATS, to_file(output_file))
    raise typer.Exit(guarded(lambda: with_output_file(output_file, lambda: run(inputs or [], sample, fmt, partition, queue, why, priority_classes, armada_decay, armada_weighting, limit, why_ask, behind, use_color(color, sys.stdout) and not to_file(output_file), verbose, armada_model,
                                         remote(yunikorn, header, cacert, timeout, inputs, sample), pending))))


def run(paths, sample, fmt, partition, queue, why, classes, armada_decay, armada_weighting, limit=None, why_ask=None, behind=None, color=False, verbose=False, armada_model=None, live=None, pending=False) -> int:
    from prio.cli.common import check_armada_options, load_inputs, say_notes, say_recognised, width, write_chunks
    from prio.yunikorn.explain import iter_ask_rows, queue_rows
    from prio.yunikorn.explain import why as why_lines
    from prio.loaders.assemble import build

    if live is not None:
        from prio.cli import live as live_mod

        inp = live_mod.load(live, paths, sample, classes, partition, verbose)
    else:
        # kept with inp (keep() below): the parsed snapshot is freed with the process, not here
        inp = load_inputs(paths, sample, classes, keep_documents=True)
    if verbose:
        say_recognised(inp)
    check_armada_options(inp, armada_decay, armada_weighting, armada_decay=armada_decay, armada_weighting=armada_weighting, armada_model=armada_model)
    if inp.armada and pending:
        sys.stderr.write("prio: --pending applies to YuniKorn inputs, not Armada scenarios\n")
        return 2
    if inp.armada and (why_ask or behind or queue):  # refused, not silently ignored
        flag = "--why-ask" if why_ask else "--behind" if behind else "--queue"
        sys.stderr.write(f"prio: {flag} applies to YuniKorn inputs, not Armada scenarios (--why QUEUE explains one Armada queue)\n")
        return 2
    if inp.armada:
        from prio.cli.armada import run_explain

        sys.stdout.write(run_explain(inp.armada, fmt, decay=armada_decay, weighting=armada_weighting, width=width(), model=armada_model, why=why))
        return 0
    eng = build(inp, partition)
    from prio.cli.lifetime import keep

    keep(inp, eng)  # freed with the process, not on return (lifetime.py)
    say_notes(inp)
    for target in (queue, why):
        if target:
            from prio.yunikorn.explain import find

            try:
                find(eng.root, target)
            except KeyError:
                from prio.suggest import did_you_mean

                flag = "--queue" if target == queue else "--why"
                sys.stderr.write(f"prio: {flag}: no queue {target!r} in this partition{did_you_mean(target, [q.path for q in eng.root.walk()])}\n")
                return 2
    if behind and not why_ask:
        sys.stderr.write("prio: --behind goes with --why-ask\n")
        return 2
    if why_ask and (why or queue):
        sys.stderr.write("prio: --why-ask goes alone (not with --why or --queue)\n")
        return 2
    if pending:
        from prio.cli.why_pending import run_pending

        return run_pending(eng, fmt, limit, color, alone=not (why or why_ask or queue))
    if why_ask:
        from prio.yunikorn.explain import why_ask as why_ask_lines

        facts: dict = {}
        try:
            lines = why_ask_lines(lambda: build(inp, partition), why_ask, behind, facts)
        except KeyError as e:
            from prio.suggest import did_you_mean

            key = e.args[0]
            flag = "--behind" if key == behind and key != why_ask else "--why-ask"
            known = [f"{st.app.id}/{a.id}" if "/" in key else a.id for st in eng.apps for a in st.asks]
            sys.stderr.write(f"prio: {flag}: no pending ask {key!r}{did_you_mean(key, known)}\n")
            return 2
        except ValueError as e:
            sys.stderr.write(f"prio: {e}\n")
            return 2
        doc = {"ask": why_ask, **{k: facts.get(k) for k in ("step", "placedBefore", "waitsBehind", "partsAt", "rule", "values", "tie")}, "lines": lines}
        return _print_lines(fmt, doc, lines)
    if why:
        lines = why_lines(eng, why)
        return _print_lines(fmt, {"queue": why, "why": lines}, lines)
    if inp.rest_queues:
        from prio.yunikorn.explain import reported_differences

        diff = reported_differences(eng, inp.rest_queues)
        if diff:
            sys.stderr.write(f"prio: note: {len(diff)} queue priorit{'y differs' if len(diff) == 1 else 'ies differ'} from the dump's currentPriority "
                             f"(YuniKorn refreshes parents only on ask events; a partial applications dump differs too): {'; '.join(diff[:5])}\n")
    rows = queue_rows(eng, queue)
    if limit is None and fmt == "table":
        limit = 200
    total = None
    if fmt == "json":
        from prio.yunikorn.explain import iter_ask_groups

        asks = iter_ask_groups(eng, queue)  # streamed, every one
    else:
        rows_iter = iter_ask_rows(eng, queue)
        from itertools import islice

        asks = list(islice(rows_iter, limit))
        total = len(asks) + sum(1 for _ in rows_iter)  # what the table leaves out, counted alike
    ranges = None
    defined = list(inp.classes) + list(eng.snapshot.priority_classes)
    if defined:
        from prio.yunikorn.classranges import class_ranges

        ranges = class_ranges(eng.root, defined)
        if queue:  # --queue narrows every table, this one too
            from prio.yunikorn.explain import find

            top = find(eng.root, queue).path
            ranges = [x for x in ranges if x["queue"] == top or x["queue"].startswith(top + ".")]
    from prio.render import explain as explain_out

    write_chunks(explain_out.render(fmt, rows, asks, ranges=ranges, width=width(), total=total, color=color, rejected=eng.rejected))
    return 0


def _print_lines(fmt: str, doc: dict, lines: list) -> int:
    if fmt == "json":
        import json

        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(lines) + "\n")
    return 0
