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
    from prio.yunikorn.load import assemble

    if sample and paths:
        raise InputError(sample, "give either --sample or input files, not both")
    if sample or not paths:
        paths = assemble.sample_paths(sample)
    from prio.backends import judge
    from prio.io.gather import gather

    return judge(gather(list(paths), list(classes), keep_documents), release, work=True)


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
