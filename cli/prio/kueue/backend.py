"""Kueue as a prio backend (issue 47; the protocol is prio.backend.Backend): its inputs -> the
Setup (prio.kueue.load), a replay or an explanation -> a result record (data only), the record ->
text (prio.kueue.render), or the page (prio.kueue.html's context). Bad input raises
prio.errors.InputError (exit 2, one line)."""
from __future__ import annotations

from dataclasses import dataclass, field

from prio.backend import Differ

OFFERS = ("explain", "simulate", "diff")


@dataclass
class Record:
    data: dict  # what -o json writes: prio.kueue.report.as_data's, or prio.kueue.explain.explain's
    notes: list = field(default_factory=list)  # what the replay used that prio does not replay (said on stderr)
    paths: dict = field(default_factory=dict)  # ClusterQueue -> its cohort path, for the text formats
    why: list | None = None  # --why-workload's answer
    html: dict = field(default_factory=dict)  # the page's context (-o html only)


class Kueue:
    name, title, offers = "kueue", "Kueue", OFFERS
    compares = "two Kueue setups"

    def refused(self, command: str, o, fmt: str) -> str | None:
        if command == "explain":
            if o.why_ask or o.behind or o.queue or o.why or o.pending:
                return "--why-ask, --behind, --queue, --why and --pending apply to YuniKorn inputs; for Kueue use --why-workload NS/NAME"
            if fmt == "html" and o.why_workload:
                return "--why-workload answers in text or json; -o html draws the whole report (with --why-workload for every workload)"
        if command == "simulate" and (o.steps is not None or o.limit is not None or o.rounds is not None or o.seed is not None):
            return "--steps, --limit, --rounds and --seed do not apply to Kueue inputs"
        return None

    def load(self, inp, command: str, o=None):
        """The Kueue objects of the inputs (PriorityClasses included) as one Setup, without those
        the API server refuses (the cluster never admitted them: one note each); what they use
        that prio does not replay goes to the inputs' notes."""
        from prio.kueue import load as loader

        skipped: list = []
        setup = loader.load(list(inp.class_docs) + list(inp.objects), skipped)
        inp.notes += [x.note() for x in skipped] + setup.notes
        return setup

    def run(self, command: str, setup, o, fmt: str, progress=None) -> Record:
        if command == "simulate":
            tree = _tree(setup) if fmt == "html" else None  # before the replay, as the page's tree shows it
            rec = _simulate(setup)
            if fmt == "html":
                rec.html = _context(setup, tree=tree)
            elif fmt != "json":
                rec.paths = _cq_paths(setup)
                for w in rec.data["workloads"]:
                    cq = setup.cluster_queue_of(next(x for x in setup.workloads if x.key == w["workload"]))
                    w["_cq_path"] = rec.paths.get(cq, cq or "(no LocalQueue)")
            return rec
        from prio.errors import InputError
        from prio.kueue import explain as ex

        why = None
        if o.why_workload:
            key = o.why_workload if "/" in o.why_workload else f"default/{o.why_workload}"
            why = ex.why_workload(setup, key)
            if why is None:
                from prio.suggest import did_you_mean

                if f"Workload {key}" in setup.skipped:
                    raise InputError(setup.source, f"no Workload {key}: it was skipped, the API server refuses it (its note above)")
                raise InputError(setup.source, f"no Workload {key}{did_you_mean(key, [w.key for w in setup.workloads])}")
        rec = Record(ex.explain(setup), why=why)
        if fmt == "html":
            rec.html = _context(setup, why_workloads=True)
        return rec

    def render(self, command: str, rec, fmt: str, width: int | None, page) -> str:
        from prio.kueue import render
        from prio.kueue.html import TITLES

        if command == "diff":
            d, old, new = rec
            if fmt == "html":
                context = d.pop("_html")  # the page's, not the diff's json
                return page(render.diff_text(d, old, new, "json"), TITLES, **context)
            return render.diff_text(d, old, new, fmt, width)
        if command == "simulate":
            if fmt == "html":
                return page(render.simulate_text(rec.data, {}, "json"), TITLES, **rec.html)
            return render.simulate_text(rec.data, rec.paths, fmt, width)
        if fmt == "html":
            return page(render.explain_text(rec.data, "json"), TITLES, **rec.html)
        return render.explain_text(rec.data, fmt, width, rec.why)

    def diff(self, old: tuple, new: tuple, findings: tuple):
        """(setup, simulate record) of each side -> the compare (prio.kueue.diff), workload by
        workload, with each side's validate findings; with the page's context for -o html."""
        from prio.kueue import diff as core

        d = core.compare(old[1].data, new[1].data, *findings)
        # NEW's context (paths, ClusterQueues: its run made it) and both sides' cohort trees,
        # taken before their replays
        if old[1].html or new[1].html:
            context = {k: v for k, v in new[1].html.items() if k != "tree"}
            d["_html"] = dict(context, trees={"OLD": old[1].html["tree"], "NEW": new[1].html["tree"]})
        return d

    def changed(self, d, kind: str) -> bool:
        from prio.kueue.diff import changed

        return changed(d, kind)


def _simulate(setup) -> Record:
    from prio.kueue.reference import ReferenceRun
    from prio.kueue.report import as_data, replay_notes

    result = ReferenceRun(setup).run()
    return Record(as_data(result), notes=replay_notes(result))


def _cq_paths(setup) -> dict:
    from prio.kueue.tree import Tree

    return {name: node.path() for name, node in Tree(setup).cqs.items()}


def _tree(setup) -> list:
    from prio.kueue.html import tree

    return tree(setup)


def _context(setup, **more) -> dict:
    from prio.kueue.html import context

    return {**context(setup, why_workloads=more.pop("why_workloads", False)), **more}


BACKEND: Differ = Kueue()  # mypy holds it to the protocol
