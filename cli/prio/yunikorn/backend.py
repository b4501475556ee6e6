"""YuniKorn as a prio backend (issue 47; the protocol is prio.backend.Backend): the inputs no
other backend claims -> the engine (prio.yunikorn.load.assemble.build), a run or an explanation
-> a result record (prio.yunikorn.records: data only), the record -> text
(prio.yunikorn.render), or the page with the context the run took (prio.yunikorn.render.html).
Bad input raises prio.errors.InputError (exit 2, one line).

prio diff's sides and prio snapshot's capture are gathered by their commands (which side lends
its work, what a server holds); each diff side is then `load` and `run("simulate")` here,
compared with `diff`; a capture is composed by prio.yunikorn.capture."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prio.backend import Differ

OFFERS = ("explain", "simulate", "diff", "preempt", "snapshot")

# a progress bar (the command's, on a terminal) from this many asks: a smaller run ends first
PROGRESS_ASKS = 20000
# the rows a terminal table shows by default: rich takes minutes on a million, and nobody reads them
TABLE_STEPS = 1000
TABLE_ASKS = 200


@dataclass
class Loaded:
    """The model of one run: the engine built from the inputs, and how to build it again (each
    --why-ask answer schedules on fresh engines, as the run did)."""

    eng: Any
    inp: Any
    partition: str | None
    engine: str | None
    snapshot: Any = None  # prio preempt: the snapshot as preemption sees it (rejected and gangs applied)
    part: Any = None  # prio preempt: the partition's config (None without a config)

    def again(self):
        from prio.yunikorn.load.assemble import build

        e = build(self.inp, self.partition, self.engine)
        e.loop_preemption = self.eng.loop_preemption
        return e


@dataclass
class Record:
    """What a command's run answers, for its renderer: `kind` says which answer (simulate,
    tree, pending, lines, preempt, diff), `data` is that answer's record."""

    kind: str
    data: Any
    notes: list = field(default_factory=list)  # said on stderr before the output
    color: bool = False
    limit: int | None = None
    stopped: str = ""  # simulate: the line that says --steps ended the run with asks pending
    html: dict | None = None  # -o html: the page's context beside the json document


class YuniKorn:
    name, title, offers = "yunikorn", "YuniKorn", OFFERS
    compares = "two configs or two snapshots"

    def refused(self, command: str, o, fmt: str) -> str | None:
        if command == "explain" and fmt == "html":
            for flag, given in (("--why", o.why), ("--why-ask", o.why_ask), ("--pending", o.pending)):
                if given:
                    return f"{flag} answers in text or json; -o html draws the whole report (with --why for every queue)"
        return None

    def load(self, inp, command: str, o=None) -> Loaded:
        from prio.yunikorn.load.assemble import build

        if command == "preempt":
            return _preempt_model(inp, o)
        eng = build(inp, o.partition, o.engine)
        if command == "simulate":
            eng.loop_preemption = not o.no_preemption
        return Loaded(eng, inp, o.partition, o.engine)

    def run(self, command: str, m: Loaded, o, fmt: str, progress=None) -> Record:
        if command == "diff":
            return _side(m, o, fmt)
        if command == "simulate":
            return _simulate(m, o, fmt, progress)
        if command == "preempt":
            return _preempt(m, o, fmt)
        return _explain(m, o, fmt)

    def render(self, command: str, rec, fmt: str, width: int | None, page):
        """The record -> the output's chunks (a million steps stream rather than build one string)."""
        if command == "diff":
            from prio.yunikorn.render import diff as diff_out

            d, old, new = rec
            text = diff_out.render("json" if fmt == "html" else fmt, d.data, old, new, width=width, color=d.color)
            return page(text, None, **d.html) if fmt == "html" else text
        html, fmt = fmt == "html", "json" if fmt == "html" else fmt  # the page embeds the json document
        chunks = _render(rec, fmt, width)
        return page(chunks, None, **rec.html) if html else chunks

    def diff(self, old: tuple, new: tuple, findings: tuple) -> Record:
        """(model, side record) of OLD and NEW and each side's validate findings -> the compare
        (prio.yunikorn.diff)."""
        import dataclasses

        from prio.yunikorn import diff as core

        a, b = (dataclasses.replace(side[1].data, findings=list(f)) for side, f in zip((old, new), findings))
        rec = Record("diff", core.compare(a, b), color=old[1].color)
        if old[1].html is not None:  # -o html: both sides' queue trees, taken before their runs
            rec.html = {"trees": {"OLD": old[1].html["tree"], "NEW": new[1].html["tree"]}}
        return rec

    def changed(self, d: Record, kind: str) -> bool:
        return d.data.changed(kind)


