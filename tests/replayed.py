"""The queue configs the recording harnesses of the earlier YuniKorn corpora really ran.

Those corpora (`yunikorn-conformance*`, `yunikorn-preemption`, `yunikorn-quota-preemption`) were
replayed with root's `submitacl` set to `*` where the config has none (their READMEs say so), so
that ACLs never refused an application. prio enforces ACLs as YuniKorn does (no ACL anywhere:
nobody may submit), so a test hands prio the config the harness used: `replayed(path)` is a copy
of the config with that one change, in a temporary folder (the shared data is read-only).
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile

import yaml

_DIR = None
_DONE: dict = {}
_ROOT_LINE = re.compile(r"^(?P<indent>\s*)- name: ['\"]?root['\"]?\s*$", re.MULTILINE | re.IGNORECASE)


def _tmp() -> str:
    global _DIR
    if _DIR is None:
        _DIR = tempfile.mkdtemp(prefix="prio-replayed-")
        atexit.register(shutil.rmtree, _DIR, True)
    return _DIR


def open_root(text: str) -> str:
    """The config text with `submitacl: '*'` on root where root has none (a config without a
    root, which YuniKorn puts under one it inserts, gets that root written out)."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("partitions"), list):
        return text
    changed = False
    for p in data["partitions"]:
        qs = p.get("queues") if isinstance(p, dict) else None
        if not isinstance(qs, list) or not qs:
            p["queues"] = [{"name": "root", "submitacl": "*"}]
            changed = True
            continue
        if len(qs) == 1 and isinstance(qs[0], dict) and str(qs[0].get("name", "")).lower() == "root":
            if qs[0].get("submitacl") is None:
                qs[0]["submitacl"] = "*"
                changed = True
        else:
            p["queues"] = [{"name": "root", "submitacl": "*", "queues": qs}]
            changed = True
    if not changed:
        return text
    roots = list(_ROOT_LINE.finditer(text))
    if len(roots) == len(data["partitions"]) and all(
            isinstance(p, dict) and len(p.get("queues") or ()) == 1 for p in data["partitions"]):
        # the text itself, one line added under each root (keeps every other byte as written)
        out, last = [], 0
        for m in roots:
            out.append(text[last:m.end()])
            out.append(f"\n{m.group('indent')}  submitacl: '*'")
            last = m.end()
        out.append(text[last:])
        candidate = "".join(out)
        try:
            if yaml.safe_load(candidate) == data:
                return candidate
        except yaml.YAMLError:
            pass
    return yaml.safe_dump(data, sort_keys=False)


def replayed(path: str) -> str:
    """A path to the config of `path` as the harness replayed it (the path itself when nothing
    changes)."""
    if path in _DONE:
        return _DONE[path]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = open_root(text)
    if new == text:
        _DONE[path] = path
        return path
    out = os.path.join(_tmp(), f"{len(_DONE)}-{os.path.basename(path)}")
    with open(out, "w", encoding="utf-8") as f:
        f.write(new)
    _DONE[path] = out
    return out
