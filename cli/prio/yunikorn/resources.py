"""Resource maps (resource type -> quantity in YuniKorn's internal unit, see quantity.py) and
YuniKorn's arithmetic on them (pkg/common/resources/resources.go). Pure: no I/O.

A map follows Go's *Resource: None is nil, {} is an empty (non-nil) resource. The functions named
after YuniKorn's keep their nil semantics, which decide outcomes in corner cases; the ones that
make a map return a new one (never an argument itself), the ones ending in `_to`/`_from` change
their first argument in place.
"""
from __future__ import annotations


def is_empty(r) -> bool:
    """IsEmpty: nil or no types."""
    return r is None or len(r) == 0


def clone(r):
    return None if r is None else dict(r)


def add(left, right) -> dict:
    """Add: left + right over the union of types (missing = 0)."""
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = out.get(k, 0) + v
    return out


def total(maps) -> dict:
    """The sum of resource maps (missing = 0): {} for none."""
    out: dict = {}
    for r in maps:
        add_to(out, r)
    return out


def sub(left, right) -> dict:
    """Sub: left - right over the union of types (missing = 0)."""
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = out.get(k, 0) - v
    return out


def add_to(r: dict, other) -> None:
    """AddTo: r += other, in place."""
    for k, v in (other or {}).items():
        r[k] = r.get(k, 0) + v


def sub_from(r: dict, other) -> None:
    """SubFrom: r -= other, in place."""
    for k, v in (other or {}).items():
        r[k] = r.get(k, 0) - v


def sub_only_existing(base, delta):
    """SubOnlyExisting: base - delta over base's types only."""
    if base is None or delta is None:
        return clone(base)
    return {k: v - delta.get(k, 0) for k, v in base.items()}


def sub_eliminate_negative(left, right) -> dict:
    """SubEliminateNegative: left - right, each type floored at 0."""
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = max(0, out.get(k, 0) - v)
    return out


def component_min(left, right):
    """ComponentWiseMin over the union of types (a type set on one side only keeps its value)."""
    if left is None and right is None:
        return None
    if left is None:
        return dict(right)
    if right is None:
        return dict(left)
    out = dict(left)
    for k, v in right.items():
        out[k] = min(v, left[k]) if k in left else v
    return out


def component_min_only_existing(left, right):
    """ComponentWiseMinOnlyExisting: over left's types only."""
    if left is None:
        return None
    if right is None:
        return dict(left)
    return {k: (min(v, right[k]) if k in right else v) for k, v in left.items()}


def merge_if_not_present(left, right):
    """MergeIfNotPresent: left, plus the types of right that left lacks."""
    if left is None and right is None:
        return None
    if left is None:
        return dict(right)
    out = dict(left)
    for k, v in (right or {}).items():
        out.setdefault(k, v)
    return out


def strictly_greater_or_equal(larger, smaller) -> bool:
    """StrictlyGreaterThanOrEquals: every type of either, missing = 0."""
    larger, smaller = larger or {}, smaller or {}
    return all(smaller.get(k, 0) <= v for k, v in larger.items()) and all(larger.get(k, 0) >= v for k, v in smaller.items())


def strictly_greater(l: dict, r: dict) -> bool:
    """StrictlyGreaterThan(Sub(l, r), Zero), YuniKorn's "pending strictly greater": l >= r in every type (missing = 0) and
    > in one. Not transitive over incomparable pairs: the sort's algorithm decides."""
    greater = False
    for k in set(l) | set(r):
        d = l.get(k, 0) - r.get(k, 0)
        if d < 0:
            return False
        if d > 0:
            greater = True
    return greater


def strictly_only_existing(r, smaller, equals: bool) -> bool:
    """internalStrictlyOnlyExisting (StrictlyGreaterThanOnlyExisting with equals=False,
    ...OrEqualsOnlyExisting with equals=True)."""
    r, smaller = r or {}, smaller or {}
    not_equal = equal = common = False
    all_positive = True
    for k, v in r.items():
        if not smaller and v <= 0:
            all_positive = False
        if k in smaller:
            common = True
            val = smaller[k]
            if val > v:
                return False
            if val <= v:
                equal = True
            if val != v:
                not_equal = True
    if not smaller and r:
        return all_positive
    if common:
        return equal if equals else not_equal
    return bool(r) and bool(smaller)


def strictly_positive(res: dict | None) -> bool:
    """StrictlyGreaterThanZero: at least one value > 0 and none < 0 (one pass: the scheduling
    loop asks this of every queue it re-keys)."""
    pos = False
    for v in (res or {}).values():
        if v < 0:
            return False
        if v > 0:
            pos = True
    return pos


def equals_or_empty(left, right) -> bool:
    """EqualsOrEmpty: both all zero (or nil), or equal type by type (missing = 0)."""
    if all(v == 0 for v in (left or {}).values()) and all(v == 0 for v in (right or {}).values()):
        return True
    left, right = left or {}, right or {}
    return all(right.get(k, 0) == v for k, v in left.items()) and all(left.get(k, 0) == v for k, v in right.items())


def fit_in(larger, smaller, skip_undef: bool = False, actual: bool = False) -> bool:
    """fitIn: smaller <= larger for every type of smaller. skip_undef: types larger lacks are
    unlimited (else 0); actual: larger's negative values count as they are (else as 0)."""
    larger = larger or {}
    if smaller is None:
        return True
    for k, v in smaller.items():
        if k not in larger:
            if skip_undef:
                continue
            room = 0
        else:
            room = larger[k]
        if not actual:
            room = max(0, room)
        if v > room:
            return False
    return True


def fits(outer, inner) -> bool:
    """inner <= outer for every type outer defines (types absent from outer are unlimited), on
    the values as they are: fit_in with skip_undef and actual."""
    return fit_in(outer, inner, skip_undef=True, actual=True)


def match_any(r, other) -> bool:
    """MatchAny: the two share a type (nil shares none)."""
    if r is None or other is None:
        return False
    return any(k in other for k in r)


def is_zero(r) -> bool:
    """IsZero: nil, empty, or every value 0 (contrary to strictly_positive)."""
    return all(v == 0 for v in (r or {}).values())


def equals(left, right) -> bool:
    """Equals: the same object, or both set and equal type by type (missing = 0); nil equals
    only nil."""
    if left is None or right is None:
        return left is right
    return all(right.get(k, 0) == v for k, v in left.items()) and all(left.get(k, 0) == v for k, v in right.items())


def shares_type_wise(res, total) -> dict:
    """GetSharesTypeWise: type -> res/total for res's non-zero types; where total is nil or 0
    for the type, the share is the quantity itself (not a fraction)."""
    out = {}
    for k, v in (res or {}).items():
        if v == 0:
            continue
        t = (total or {}).get(k, 0)
        out[k] = float(v) if t == 0 else v / t
    return out


def compare_shares(left: list, right: list) -> int:
    """compareShares on two ascending share lists: 1 when left is larger (compared from the
    largest share down), -1 when right is, 0 when equal; leftover shares count by their sign."""
    i, j = len(left) - 1, len(right) - 1
    while i >= 0 and j >= 0:
        if left[i] != right[j]:
            return 1 if left[i] > right[j] else -1
        i, j = i - 1, j - 1
    for k in range(i, -1, -1):
        if left[k] != 0:
            return 1 if left[k] > 0 else -1
    for k in range(j, -1, -1):
        if right[k] != 0:
            return -1 if right[k] > 0 else 1
    return 0
