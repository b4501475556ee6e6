"""What explain and simulate share: format defaults, sample lookup, error guarding."""
from __future__ import annotations

import os
import shutil
import sys

from prio.errors import InputError


def pick_format(output: str | None, formats) -> str:
    """-o, else PRIO_OUTPUT when it names one of this command's formats (it is shared with
    validate, whose formats differ), else table on a terminal and plain elsewhere."""
    from prio.cli.envformat import env_format

    fmt = output or env_format(formats) or ("table" if sys.stdout.isatty() else "plain")
    if fmt not in formats:
        sys.stderr.write(f"prio: unknown output format {fmt!r} (choose from {', '.join(formats)})\n")
        raise SystemExit(2)
    return fmt


def width() -> int:
    w = os.environ.get("COLUMNS")
    if w and w.isdigit():
        return int(w)
    return shutil.get_terminal_size((120, 24)).columns if sys.stdout.isatty() else 120


def check_choice(flag: str, value, choices) -> None:
    """An option whose value must be one of `choices` (None: not given)."""
    if value is not None and value not in choices:
        raise InputError(flag, f"must be one of {', '.join(choices)}, not {value!r}")


def check_armada_options(inp, decay, weighting, **only_armada) -> None:
    """Armada options are checked here, once, up front, and refused with YuniKorn inputs (not
    ignored). The choices are the model's."""
    from prio.armada.model import DECAYS, MODELS, WEIGHTINGS

    check_choice("--armada-decay", decay, DECAYS)
    check_choice("--armada-weighting", weighting, WEIGHTINGS)
    check_choice("--armada-model", only_armada.get("armada_model"), MODELS)
    if not inp.armada:
        given = [f"--{k.replace('_', '-')}" for k, v in only_armada.items() if v not in (None, "code", "current")]
        if given:
            raise InputError(given[0], "applies to Armada scenarios only; these inputs are YuniKorn's")


def say_recognised(inp) -> None:
    for name, what in inp.recognised:
        sys.stderr.write(f"prio: {name}: read as {what}\n")


def say_notes(inp) -> None:
    for note in inp.notes:
        sys.stderr.write(f"prio: note: {note}\n")


def load_inputs(paths, sample, classes):
    from prio.loaders import inputs
    from prio.loaders import assemble as scenario

    if sample and paths:
        raise InputError(sample, "give either --sample or input files, not both")
    if sample or not paths:
        paths = scenario.sample_paths(sample)
    return inputs.gather(list(paths), list(classes))


def write_chunks(chunks, out=None) -> None:
    """Write a renderer's chunks in large batches: a million small writes cost seconds."""
    out = out or sys.stdout
    batch = []
    for c in chunks:
        batch.append(c)
        if len(batch) >= 8192:
            out.write("".join(batch))
            batch.clear()
    if batch:
        out.write("".join(batch))


def guarded(fn) -> int:
    """Run a command body: input errors are one line and exit 2, never a traceback.

    The cyclic garbage collector is paused meanwhile: a snapshot of a million asks creates
    millions of objects and no garbage cycles, and the collector's passes over them cost more
    than the work itself (json.load of 70 MB: 3.5 s with it, 0.9 s without)."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        return fn()
    except InputError as e:
        sys.stderr.write(f"prio: {e}\n")  # every error line starts with prio:
        return 2
    except RecursionError:
        sys.stderr.write("prio: input nested too deeply\n")
        return 2
    except MemoryError:
        sys.stderr.write("prio: out of memory reading the input\n")
        return 2
    except Exception as e:  # noqa: BLE001 - a bug must still end in one line, not a traceback
        sys.stderr.write(f"prio: internal error: {type(e).__name__}: {e} (please report it with the input)\n")
        return 2
    finally:
        if was:
            gc.enable()
