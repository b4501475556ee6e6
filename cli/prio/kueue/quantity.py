"""Kueue's resource amounts: cpu in millicores, everything else in whole units (Kueue's
`resources.Requests`), and their text as Kueue prints it (`ResourceFormatter.ResourceQuantity`:
cpu as a DecimalSI milli quantity, memory and ephemeral-storage in canonical BinarySI, the rest
DecimalSI)."""
from __future__ import annotations

BINARY = ("memory", "ephemeral-storage")
_BIN_SUFFIX = (("Ei", 60), ("Pi", 50), ("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10))
_DEC_SUFFIX = (("E", 18), ("P", 15), ("T", 12), ("G", 9), ("M", 6), ("k", 3))


def _decimal(v: int, milli: bool = False) -> str:
    """Kubernetes' canonical DecimalSI text of v (v in thousandths when milli)."""
    if v == 0:
        return "0"
    sign = "-" if v < 0 else ""
    v = abs(v)
    if milli:
        if v % 1000:
            return f"{sign}{v}m"
        v //= 1000
    for suffix, exp in _DEC_SUFFIX:
        if v % (10 ** exp) == 0:
            return f"{sign}{v // 10 ** exp}{suffix}"
    return f"{sign}{v}"


def _binary(v: int) -> str:
    """Canonical BinarySI text; a value no power of 1024 divides is written DecimalSI, as
    Kubernetes does."""
    if v == 0:
        return "0"
    a = abs(v)
    for suffix, exp in _BIN_SUFFIX:
        if a % (1 << exp) == 0:
            return f"{'-' if v < 0 else ''}{a >> exp}{suffix}"
    return _decimal(v)


def text(resource: str, v: int) -> str:
    """`ResourceFormatter.ResourceQuantityString`."""
    if resource == "cpu":
        return _decimal(v, milli=True)
    if resource in BINARY or resource.startswith("hugepages-"):
        return _binary(v)
    return _decimal(v)
