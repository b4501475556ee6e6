"""Value semantics every part of prio shares, defined once: Go's int32 (priorities, offsets),
Go's time.ParseDuration, and how a decoded value is named in messages. Pure, no I/O."""
from __future__ import annotations

import math
import re

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1

_INT = re.compile(r"^[+-]?[0-9]+$")
_DURATION = re.compile(r"^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$")
_DURATION_PART = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)")
DURATION_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
MAX_DURATION_SECONDS = 9.3e9  # Go's time.Duration (int64 nanoseconds) tops out at ~292 years


def clamp32(v: int) -> int:
    """Saturate at the int32 bounds, as YuniKorn's priority arithmetic does."""
    return INT32_MIN if v < INT32_MIN else INT32_MAX if v > INT32_MAX else v


def in_int32(v: int) -> bool:
    return INT32_MIN <= v <= INT32_MAX


def is_decimal(s: str) -> bool:
    """Optional sign and decimal digits, as strconv.ParseInt(s, 10, _) reads them."""
    return bool(_INT.fullmatch(s or ""))


def parse_int32(s: str):
    """strconv.ParseInt(s, 10, 32): optional sign and decimal digits, no spaces, in range; else None."""
    if not is_decimal(s) or too_long(s):
        return None
    v = int(s)
    return v if in_int32(v) else None


def too_long(s: str, digits: int = 20) -> bool:
    """Whether a decimal text has more significant digits than any 64-bit number: int() of it
    would be wasted work (and past 4300 digits Python refuses it), it is out of every range."""
    return len(s.lstrip("+- \t").lstrip("0")) > digits


def shown_number(s) -> str:
    """A number as a message shows it: a long one by its ends and its length."""
    s = s.strip() if isinstance(s, str) else str(s) if not isinstance(s, int) or abs(s) < 10**30 else None
    if s is None or len(s) > 30:
        return "a number of more than 30 digits" if s is None else f"{s[:6]}...{s[-3:]} ({len(s.lstrip('+-'))} digits)"
    return s


def int32_value(v):
    """A decoded JSON/YAML value as an int32 the way the Kubernetes API server decodes it, or None.
    A float with an integral value survives kubectl's YAML-to-JSON conversion as an integer."""
    if isinstance(v, bool):
        return None
    if isinstance(v, float):
        if not v.is_integer():
            return None
        v = int(v)
    if isinstance(v, int) and in_int32(v):
        return v
    return None


def is_go_duration(s: str) -> bool:
    """Does time.ParseDuration accept `s` (units required, "0" alone aside)?"""
    return s == "0" or bool(_DURATION.fullmatch(s))


def go_duration_seconds(s: str) -> float | None:
    """time.ParseDuration in seconds, or None when Go would refuse it (syntax or range)."""
    s = s.strip()
    sign = 1.0
    if s[:1] in ("+", "-"):
        sign = -1.0 if s[0] == "-" else 1.0
        s = s[1:]
    if s == "0":
        return 0.0
    if not s:
        return None
    pos, total = 0, 0.0
    while pos < len(s):
        m = _DURATION_PART.match(s, pos)
        if not m:
            return None
        total += float(m.group(1)) * DURATION_UNITS[m.group(2)]
        pos = m.end()
    if not math.isfinite(total) or total > MAX_DURATION_SECONDS:
        return None
    return sign * total


def describe(value, article: bool = True) -> str:
    """A value as messages name it: `a mapping`, `a list`, `the number 3`, `the string 'x'`
    (without the article: `number 3`, `string 'x'`, as schema messages put it)."""
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    the = "the " if article else ""
    if isinstance(value, bool):
        return f"{the}boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"{the}number {value!r}"
    return f"{the}string {value!r}"


def count(n: int, one: str, many: str | None = None) -> str:
    """`1 pod`, `2 pods` (`many` for irregular plurals: count(n, "priority", "priorities"))."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
