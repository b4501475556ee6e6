"""`prio diff OLD NEW [INPUT...]`: what a config change (or a new snapshot) does to the priorities,
the scheduling order, the asks that cannot be placed and the validate findings.

Each side is exactly a `prio simulate OLD INPUT...` run (the same gather, build and engine run)
plus, for a config, a `prio validate` run; the comparison itself is prio.yunikorn.diff, for a
backend's inputs the backend's own (prio.cli.backend_run.diff_sides: its diff of two simulate
records, e.g. workload by workload)."""
from __future__ import annotations

from prio.cli import analysis_options as shared
from prio.cli.guard import say
from prio.optspec import Arg, Opt
from prio.render.formats import names

FORMATS = names("diff")

SHORT_HELP = "What changes between two configs (or snapshots): priorities, order, pending asks, findings."

HELP = """Compare two configs (or two snapshots) on the same pending work. For another scheduler's setups: which
workloads or jobs are admitted, preempted or left pending differently."""

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
                                   "rejected), findings (a validate finding added), preemption (NEW's lowered maxes preempt running "
                                   "tasks: quota-change preemption).", metavar="KINDS"),
    "output_file", "verbose",
    shared.SHARED["yunikorn"].but(help="Compare OLD and NEW on the pending work of a running YuniKorn (read-only, GET only); OLD "
                                       "or NEW may be the word live: the config the server runs. PRIO_YUNIKORN_URL stands in when "
                                       "OLD or NEW is live and no INPUT is given."),
    "header", "cacert", "timeout", "kube", "context", "namespace", "namespace_old",
)


def run(o: Options) -> int:
    from prio.cli.common import say_written

    code = _run(o)
    if code in (0, 1):  # the report is in place (a failed run leaves none)
        say_written(o.output_file)
    return code


def _run(o: Options) -> int:
    from prio.cli.common import guarded, pick_format

    fmt = pick_format(o.output, FORMATS, o.to_file, o.output_file)
    kinds = _fail_on(o.fail_on)
    if fmt == "html":  # the page's header lists the notes the run says on stderr
        from prio.cli import htmlreport

        body = htmlreport.listening(lambda o, fmt: _diff(o, fmt, kinds))
        return guarded(lambda: body(o, fmt), o.input_names())
    return guarded(lambda: _diff(o, fmt, kinds), o.input_names())


def _fail_on(value: str | None) -> tuple:
    from prio.backend import FAIL_ON

    if not value:
        return ()
    kinds = tuple(k.strip() for k in value.split(",") if k.strip())
    bad = [k for k in kinds if k not in FAIL_ON]
    if bad or not kinds:
        say(f"prio: --fail-on: unknown kind {bad[0] if bad else value!r} (choose from {', '.join(FAIL_ON)})")
        raise SystemExit(2)
    return kinds


def _diff(o: Options, fmt: str, fail_on: tuple) -> int:
    from prio.cli.kube import with_cluster

    o = with_cluster(o)  # --kube: the cluster's objects as inputs
    from prio.cli.diff_live import remote_for
    from prio.cli.outfile import refuse_inputs

    refuse_inputs(o.output_file, o.input_names())  # before anything is read
    live = remote_for(o)
    from prio.errors import InputError
    from prio.io import gitrev, source

    if live is not None:  # --yunikorn: both configs on the server's pending work (prio.cli.diff_live)
        from prio.cli import diff_live

        return diff_live.run(live, o, fmt, fail_on, side=_side, compared=compared)
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
        say(f"prio: note: OLD and NEW are the same argument ({old}): nothing can differ")
    saved = dict(source.PROVIDED)
    source.PROVIDED.update(provided)
    try:
        inp_a, inp_b = _gather(o, old), _gather(o, new)
        if inp_a.backend is not None or inp_b.backend is not None:
            return _backend(o, fmt, fail_on, inp_a, inp_b)
        role_a, role_b = _role(inp_a, old), _role(inp_b, new)
        if role_a != role_b:
            raise InputError(new, f"OLD ({old}) is {role_a} but NEW is {role_b}: compare two configs or two snapshots")
        inp_a, inp_b = _same_work(o, old, new, inp_a, inp_b)
        said: set = set()  # a note both sides share (an INPUT's config ignored) is said once
        a, _ = _side(o, old, "OLD", inp_a, said, fmt)
        b, _ = _side(o, new, "NEW", inp_b, said, fmt)
    finally:
        source.PROVIDED.clear()
        source.PROVIDED.update(saved)
    return compared(o, fmt, fail_on, a, b, [old, new, *paths], None)


