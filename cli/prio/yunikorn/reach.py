"""Where a partition's placement rules can put the applications of a group's members, whoever
they are, whatever queue and tags they submit with and whatever other groups they are in: the
rules of placement.py (yunikorn-core pkg/scheduler/placement) read for every application at
once. Pure: the config is only read.

A rule and its parent rules place by a pattern of queue paths (`Chain`):
- `provided` and `tag` (providedRule and tagRule placeApplication): any queue, since a fully
  qualified name (`root.` ...) is taken as it is and the parent rule is not asked;
- `user` (userRule): the user's name one level below what the parent rule gives (root without
  one), so any name at that level;
- `fixed` (fixedRule): its value, lowercased, below the parent rule's queue unless it starts
  with root.
No rules configured is one `provided` rule (buildRules). Every filter on the way must admit the
user (Filter.allowUser): a rule's own, then its parent's; a fully qualified provided or tag name
needs only the rule's own. PlaceApplication passes over a rule that gives a parent queue, a
parent rule that gives a leaf is an error, and an application no rule placed goes to
root.default when that queue exists. Not read, because each can only keep an application out:
whether a queue exists or may be created, submit ACLs, an earlier rule that always wins. So a
queue no chain may give is out of reach for certain.
"""
from __future__ import annotations

from typing import NamedTuple

from prio.yunikorn import goregex
from prio.yunikorn.placement import GROUP_NAME, build_errors, expression, matcher

WILD = "*"  # a pattern segment that may be any name ("*" is no queue name)


class Admission(NamedTuple):
    """Whether filters admit the members of a group: `all` (some member may pass), `none` (no
    member passes), or `through` (only a member also in one of `groups` or in a group one of
    `expressions` matches: the entries of allow filters that name no user and do not match the
    group). `rules`: the rules whose filters refuse (none) or admit only so (through)."""

    kind: str
    groups: tuple = ()
    rules: tuple = ()
    expressions: tuple = ()


ALL = Admission("all")


class Chain(NamedTuple):
    """A top-level rule read for every application: the queue paths it may give (`pattern`, a
    tuple of lowercased names and WILDs; None: any queue) and the rules whose filters must all
    admit the user for it (`filters`)."""

    pattern: tuple | None
    filters: tuple


def chains(rules) -> list[Chain] | None:
    """The partition's rules (config.PlacementRule), each with its parent rules, as chains; None
    when YuniKorn cannot build them (newRule's errors, reported by PRIO133): it then refuses the
    config or places no application at all, and nothing here is certain."""
    if not rules:
        return [Chain(None, ())]  # buildRules: one provided rule, no filter
    out = []
    for rule in rules:
        c = _chain(rule)
        if c is None:
            return None
        out.append(c)
    return out


def _chain(rule) -> Chain | None:
    """newRule and the rule's placeApplication, read for every application; None: not built."""
    kind = (rule.name or "").lower()
    value = (rule.value or "").lower()
    if build_errors(rule):
        return None  # newRule refuses it
    qualified = kind == "fixed" and value.startswith("root")
    up = _chain(rule.parent) if rule.parent is not None else Chain(("root",), ())
    if up is None:
        return None  # the parent rule is built with the rule: its error is the rule's
    if kind in ("provided", "tag"):
        return Chain(None, (rule,))
    if kind == "test":  # testRule, for YuniKorn's own tests: no filter, taken as any queue
        return Chain(None, ())
    if qualified:
        return Chain(tuple(value.split(".")), (rule,))
    filters = (rule,) + up.filters
    if up.pattern is None:
        return Chain(None, filters)
    below = (WILD,) if kind == "user" else tuple(value.split("."))
    return Chain(up.pattern + below, filters)


def may_give(chain: Chain, path: tuple, is_parent: bool) -> bool:
    """Whether the chain may place an application in the queue at `path` (lowercased names,
    root first) or below it: the queue itself when it is a leaf, a queue below when it is a
    parent."""
    p = chain.pattern
    if p is None:
        return True
    if len(p) < len(path) or any(s != WILD and s != name for s, name in zip(p, path)):
        return False
    return is_parent if len(p) > len(path) else not is_parent


def default_gives(root, path: tuple) -> bool:
    """Whether the queue at `path` is root.default or above it, with root.default a configured
    leaf: where PlaceApplication puts an application no rule placed."""
    if path not in (("root",), ("root", "default")):
        return False
    return any(c.name.lower() == "default" and not c.is_parent for c in root.children)


def admission(chain: Chain, group: str) -> Admission:
    """How the chain's filters, all together, admit the members of `group`."""
    through: list = []
    for rule in chain.filters:
        a = filter_admission(rule, group)
        if a.kind == "none":
            return a
        if a.kind == "through":
            through.append(a)
    if not through:
        return ALL
    return Admission("through", tuple(dict.fromkeys(g for a in through for g in a.groups)), tuple(r for a in through for r in a.rules),
                     tuple(dict.fromkeys(x for a in through for x in a.expressions)))


def filter_admission(rule, group: str) -> Admission:
    """Filter.allowUser for every member of `group`. The user name is checked first, then each
    group: a deny filter refuses every member when it lists (or its expression matches) the
    group, an allow filter admits any member it lists or matches, and anyone when it names a
    user (who may be a member). An empty filter admits everyone, or no one when its type is
    deny: newFilter compares the type exactly, so `Deny` is an allow filter."""
    allow = (rule.filter_type or "") != "deny"
    users, groups = list(rule.users or []), list(rule.groups or [])
    if not users and not groups:
        return ALL if allow else Admission("none", rules=(rule,))
    listed = _lists(groups, group) if groups else False
    if not allow:
        return Admission("none", rules=(rule,)) if listed is True else ALL
    if listed is not False or users:
        return ALL
    rx = expression(groups)
    if rx is not None:
        return Admission("through", (), (rule,), (rx,))
    return Admission("through", tuple(groups), (rule,))


def _lists(entries, group: str) -> bool | None:
    """Whether filter entries match the group; None when Python cannot read the expression as
    Go does."""
    rx = expression(entries)
    if rx is None:
        return matcher(entries, GROUP_NAME)(group)
    exp = goregex.compile_go(rx)
    return None if exp is None else exp.search(group) is not None
