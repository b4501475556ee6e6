"""Volcano as a prio backend (issue 47; the protocol is prio.backend.Backend): a file of its
objects and scheduler config -> the cluster and config (prio.volcano.load), the session replay or
the explanation as a record, the record's text (prio.volcano.render) or page
(volcano/view.js draws it). Bad input raises prio.errors.InputError."""
from __future__ import annotations

from dataclasses import dataclass

from prio.backend import Differ

# The page's title per command.
TITLES = {"explain": "Volcano queue and job order", "simulate": "Volcano scheduling cycles"}


@dataclass
class Record:
    kind: str  # "simulate", "explain" or "why" (--why-job)
    data: dict  # what -o json writes


class Volcano:
    name, title, offers = "volcano", "Volcano", ("explain", "simulate", "diff")
    compares = "two Volcano files"

    def refused(self, command: str, o, fmt: str) -> str | None:
        if command == "explain" and (o.why_ask or o.behind or o.queue or o.why or o.pending):
            return "--why-ask, --behind, --queue, --why and --pending apply to YuniKorn inputs; for Volcano use --why-job NS/NAME"
        if command == "explain" and fmt == "html" and o.why_job:
            return "--why-job answers in text or json; -o html draws the whole report"
        if command == "diff" and fmt == "html":
            return "-o html is not drawn for a Volcano diff; use -o table, plain, markdown or json"
        return None

    def load(self, inp, command: str, o=None):
        """(cluster, config, the objects' file) of the inputs: one file of objects and config; for prio diff also a
        side's config file beside the objects file both sides run on."""
        from prio.errors import InputError
        from prio.volcano import load as loader

        if inp.class_docs:
            raise InputError(inp.class_docs[0][0], "Volcano objects cannot be combined with other inputs: give them in one file")
        if len(inp.objects) == 1:
            return (*loader.load(*inp.objects[0]), inp.objects[0][0])
        if command != "diff":
            raise InputError(inp.objects[1][0], "give Volcano's objects in one file (one cluster, one scheduler config)")
        (cname, cdocs), rest = inp.objects[0], inp.objects[1:]
        if len(rest) > 1:
            raise InputError(rest[1][0], "give the objects both sides run on in one file")
        oname, odocs = rest[0]
        if loader.config_of(oname, odocs)[1] is not None:
            raise InputError(oname, "this file holds a scheduler config too: OLD and NEW are the configs compared")
        cfg, doc, _ = loader.config_of(cname, cdocs)
        if doc is None:
            raise InputError(cname, "no Volcano scheduler config here to compare (a ConfigMap with volcano-scheduler.conf, "
                                    "or the config itself)")
        return loader.load(oname, odocs)[0], cfg, oname

    def run(self, command: str, model, o, fmt: str, progress=None) -> Record:
        cluster, cfg, source = model
        if command == "simulate":
            from prio.volcano import report

            return Record("simulate", report.simulate(cluster, cfg))
        if o.why_job:
            from prio.errors import InputError
            from prio.suggest import did_you_mean
            from prio.volcano.why import why_job as why

            key = o.why_job if "/" in o.why_job else f"default/{o.why_job}"
            data = why(cluster, cfg, key)
            if data is None:
                raise InputError(source, f"no PodGroup {key}{did_you_mean(key, sorted(cluster.groups))}")
            return Record("why", data)
        from prio.volcano import explain

        return Record("explain", explain.explain(cluster, cfg))

    def render(self, command: str, rec, fmt: str, width: int | None, page) -> str:
        from prio.volcano import render

        if command == "diff":
            d, old, new = rec
            return render.diff_text(d, old, new, fmt, width)
        if rec.kind == "why":
            return render.why_text(rec.data, fmt, width)
        text = render.simulate_text if rec.kind == "simulate" else render.explain_text
        if fmt == "html":
            return page(text(rec.data, "json"), TITLES, model="volcano")
        return text(rec.data, fmt, width)

    def diff(self, old: tuple, new: tuple, findings: tuple):
        from prio.volcano import diff as core

        return core.compare(old[1].data, new[1].data, *findings)

    def changed(self, d, kind: str) -> bool:
        from prio.volcano.diff import changed

        return changed(d, kind)


BACKEND: Differ = Volcano()  # mypy holds it to the protocol
