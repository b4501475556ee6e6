"""The one-line `help:` under a finding in text output (ruff style): the rule documentation's
Fix, shortened to its prose; `prio rule ID` has the whole of it, with the example."""
from __future__ import annotations

_MAX = 160


def fix_of(doc: str) -> str:
    """The prose of the doc's `Fix:` paragraph on one line ("" when the doc has none). A Fix that
    only introduces an example (`Fix:` then an indented block) becomes "" too."""
    lines = doc.split("\n")
    for i, line in enumerate(lines):
        s = line.strip()
        if not s.startswith("Fix:") and not s.startswith("Fix "):
            continue
        parts = [s[4:].strip()]
        indent = len(line) - len(line.lstrip())
        for more in lines[i + 1:]:
            if not more.strip() or len(more) - len(more.lstrip()) > indent:
                break
            parts.append(more.strip())
        text = " ".join(p for p in parts if p).rstrip(":.").strip()
        if len(text) > _MAX:
            cut = text[:_MAX].rsplit(" ", 1)[0]
            text = cut.rstrip(",;:") + "..."
        return text
    return ""


def hint(rule, own: str = "") -> str:
    """`help: <fix> (prio rule ID)`, or the pointer alone when the Fix is an example. `own`: the
    finding's fix in its own values (a rule's documented Fix names the values of its Example,
    which would contradict the finding: `fair` under "did you mean 'fifo'")."""
    fix = own or (fix_of(rule.doc) if rule is not None else "")
    rid = getattr(rule, "id", "")
    if not fix:
        return f"help: see `prio rule {rid}` for the fix"
    return f"help: {fix[0].lower() + fix[1:] if fix[:2] != fix[:2].upper() else fix} (prio rule {rid})"
