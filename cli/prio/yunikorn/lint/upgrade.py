"""PRIO216: what changes meaning when YuniKorn is upgraded (`prio validate --yunikorn-version 1.8
--upgrade-to 1.9`, issue 46). Each file is judged by both releases' rules
(prio.yunikorn.releases) and only the difference is reported."""
from __future__ import annotations

from dataclasses import replace

from prio.lint.registry import declare

RULE = declare("PRIO216", "upgrade-changes-meaning", "warning", "properties", target="upgrade", doc="""
    Something in the config that the upgrade of YuniKorn (`--upgrade-to`) reads differently.

    Each release judges a config by its own rules: a property key one release reads, the next
    can ignore (1.8.0 reads `preemption.quota.delay`, 1.9 `quota.preemption.delay`); a value can
    change meaning (`stateaware` is a policy in 1.5 and fifo from 1.6); a config the old release
    takes can be refused by the new one (a child template that does not parse: 1.5 drops it, 1.6
    refuses the config). With `--yunikorn-version OLD --upgrade-to NEW`, validate reports only
    these differences: what NEW finds that OLD does not (an error where NEW refuses the config),
    and what OLD finds that no longer holds in NEW (a key that starts to take effect).

    Example (warns): `prio validate --yunikorn-version 1.8 --upgrade-to 1.9` on a queue with
    `preemption.quota.delay: 30s`
    Fix: act on the message before the upgrade: here, rename the key to `quota.preemption.delay`.
    """)


def upgrade(results, old, new) -> None:
    """Replace each checked file's findings (`results`, judged by release `old`) by what changes
    from `old` to `new`."""
    from prio.lint.runner import across_files, check_text

    again = [check_text(res.name, res.text, release=new) for res in results]
    across_files(again)  # the findings across files too, as the first run made them
    for res, after in zip(results, again):
        res.findings = changes(res.findings, after.findings, old, new)


def changes(before: list, after: list, old, new) -> list:
    """The PRIO216 findings between the findings of the same file under `old` and under `new`:
    compared by rule and place; a finding whose severity changes counts as new."""
    from prio.diagnostics import sort_key

    was, now = _by_place(before), _by_place(after)
    step = f"after the upgrade from YuniKorn {old.name} to {new.name}"
    out = []
    for k in sorted(set(was) | set(now), key=str):
        b, f = was.get(k, []), now.get(k, [])
        # the same findings at a place, worded for another release, are no change
        if sorted(x.severity for x in b) == sorted(x.severity for x in f):
            continue
        said = {x.message for x in b}
        for x in f:
            if x.message not in said:
                refused = f"{step}, the config is refused" if x.severity == "error" else step
                out.append(_as_change(x, "error" if x.severity == "error" else RULE.severity, f"{refused}: {x.message}"))
        said = {x.message for x in f}
        for x in b:
            if x.message in said:
                continue
            if x.rule == "PRIO210":  # the new release reads the key: its value starts to count
                out.append(_as_change(x, RULE.severity, f"{step}, this key takes effect ({old.name} ignores it): {x.message}",
                                      "check its value is the one you want before the upgrade"))
            else:
                out.append(_as_change(x, "info", f"{step}, this no longer holds: {x.message}", "nothing to do"))
    return sorted(out, key=sort_key)


def _by_place(findings) -> dict:
    """Findings by rule and place."""
    out: dict = {}
    for f in findings:
        out.setdefault((f.rule, f.path, f.line, f.column), []).append(f)
    return out


def _as_change(f, severity: str, message: str, fix: str = ""):
    """Finding `f` of one release as a PRIO216 finding, naming the rule it came from."""
    return replace(f, rule=RULE.id, name=RULE.name, severity=severity, message=f"{message} [{f.rule}]",
                   fix=fix or f.fix or f"see `prio rule {f.rule}`")
