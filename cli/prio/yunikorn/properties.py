"""Queue properties as YuniKorn parses them (`Queue.UpdateQueueProperties`): never an error,
an invalid value silently falls back to the default. Each parser returns (value, problem) where
problem is None when YuniKorn took the text as written."""
from __future__ import annotations

import re

from prio.values import INT32_MAX, INT32_MIN, clamp32, is_decimal, is_go_duration, parse_int32  # noqa: F401 - re-exported

SORT_POLICY = "application.sort.policy"
SORT_PRIORITY = "application.sort.priority"
PRIORITY_POLICY = "priority.policy"
PRIORITY_OFFSET = "priority.offset"
PREEMPTION_POLICY = "preemption.policy"
PREEMPTION_DELAY = "preemption.delay"
QUOTA_PREEMPTION_DELAY = "quota.preemption.delay"
QUOTA_PREEMPTION_DELAY_18 = "preemption.quota.delay"  # v1.8.0's spelling (yunikorn/releases.py)
BACKOFF = "application.unschedasks.backoff"
BACKOFF_DELAY = "application.unschedasks.backoff.delay"
# The keys every release reads, then those of some releases only (which: yunikorn/releases.py).
EVERY_RELEASE = (SORT_POLICY, SORT_PRIORITY, PRIORITY_POLICY, PRIORITY_OFFSET, PREEMPTION_POLICY, PREEMPTION_DELAY)

_UINT = re.compile(r"^[0-9]+$")  # strconv.ParseUint: no sign


def offset(s: str | None):
    """priority.offset -> (value, problem). Any parse error means 0, not a clamp."""
    if s is None or s == "":
        return 0, None
    v = parse_int32(s)
    if v is not None:
        return v, None
    if is_decimal(s):
        return 0, f"{s!r} is outside the int32 range, so YuniKorn uses 0 (it does not clamp)"
    return 0, f"{s!r} is not a base-10 integer as strconv.ParseInt(s, 10, 32) reads it, so YuniKorn uses 0"


def sort_policy(s: str | None):
    """application.sort.policy: case-sensitive fifo | fair | stateaware (= fifo, deprecated)."""
    if s is None or s == "" or s == "fifo":
        return "fifo", None
    if s == "fair":
        return "fair", None
    if s == "stateaware":
        return "fifo", "stateaware was removed in YuniKorn 1.6 and now means fifo"
    hint = f" (values are case-sensitive: did you mean {s.lower()!r}?)" if s.lower() in ("fifo", "fair", "stateaware") else ""
    return "fifo", f"{s!r} is not a sort policy YuniKorn knows{hint}, so it uses fifo"


def sort_priority(s: str | None):
    """application.sort.priority: enabled | disabled, case-insensitive; anything else = enabled."""
    if s is None or s == "" or s.lower() == "enabled":
        return True, None
    if s.lower() == "disabled":
        return False, None
    return True, f"{s!r} is neither 'enabled' nor 'disabled', so YuniKorn keeps priority sorting enabled"


def priority_policy(s: str | None):
    """priority.policy: default | fence | "", case-insensitive; anything else = default."""
    if s is None or s.lower() in ("default", ""):
        return "default", None
    if s.lower() == "fence":
        return "fence", None
    return "default", f"{s!r} is neither 'default' nor 'fence', so YuniKorn uses default (no fence)"


def preemption_policy(s: str | None):
    if s is None or s.lower() in ("default", "fence", "disabled", ""):
        return (s or "default").lower() or "default", None
    return "default", f"{s!r} is not default, fence or disabled, so YuniKorn uses default"


def duration(s: str | None, default: str):
    """A Go duration (time.ParseDuration) that must be > 0."""
    if s is None:
        return default, None
    if s == "0" or not is_go_duration(s) or s.startswith("-") or not re.search(r"[1-9]", s):
        return default, f"{s!r} is not a positive Go duration (like 30s or 1m30s), so YuniKorn uses {default}"
    return s, None


def backoff(s: str | None):
    if s is None or _UINT.fullmatch(s) and int(s) < 2**64:
        return s or "0", None
    return "0", f"{s!r} is not an unsigned integer, so YuniKorn uses 0 (off)"


def problem(key: str, value: str) -> str | None:
    """Why YuniKorn would not take `value` for property `key` as written (None if it would)."""
    if key == PRIORITY_OFFSET:
        # An empty offset means 0 like an absent one, but ParseInt fails on it and YuniKorn logs a
        # configuration error: said here, not where the value is read (explain has nothing to add).
        return "'' is not a base-10 integer, so YuniKorn logs a parse error and uses 0" if value == "" else offset(value)[1]
    if key == SORT_POLICY:
        return sort_policy(value)[1]
    if key == SORT_PRIORITY:
        return sort_priority(value)[1]
    if key == PRIORITY_POLICY:
        return priority_policy(value)[1]
    if key == PREEMPTION_POLICY:
        return preemption_policy(value)[1]
    if key == PREEMPTION_DELAY:
        return duration(value, "30s")[1]
    if key in (QUOTA_PREEMPTION_DELAY, QUOTA_PREEMPTION_DELAY_18):
        return duration(value, "0 (disabled)")[1]
    if key == BACKOFF_DELAY:
        return duration(value, "30s")[1]
    if key == BACKOFF:
        return backoff(value)[1]
    return None


def inherit(parent_effective: dict) -> dict:
    """What a configured child starts from (`filterParentProperty`): priority.policy and
    priority.offset are never inherited, preemption.policy only when it is `disabled`."""
    out = {}
    for k, v in parent_effective.items():
        if k == PRIORITY_POLICY:
            v = "default"
        elif k == PRIORITY_OFFSET:
            v = "0"
        elif k == PREEMPTION_POLICY:
            v = v if preemption_policy(v)[0] == "disabled" else "default"
        out[k] = v
    return out
