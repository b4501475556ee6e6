"""The two JSON documents of an `-o html` page, read back without a browser: `prio-data` (the
command's -o json document) and `prio-context` (what the page shows beside it)."""
from __future__ import annotations

import json
import re


def scripts(page: str) -> dict:
    """id -> the text of each JSON script element."""
    return {m.group(1): m.group(2) for m in re.finditer(r'<script type="application/json" id="([^"]+)">(.*?)</script>', page, re.S)}


def data_and_context(page: str):
    s = scripts(page)
    return json.loads(s["prio-data"]), json.loads(s["prio-context"])
