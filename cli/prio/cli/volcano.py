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


def run_diff(inp_a, inp_b, old: str, new: str, paths: list, fmt: str, width: int | None = None):
    """(text, diff data) of `prio diff OLD NEW [OBJECTS]` on Volcano inputs: each side its own
    file (objects and scheduler config), or OLD and NEW configs beside the same OBJECTS file."""
    from prio.errors import InputError
    from prio.lint.runner import check_paths
    from prio.loaders import volcano as loader
    from prio.render import volcano as render
    from prio.volcano import diff as core
    from prio.volcano import report

    if fmt == "html":
        raise InputError(old, "-o html is not drawn for a Volcano diff; use -o table, plain, markdown or json")

    def side(inp, arg):
        if len(inp.volcano) == 1:
            return loader.load(*inp.volcano[0])
        (cname, cdocs), rest = inp.volcano[0], inp.volcano[1:]
        if len(rest) > 1:
            raise InputError(rest[1][0], "give the objects both sides run on in one file")
        oname, odocs = rest[0]
        if loader.config_of(oname, odocs)[1] is not None:
            raise InputError(oname, "this file holds a scheduler config too: OLD and NEW are the configs compared")
        cfg, doc, _ = loader.config_of(cname, cdocs)
        if doc is None:
            raise InputError(cname, "no Volcano scheduler config here to compare (a ConfigMap with volcano-scheduler.conf, "
                                    "or the config itself)")
        return loader.load(oname, odocs)[0], cfg

    def findings(arg):
        rep, _, _ = check_paths([arg, *paths])
        return [(f.rule, f.message) for f in rep.findings]

    sims = [report.simulate(*side(inp, arg)) for inp, arg in ((inp_a, old), (inp_b, new))]
    d = core.compare(sims[0], sims[1], findings(old), findings(new))
    return render.diff_text(d, old, new, fmt, width), d
