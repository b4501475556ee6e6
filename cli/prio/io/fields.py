"""Typed field access into a Document with positions, times, ints: what every loader needs (every
backend's and YuniKorn's; prio.yunikorn.load.reader adds YuniKorn's resource quantities)."""
from __future__ import annotations

import datetime as _dt
import math
import re

from prio.diagnostics import format_path
from prio.errors import InputError
from prio.kube.quantity import UnitError, parse_duration, parse_quantity
from prio.values import INT32_MAX, INT32_MIN, describe, is_decimal, shown_number, too_long


class Reader:
    """Typed field access into one Document that raises InputError at the right line: the one
    reader every loader uses (snapshots, REST dumps, pod lists, every backend's documents).

    `name_path`: whether a message starts with the field's path, "never" (the position says
    where), "always", or "unpositioned" (only for a document without positions, i.e. large JSON
    read with the json module)."""

    def __init__(self, name: str, doc, name_path: str = "never"):
        self.name = name
        self.doc = doc
        self.name_path = name_path
        self._qty: dict = {}  # (key, text) -> parsed quantity: snapshots repeat a few shapes

    @property
    def file(self) -> str:
        return self.name

    def _kube(self, path, fn, *args, affinity_at=None):
        """A kube.predicates reader's answer; its ValueError (where, what) is raised at the field
        it names below `path` (the node affinity's fields below `affinity_at`)."""
        try:
            return fn(*args)
        except ValueError as e:
            where, what = e.args
            base = tuple(path)
            if where[0] == "affinity" and affinity_at is not None:
                base, where = tuple(affinity_at), where[1:]
            self.fail(base + tuple(where), what)

    def node_constraints(self, path, node_selector, affinity, tolerations, node_name=None, affinity_at=None):
        """A pod's or ask's kube.predicates.Constraints (`path`: where the fields sit; the node
        affinity's own path `affinity_at`), or None when it gives none of them."""
        if node_selector is None and affinity is None and not tolerations and not node_name:
            return None
        from prio.kube import predicates  # (imported where an ask or a node has predicates only)

        return self._kube(path, predicates.constraints, node_selector, affinity, tolerations, node_name,
                          affinity_at=affinity_at)

    def node_labels(self, path, value) -> dict:
        from prio.kube import predicates

        return self._kube(path, predicates.labels, value)

    def node_taints(self, path, value) -> tuple:
        from prio.kube import predicates

        return self._kube(path, predicates.taints, value)

    def fail(self, path, message: str, at: str = "value"):
        path = tuple(path)
        if self.name_path == "always" or (self.name_path == "unpositioned" and not self.doc.index):
            where = format_path(path)
            message = f"{where}: {message}" if where else message
            if not self.doc.index:
                raise InputError(self.name, message)
        pos = self.doc.pos(path, at)
        raise InputError(self.name, message, pos.line if pos else None, pos.column if pos else None)

    def int32(self, path, value, what: str) -> int:
        if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
            if too_long(value):
                self.fail(path, f"{what} {shown_number(value)} is outside the int32 range (-2147483648 to 2147483647)")
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"{what} must be an integer, found {value!r}")
        if not INT32_MIN <= value <= INT32_MAX:
            self.fail(path, f"{what} {shown_number(value)} is outside the int32 range (-2147483648 to 2147483647)")
        return value

    def check_keys(self, path, value: dict, allowed, what: str):
        for k in value:
            if k not in allowed:
                import difflib  # for the message only: every input's keys are checked

                near = difflib.get_close_matches(k, list(allowed), n=1, cutoff=0.6)
                self.fail(tuple(path) + (k,), f"unknown key {k!r} in {what}" + (f"; did you mean {near[0]!r}?" if near else f" (known: {', '.join(allowed)})"), at="key")

    def check_issues(self) -> None:
        for issue in self.doc.issues:
            if issue.rule in ("PRIO002", "PRIO003"):
                pos = issue.pos or self.doc.pos(issue.path, issue.at)
                raise InputError(self.name, issue.message, pos.line if pos else None, pos.column if pos else None)

    def mapping(self, path: tuple, value) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, found {kind_of_value(value)}")
        return value

    def sequence(self, path: tuple, value) -> list:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, found {kind_of_value(value)}")
        return value

    def keys(self, path: tuple, data: dict, allowed: tuple, aliases: dict | None = None) -> None:
        aliases = aliases or {}
        for key in data:
            if key in allowed or key in aliases:
                continue
            import difflib  # lazy: kept off the start-up of validate
            close = difflib.get_close_matches(str(key), list(allowed), n=1, cutoff=0.6)
            lower = [a for a in allowed if a.lower() == str(key).lower()]
            hint = f"; did you mean {(lower or close)[0]!r}?" if (lower or close) else \
                f"; known keys: {', '.join(allowed)}"
            self.fail(path + (key,), f"unknown key {key!r}{hint}", at="key")

    def string(self, path: tuple, value) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(path, f"expected a non-empty string, found {kind_of_value(value)}")
        return value.strip()

    def number(self, path: tuple, value, minimum: float | None = None, what: str = "a number") -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(path, f"expected {what}, found {kind_of_value(value)}")
        try:
            out = float(value)
        except (TypeError, ValueError):
            self.fail(path, f"expected {what}, found {value!r}")
        if not math.isfinite(out):
            self.fail(path, f"expected a finite number, found {shown_number(value) if isinstance(value, str) else value!r}")
        if minimum is not None and out < minimum:
            self.fail(path, f"must be at least {minimum:g}, found {value!r}")
        return out

    def integer(self, path: tuple, value, minimum: int, maximum: int) -> int:
        if isinstance(value, str) and is_decimal(value.strip()) and too_long(value):
            # a number of thousands of digits, which the YAML and JSON readers keep as its text
            self.fail(path, f"must be between {minimum} and {maximum}, found {shown_number(value)}")
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected a whole number, found {kind_of_value(value)}")
        if not minimum <= value <= maximum:
            self.fail(path, f"must be between {minimum} and {maximum}, found {value}")
        return value

    def boolean(self, path: tuple, value) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, found {kind_of_value(value)}")
        return value

    def duration(self, path: tuple, value) -> float:
        try:
            return parse_duration(value)
        except UnitError as e:
            self.fail(path, str(e))

    def kube_resources(self, path: tuple, value) -> dict:
        """Kubernetes quantities, in the resource's own unit."""
        data = self.mapping(path, value)
        out = {}
        for k, v in data.items():
            try:
                q = parse_quantity(v)
            except UnitError as e:
                self.fail(path + (k,), str(e))
            if q < 0:
                self.fail(path + (k,), f"a resource amount cannot be negative, found {v!r}")
            out[str(k)] = q
        return out

    def fractions(self, path: tuple, value, maximum: float | None = None) -> dict:
        data = self.mapping(path, value)
        out = {}
        for k, v in data.items():
            f = self.number(path + (k,), v, 0.0, "a fraction")
            if maximum is not None and f > maximum:
                self.fail(path + (k,), f"a fraction of capacity must be between 0 and {maximum:g}, found {v!r}")
            out[str(k)] = f
        return out


def kind_of_value(value) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return repr(value) if isinstance(value, str) else describe(value)

def to_ns(seconds: float) -> int:
    """Time keys are whole nanoseconds, so REST times (ns) stay exact and every loader's keys
    compare with every other's."""
    return int(round(seconds * 1_000_000_000))


MAX_TIME_SECONDS = (2**63 - 1) // 1_000_000_000  # Go's time in int64 nanoseconds ends in 2262


def parse_time(value) -> float | None:
    """RFC 3339 text or a number of seconds -> epoch seconds; None for anything else, a number
    past Go's int64 nanoseconds (±MAX_TIME_SECONDS) and infinity included."""
    if value is None:
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if -MAX_TIME_SECONDS <= value <= MAX_TIME_SECONDS else None  # (NaN: neither)
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
