"""What explain, simulate and diff call for Kueue inputs. Each takes the gathered inputs and
returns the whole stdout text (for -o html the page: the -o json document with the Kueue context
of prio.render.html.context.kueue); bad input raises prio.errors.InputError (exit 2, one line)."""
from __future__ import annotations

from types import SimpleNamespace


def setup_of(inp):
    """The Kueue objects of the inputs (PriorityClasses included) as one Setup; the notes of
    the inputs (what they use that prio does not replay) are said on stderr."""
    from prio.cli.common import say_notes
    from prio.loaders import kueue as loader

    setup = loader.load(list(inp.kueue_classes) + list(inp.kueue))
    inp.notes += setup.notes
    say_notes(inp)
    inp.notes.clear()  # said once, also when a command reads the inputs' setup again
    return setup


def replay(setup):
    from prio.cli.common import say_notes
    from prio.kueue.reference import ReferenceRun
    from prio.kueue.report import replay_notes

    result = ReferenceRun(setup).run()
    say_notes(SimpleNamespace(notes=replay_notes(result)))
    return result


def cq_paths(setup) -> dict:
    from prio.kueue.tree import Tree

    tree = Tree(setup)
    return {name: node.path() for name, node in tree.cqs.items()}


def simulate_data(setup) -> dict:
    from prio.kueue.report import as_data

    return as_data(replay(setup))


def _page(command: str, text: str, inp, setup, **more) -> str:
    """The -o html page of `text` (the command's -o json) for the Kueue `setup`."""
    from prio.cli import htmlreport
    from prio.render.html import context

    ctx = htmlreport.header(command, inp.names, None, None, **context.kueue(setup, why_workloads=command == "explain"), **more)
    return "".join(htmlreport.page(command, [text], ctx))


def run_simulate(inp, fmt: str, width: int | None = None) -> str:
    from prio.render import kueue as render

    setup = setup_of(inp)
    if fmt == "html":
        from prio.render.html.context import kueue_tree

        tree = kueue_tree(setup)  # before the replay, as the page's tree shows it
        return _page("simulate", render.simulate_text(simulate_data(setup), {}, "json"), inp, setup, tree=tree)
    data = simulate_data(setup)
    paths = cq_paths(setup)
    if fmt != "json":
        for w in data["workloads"]:
            cq = setup.cluster_queue_of(next(x for x in setup.workloads if x.key == w["workload"]))
            w["_cq_path"] = paths.get(cq, cq or "(no LocalQueue)")
    return render.simulate_text(data, paths, fmt, width)


def run_explain(inp, fmt: str, width: int | None = None, why_workload: str | None = None) -> str:
    from prio.errors import InputError
    from prio.kueue import explain as ex
    from prio.render import kueue as render

    setup = setup_of(inp)
    why = None
    if why_workload:
        key = why_workload if "/" in why_workload else f"default/{why_workload}"
        why = ex.why_workload(setup, key)
        if why is None:
            from prio.suggest import did_you_mean

            raise InputError(setup.source, f"no Workload {key}{did_you_mean(key, [w.key for w in setup.workloads])}")
    if fmt == "html":  # --why-workload is refused with -o html (the page answers it for every workload)
        return _page("explain", render.explain_text(ex.explain(setup), "json"), inp, setup)
    return render.explain_text(ex.explain(setup), fmt, width, why)


def run_diff(inp_a, inp_b, old: str, new: str, paths: list, fmt: str, width: int | None = None):
    """(text, diff data) of `prio diff OLD NEW WORK` on Kueue inputs: each side is `prio simulate
    OLD WORK` (and NEW WORK), compared workload by workload, with each side's validate findings."""
    from prio.kueue import diff as core
    from prio.lint.runner import check_paths
    from prio.render import kueue as render

    def findings(arg):
        report, _, _ = check_paths([arg, *paths])
        return [(f.rule, f.message) for f in report.findings]

    setup_a, setup_b = setup_of(inp_a), setup_of(inp_b)
    d = core.compare(simulate_data(setup_a), simulate_data(setup_b), findings(old), findings(new))
    if fmt == "html":
        from prio.cli import htmlreport
        from prio.render.html import context

        # NEW's context (paths, ClusterQueues) and both sides' cohort trees, before their replays
        ctx = dict(context.kueue(setup_b), trees={"OLD": context.kueue_tree(setup_a), "NEW": context.kueue_tree(setup_b)})
        return htmlreport.diff_page(render.diff_text(d, old, new, "json"), old, new, [old, new, *paths], None, **ctx), d
    return render.diff_text(d, old, new, fmt, width), d
