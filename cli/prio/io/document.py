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


class Entry:
    """Where one path's value (and the key naming it) starts, and a scalar's raw text and tag.

    `pos` and `key` are Pos; the YAML walk hands over the parser's marks instead, and a Pos is
    made only when asked for: most entries of a large file are never reported on, and making two
    Pos per node cost a fifth of validate's decode."""

    __slots__ = ("_pos", "_key", "_mark", "_kmark", "_offset", "raw", "tag")

    def __init__(self, pos: Pos, key: Pos | None = None, raw: str | None = None, tag: str = ""):
        self._pos, self._key, self.raw, self.tag = pos, key, raw, tag
        self._mark = self._kmark = None

    @classmethod
    def marked(cls, mark, kmark, offset: tuple, raw: str | None, tag: str) -> Entry:
        """An entry from a parser's marks (0-based line and column), shifted by `offset`
        (lines, columns); its positions are made when first read."""
        e = cls.__new__(cls)
        e._pos = e._key = None
        e._mark, e._kmark, e._offset, e.raw, e.tag = mark, kmark, offset, raw, tag
        return e

    @property
    def pos(self) -> Pos:  # where the value starts
        if self._pos is None:
            m, (dl, dc) = self._mark, self._offset
            self._pos = Pos(m.line + 1 + dl, m.column + 1 + dc)
        return self._pos

    @pos.setter
    def pos(self, value: Pos) -> None:
        self._pos, self._mark = value, None

    @property
    def key(self) -> Pos | None:  # where the key naming it starts (None for list items and the root)
        if self._key is None and self._kmark is not None:
            m, (dl, dc) = self._kmark, self._offset
            self._key = Pos(m.line + 1 + dl, m.column + 1 + dc)
        return self._key

    @key.setter
    def key(self, value: Pos | None) -> None:
        self._key, self._kmark = value, None

    def __eq__(self, other) -> bool:
        return isinstance(other, Entry) and (self.pos, self.key, self.raw, self.tag) == (other.pos, other.key, other.raw, other.tag)

    __hash__ = None  # mutable, as the dataclass it replaced

    def __repr__(self) -> str:
        return f"Entry(pos={self.pos!r}, key={self.key!r}, raw={self.raw!r}, tag={self.tag!r})"


@dataclass
class Document:
    """One YAML document: the plain data, a path->Entry index, and what decoding found."""

    data: object
    index: dict = field(default_factory=dict)
    issues: list = field(default_factory=list)
    start: Pos = Pos(1, 1)
    # (path, Go type of the key) of the mappings with a << merge and a key that is not a scalar:
    # the YAML library of YuniKorn 1.5 to 1.7 panics on them (prio.yunikorn.releases)
    merge_panics: list = field(default_factory=list)

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
