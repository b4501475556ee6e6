"""YuniKorn resource quantities (`resources/quantity.go`): unsigned integers with SI or binary
suffixes; the key `vcore` is parsed into millicores and is the only one that may use `m`."""
from __future__ import annotations

import re

from prio.values import shown_number, too_long

_QTY = re.compile(r"(?P<n>[0-9]+)[ \t\n\f\r]*(?P<s>([mkKMGTPE]i?)?)")  # Go's \s is ASCII only
_MULT = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18,
         "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
INT64_MAX = 2**63 - 1
VCORE = "vcore"


class QuantityError(ValueError):
    pass


def parse(key: str, value: str) -> int:
    """One quantity in YuniKorn's internal unit (millicores for vcore)."""
    s = str(value).strip()
    m = _QTY.fullmatch(s)
    if not m:
        raise QuantityError(f"invalid quantity {value!r} for {key}: expected an unsigned integer with an optional suffix (k M G T P E, Ki Mi Gi Ti Pi Ei{', m' if key == VCORE else ''})")
    if too_long(m.group("n")):  # past int64 whatever the suffix; int() would be wasted work (or refused)
        raise QuantityError(f"invalid quantity {shown_number(m.group('n'))} for {key}: overflow (does not fit int64)")
    n, suffix = int(m.group("n")), m.group("s")
    if key == VCORE:
        if suffix == "m":
            v = n
        elif suffix in _MULT:
            v = n * _MULT[suffix] * 1000
        else:
            raise QuantityError(f"invalid suffix {suffix!r} in {value!r} for {key}")
    else:
        if suffix not in _MULT:
            why = " (m, milli, is only allowed for vcore)" if suffix == "m" else ""
            raise QuantityError(f"invalid suffix {suffix!r} in {value!r} for {key}{why}")
        v = n * _MULT[suffix]
    if v > INT64_MAX:
        raise QuantityError(f"invalid quantity {value!r} for {key}: overflow (does not fit int64)")
    return v


def parse_lenient(res: dict) -> dict:
    """A resource map with the entries that parse; the others are left out (a rule reports them)."""
    out = {}
    for k, v in res.items():
        try:
            out[k] = parse(k, v)
        except QuantityError:
            pass
    return out


def go_map(res: dict | None) -> str:
    """Render like Go's fmt of map[string]int64: `map[memory:100 vcore:10000]`."""
    return "map[" + " ".join(f"{k}:{v}" for k, v in sorted((res or {}).items())) + "]"


def show_quantity(key: str, value: int) -> str:
    """A quantity in the units people write: vcore in cores (or m), sizes with binary suffixes."""
    if key == VCORE:
        return str(value // 1000) if value % 1000 == 0 else f"{value}m"
    if key == "memory" or key.endswith("storage"):
        # the shortest exact form: 4Gi, 4G or 1536Mi, never 3906250Ki for 4G
        forms = [f"{value // mult}{suffix}" for suffix, mult in
                 (("Ti", 2**40), ("T", 10**12), ("Gi", 2**30), ("G", 10**9), ("Mi", 2**20), ("M", 10**6), ("Ki", 2**10), ("k", 10**3))
                 if value and value % mult == 0]
        return min(forms, key=len) if forms else str(value)
    return str(value)


def show_resources(res: dict | None) -> str:
    """A resource map with show_quantity's values: `{memory: 4Gi, vcore: 2}`."""
    if not res:
        return "{}"
    return "{" + ", ".join(f"{k}: {show_quantity(k, v)}" for k, v in sorted(res.items())) + "}"
