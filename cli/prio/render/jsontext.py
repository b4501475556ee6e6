"""JSON text for streamed output: one small object at a time, without json.dumps where a plain
string needs no escaping (a million ids cost seconds through the encoder)."""
from __future__ import annotations

import json
import re

_SAFE = re.compile(r"[A-Za-z0-9_.:@/+=-]*")  # strings whose JSON form is the quoted text itself


def jstr(s: str) -> str:
    return '"%s"' % s if _SAFE.fullmatch(s) else json.dumps(s)


def jint(v) -> str:
    return "null" if v is None else str(v)
