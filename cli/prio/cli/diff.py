"""`prio diff OLD NEW [INPUT...]`: what a config change (or a new snapshot) does to the priorities,
the scheduling order, the asks that cannot be placed and the validate findings.

Each side is exactly a `prio simulate OLD INPUT...` run (the same gather, build and engine run)
plus, for a config, a `prio validate` run; the comparison itself is prio.yunikorn.diff."""
from __future__ import annotations

import sys

from prio.cli import analysis_options as shared
from prio.cli.optspec import Arg, Opt
from prio.cli.options import typer_command
from prio.render.formats import names

FORMATS = names("diff")

SHORT_HELP = "What changes between two configs (or snapshots): priorities, order, pending asks, findings."

HELP = """Compare two configs (or two snapshots) on the same pending work."""

Options = shared.options(
    "DiffOptions",
    Arg("old", "OLD", "The config (or ConfigMap, or snapshot) before: a file, - for stdin, or REV:PATH read with git show.",
        required=True, multiple=False),
    Arg("new", "NEW", "The config (or snapshot) after: a file, -, or REV:PATH.", required=True, multiple=False),
    shared.SHARED["inputs"].but(help="The pending work both sides are simulated on (snapshot, REST dumps, kubectl pod lists, "
                                     "PriorityClasses); with two snapshots, the queue config."),
    "output", "color", "partition",
    Opt("fail_on", ("--fail-on",), "Exit 1 when such a change exists: a comma-separated list of priority (a queue's effective "
                                   "priority), order (an ask's step), unscheduled (an ask newly not placed, an application newly "
                                   "rejected), findings (a validate finding added).", metavar="KINDS"),
    "output_file", "verbose",
    shared.SHARED["yunikorn"].but(help="Compare OLD and NEW on the pending work of a running YuniKorn (read-only, GET only); OLD "
                                       "or NEW may be the word live: the config the server runs. PRIO_YUNIKORN_URL stands in when "
                                       "OLD or NEW is live and no INPUT is given."),
    "header", "cacert", "timeout",
)


def run(o: Options) -> int:
    from prio.cli.common import guarded, pick_format

    fmt = pick_format(o.output, FORMATS, o.to_file)
    kinds = _fail_on(o.fail_on)
    return guarded(lambda: _diff(o, fmt, kinds))


command = typer_command(Options, run, HELP)


def _fail_on(value: str | None) -> tuple:
    from prio.yunikorn.diff import FAIL_ON

    if not value:
        return ()
    kinds = tuple(k.strip() for k in value.split(",") if k.strip())
    bad = [k for k in kinds if k not in FAIL_ON]
    if bad or not kinds:
        sys.stderr.write(f"prio: --fail-on: unknown kind {bad[0] if bad else value!r} (choose from {', '.join(FAIL_ON)})\n")
        raise SystemExit(2)
    return kinds


def _diff(o: Options, fmt: str, fail_on: tuple) -> int:
    from prio.cli.diff_live import remote_for
    from prio.cli.outfile import refuse_inputs, write_text

    refuse_inputs(o.output_file, o.input_names())  # before anything is read
    live = remote_for(o)
    from prio.cli.common import width
    from prio.errors import InputError
    from prio.io import gitrev
    from prio.io import source
    from prio.render import diff as diff_out
    from prio.yunikorn import diff as core

    if live is not None:  # --yunikorn: both configs on the server's pending work (prio.cli.diff_live)
        from prio.cli import diff_live

        return diff_live.run(live, o, fmt, fail_on, side=_side)
    old, new, paths = o.old, o.new, o.inputs
    provided = {}
    for arg in (old, new):
        if arg not in provided and gitrev.is_rev_path(arg):
            provided[arg] = gitrev.show(arg)
    every = [old, new, *paths]
    if every.count("-") > 1:
        raise InputError("-", "standard input can be given once")
    if "-" in every:
        provided["-"] = source.read("-", source.MAX_SNAPSHOT_BYTES).text
    if old == new:
        sys.stderr.write(f"prio: note: OLD and NEW are the same argument ({old}): nothing can differ\n")
    saved = dict(source.PROVIDED)
    source.PROVIDED.update(provided)
    try:
        a, role_a = _side(o, old, "OLD")
        b, role_b = _side(o, new, "NEW")
    finally:
        source.PROVIDED.clear()
        source.PROVIDED.update(saved)
    if role_a != role_b:
        raise InputError(new, f"OLD ({old}) is {role_a} but NEW is {role_b}: compare two configs or two snapshots")
    d = core.compare(a, b)
    text = diff_out.render(fmt, d, old, new, width=width(), color=o.colored())
    write_text(o.output_file, text)
    return 1 if any(d.changed(k) for k in fail_on) else 0


def _side(o: Options, arg, label, inp=None):
    """One side: a simulate run on `arg` plus the inputs (o.inputs), and validate's findings for a config.
    `inp`: the side's inputs already gathered (--yunikorn: the config plus the server's work)."""
    from prio.errors import InputError
    from prio.loaders import inputs as inputs_mod
    from prio.loaders.assemble import build
    from prio.yunikorn import diff as core

    if inp is None:
        from prio.cli.common import check_config

        inp = check_config(inputs_mod.gather([arg] + list(o.inputs)))
    name = "<stdin>" if arg == "-" else arg
    if o.verbose:
        for n, what in inp.recognised:
            sys.stderr.write(f"prio: {label}: {n}: read as {what}\n")
    if inp.armada:
        raise InputError(inp.armada[0][0], "prio diff compares YuniKorn configs and snapshots; Armada scenarios are not supported")
    role = "a queue config" if inp.config is not None and inp.config_name == name else "pending work"
    eng = build(inp, o.partition, o.engine)
    for note in inp.notes:
        sys.stderr.write(f"prio: note: {label}: {note}\n")
    before = core.priorities(eng)
    steps = eng.run()
    ranges = None
    defined = list(inp.classes) + list(eng.snapshot.priority_classes)
    if defined:
        from prio.yunikorn.classranges import class_ranges

        names = {c.name for c in defined}  # the classes the inputs define (not every built-in)
        ranges = [r for r in class_ranges(eng.root, defined) if r["class"] in names]
    findings = []
    if role == "a queue config":
        from prio.io import source
        from prio.lint.runner import check_text

        findings = check_text(name, source.read(arg).text).findings
    return core.side(eng, before, steps, findings, ranges), role
