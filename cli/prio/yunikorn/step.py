"""One allocation of the scheduling run, as the engine and its specialised run (simplerun)
produce it. Pure: no I/O."""
from __future__ import annotations

from typing import NamedTuple


class Step(NamedTuple):
    """One allocation (a tuple: a million of them are cheap to make)."""

    step: int
    queue: str
    application: str
    ask: str
    priority: int
    changes: list  # (queue path, from, to), None meaning no priority
    tie: tuple = ()  # the choices left to Go's map order: ("root.a, root.b", ...), one per tied level
    note: str = ""  # where YuniKorn's queue sort defect made a choice the documented order would not


NO_CHANGES: list = []  # shared by the steps that change no priority (never mutated)
