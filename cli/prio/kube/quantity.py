"""Kubernetes resource quantities (`k8s.io/apimachinery/pkg/api/resource`) in YuniKorn's units.

A quantity is a signed decimal number followed by a binary suffix (Ki Mi Gi Ti Pi Ei), a decimal
suffix (n u m k M G T P E) or a decimal exponent (e3, E-2): "500m", "1.5Gi", "2e3", "0.25".
The Kubernetes shim turns a pod's requests into a YuniKorn resource the same way for every
name but one: `cpu` becomes `vcore` in millicores (`Quantity.MilliValue`), everything else
keeps its name and becomes a whole number (`Quantity.Value`). Both round up, as Kubernetes does.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_CEILING, Decimal, InvalidOperation

from prio.values import go_duration_seconds, is_go_duration

_QTY = re.compile(
    r"^(?P<num>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))"
    r"(?P<suffix>Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|n|u|m|k|M|G|T|P|E)?$"
)
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
INT64_MAX = 2**63 - 1


class QuantityError(ValueError):
    pass


def parse(text) -> Decimal:
    """A quantity (string or a YAML/JSON number) as an exact decimal in its own unit."""
    if isinstance(text, bool) or text is None:
        raise QuantityError(f"expected a quantity such as \"500m\", \"2\" or \"1.5Gi\", found {text!r}")
    s = str(text).strip()
    m = _QTY.match(s)
    if not m:
        hint = ""
        if re.match(r"^[0-9.]+\s*([KMGTPE]i?B|[kmgt]b)$", s, re.I):
            hint = " (Kubernetes writes bytes without a B: 1Gi or 1G)"
        elif re.match(r"^[0-9.]+\s+\S+$", s):
            hint = " (no space between the number and its suffix)"
        raise QuantityError(f"invalid quantity {s!r}: expected a number with an optional suffix "
                            f"(m, k, M, G, Ki, Mi, Gi, ... or an exponent such as e3){hint}")
    suffix = m.group("suffix") or ""
    try:
        num = Decimal(m.group("num"))
        if suffix in _BINARY:
            return num * _BINARY[suffix]
        if suffix in _DECIMAL:
            return num.scaleb(_DECIMAL[suffix])
        exp = int(suffix[1:])
        if abs(exp) > 40:
            raise QuantityError(f"invalid quantity {s!r}: exponent out of range")
        return num.scaleb(exp)
    except InvalidOperation:
        raise QuantityError(f"invalid quantity {s!r}") from None


INT64_MIN = -(2**63)


def as_sent(name: str, text) -> tuple[str, int]:
    """(YuniKorn resource name, value) exactly as the shim sends a quantity that Kubernetes
    accepted (getResource), Go's int64 arithmetic kept as it is:
    `cpu` past int64 millicores overflows (MilliValue: `cpu: 1Ei` is -9223372036854775808), every
    other name saturates at the int64 maximum (Value: memory `9Ei`)."""
    d = parse(text)
    if d < 0:
        raise QuantityError(f"negative quantity {str(text).strip()!r} for {name}: requests cannot be negative")
    if name == "cpu":
        v = int((d * 1000).to_integral_value(rounding=ROUND_CEILING))
        return "vcore", v if v <= INT64_MAX else INT64_MIN
    v = int(d.to_integral_value(rounding=ROUND_CEILING))
    return name, min(v, INT64_MAX)


# As the loaders of Kubernetes-style objects read them (io.fields' Reader): a quantity as a float in the
# resource's own unit, a Go duration (metav1.Duration) in seconds.
class UnitError(ValueError):
    """A value that is not a valid quantity or duration; the message says why."""


def parse_quantity(value) -> float:
    """A Kubernetes quantity (string or YAML number) as a float in the resource's unit."""
    if isinstance(value, bool) or value is None or not isinstance(value, (int, float, str)):
        raise UnitError(f"expected a quantity such as \"4\", \"500m\" or \"20Gi\", found {_show(value)}")
    try:
        out = float(value) if isinstance(value, (int, float)) else float(parse(value))
    except QuantityError as e:
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


def _show(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value)
