"""User and group limits (checkLimitsStructure, checkLimits, checkLimitResource,
checkLimitMaxApplications)."""
from __future__ import annotations

import re
from functools import cache

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn import acl as acl_mod
from prio.yunikorn import quantity, resources
from prio.yunikorn.config import queue_path
from prio.yunikorn.releases import user_name_note


@cache
def group_name() -> re.Pattern:
    """The group names a limit (and a placement filter) may give, compiled when a limit first
    names a group: the refusal check of explain and simulate imports this module."""
    return re.compile(r"^[_a-zA-Z][a-zA-Z0-9:_.-]*$")


def _desc(lim) -> str:
    return repr(lim.limit) if lim.limit else f"#{lim.path[-1] + 1}"


def _limits(ctx):
    for p, q, anc in ctx.having("limits"):
        for lim in q.limits or []:
            yield p, q, anc, lim


@check("PRIO115", "limits-not-equivalent", "error", "limits")
def limits_not_equivalent(ctx):
    """Partition limits and root queue limits are both set and differ.

    YuniKorn copies partition limits onto root when root has none; when both are set they must
    be identical ("partition limits and root queue limits are not equivalent").

    Example (fails): partition `limits: [{users: [x], maxapplications: 1}]` and root
    `limits: [{users: [y], maxapplications: 1}]`.
    Fix: set the limits in one place only.
    """
    for p, r in ctx.trees:
        own = getattr(r, "own_limits", r.limits)
        if p.limits and own and not r.inserted:
            # reflect.DeepEqual: a missing list (nil) differs from an empty one
            strip = lambda ls: [(l.limit, l.users, l.groups, l.maxresources, l.maxapplications) for l in ls]
            if strip(p.limits) != strip(own):
                yield Issue("PRIO115", p.path + ("limits",), "partition limits and root queue limits are not equivalent: set them in one place", at="key")


@check("PRIO116", "limit-without-principals", "error", "limits")
def limit_without_principals(ctx):
    """A limit that names neither users nor groups.

    Example (fails):
        limits:
          - limit: everyone
            maxapplications: 10
    Fix: add `users: ["*"]` (or groups).
    """
    for _p, q, anc, lim in _limits(ctx):
        if not lim.users and not lim.groups:
            yield Issue("PRIO116", lim.path, f"empty user and group lists defined in limit {_desc(lim)} of queue {queue_path(q, anc)}")


def _principals(lim, kind):
    return (lim.users if kind == "user" else lim.groups) or []


@check("PRIO117", "invalid-limit-name", "error", "limits")
def invalid_limit_name(ctx):
    """A user or group name in a limit that YuniKorn does not accept.

    Users must be `*` or match ^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$; groups `*` or
    ^[_a-zA-Z][a-zA-Z0-9:_.-]*$.

    Example (fails): `users: ["1bob"]`
    Fix: use the real account name.
    """
    for _p, _q, _anc, lim in _limits(ctx):
        for kind, rx, key in (("user", ctx.release.user_name_re, "users"), ("group", group_name(), "groups")):
            for i, name in enumerate(_principals(lim, kind)):
                if name != "*" and not rx.fullmatch(name):
                    later = user_name_note(name, ctx.release) if kind == "user" else ""
                    yield Issue("PRIO117", lim.path + (key, i), f"invalid limit {kind} name {name!r} in limit definition {_desc(lim)}{later}")


@check("PRIO118", "duplicate-limit-name", "error", "limits")
def duplicate_limit_name(ctx):
    """The same user or group in two limits of one queue (or twice in one list).

    The docs say duplicates are ignored; the code rejects them.

    Example (fails):
        limits:
          - {users: [bob], maxapplications: 1}
          - {users: [bob], maxresources: {memory: 1G}}
    Fix: merge the limits into one.
    """
    for _p, q, anc in ctx.having("limits"):
        for kind, key in (("user", "users"), ("group", "groups")):
            seen = set()
            for lim in q.limits or []:
                for i, name in enumerate(_principals(lim, kind)):
                    if name in seen:
                        yield Issue("PRIO118", lim.path + (key, i), f"duplicated {kind} name {name!r}, already exists in the limits of {queue_path(q, anc)}")
                    seen.add(name)


