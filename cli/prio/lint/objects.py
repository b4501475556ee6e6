"""One Kubernetes-style object of a validate run, where it was written: what the rules of the
object families (the backends' rules) check and where their issues point."""
from __future__ import annotations

from dataclasses import dataclass

from prio.diagnostics import Issue
from prio.io.document import Document


@dataclass
class Obj:
    file: str
    doc: Document  # its own document (a List's item re-rooted), paths from the object
    kind: str
    name: str
    namespace: str
    data: dict

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
