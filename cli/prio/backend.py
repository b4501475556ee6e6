"""What a scheduler backend offers the commands (issue 47): the protocol every package named in
`prio.backends.REGISTRY` implements with one object, its module's `BACKEND`.

A command reads its inputs (`prio.io.gather.gather` says which backend claimed them, by
content), picks the backend, and composes its three steps, as check-jsonschema's CLI composes
loader -> checker -> reporter:

    model = backend.load(inp, command, o)              # the inputs -> the scheduler's model
    record = backend.run(command, model, o, fmt)       # the model -> a result record (data only)
    text = backend.render(command, record, fmt, width, page)   # the record -> stdout

A renderer reads the record and nothing else (no engine, no model); `page(text, titles, **context)`
is the command's HTML wiring (the report's header; `partition=` in the context names the one
analysed), handed in so that a backend never imports the command layer. render returns the text,
or its chunks (a million steps stream rather than build one string). A command the backend does not offer is refused in one generated line
(`not_offered`). prio diff compares two records of `run("simulate", ...)` with `diff`.

YuniKorn's row is the registry's default: the backend of inputs no other row claims by content.
Commands that gather their inputs in their own way (diff's sides, snapshot's capture) ask
`offered` of the backend, then load and run each side."""
from __future__ import annotations

from typing import Any, Protocol

# The analysis commands a backend may offer, in the order `not_offered` names them.
COMMANDS = ("explain", "simulate", "diff", "preempt", "snapshot")
# The kinds of change prio diff --fail-on names, which every Differ's `changed` answers (each
# says what they are for its scheduler).
FAIL_ON = ("priority", "order", "unscheduled", "findings", "preemption")


class Backend(Protocol):
    name: str  # the registry's key, as prio.io.gather.Gathered.backend holds it
    title: str  # what a user reads: its row's title in prio.backends
    offers: tuple  # of COMMANDS

    def refused(self, command: str, o: Any, fmt: str) -> str | None:
        """Why an option given (or the format) does not apply to this backend's inputs, in one
        line without the `prio: ` prefix (diff: the message after OLD's name); None where
        everything applies."""

    def load(self, inp: Any, command: str, o: Any = None) -> Any:
        """The gathered inputs' objects -> the model (for `command`, with the command's options
        `o`: prio diff's sides may be given otherwise); bad input raises prio.errors.InputError."""

    def run(self, command: str, model: Any, o: Any, fmt: str, progress: Any = None) -> Any:
        """The model -> the command's result record. `progress(total)`: a bar with update(n) and
        close() for a long run (the command's, on a terminal), or None."""

    def render(self, command: str, record: Any, fmt: str, width: int | None, page: Any) -> Any:
        """The record -> the whole stdout text, or its chunks; -o html through `page`."""


class Differ(Backend, Protocol):
    """A backend that offers prio diff also compares two simulate records."""

    compares: str  # what both sides must hold, for the refusal of a side without ("two ... setups")

    def diff(self, old: Any, new: Any, findings: tuple) -> Any:
        """Two simulate records (OLD's, NEW's) and each side's validate findings -> the diff record."""

    def changed(self, record: Any, kind: str) -> bool:
        """Whether the diff record holds a change of `kind` (one of FAIL_ON: prio diff --fail-on)."""


def not_offered(title: str, command: str, offers) -> str:
    """The one line a command says for a backend that does not offer it."""
    them = [c for c in COMMANDS if c in offers]
    return f"prio {command} does not take {title} inputs ({title} inputs: prio {', prio '.join(them)})"