@check("PRIO119", "limit-wildcard-order", "error", "limits")
def limit_wildcard_order(ctx):
    """A named user or group after a wildcard limit, or a wildcard group with no named group.

    In one queue the `*` limit must come last, and a `*` group limit is only allowed after at
    least one named group limit.

    Example (fails):
        limits:
          - {users: ["*"], maxapplications: 10}
          - {users: [bob], maxapplications: 2}
    Fix: move the wildcard limit last.
    """
    for _p, q, _anc in ctx.having("limits"):
        wild = {"user": False, "group": False}
        groups_seen = set()
        for lim in q.limits or []:
            for kind, key in (("user", "users"), ("group", "groups")):
                for i, name in enumerate(_principals(lim, kind)):
                    if name == "*":
                        wild[kind] = True
                    elif wild[kind]:
                        yield Issue("PRIO119", lim.path + (key, i), f"should not set no wildcard {kind} {name} after wildcard {kind} limit")
            groups_seen.update(lim.groups or [])
            if groups_seen == {"*"}:
                yield Issue("PRIO119", lim.path + ("groups",), "should not specify only one group limit that is using the wildcard. There must be at least one limit with a group name defined")
                groups_seen.add("")  # report once per queue


@check("PRIO120", "limit-maxresources-not-positive", "error", "limits")
def limit_maxresources_not_positive(ctx):
    """A limit's maxresources that is not greater than zero.

    maxresources needs at least one positive value and no negative ones.

    Example (fails): `maxresources: {vcore: 0}`
    Fix: give a positive value, or drop maxresources and use maxapplications.
    """
    for _p, _q, _anc, lim in _limits(ctx):
        if lim.maxresources:
            r = ctx.resource(lim.maxresources)
            if len(r) == len(lim.maxresources) and not resources.strictly_positive(r):
                yield Issue("PRIO120", lim.path + ("maxresources",), f"MaxResources should be greater than zero in {_desc(lim)} limit")


@check("PRIO121", "limit-without-resources", "error", "limits")
def limit_without_resources(ctx):
    """A limit with neither maxapplications nor maxresources: it limits nothing.

    YuniKorn rejects it ("all resource limits are null").

    Example (fails): `limits: [{users: [bob]}]`
    Fix: set maxapplications, maxresources or both.
    """
    for _p, _q, _anc, lim in _limits(ctx):
        if lim.maxapplications == 0 and not lim.maxresources:
            yield Issue("PRIO121", lim.path, f"invalid resource combination for limit {_desc(lim)}: all resource limits are null")


@check("PRIO122", "limit-exceeds-queue", "error", "limits")
def limit_exceeds_queue(ctx):
    """A limit above its own queue's maxapplications or max resources.

    A limit's maxapplications must not exceed the queue's (when the queue sets one), and its
    maxresources must fit the queue's own configured max (not on root).

    Example (fails): a queue with `maxapplications: 5` and a limit with `maxapplications: 6`.
    Fix: lower the limit or raise the queue's setting.
    """
    for _p, q, _anc, lim in _limits(ctx):
        if q.maxapplications and q.maxapplications < lim.maxapplications:
            yield Issue("PRIO122", lim.path + ("maxapplications",), f"invalid MaxApplications settings for limit {_desc(lim)}: exceeds the queue MaxApplications ({lim.maxapplications} > {q.maxapplications})")
        if q.name != "root" and lim.maxresources:  # YuniKorn skips any queue named root
            qm, lm = ctx.resource(q.max), ctx.resource(lim.maxresources)
            if qm and not resources.fits(qm, lm):
                yield Issue("PRIO122", lim.path + ("maxresources",), f"invalid MaxResources settings for limit {_desc(lim)}: exceeds the queue MaxResources {quantity.go_map(qm)}")