def compared(o: Options, fmt: str, fail_on: tuple, a, b, names, live) -> int:
    """The default backend's compare of two sides (each `_side`'s), written to --output-file:
    1 where a change of a kind in `fail_on` is there. `names`, `live`: the page's inputs."""
    from prio import backends
    from prio.cli import htmlreport
    from prio.cli.common import width
    from prio.cli.outfile import write_text

    backend = backends.get(backends.DEFAULT.name)
    d = backend.diff(a[0], b[0], (a[1], b[1]))

    def page(text: str, titles, **context) -> str:
        return htmlreport.diff_page(text, o.old, o.new, names, live, titles, **context)
    write_text(o.output_file, backend.render("diff", (d, o.old, o.new), fmt, width(), page))
    return 1 if any(backend.changed(d, k) for k in fail_on) else 0


def _backend(o: Options, fmt: str, fail_on: tuple, inp_a, inp_b) -> int:
    """Both sides a backend's inputs (prio.cli.backend_run.diff_sides): the exit code from its
    changed(); each side's validate findings as `prio validate SIDE INPUT...` reports them."""
    from prio.cli.backend_run import diff_sides
    from prio.cli.outfile import write_text
    from prio.lint.runner import check_paths

    def findings(arg):
        report, _, _ = check_paths([arg, *o.inputs])
        return [(f.rule, f.message) for f in report.findings]

    text, changed = diff_sides(o, fmt, inp_a, inp_b, findings, fail_on)
    write_text(o.output_file, text)
    return 1 if changed else 0


def _gather(o: Options, arg, lend=None):
    """One side's inputs: `arg`, then the INPUTs (a `prio snapshot` file among them gives its work
    alone when `arg` is a config: the configs compared are OLD and NEW), then `lend`: the other
    side's snapshot file, for its work alone."""
    from prio.backends import judge
    from prio.io.gather import gather

    extra = list(o.inputs) + ([lend] if lend is not None else [])
    return judge(gather([arg] + extra, work_from=extra), o.asked_release())


def _role(inp, arg) -> str:
    name = "<stdin>" if arg == "-" else arg
    return "a queue config" if inp.config is not None and inp.config_name == name else "pending work"


def _has_work(inp) -> bool:
    return inp.snapshot is not None or bool(inp.rest_queues)


def _same_work(o: Options, old, new, inp_a, inp_b):
    """Both sides simulate the same kind of thing: a snapshot file (config and work) as OLD lends
    its work to a NEW config without any (and the other way round) when no INPUT is given; a side
    with work is never compared with one without (every ask would look "no longer placed")."""
    from prio.errors import InputError

    if not o.inputs and _has_work(inp_a) != _has_work(inp_b):
        lender, arg, label = (old, new, "OLD") if _has_work(inp_a) else (new, old, "NEW")
        inp = _gather(o, arg, lend=lender)
        inp.notes = [n for n in inp.notes if " its queue config is ignored, " not in n]  # said once, here:
        inp.notes.append(f"simulated on the pending work of {label} ({lender}), with its own config ({arg})")
        inp_a, inp_b = (inp_a, inp) if label == "OLD" else (inp, inp_b)
    if _has_work(inp_a) != _has_work(inp_b):
        with_work, without = (old, new) if _has_work(inp_a) else (new, old)
        raise InputError(without, f"{with_work} carries pending work and {without} none: give the work both "
                                  "sides are simulated on as INPUT (prio diff OLD NEW WORK...)")
    return inp_a, inp_b


def _side(o: Options, arg, label, inp=None, said=None, fmt: str = "json"):
    """One side: a simulate run on `arg` plus the inputs (o.inputs), and validate's findings for a
    config: ((model, the backend's side record), findings), and what the side is (its role).
    `inp`: the side's inputs already gathered (--yunikorn: the config plus the server's work)."""
    from prio.cli.backend_run import backend_of

    if inp is None:
        from prio.backends import judge
        from prio.io.gather import gather

        inp = judge(gather([arg] + list(o.inputs)), o.asked_release())
    name = "<stdin>" if arg == "-" else arg
    if o.verbose:
        for n, what in inp.recognised:
            say(f"prio: {label}: {n}: read as {what}")
    role = "a queue config" if inp.config is not None and inp.config_name == name else "pending work"
    backend = backend_of(inp)
    model = backend.load(inp, "diff", o)
    from prio.render.printable import printable

    for note in inp.notes:
        if said is not None and note in said:
            continue
        if said is not None and " its queue config is ignored, " in note:
            said.add(note)
            label_ = ""
        else:
            label_ = f"{label}: "
        say(f"prio: note: {label_}{printable(note)}")
    record = backend.run("diff", model, o, fmt)
    findings = []
    if role == "a queue config":
        from prio.io import source
        from prio.lint.runner import check_text

        findings = check_text(name, source.read(arg).text, release=inp.release or o.release()).findings
    return ((model, record), findings), role
