"""Kubernetes quantities and Go durations, as Armada read them. Pure functions, no I/O.

Quantities are parsed by prio.kube.quantity (Kubernetes' syntax) and come back as floats in the
resource's own unit: cpu in cores ("500m" = 0.5), memory in bytes ("2Gi" = 2147483648),
everything else as counts.

Durations follow Go's `time.ParseDuration`: a sequence of decimal numbers with units ns, us (or
µs), ms, s, m, h, optionally signed; "0" alone is allowed. They come back in seconds.
"""
from __future__ import annotations

import math
import re
from datetime import datetime

from prio.values import go_duration_seconds, is_go_duration

# Resources whose unit is bytes: shown with binary suffixes.
BYTE_RESOURCES = ("memory", "ephemeral-storage", "storage")


class UnitError(ValueError):
    """A value that is not a valid quantity or duration; the message says why."""


def parse_quantity(value) -> float:
    """A Kubernetes quantity (string or YAML number) as a float in the resource's unit."""
    from prio.kube import quantity as kq

    if isinstance(value, bool) or value is None or not isinstance(value, (int, float, str)):
        raise UnitError(f"expected a quantity such as \"4\", \"500m\" or \"20Gi\", found {_show(value)}")
    try:
        out = float(value) if isinstance(value, (int, float)) else float(kq.parse(value))
    except kq.QuantityError as e:
        raise UnitError(str(e)) from None
    except OverflowError:
        raise UnitError(f"invalid quantity {value!r}") from None
    if not math.isfinite(out):
        raise UnitError(f"invalid quantity {value!r}: not a finite number")
    return out


def parse_duration(value) -> float:
    """A Go duration ("20m", "1h30m", "90s", "1.5h", "-5m", "0") in seconds."""
    if isinstance(value, bool) or not isinstance(value, str):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
            return 0.0
        raise UnitError(f"expected a Go duration with a unit such as \"20m\", \"1h30m\" or \"90s\", found {_show(value)}")
    seconds = go_duration_seconds(value)
    if seconds is not None:
        return seconds
    s = value.strip().lstrip("+-")
    if not s:
        raise UnitError(f"invalid duration {value!r}: empty")
    if is_go_duration(value.strip()):
        raise UnitError(f"invalid duration {value!r}: out of range")
    hint = " (a unit is required: ns, us, ms, s, m or h)" if re.fullmatch(r"[0-9.]+", s) else ""
    raise UnitError(f"invalid duration {value!r}: expected numbers with units such as \"20m\", \"1h30m\", \"90s\"{hint}")


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


def _show(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value)