@check("PRIO123", "limit-exceeds-ancestor", "error", "limits")
def limit_exceeds_ancestor(ctx):
    """A user or group limit larger than what its ancestors allow that user or group.

    Going down the tree YuniKorn carries, per user and per group, the smallest limit seen so far
    (component-wise over all ancestors with a limit for that name; a `*` limit stands in for
    names without one). Each limit must fit what it inherits: its maxresources within the
    carried resources, and, when an ancestor sets maxapplications, a maxapplications no larger
    (a resource-only limit under an ancestor's maxapplications fails, a YuniKorn quirk). A
    queue with limits of its own passes on only the maxapplications of the names it lists.

    Example (fails): root.a limits bob to memory 1G, root.a.b limits bob to memory 2G.
    Fix: keep child limits within the ancestors' limits.
    """
    if not ctx.having("limits"):
        return  # no queue limits anyone: nothing is carried down, nothing to check
    for _p, root in ctx.trees:
        stack = [(root, root.name.lower(), {"user": {}, "group": {}}, {"user": {}, "group": {}})]
        while stack:
            q, qpath, res_in, apps_in = stack.pop()
            if not q.limits:  # nothing to check, and the children inherit what it did (read only)
                stack.extend((c, f"{qpath}.{c.name.lower()}", res_in, apps_in) for c in reversed(q.children))
                continue
            res_out = {k: dict(v) for k, v in res_in.items()}
            apps_out = {"user": {}, "group": {}}
            for lim in q.limits or []:
                lm = ctx.resource(lim.maxresources) or {}
                for kind, key in (("user", "users"), ("group", "groups")):
                    for name in _principals(lim, kind):
                        wild = name not in res_in[kind] and name != "*" and "*" in res_in[kind]
                        carried = res_in[kind].get(name, res_in[kind].get("*") if wild else None)
                        if carried is not None and not resources.fits(carried, lm):
                            where = (f"wildcard maximum resource {quantity.go_map(carried)} of immediate or ancestor parent queue" if wild
                                     else f"immediate or ancestor parent maximum resource {quantity.go_map(carried)}")
                            yield Issue("PRIO123", lim.path + ("maxresources",), f"{kind} {name} max resource {quantity.go_map(lm)} of queue {qpath} is greater than {where}")
                        res_out[kind][name] = resources.component_min(lm, carried) if carried is not None else lm
                        wild_a = name not in apps_in[kind] and name != "*" and "*" in apps_in[kind]
                        a = apps_in[kind].get(name, apps_in[kind].get("*") if wild_a else None)
                        if a is not None and a != 0 and (a < lim.maxapplications or lim.maxapplications == 0):
                            w = "wildcard max applications" if wild_a else "immediate or ancestor parent max applications"
                            at = lim.path + (("maxapplications",) if lim.maxapplications else (key,))
                            yield Issue("PRIO123", at, f"{kind} {name} max applications {lim.maxapplications} of queue {qpath} is greater than {w} {a}", at="key")
                        apps_out[kind][name] = min(lim.maxapplications, a) if a is not None else lim.maxapplications
            for c in reversed(q.children):
                stack.append((c, f"{qpath}.{c.name.lower()}", res_out, apps_out))


def _inherited_max(ctx, q, anc) -> dict:
    """The smallest max of the queue and its ancestors, per resource type (root has none)."""
    out: dict = {}
    for x in anc[1:] + (q,) if anc else ():
        for k, v in (ctx.resource(x.max) or {}).items():
            out[k] = min(v, out.get(k, v))
    return out


@check("PRIO212", "limit-above-queue-max", "warning", "limits")
def limit_above_queue_max(ctx):
    """A user or group limit larger than the max a queue above it sets.

    YuniKorn checks a limit against its own queue's max only (PRIO122). A max set higher up the
    path still caps everything below it, so a limit above it can never be reached: the user or
    group is held by the queue's max first, and `--why-ask` shows QueueQuota, not UserQuota.

    Example (warns): root.a has `max: {vcore: 8}`, root.a.b limits each user to `{vcore: 16}`.
    Fix: lower the limit to what the path allows, or raise the max above it.
    """
    for _p, q, anc, lim in _limits(ctx):
        lm = ctx.resource(lim.maxresources)
        if not lm or not anc:
            continue
        capped = _inherited_max(ctx, q, anc)
        over = sorted(k for k, v in lm.items() if k in capped and v > capped[k])
        if over:
            k = over[0]
            yield Issue("PRIO212", lim.path + ("maxresources",),
                        f"limit {_desc(lim)} of queue {queue_path(q, anc)} allows {k} {quantity.show_quantity(k, lm[k])}, but the "
                        f"queues on its path allow at most {quantity.show_quantity(k, capped[k])}: the limit can never be reached")


