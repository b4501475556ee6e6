"""The inputs as YuniKorn judges them before a command runs on them: the release that applies
(--yunikorn-version, else the one a snapshot recorded, else the newest), the cheap refusal check
on the queue config (prio.yunikorn.lint.checks.config_errors) noted where the loader read it,
the config's properties read as that release reads them, and what prio does not model of the
release's scheduling noted. Pure: it writes the notes onto the inputs (prio.yunikorn.load.inputs.Inputs)
and the commands say them."""
from __future__ import annotations

_REFUSALS_SHOWN = 5  # one note line stays readable; validate lists them all


def judge(inp, release=None, schedules: bool = True, work: bool = False):
    """The registry's judgment of YuniKorn's inputs (prio.backends.judge): check_config, then,
    with `work` (the analysis commands), the REST queues that promise pending work the inputs
    do not give refused (prio.yunikorn.load.inputs.check_work_given). Returns `inp`."""
    check_config(inp, release, schedules)
    if work:
        from prio.yunikorn.load.inputs import check_work_given

        check_work_given(inp)
    return inp


def check_config(inp, release=None, schedules: bool = True):
    """The loaders read a queue config and run no lint rules: here the command runs the cheap
    ones (prio.yunikorn.lint.checks.config_errors) for YuniKorn `release` (--yunikorn-version; None: the
    one the snapshot recorded, else the newest) and, when it would refuse the config, notes it
    where the loader read it (Inputs.config_note_at). An older release's properties are then read
    as it reads them, and what prio does not model of its scheduling is noted (for_release; not
    for a command that schedules nothing, `schedules` False: prio snapshot). Returns `inp`."""
    from prio.yunikorn import releases

    release = _recorded_release(inp, release) or release or releases.NEWEST
    at = inp.config_note_at
    if at is None:
        return for_release(inp, release, schedules)
    inp.config_note_at = None
    from prio.yunikorn.lint.checks import config_errors

    errors = config_errors(inp.config_doc, inp.config, release)
    if errors:
        who = "YuniKorn" if release is releases.NEWEST else f"YuniKorn {release.name}"
        shown = "; ".join(errors[:_REFUSALS_SHOWN])
        more = f"; and {len(errors) - _REFUSALS_SHOWN} more" if len(errors) > _REFUSALS_SHOWN else ""
        inp.notes.insert(at, f"{inp.config_name}: {who} would refuse this config: {shown}{more}; "
                             "analysing it as written (prio validate shows each finding)")
    return for_release(inp, release, schedules)


def _recorded_release(inp, asked):
    """The release the snapshot recorded (prio snapshot: yunikornVersion), when none is asked
    for: said in a note when it is not the newest. Asked for another: noted, the asked one wins."""
    from prio.yunikorn import releases

    snap = inp.snapshot
    recorded = releases.get(snap.yunikorn_version) if snap is not None and snap.yunikorn_version else None
    if recorded is None:
        return None
    if asked is None:
        if recorded is not releases.NEWEST:
            inp.notes.append(f"{snap.source}: judged as YuniKorn {recorded.name}, the release the snapshot recorded "
                             "(--yunikorn-version says otherwise)")
        return recorded
    if asked is not recorded:
        inp.notes.append(f"{snap.source}: --yunikorn-version {asked.name}, but the snapshot recorded YuniKorn {recorded.name}")
    return None


def for_release(inp, release, schedules: bool = True):
    """`inp` as YuniKorn `release` runs it: the config's properties as that release reads them
    (prio.yunikorn.releases.read_as), and notes naming its scheduling rules prio models from the
    code and those it does not (the engine schedules with the newest's), unless the command
    schedules nothing (`schedules` False). Nothing for the newest, nor for another scheduler's
    inputs (PRIO_YUNIKORN_VERSION in the environment says nothing of their run). Returns `inp`."""
    from prio.yunikorn import releases

    inp.release = release
    if release is releases.NEWEST or inp.backend is not None:
        return inp
    if inp.config is not None:
        releases.read_as(inp.config, release)
    if not schedules:
        return inp
    own = releases.modelled(release)
    if own:
        inp.notes.append(f"YuniKorn {release.name}: prio schedules with {release.name}'s own rules where it models them, read from "
                         f"yunikorn-core's code at {release.tag} (no recording to check them against): {'; '.join(own)}")
    missing = releases.unmodelled(release)
    if missing:
        inp.notes.append(f"YuniKorn {release.name}: prio schedules with the rules of {releases.NEWEST.name} where releases differ "
                         f"and it has no model of {release.name}'s: {'; '.join(missing)} (no recording to check them against)")
    return inp
