"""Objects a command keeps alive until the process ends, and an exit that does not free them.

A run over a million asks builds millions of objects; freeing them when the command returns
costs about a second, and the process ends right after. So the console script (entry.main) marks
the run as the process's own (ACTIVE); explain and simulate keep their inputs and results here;
app.main then ends the process with os._exit once its output is flushed, skipping the frees.
Called in-process (tests, CliRunner), ACTIVE stays False: nothing is kept and exit is as usual;
under a profiler or tracer (cProfile, coverage) the process ends as usual too, so their reports
are written at exit."""
from __future__ import annotations

import os
import sys

ACTIVE = False
KEPT: list = []


def keep(*objs) -> None:
    if ACTIVE:
        KEPT.extend(objs)


def may_end_early() -> bool:
    """Whether the process may skip the interpreter's exit: not when a profiler or tracer
    still has to write its report there."""
    return sys.getprofile() is None and sys.gettrace() is None


def end(code: int) -> None:
    """Exit with `code`, without freeing what the run kept when that is allowed (stdout already
    flushed by the caller)."""
    if KEPT and may_end_early():  # a big run's objects: end without freeing them
        try:
            sys.stderr.flush()
        finally:
            os._exit(code)
    sys.exit(code)