@check("PRIO213", "named-limit-above-wildcard", "warning", "limits")
def named_limit_above_wildcard(ctx):
    """A named user's (or group's) limit above the wildcard's on the same queue.

    YuniKorn accepts it on one queue (the named user gets the larger limit there), but refuses
    the same thing one level down: every child queue's limit for that user must then fit the
    wildcard of this queue ("greater than wildcard maximum resource of immediate or ancestor
    parent queue"). For groups the two are not even comparable: the wildcard group is one pool
    shared by every application tracked under `*`, a named group is a pool of its own.

    Example (warns): `limits: [{users: [alice], maxresources: {vcore: 8}}, {users: ["*"], maxresources: {vcore: 4}}]`.
    Fix: give the wildcard the larger limit, or keep the named limit within it.
    """
    for _p, q, anc in ctx.having("limits"):
        for kind, key in (("user", "users"), ("group", "groups")):
            wild = next((lim for lim in q.limits or [] if "*" in (getattr(lim, key) or [])), None)
            if wild is None:
                continue
            wm = ctx.resource(wild.maxresources) or {}
            for lim in q.limits or []:
                if lim is wild:
                    continue
                for name in getattr(lim, key) or []:
                    if name == "*":
                        continue
                    lm = ctx.resource(lim.maxresources) or {}
                    over = sorted(k for k, v in lm.items() if k in wm and v > wm[k])
                    apps = wild.maxapplications and (lim.maxapplications == 0 or lim.maxapplications > wild.maxapplications)
                    if over or apps:
                        what = (f"{over[0]} {quantity.show_quantity(over[0], lm[over[0]])} against the wildcard's "
                                f"{quantity.show_quantity(over[0], wm[over[0]])}") if over else \
                            f"maxapplications {lim.maxapplications or 'unlimited'} against the wildcard's {wild.maxapplications}"
                        yield Issue("PRIO213", lim.path + (key,),
                                    f"{kind} {name} has a larger limit than the wildcard {kind} on queue {queue_path(q, anc)} "
                                    f"({what}): YuniKorn refuses any child queue limit for {name} above the wildcard's", at="key")


@check("PRIO214", "group-limit-outside-acl", "warning", "limits")
def group_limit_outside_acl(ctx):
    """A group limit on a queue whose ACLs admit submitters only by other groups.

    A user may submit to a queue when the submit or admin ACL of the queue, or of any queue
    above it, allows the user (YuniKorn's CheckSubmitAccess goes up the tree). Groups come from
    the identity provider, so any group could exist; but where every ACL on the queue's path
    and below it admits only named groups (no `*`, no user), a member of the limited group can
    submit there only by also being in one of those groups. The limit then holds only those
    users, which is rarely what it was written for (a group missing from the ACL, or a typo).
    No finding where an ACL on the path or below is `*` or names a user (who may be in the
    group), or where no ACL is set at all.

    Example (warns):
        - name: team-a
          submitacl: " team-a"
          limits:
            - {groups: [team-b], maxapplications: 2}
    Fix: add the group to an ACL that admits it (`submitacl: " team-a,team-b"`), or limit a
    group the ACLs admit.
    """
    for _p, q, anc in ctx.having("limits"):
        limited = [(lim, i, g) for lim in q.limits or [] for i, g in enumerate(lim.groups or []) if g and g != "*"]
        if not limited:
            continue
        acls = []
        for x in anc + tuple(_subtree(q)):
            for key in ("submitacl", "adminacl"):
                acls.append(acl_mod.parse(getattr(x, key)))
        if any(a is None or a.everyone or a.users for a in acls):
            continue  # refused by YuniKorn (PRIO124/125), open to all, or open to named users
        admitted = frozenset().union(*(a.groups for a in acls))
        if not admitted:
            continue  # no ACL anywhere: not a question of this limit
        for lim, i, g in limited:
            if g not in admitted:
                names = ", ".join(sorted(admitted)[:5]) + (" ..." if len(admitted) > 5 else "")
                yield Issue("PRIO214", lim.path + ("groups", i),
                            f"group {g} is limited on queue {queue_path(q, anc)}, but the ACLs on its path and below admit only "
                            f"the groups {names}: a member of {g} can submit there only by also being in one of them")


