"""What explain and simulate call for Volcano inputs (issue 47 makes this a backend). Each takes
the gathered inputs and returns the whole stdout text; bad input raises prio.errors.InputError."""
from __future__ import annotations


def _load(inp, fmt: str):
    from prio.errors import InputError
    from prio.loaders import volcano as loader

    if len(inp.volcano) > 1:
        raise InputError(inp.volcano[1][0], "give Volcano's objects in one file (one cluster, one scheduler config)")
    name, docs = inp.volcano[0]
    return loader.load(name, docs)


def run_simulate(inp, fmt: str, width: int | None = None) -> str:
    from prio.render import volcano as render
    from prio.volcano import report

    cluster, cfg = _load(inp, fmt)
    data = report.simulate(cluster, cfg)
    if fmt == "html":
        return _page("simulate", render.simulate_text(data, "json"), inp)
    return render.simulate_text(data, fmt, width)


def _page(command: str, text: str, inp) -> str:
    """The -o html page of `text` (the command's -o json): render/html/volcano.js draws it."""
    from prio.cli import htmlreport

    return "".join(htmlreport.page(command, [text], htmlreport.header(command, inp.names, None, None, model="volcano")))


def run_explain(inp, fmt: str, width: int | None = None, why_job: str | None = None) -> str:
    from prio.render import volcano as render
    from prio.volcano import explain

    cluster, cfg = _load(inp, fmt)
    if why_job:
        from prio.errors import InputError
        from prio.suggest import did_you_mean
        from prio.volcano.why import why_job as why

        key = why_job if "/" in why_job else f"default/{why_job}"
        data = why(cluster, cfg, key)
        if data is None:
            raise InputError(inp.volcano[0][0], f"no PodGroup {key}{did_you_mean(key, sorted(cluster.groups))}")
        return render.why_text(data, fmt, width)
    if fmt == "html":
        return _page("explain", render.explain_text(explain.explain(cluster, cfg), "json"), inp)
    return render.explain_text(explain.explain(cluster, cfg), fmt, width)
