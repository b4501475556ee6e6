"""Small helpers every snapshot loader needs: typed field access with positions, times, ints."""
from __future__ import annotations

import datetime as _dt
import re

from prio.yunikorn import quantity
from prio.errors import InputError
from prio.values import INT32_MAX, INT32_MIN


class Reader:
    """Field access into one Document that raises InputError at the right line."""

    def __init__(self, name: str, doc):
        self.name = name
        self.doc = doc
        self._qty: dict = {}  # (key, text) -> parsed quantity: snapshots repeat a few shapes

    def fail(self, path, message: str, at: str = "value"):
        pos = self.doc.pos(tuple(path), at)
        raise InputError(self.name, message, pos.line if pos else None, pos.column if pos else None)

    def int32(self, path, value, what: str) -> int:
        if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"{what} must be an integer, found {value!r}")
        if not INT32_MIN <= value <= INT32_MAX:
            self.fail(path, f"{what} {value} is outside the int32 range (-2147483648 to 2147483647)")
        return value

    def resources(self, path, value) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(path, f"resources must be a mapping of resource name to quantity, found {value!r}")
        out = {}
        cache = self._qty
        for k, v in value.items():
            got = cache.get((k, v)) if isinstance(v, str) else None
            if got is not None:
                out[k] = got
                continue
            if isinstance(v, bool) or v is None:
                self.fail(tuple(path) + (k,), f"invalid quantity {v!r} for {k}")
            raw = self.doc.raw(tuple(path) + (k,))
            text = raw if raw is not None else str(v)
            if isinstance(v, (int, float)) and v < 0:
                self.fail(tuple(path) + (k,), f"negative quantity {v} for {k}: resources cannot be negative")
            try:
                out[k] = quantity.parse(k, text)
            except quantity.QuantityError as e:
                self.fail(tuple(path) + (k,), str(e))
            if isinstance(v, str) and raw is None or raw == v:
                cache[(k, v)] = out[k]
        return out

    def check_keys(self, path, value: dict, allowed, what: str):
        import difflib

        for k in value:
            if k not in allowed:
                near = difflib.get_close_matches(k, list(allowed), n=1, cutoff=0.6)
                self.fail(tuple(path) + (k,), f"unknown key {k!r} in {what}" + (f"; did you mean {near[0]!r}?" if near else f" (known: {', '.join(allowed)})"), at="key")


def to_ns(seconds: float) -> int:
    """Time keys are whole nanoseconds, so REST times (ns) stay exact and every loader's keys
    compare with every other's."""
    return int(round(seconds * 1_000_000_000))


def parse_time(value) -> float | None:
    """RFC 3339 text or a number of seconds -> epoch seconds."""
    if value is None:
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, _dt.datetime):
        return value.timestamp()
    s = str(value).strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        t = _dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=_dt.timezone.utc)
    return t.timestamp()