def _render(rec: Record, fmt: str, width):
    from importlib import import_module

    k, d = rec.kind, rec.data
    out = import_module(f"prio.yunikorn.render.{_RENDERERS[k]}")
    if k == "simulate":
        return out.render(fmt, d, width=width, limit=rec.limit, color=rec.color, stopped=rec.stopped)
    if k == "tree":
        return out.render(fmt, d.rows, d.asks, ranges=d.ranges, width=width, total=d.total, color=rec.color, rejected=d.rejected)
    if k == "pending":
        return (out.render(fmt, d.groups, d.placed, d.total, width=width, color=rec.color),)
    if k == "preempt":
        return out.render(fmt, d.result, d.asks, width=width, color=rec.color, quota=d.quota)
    return (out.render_lines(fmt, d.doc, d.lines),)


# each record's renderer, a module of prio.yunikorn.render
_RENDERERS = {"simulate": "simulate", "tree": "explain", "pending": "pending", "preempt": "preempt", "lines": "explain"}


def _simulate(m: Loaded, o, fmt: str, progress) -> Record:
    from prio.yunikorn.records import queue_tree, simulation

    eng = m.eng
    html = fmt == "html"
    tree = queue_tree(eng) if html else None  # the tree as the snapshot has it, before the run schedules anything
    bar = None
    total = eng.snapshot.ask_count()
    if progress is not None and total >= PROGRESS_ASKS:
        bar = progress(total if o.steps is None else min(total, o.steps))
    try:
        steps = eng.run(o.steps, bar.update if bar else None)
    finally:
        if bar:
            bar.close()
    unscheduled = eng.leftovers()
    limit = o.limit
    if limit is None and fmt == "table":
        limit = TABLE_STEPS
    rec = Record("simulate", simulation(eng, steps, unscheduled), color=o.colored(), limit=limit)
    if o.steps is not None and len(steps) >= o.steps:
        still = sum(len(st.asks) for st in eng.apps) - len(steps) - len(unscheduled)
        if still > 0:
            rec.stopped = f"Stopped after step {len(steps)} (--steps {o.steps}): {still} ask{'s' if still != 1 else ''} still pending."
            if fmt in ("json", "html"):
                rec.notes.append(rec.stopped)
    if html:
        from prio.yunikorn.explain import why_asks
        from prio.yunikorn.render.html import gangs, reason_codes

        rec.html = dict(partition=eng.snapshot.partition, tree=tree, codes=reason_codes(), gangs=gangs(eng.snapshot),
                        whyAsk=why_asks(m.again, eng) if o.steps is None else {})  # --why-ask answers of the whole run
    return rec