@check("PRIO215", "group-limit-outside-placement", "warning", "limits")
def group_limit_outside_placement(ctx):
    """A group limit on a queue the placement rules never give a member of that group.

    A limit on a queue counts the applications in it and below it, and an application gets there
    only through the partition's placement rules. Each rule (with its parent rules) can place in
    some queues only: `provided` and `tag` any queue, `user` the user's name below its parent
    (root without one), `fixed` its value; no rules at all is one `provided` rule, and an
    application no rule placed goes to root.default when it exists. Each rule's filter, and its
    parent rules' filters, must admit the user, by the user's name or any of the user's groups
    (one entry with regex characters is an expression). Where no rule can place in the queue, or
    every rule that can refuses the group (a deny filter that lists it or matches it, or a deny
    filter naming no one), no member of the group ever runs there. Where they admit it only
    through an allow filter that names other groups and no user, a member of the group gets
    there only by also being in one of those groups: rarely what the limit was written for. No
    finding where a rule that can place in the queue admits the group or names a user (who may
    be a member), and none for rules YuniKorn cannot build (PRIO133). Only `type: deny` exactly
    denies: YuniKorn reads `Deny` as allow.

    Example (warns):
        placementrules:
          - name: provided
            filter: {type: deny, groups: [contractors]}
        queues:
          - name: root
            queues:
              - name: batch
                limits:
                  - {groups: [contractors], maxapplications: 2}
    Fix: let a rule place the group there (drop it from the deny filter, or add it to the allow
    filter), or remove the limit.
    """
    built: dict = {}
    for p, q, anc in ctx.having("limits"):
        limited = [(lim, i, g) for lim in q.limits or [] for i, g in enumerate(lim.groups or []) if g and g != "*"]
        if not limited:
            continue
        from prio.yunikorn import reach  # only where a group is limited: not every validate's, nor the refusal check's

        if id(p) not in built:
            built[id(p)] = reach.chains(p.placementrules)
        chains = built[id(p)]
        path = tuple(queue_path(q, anc).split("."))
        if chains is None or reach.default_gives(anc[0] if anc else q, path):
            continue
        giving = [(n, c) for n, c in enumerate(chains) if reach.may_give(c, path, q.is_parent)]
        for lim, i, g in limited:
            got = [(n, reach.admission(c, g)) for n, c in giving]
            if any(a.kind == "all" for _, a in got):
                continue  # (without rules, the one provided rule admits everyone: no rule to name)
            yield Issue("PRIO215", lim.path + ("groups", i),
                        _outside_placement(g, queue_path(q, anc), [(f"#{n} {p.placementrules[n].name}", a) for n, a in got]))


def _outside_placement(g: str, qpath: str, got: list) -> str:
    """PRIO215's message: why no placement rule gives the queue to a member of g. `got`: the
    label and Admission of each rule that can place there."""
    head = f"group {g} is limited on queue {qpath}, but "
    if not got:
        return head + "no placement rule can place an application in it or below it: the limit is never used"
    rules = ", ".join(label for label, _ in got)
    odd = sorted({r.filter_type for _, a in got for r in a.rules if r.filter_type != "deny" and r.filter_type.lower() == "deny"})
    note = f" (YuniKorn reads {', '.join(odd)} as allow: only deny, in lower case, denies)" if odd else ""
    through = [x for _, a in got for x in a.groups] + [f"matching {x}" for _, a in got for x in a.expressions]
    if not through:
        return head + f"the placement rules that can place an application there ({rules}) refuse every member of {g} by their filters{note}"
    names = ", ".join(dict.fromkeys(through))
    return (head + f"the placement rules that can place an application there ({rules}) admit members of {g} only through "
            f"the groups {names}{note}: a member of {g} gets there only by also being in one of them")


def _subtree(q):
    """The queue and every queue below it."""
    stack = [q]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(x.children)
