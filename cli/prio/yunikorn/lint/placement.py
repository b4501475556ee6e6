"""Placement rules: the validator's syntax and static-path checks (checkPlacementRules) and the
rule types the placement manager accepts when the partition is created or reloaded."""
from __future__ import annotations

import re
from functools import cache

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn import goregex
from prio.yunikorn.lint.limits import group_name
from prio.yunikorn.placement import build_errors
from prio.yunikorn.releases import user_name_note


@cache
def _rule_name() -> re.Pattern:
    """A placement rule's name, compiled when a config first has rules (this module is loaded by
    every explain's and simulate's refusal check)."""
    return re.compile(r"^[_a-zA-Z][a-zA-Z0-9_]*$")


@cache
def _special() -> re.Pattern:
    """The characters that make a filter entry a regular expression (compiled when first asked)."""
    return re.compile(r"[\^$*+?()\[{}|]")


def _rules(ctx):
    """Every placement rule, parents included: (partition, top-level index, rule)."""
    for p in ctx.config.partitions:
        for i, top in enumerate(p.placementrules):
            r = top
            while r is not None:
                yield p, i, top, r
                r = r.parent


def _chain(top):
    out = []
    r = top
    while r is not None:
        out.append(r)
        r = r.parent
    return list(reversed(out))  # outermost parent first


def _chain_text(top) -> str:
    return "->".join(r.name for r in _chain(top))


@check("PRIO126", "placement-rule-name", "error", "placement")
def placement_rule_name(ctx):
    """A placement rule name that is not an identifier.

    Example (fails): `- name: "tag rule"`
    Fix: use one of provided, user, tag, fixed.
    """
    for _p, _i, _top, r in _rules(ctx):
        if not _rule_name().fullmatch(r.name):
            yield Issue("PRIO126", r.path + ("name",), f"invalid rule name {r.name!r}, a name must be a valid identifier")


@check("PRIO127", "placement-filter-type", "error", "placement")
def placement_filter_type(ctx):
    """A placement filter type other than allow, deny or empty.

    Example (fails): `filter: {type: permit}`
    Fix: `filter: {type: allow}`
    """
    for _p, _i, _top, r in _rules(ctx):
        if r.filter_type.lower() not in ("", "allow", "deny"):
            yield Issue("PRIO127", r.path + ("filter", "type"), f"invalid rule filter type {r.filter_type!r}, filter type must be either '', allow or deny")


@check("PRIO139", "placement-filter-type-case", "warning", "placement")
def placement_filter_type_case(ctx):
    """A placement filter type `deny` written in another case (`Deny`, `DENY`): the filter allows.

    YuniKorn's validator accepts the type in any case (PRIO127), but the placement manager reads
    it exactly: only `deny` in lower case denies (newFilter: allow unless the type is "deny"). So
    `type: Deny` lets in exactly the users and groups it names, and keeps out everyone else: the
    opposite of what it says.

    Example (warns): `filter: {type: Deny, groups: [contractors]}`
    Fix: `filter: {type: deny, groups: [contractors]}`
    """
    for _p, _i, _top, r in _rules(ctx):
        if r.filter_type != "deny" and r.filter_type.lower() == "deny":
            yield Issue("PRIO139", r.path + ("filter", "type"),
                        f"filter type {r.filter_type!r} is read as allow by YuniKorn's placement: only 'deny' in lower case denies, "
                        f"so this filter lets in only the users and groups it names")


def _proper(entry: str, rx) -> bool:
    """A valid name, or an expression Go's regexp compiles (read as Python reads its
    translation; Go syntax prio cannot translate is not said to be wrong)."""
    if rx.fullmatch(entry):
        return True
    if not _special().search(entry) or goregex.go_refuses(entry):
        return False
    py = goregex.translate(entry)
    return py is None or goregex.compile_python(py) is not None