def _explain(m: Loaded, o, fmt: str) -> Record:
    """The one question asked: --pending, --why-ask, --why, or the tree and the asks."""
    from prio.yunikorn import records

    eng = m.eng
    _find_queues(o, eng)
    if o.pending:
        return Record("pending", records.pending(eng, 3 if o.limit is None else o.limit), color=o.colored())
    if o.why_ask:
        return Record("lines", _why_ask(m, o))
    if o.why:
        from prio.yunikorn.explain import why

        lines = why(eng, o.why)
        return Record("lines", records.Lines({"queue": o.why, "why": lines}, lines))
    notes = []
    if m.inp.rest_queues:
        from prio.yunikorn.explain import reported_differences

        diff = reported_differences(eng, m.inp.rest_queues)
        if diff:
            notes.append(f"{len(diff)} queue priorit{'y differs' if len(diff) == 1 else 'ies differ'} from the dump's currentPriority "
                         f"(YuniKorn refreshes parents only on ask events; a partial applications dump differs too): {'; '.join(diff[:5])}")
    limit = o.limit
    if limit is None and fmt == "table":
        limit = TABLE_ASKS
    rec = Record("tree", records.explained(eng, o.queue, list(m.inp.classes), streamed=fmt in ("json", "html"), limit=limit),
                 notes=notes, color=o.colored())
    if fmt == "html":
        from prio.yunikorn.render.html import gangs

        rec.html = dict(partition=eng.snapshot.partition, tree=records.queue_tree(eng, o.queue), queue=o.queue, gangs=gangs(eng.snapshot))
    return rec


def _find_queues(o, eng) -> None:
    """--queue and --why name a queue of the partition (else refused, with the nearest names)."""
    from prio.errors import InputError
    from prio.yunikorn.explain import find

    for target in (o.queue, o.why):
        if target:
            try:
                find(eng.root, target)
            except KeyError:
                from prio.suggest import did_you_mean

                flag = "--queue" if target == o.queue else "--why"
                raise InputError(flag, f"no queue {target!r} in this partition{did_you_mean(target, [q.path for q in eng.root.walk()])}") from None


def _why_ask(m: Loaded, o):
    """--why-ask (and --behind): the ask's step in the simulated order and the decisive
    comparison, from the reference rules (yunikorn.explain.why_ask runs its own engines)."""
    from prio.errors import InputError, Refused
    from prio.yunikorn.explain import why_ask
    from prio.yunikorn.load.assemble import build
    from prio.yunikorn.records import Lines

    eng = m.eng
    facts: dict = {}
    try:
        lines = why_ask(lambda: build(m.inp, m.partition, m.engine), o.why_ask, o.behind, facts)
    except KeyError as e:
        from prio.suggest import did_you_mean
        from prio.yunikorn.explain import running

        key = e.args[0]
        runs = running(eng, key) if key == o.why_ask else None
        if runs is not None:  # a bound pod: where it runs, not "no pending ask"
            return Lines({"ask": o.why_ask, "running": True, "lines": runs}, runs)
        flag = "--behind" if key == o.behind and key != o.why_ask else "--why-ask"
        known = [f"{st.app.id}/{a.id}" if "/" in key else a.id for st in eng.apps for a in st.asks]
        raise InputError(flag, f"no pending ask {key!r}{did_you_mean(key, known)}") from None
    except ValueError as e:
        raise Refused(str(e)) from None
    doc = {"ask": o.why_ask, **{k: facts.get(k) for k in ("step", "placedBefore", "waitsBehind", "partsAt", "rule", "values", "tie")},
           **({"preemption": facts["preemption"]} if facts.get("preemption") else {}), "lines": lines}
    return Lines(doc, lines)


def _side(m: Loaded, o, fmt: str) -> Record:
    """One side of prio diff: the priorities before, a whole run, the classes' ranges the inputs
    define, and whether its partition preempts for quota (the findings come with `diff`); with
    -o html, its queue tree before the run."""
    from prio.yunikorn import diff as core
    from prio.yunikorn.load.assemble import partition_of

    eng, inp = m.eng, m.inp
    html = None
    if fmt == "html":
        from prio.yunikorn.records import queue_tree

        html = {"tree": queue_tree(eng)}
    before = core.priorities(eng)
    steps = eng.run()
    ranges = None
    defined = list(inp.classes) + list(eng.snapshot.priority_classes)
    if defined:
        from prio.yunikorn.classranges import class_ranges

        names = {c.name for c in defined}  # the classes the inputs define (not every built-in)
        ranges = [r for r in class_ranges(eng.root, defined) if r["class"] in names]
    part = partition_of(inp, eng)  # quota preemption runs only with the partition's quotapreemptionenabled
    return Record("side", core.side(eng, before, steps, (), ranges, part is not None and part.quota_preemption_enabled),
                  color=o.colored(), html=html)


