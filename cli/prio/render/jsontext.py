"""JSON text for streamed output: one small object at a time, without going through
json.dumps (a million ids cost seconds through the encoder)."""
from __future__ import annotations

import math
import re

# What json.dumps gives for a str (ensure_ascii, as every prio JSON output): the json module's
# own C function, which json.dumps calls for a str, without the encoder around it.
from json.encoder import encode_basestring_ascii as jstr  # noqa: F401

_SAFE = re.compile(r"[A-Za-z0-9_.:@/+=-]*")  # strings whose JSON form is the quoted text itself


def num(x: float):
    """A float for JSON: as is, or "+Inf" / "-Inf" / "NaN" (JSON has no such numbers)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "+Inf" if x > 0 else "-Inf"
    return x
