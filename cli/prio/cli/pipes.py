"""Standard output and error that a closed pipe cannot make fail (issue 29, item 1).

`prio validate bad.yaml 2>&1 | true` or `| head -3`: the reader goes away, the next write to
stdout or stderr fails with EPIPE. Left to propagate, that error ended the command wherever it
happened to be and the exit code was whatever the handler chose (0), not the verdict: a broken
config passed CI. So the console script (prio.cli.entry) wraps both streams once: a write or
flush that meets a closed pipe points that descriptor at /dev/null and carries on, and the
command runs to its own exit code. Who reads the output (or stops reading it) never decides it.

`closed(stream)` says whether the reader has gone: writers of long outputs
(prio.cli.common.write_chunks) stop rendering then, since nobody will read the rest and the exit
code is settled before the output is written."""
from __future__ import annotations

import os
import sys


def _to_devnull(stream) -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class PipeSafe:
    """A text stream whose writes and flushes survive a closed pipe (EPIPE, or a reset
    connection): the first such failure redirects the descriptor to /dev/null, then the same
    operation runs again (and goes nowhere). Everything else is the wrapped stream's."""

    def __init__(self, stream):
        self._stream = stream
        self.reader_gone = False

    def _guard(self, op, *args):
        try:
            return op(*args)
        except (BrokenPipeError, ConnectionResetError):
            self.reader_gone = True
            _to_devnull(self._stream)
            try:
                return op(*args)  # the buffered rest now drains into /dev/null
            except OSError:
                return None

    def write(self, text):
        return self._guard(self._stream.write, text)

    def writelines(self, lines):
        return self._guard(self._stream.writelines, lines)

    def flush(self):
        return self._guard(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def install() -> None:
    """Wrap sys.stdout and sys.stderr (once; the console script's own process only)."""
    for name in ("stdout", "stderr"):
        s = getattr(sys, name)
        if s is not None and not isinstance(s, PipeSafe):
            setattr(sys, name, PipeSafe(s))


def closed(stream) -> bool:
    """Whether `stream`'s reader has gone (only a PipeSafe stream can tell)."""
    return bool(getattr(stream, "reader_gone", False))
