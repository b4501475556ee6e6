"""Did-you-mean for names users type: queue paths and ask ids. Pure (difflib only)."""
from __future__ import annotations


def close(name: str, candidates, limit: int = 3) -> list[str]:
    """The candidates `name` most likely meant, best first: those it is a dotted (or /) suffix of
    (`tenant-a` for root.tenants.tenant-a, `app-1-1` for app-1/app-1-1), those ending in it,
    then the close spellings of the whole name or of its last part."""
    cands = list(dict.fromkeys(c for c in candidates if c != name))
    if not name or not cands:
        return []
    low = name.lower()
    out = [c for c in cands if c.lower().endswith(("." + low, "/" + low))]
    if not out:
        out = [c for c in cands if c.lower() == low]  # a matter of case only
    if not out:
        out = [c for c in cands if c.lower().endswith(low) and len(low) >= 3]
    if out:  # a name that ends a candidate is what was meant: no spelling guesses beside it
        return out[:limit]
    by_lower: dict[str, str] = {}
    for c in cands:
        by_lower.setdefault(c.lower(), c)
    import difflib  # lazy: kept off the start-up of validate
    out += [by_lower[c] for c in difflib.get_close_matches(low, list(by_lower), n=limit, cutoff=0.6)]
    lasts: dict[str, list[str]] = {}
    for c in cands:
        lasts.setdefault(c.lower().replace("/", ".").rsplit(".", 1)[-1], []).append(c)
    last = low.replace("/", ".").rsplit(".", 1)[-1]
    import difflib  # lazy: kept off the start-up of validate
    for m in difflib.get_close_matches(last, list(lasts), n=limit, cutoff=0.75):
        out += lasts[m]
    return list(dict.fromkeys(out))[:limit]


def did_you_mean(name: str, candidates, limit: int = 3) -> str:
    """`; did you mean X?` (or `X or Y`), or "" when nothing is close."""
    found = close(name, candidates, limit)
    if not found:
        return ""
    return "; did you mean " + (found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1]) + "?"