def _preempt_model(inp, o) -> Loaded:
    """The engine, and the snapshot as YuniKorn's preemption sees it: without the applications
    placement refuses (never placed: nothing to preempt for or from), each gang as YuniKorn
    knows it. Needs nodes (or a capacity) and running allocations."""
    from prio.errors import InputError
    from prio.yunikorn import resources
    from prio.yunikorn.load.assemble import build, partition_of

    if inp.snapshot is None:
        raise InputError(" ".join(inp.names) or "input", "prio preempt needs a snapshot with nodes and running allocations (a native snapshot: applications:, nodes:)")
    snap = inp.snapshot
    if snap.nodes is None and not snap.capacity:
        raise InputError(snap.source, "the snapshot has neither nodes nor a capacity: preemption is per node (add nodes: [{name, capacity}])")
    if snap.nodes is not None and not snap.capacity:
        snap.capacity = resources.total(n.capacity for n in snap.nodes)  # root's max is the sum of the nodes
    eng = build(inp, o.partition, o.engine)
    snapshot = eng.snapshot
    if eng.rejected:
        import dataclasses

        refused = {r.application for r in eng.rejected}
        snapshot = dataclasses.replace(snapshot, apps=[a for a in snapshot.apps if a.id not in refused])
    if any(a.task_groups for a in snapshot.apps):  # what YuniKorn knows of each gang (gangs.py)
        from prio.yunikorn import gangs

        snapshot, seen = gangs.preemption_view(snapshot, snapshot.priority_classes)
        inp.notes += gangs.preemption_notes(seen)
    return Loaded(eng, inp, o.partition, o.engine, snapshot, partition_of(inp, eng))


def _preempt(m: Loaded, o, fmt: str) -> Record:
    from prio.errors import InputError
    from prio.yunikorn import preemption
    from prio.yunikorn.preemption import quota
    from prio.yunikorn.records import Preempted
    from prio.yunikorn.ugm import limits_of

    eng, part, snapshot = m.eng, m.part, m.snapshot
    result = preemption.analyse(eng.root, snapshot,
                                part.preemption_enabled if part is not None else True,
                                (part.nodesort_type or "fair") if part is not None else "fair",
                                part.resourceweights if part is not None else None,
                                limits_of(part), eng.release)
    q = quota.analyse(eng.root, quota.runs_of(eng.root, snapshot), part.quota_preemption_enabled if part is not None else False,
                      release=eng.release, pending=quota.pending_queues(eng.apps))
    notes = []
    if part is None and any(a.armed for a in q.considered):
        notes.append("no queue config: the partition switch quotapreemptionenabled is taken as YuniKorn's default, false")
    asks = result.asks
    if o.ask is not None:
        asks = [r for r in asks if o.ask in (r.ask, f"{r.application}/{r.ask}")]
        if not asks:
            from prio.suggest import did_you_mean

            known = ", ".join(r.ask for r in result.asks[:10]) or "none"
            hint = did_you_mean(o.ask, [f"{r.application}/{r.ask}" if "/" in o.ask else r.ask for r in result.asks])
            raise InputError("--ask", f"no pending ask {o.ask!r} in {m.inp.snapshot.source}" + (hint or f" (asks: {known}{', ...' if len(result.asks) > 10 else ''})"))
    rec = Record("preempt", Preempted(result, asks, q), notes=notes, color=o.colored())
    if fmt == "html":  # each ask's checks and candidates beside the json document
        from prio.yunikorn.records import queue_tree
        from prio.yunikorn.render.html import VICTIM_ORDER, preempt_asks

        rec.html = dict(partition=eng.snapshot.partition, tree=queue_tree(eng), preempt=preempt_asks(asks, snapshot), victimOrder=VICTIM_ORDER)
    return rec


BACKEND: Differ = YuniKorn()  # mypy holds it to the protocol
