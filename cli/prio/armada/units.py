"""Kubernetes quantities and Go durations, as Armada read them. Pure functions, no I/O.

Quantities are parsed by prio.kube.quantity (Kubernetes' syntax) and come back as floats in the
resource's own unit: cpu in cores ("500m" = 0.5), memory in bytes ("2Gi" = 2147483648),
everything else as counts.

Durations follow Go's `time.ParseDuration`: a sequence of decimal numbers with units ns, us (or
µs), ms, s, m, h, optionally signed; "0" alone is allowed. They come back in seconds.
"""
from __future__ import annotations

import re
from datetime import datetime

from prio.kube.quantity import UnitError, parse_duration, parse_quantity  # noqa: F401 - Armada's callers find them here

# Resources whose unit is bytes: shown with binary suffixes.
BYTE_RESOURCES = ("memory", "ephemeral-storage", "storage")


def parse_timestamp(value) -> float | None:
    """An RFC 3339 timestamp as epoch seconds, or None if `value` is not one."""
    if not isinstance(value, str):
        return None
    s = value.strip()
    if not re.match(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$", s):
        return None
    s = s[:-1] + "+00:00" if s[-1] in "Zz" else s
    try:
        return datetime.fromisoformat(s.replace("t", "T")).timestamp()
    except ValueError:
        return None


def format_duration(seconds: float) -> str:
    """Seconds as a compact Go-style duration: 0s, 90s -> 1m30s, 5400 -> 1h30m, 0.25 -> 250ms."""
    if seconds == 0:
        return "0s"
    sign = "-" if seconds < 0 else ""
    s = abs(seconds)
    if s < 1:
        ms = round(s * 1000, 3)
        return f"{sign}{_trim(ms)}ms"
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    out = ""
    if h >= 1:
        out += f"{int(h)}h"
    if m >= 1:
        out += f"{int(m)}m"
    sec = round(sec, 3)
    if sec or not out:
        out += f"{_trim(sec)}s"
    return sign + out


def format_amount(resource: str, value: float) -> str:
    """A resource amount for people: bytes with binary suffixes, others as plain numbers."""
    if resource in BYTE_RESOURCES or resource.startswith("hugepages-"):
        if abs(value) < 1e-6:
            return "0"
        v = abs(value)
        for suffix, mult in (("Ei", 2**60), ("Pi", 2**50), ("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
            if v >= mult:
                return f"{_trim(round(value / mult, 3))}{suffix}"
        return _trim(round(value, 3))
    return format_number(value)


def format_number(value: float | None, places: int = 4) -> str:
    """A float rounded for display without trailing zeros: 8.0 -> "8", 2/3 -> "0.6667"."""
    if value is None:
        return "n/a"
    if abs(value) < 1e-9:
        return "0"
    if abs(value) < 10 ** -places:
        return f"{value:.3g}"
    return _trim(round(value, places))


def _trim(x: float) -> str:
    if x == 0:
        return "0"
    s = f"{x:.6f}".rstrip("0").rstrip(".")
    return s if abs(x) < 1e15 else f"{x:.6g}"
