"""A command's run guarded: input errors are one line and exit 2, never a traceback; a closed
stdout ends quietly. Apart from prio.cli.common (which re-exports it) because validate's fast
path needs only this: the console script neither compiles nor loads the rest."""
from __future__ import annotations

import os
import sys

from prio.errors import InputError


def public(text: str) -> str:
    """A message as users see it: a bundled sample is named as one, never by the path it has
    inside the installed package (site-packages)."""
    from prio.io.package_data import samples_dir

    d = samples_dir().rstrip(os.sep) + os.sep
    return text.replace(d, "bundled sample ") if d in text else text


def error_line(text: str) -> str:
    """Every error line starts with `prio: `, on one line, its control characters escaped (a
    server's error text or a file's key reach the terminal as text: prio.render.printable), and
    a number of more than 30 digits quoted from an input shown by its ends and its length (a
    5,000-digit value makes a message of one clear line, not of a screenful of nines)."""
    import re

    from prio.render.printable import printable
    from prio.values import shown_number

    text = printable(public(text))
    if len(text) > 30:
        text = re.sub(r"[0-9]{31,}", lambda m: shown_number(m.group()), text)
    return text if text.startswith("prio:") else f"prio: {text}"


def frame(e) -> str:
    """The input's line and a caret under the column (after a syntax error's message), its
    control characters written out and every line indented: text of the input never starts one."""
    from prio.render.printable import printable

    text = getattr(e, "frame", "")
    return "".join(ln if ln.startswith(" ") else " " + ln for ln in printable(text, lines=True).splitlines(True)) if text else ""


def say(text: str) -> None:
    """One message on stderr, as error_line writes it: a name from an input never starts a line
    nor carries a control character there (issue 43, item 2)."""
    sys.stderr.write(error_line(text) + "\n")


def quiet_broken_pipe() -> None:
    """stdout was closed early (`prio simulate -o json | head -1`): end quietly, as text does.
    stdout is pointed at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def nested_too_deeply(inputs) -> str:
    """The message for a structure deeper than Python's recursion allows (a queue or cohort tree
    thousands of levels deep), naming the inputs it may be in."""
    names = ", ".join(n for n in inputs if n) or "the input"
    return f"{names}: nested too deeply for prio to read (a tree deeper than any scheduler builds)"


def guarded(fn, inputs=()) -> int:
    """Run a command body: input errors are one line and exit 2, never a traceback; `inputs`
    (the names given) are named when the input is nested too deeply to say which part.

    The cyclic garbage collector is paused meanwhile: a snapshot of a million asks creates
    millions of objects and no garbage cycles, and the collector's passes over them cost more
    than the work itself (json.load of 70 MB: 3.5 s with it, 0.9 s without)."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        return fn()
    except BrokenPipeError:
        quiet_broken_pipe()
        return 0
    except InputError as e:
        sys.stderr.write(error_line(str(e)) + "\n" + frame(e))
        return 2
    except RecursionError:
        say(nested_too_deeply(inputs))
        return 2
    except MemoryError:
        sys.stderr.write("prio: out of memory reading the input\n")
        return 2
    except Exception as e:
        say(f"prio: internal error: {type(e).__name__}: {e} (please report it with the input)")  # {e} may quote an input
        return 2
    finally:
        # In the console script's own run the process ends right after: enabled again, the
        # collector's first pass would walk every object of a big run (0.7 s at a million asks).
        # prio.cli.lifetime not loaded: nothing made this run its own (an in-process call).
        lifetime = sys.modules.get("prio.cli.lifetime")
        if was and not (lifetime is not None and lifetime.ACTIVE):
            gc.enable()