@check("PRIO128", "placement-filter-list", "error", "placement")
def placement_filter_list(ctx):
    """A single-entry filter list that is neither a valid name nor a regular expression.

    When a filter's users or groups list has exactly one entry, YuniKorn reads it as a name or,
    if it is not one, as a regular expression (it must compile and use a regex character).
    Entries of longer lists are never checked: bad ones are silently ignored at runtime.

    Example (fails): `filter: {users: ["bob smith"]}`
    Fix: a valid user name, or a regex like `^team-.*`.
    """
    for _p, _i, _top, r in _rules(ctx):
        for kind, lst, rx in (("user", r.users, ctx.release.user_name_re), ("group", r.groups, group_name())):
            if len(lst or []) == 1 and not _proper(lst[0], rx):
                later = user_name_note(lst[0], ctx.release) if kind == "user" else ""
                yield Issue("PRIO128", r.path + ("filter", kind + "s", 0), f"invalid rule filter {kind} list is not a proper list or regexp: [{lst[0]}]{later}")


def _static_path(top):
    """(static path or None, has a dynamic part, the rule with an illegal qualified value or
    None) for the fixed prefix of a rule chain."""
    parts, dynamic = [], False
    for n, r in enumerate(_chain(top)):
        if r.name != "fixed":  # the validator compares the name case-sensitively
            dynamic = True
            break
        v = r.value
        if v.startswith("root"):
            if n > 0:
                return None, dynamic, r
            parts.append(v)
        else:
            parts.append(v if parts else "root." + v)
    if not parts:
        return None, dynamic, None
    return ".".join(parts), dynamic, None


@check("PRIO129", "placement-fixed-qualified", "error", "placement")
def placement_fixed_qualified(ctx):
    """A fully qualified `fixed` value (starting with root) that is not the first rule of its chain.

    Only the outermost fixed rule may name a full path; nested ones are relative.

    Example (fails): a fixed rule with value `root.a` as the parent of another fixed rule with value `root.b`.
    Fix: make the inner value relative (`b`).
    """
    for p in ctx.config.partitions:
        for top in p.placementrules:
            bad = _static_path(top)[2]
            if bad is not None:
                rel = str(bad.value).split(".", 1)[1] if "." in str(bad.value) else ""
                yield Issue("PRIO129", bad.path + ("value",), f"illegal fully qualified 'fixed' rule with value {bad.value}",
                            fix=f"make the inner value relative (`{rel}`)" if rel else "")


OK, NOT_LEAF, MISSING, BELOW_LEAF = "ok", "not-leaf", "missing", "below-leaf"


def _walk(queues, parts, create, dynamic, parent=None, parent_flag=False):
    """checkQueueHierarchyForPlacement: follow the path through the configured queues by name
    (case-sensitive: the path is lowercased, the config names are not), using the literal
    `parent:` flag. Returns (result, name of the leaf that blocks the path)."""
    while True:
        if not queues:
            if not parent_flag:
                return BELOW_LEAF, parent.name if parent is not None else ""
            return (OK if create else MISSING), ""
        q = next((c for c in queues if c.name == parts[0]), None)
        if q is None:
            return (OK if create else MISSING), ""
        flag = q.parent or parent is None  # root's parent flag is forced to true
        if len(parts) == 1:
            if dynamic:
                return (OK if flag else NOT_LEAF), ""
            return (NOT_LEAF if flag else OK), ""
        queues, parts, parent, parent_flag = q.children, parts[1:], q, flag


