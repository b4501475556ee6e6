"""`prio diff OLD NEW --yunikorn URL`: two queue configs compared on the pending work of a running
YuniKorn. OLD or NEW may be the word `live`: the config the server runs (`/ws/v1/config`; without
that endpoint, the queue tree of `/queues`). The server is read once; each side is the same
simulate run `prio diff` makes on files (prio.cli.diff._side), on its own copy of the server's
pending work, running allocations and rejected applications."""
from __future__ import annotations

import os

from prio.cli.guard import say
from prio.errors import InputError

LIVE = "live"


def remote_for(o):
    """The --yunikorn options of prio diff (`o`: its options). PRIO_YUNIKORN_URL stands in for --yunikorn only when
    OLD or NEW is the word live and no INPUT is given: a diff of two files never goes to the
    network because of the environment."""
    from prio.cli.live import remote

    old, new = o.old, o.new
    wants_live = LIVE in (old, new) and not o.inputs
    r = remote(o.yunikorn, o.header, o.cacert, o.timeout, [] if wants_live else [old, new, *o.inputs])
    if r is None and LIVE in (old, new) and not os.path.exists(LIVE):
        raise InputError(LIVE, "means the config a running YuniKorn runs: give --yunikorn URL (or PRIO_YUNIKORN_URL)")
    return r


def run(r, o, fmt, fail_on=(), side=None, compared=None) -> int:
    """`o`: prio diff's options; `side` and `compared` are prio.cli.diff's (passed in: this
    module does not import the command)."""
    from prio.cli import live as live_mod
    from prio.io import gitrev, source

    old, new, paths = o.old, o.new, o.inputs
    if paths:
        raise InputError(paths[0], "the pending work comes from --yunikorn: give only OLD and NEW (queue configs, "
                                   "or live for the config the server runs)")
    if [old, new].count("-") > 1:
        raise InputError("-", "standard input can be given once")
    provided = {}
    for arg in (old, new):
        if arg != LIVE and arg not in provided and gitrev.is_rev_path(arg):
            provided[arg] = gitrev.show(arg)
    if "-" in (old, new):
        provided["-"] = source.read("-", source.MAX_SNAPSHOT_BYTES).text
    if old == new:
        say(f"prio: note: OLD and NEW are the same argument ({old}): nothing can differ")
    o.release()  # an unknown one ends the run before the server is asked
    state = live_mod.fetch(r, o.partition, o.verbose, version=o.version_asked(), judge=True)
    for note in state.inputs.notes:
        say(f"prio: note: {state.url}: {note}")
    if state.config_text is not None:
        provided[state.inputs.config_name] = state.config_text  # what validate reads for live's findings
    saved = dict(source.PROVIDED)
    source.PROVIDED.update(provided)
    try:
        a = _side(side, o, old, state, "OLD", fmt)
        b = _side(side, o, new, state, "NEW", fmt)
    finally:
        source.PROVIDED.clear()
        source.PROVIDED.update(saved)
    return compared(o, fmt, fail_on, a, b, (), r)


def _side(side, o, arg, state, label, fmt):
    """One side: the config `arg` names (or the server's, for live) on a copy of the server's work."""
    import copy

    from prio.io.gather import gather
    from prio.yunikorn.load import inputs as inputs_mod

    live_inp = state.inputs
    snap = copy.deepcopy(live_inp.snapshot)
    if arg == LIVE:
        inp = inputs_mod.Inputs(config=live_inp.config, config_doc=live_inp.config_doc, config_name=live_inp.config_name,
                                snapshot=snap, rest_queues=list(live_inp.rest_queues), names=[state.url])
        name = live_inp.config_name if live_inp.config is not None else state.url
        if o.verbose:
            what = "the config it runs" if live_inp.config is not None else "its queue tree (no config endpoint)"
            say(f"prio: {label}: live: {state.url}: {what}")
        return side(o, name, label, inp=inp, fmt=fmt)[0]
    from prio.backends import judge

    inp = judge(gather([arg], whole=False), o.release())
    name = "<stdin>" if arg == "-" else arg
    from prio.cli.backend_run import offered

    offered("diff", inp, "diff --yunikorn")
    if inp.config is None:
        raise InputError(name, "with --yunikorn, OLD and NEW are queue configs (or live, the config the server runs): "
                               "the pending work is the server's")
    if inp.snapshot is not None:
        inp.notes.append(f"{name}: its pending work is ignored: the server's is used (--yunikorn)")
    inp.snapshot = snap
    inp.rest_queues = []
    return side(o, arg, label, inp=inp, fmt=fmt)[0]
