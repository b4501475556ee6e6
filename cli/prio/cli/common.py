"""What the commands share: format defaults, inputs, writing chunks (error guarding: prio.cli.guard; --output-file:
prio.cli.outfile)."""
from __future__ import annotations

import os
import sys

from prio.cli.guard import error_line, guarded, public, quiet_broken_pipe, say  # noqa: F401 - where the commands find them
from prio.errors import InputError


def pick_format(output: str | None, formats, to_file: bool = False, path=None) -> str:
    """-o, else html for an --output-file `path` named .html (said on the command line, it beats
    the environment), else PRIO_OUTPUT when it names one of this command's formats (it is shared
    with validate, whose formats differ: see prio.cli.envformat), else table on a terminal and
    plain elsewhere (and in a file). An alias (text) comes back as the format it names (plain)."""
    from prio.cli.envformat import env_format
    from prio.render.formats import by_file_name, canonical

    tty = sys.stdout.isatty() and not to_file
    fmt = ((output or "").strip().lower() or by_file_name(path, formats) or env_format(formats)
           or ("table" if tty else "plain"))
    if fmt not in formats:
        say(f"prio: unknown output format {fmt!r} (choose from {', '.join(formats)})")
        raise SystemExit(2)
    return canonical(fmt)


def width() -> int:
    w = os.environ.get("COLUMNS")
    if w and w.isdigit():
        return int(w)
    if not sys.stdout.isatty():
        return 120
    import shutil  # only for a terminal: it imports bz2, lzma and zlib (3 ms)

    return shutil.get_terminal_size((120, 24)).columns




def say_recognised(inp) -> None:
    for name, what in inp.recognised:
        say(f"prio: {name}: read as {what}")


def say_notes(inp) -> None:
    from prio.render.printable import printable

    for note in inp.notes:  # notes name applications: their ids reach the terminal as text
        say(f"prio: note: {printable(public(note))}")


def say_written(path) -> None:
    """`prio: wrote PATH` once a report is in a file (a regular one: a device or a FIFO written
    into is no file to open), as snapshot says what it wrote: the terminal shows nothing else."""
    from prio.cli.outfile import to_file

    if to_file(path) and os.path.isfile(path):
        say(f"prio: wrote {path}")


def load_inputs(paths, sample, classes, keep_documents=False, release=None):
    from prio.loaders import inputs
    from prio.yunikorn.load import assemble

    if sample and paths:
        raise InputError(sample, "give either --sample or input files, not both")
    if sample or not paths:
        paths = assemble.sample_paths(sample)
    from prio.loaders import restdump

    inp = check_config(restdump.gather(list(paths), list(classes), keep_documents), release)
    inputs.check_work_given(inp)
    return inp


_REFUSALS_SHOWN = 5  # one note line stays readable; validate lists them all


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


_BATCH = 1 << 16  # characters per write: past the allocator's mmap threshold (128 KiB), every
# joined batch is fresh memory the kernel must fault in and zero (explain's 230 MB of JSON in
# 38 MB batches: 0.27 s of writing against 0.04 s in 64 KiB ones)


def write_chunks(chunks, out=None) -> None:
    """Write a renderer's chunks in batches of about 64 KiB: a million small writes cost
    seconds, and huge batches cost page faults. Stops early when the reader of a pipe has gone
    (prio.cli.pipes): renderers read no input, so the rest could not change the exit code."""
    from prio.cli.pipes import closed

    out = out or sys.stdout
    batch: list = []
    append = batch.append
    size = 0
    for c in chunks:
        append(c)
        size += len(c)
        if size >= _BATCH:
            out.write("".join(batch))
            batch.clear()
            size = 0
            if closed(out):  # the reader has gone (`| head`): nobody reads the rest, the exit code is settled
                return
    if batch:
        out.write("".join(batch))
