"""A decoded YAML/JSON document as plain data with a position for every path: the shape every
loader and rule reads. Pure data: parsing lives in `prio.io.yamlnodes`."""
from __future__ import annotations

from dataclasses import dataclass, field

# go-yaml v3's boolean words (YAML 1.2 core), and the YAML 1.1 words it still accepts when
# decoding into a bool field.
GO_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
YAML11_BOOL = {**{w: True for w in ("y", "Y", "yes", "Yes", "YES", "on", "On", "ON")},
                **{w: False for w in ("n", "N", "no", "No", "NO", "off", "Off", "OFF")}}


@dataclass(frozen=True)
class Pos:
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class Entry:
    pos: Pos  # where the value starts
    key: Pos | None = None  # where the key naming it starts (None for list items and the root)
    raw: str | None = None  # a scalar's source text
    tag: str = ""  # the resolved tag: str, int, float, bool, null, map, seq, or another tag


@dataclass
class Document:
    """One YAML document: the plain data, a path->Entry index, and what decoding found."""

    data: object
    index: dict = field(default_factory=dict)
    issues: list = field(default_factory=list)
    start: Pos = Pos(1, 1)

    def pos(self, path, at: str = "value") -> Pos | None:
        path = tuple(path)
        while True:
            e = self.index.get(path)
            if e is not None:
                return (e.key or e.pos) if at == "key" else e.pos
            if not path:
                return self.start
            path = path[:-1]
            at = "value"

    def raw(self, path) -> str | None:
        e = self.index.get(tuple(path))
        return e.raw if e is not None else None
