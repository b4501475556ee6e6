"""One Kubernetes-style object of a validate run, where it was written: what the rules of the
object families (the backends' rules) check and where their issues point."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.io.document import Document

_FIELDS = ("file", "doc", "kind", "name", "namespace", "data")


class Obj:
    """A plain class with a dataclass's init, equality and repr: every validate imports this
    module (the backends' rules register at each start), and making the dataclass cost
    about 2.5 M instructions of it (issue 50's round)."""

    __hash__ = None  # type: ignore[assignment]  # (compared by value, as the dataclass was: not hashable)

    def __init__(self, file: str, doc: Document, kind: str, name: str, namespace: str, data: dict) -> None:
        self.file = file
        self.doc = doc  # its own document (a List's item re-rooted), paths from the object
        self.kind = kind
        self.name = name
        self.namespace = namespace
        self.data = data

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    def __repr__(self) -> str:
        return f"Obj({', '.join(f'{f}={getattr(self, f)!r}' for f in _FIELDS)})"

    @property
    def spec(self) -> dict:
        s = self.data.get("spec")
        return s if isinstance(s, dict) else {}

    def issue(self, rule: str, path, message: str, fix: str = "", at: str = "value"):
        return (self.file, self.doc, Issue(rule, tuple(path), message, at=at, fix=fix))


def of(file: str, doc: Document, data: dict) -> Obj:
    """The object of a document whose metadata names it (namespace `default` when absent)."""
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    return Obj(file, doc, str(data.get("kind") or ""), str(meta.get("name") or ""), str(meta.get("namespace") or "default"), data)