def _path_issues(ctx):
    for p in ctx.config.partitions:
        root = p.root()
        if root is None:
            continue
        for i, top in enumerate(p.placementrules):
            path, dynamic, bad = _static_path(top)
            if path is None or bad is not None or not path.startswith("root"):
                continue
            result, leaf = _walk([root], path.lower().split("."), top.create, dynamic)
            label = f"placement rule no. #{i} ({_chain_text(top)})"
            if result == NOT_LEAF:
                hint = "" if not dynamic else ": YuniKorn's message is misleading, a rule with a dynamic part needs a queue with parent: true"
                yield "PRIO130", top, f"{label} references a queue ({path}) which is not a leaf{hint}", ""
            elif result == BELOW_LEAF:
                yield "PRIO132", top, f"{label} references non-existing queues ({path}) which cannot be created because the last queue ({leaf}) in the hierarchy is a leaf", \
                    f"make {leaf} a parent (`parent: true`) or point elsewhere"
            elif result == MISSING:
                yield "PRIO131", top, f"{label} references non-existing queues ({path}) and create is 'false'", ""


def _fixed_node(top):
    for r in _chain(top):
        if r.name.lower() == "fixed":
            return r
    return top


@check("PRIO130", "placement-not-leaf", "error", "placement")
def placement_not_leaf(ctx):
    """A fixed placement path that ends at the wrong kind of queue.

    A purely fixed rule must end at a leaf; a fixed prefix followed by a dynamic rule (user, tag,
    provided) must end at a queue with `parent: true`. YuniKorn checks the literal parent flag:
    a queue with children but no `parent: true` counts as a leaf here.

    Example (fails): `- {name: fixed, value: root.tenants}` where tenants has `parent: true`.
    Fix: point at a leaf, or add a dynamic child rule.
    """
    for rid, top, msg, _fix in _path_issues(ctx):
        if rid == "PRIO130":
            yield Issue(rid, _fixed_node(top).path + ("value",), msg)


@check("PRIO131", "placement-missing-queue", "error", "placement")
def placement_missing_queue(ctx):
    """A fixed placement path names queues that do not exist, and create is false.

    Example (fails): `- {name: fixed, value: root.nosuch}` without `create: true`.
    Fix: create the queue in the config, or set `create: true`.
    """
    for rid, top, msg, _fix in _path_issues(ctx):
        if rid == "PRIO131":
            yield Issue(rid, _fixed_node(top).path + ("value",), msg)


@check("PRIO132", "placement-below-leaf", "error", "placement")
def placement_below_leaf(ctx):
    """A fixed placement path continues below a configured leaf queue.

    A leaf cannot get children, so the path can never be created, whatever `create` says.

    Example (fails): `- {name: fixed, value: root.batch.jobs}` where root.batch is a leaf.
    Fix: make batch a parent (`parent: true`) or point elsewhere.
    """
    for rid, top, msg, fix in _path_issues(ctx):
        if rid == "PRIO132":
            yield Issue(rid, _fixed_node(top).path + ("value",), msg, fix=fix)


RELOAD = "; validate-conf accepts it, but YuniKorn refuses the config when it builds the placement rules (a reload)"


@check("PRIO133", "placement-rule-type", "error", "placement")
def placement_rule_type(ctx):
    """A placement rule YuniKorn's placement manager refuses when it builds the rules.

    The rule types are user, fixed, provided and tag (case-insensitive); `recovery` is internal.
    A fixed rule needs a value whose parts are valid queue names and, when fully qualified, no
    parent rule; a tag rule needs a value. The validator does not check any of this: on a reload
    the config is rejected; on first start the placement manager starts without any rule
    (logged only) and rejects every application ("no placement rule matched"), root.default
    included (NewPlacementManager, PlaceApplication).

    Example (fails): `- name: namespace` (should be `- {name: tag, value: namespace}`).
    Fix: use a known type with the value it needs.
    """
    from dataclasses import replace

    for issue in _placement_rule_type(ctx):
        yield replace(issue, message=issue.message + RELOAD)


def _placement_rule_type(ctx):
    """placement_rule_type's findings, before the note on where YuniKorn fails."""
    for _p, _i, _top, r in _rules(ctx):
        if not _rule_name().fullmatch(r.name):
            continue  # PRIO126's
        for where, message, at in build_errors(r, ctx.release):
            yield Issue("PRIO133", r.path + where, message, at=at)
