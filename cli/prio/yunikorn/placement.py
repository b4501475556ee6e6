"""Placing an application in a queue, as YuniKorn's placement manager and partition do it
(yunikorn-core placement/placement.go and the rules beside it, PartitionContext.AddApplication
and createQueue). Pure: the queue tree is only read; creating a dynamic queue is the caller's.

YuniKorn tries the partition's placement rules in order (no rules configured: one `provided`
rule with `create: false`), then its recovery rule, which matters only for forced
applications. A rule gives a queue name, or nothing (the next rule is tried), or an error (the
application is rejected). A name that exists must be a leaf; one that does not exist is kept
only when the rule creates queues. When no rule gave a name but `root.default` exists, the
application goes there. Then the partition creates the missing queues below the deepest queue
that exists, which must not be a leaf.

Filters see the snapshot's `user` and `groups`; `tag` rules read the application's tags (the
shim sends `namespace`, `namespace.parentqueue`, ...; matched ignoring case, as GetTag does). A
rule's queue must admit the user (Queue.CheckSubmitAccess: its submit or admin ACL or an
ancestor's; for a queue still to be created, the deepest one that exists), or the next rule is
tried: with no ACL in the config, nobody may submit. A forced application (the tag
`application.create.force: true`: the shim sends it for a pod already bound to a node) that no
rule places goes to `root.@recovery@`.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from prio.yunikorn import acl
from prio.yunikorn.goregex import compile_go
from prio.yunikorn.releases import NEWEST, Release
from prio.yunikorn.ugm import user_groups

NO_RULE = "application rejected: no placement rule matched"
BAD_USER = "invalid username, it contains invalid characters"  # security.ConvertUGI
INVALID_NAME = ("invalid queue name, max 64 characters consisting of alphanumeric characters and "
                "'-', '_', '#', '@', '/', ':' allowed")
QUEUE_NAME = re.compile(r"[a-zA-Z0-9_:#/@-]{1,64}")  # fullmatch
# configs.UserRegExp / GroupRegExp / SpecialRegExp, for filters
USER_NAME = re.compile(r"[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?")  # fullmatch: Go's $ never matches before a newline
GROUP_NAME = re.compile(r"[_a-zA-Z][a-zA-Z0-9:_.-]*")  # fullmatch
REGEX_CHARS = re.compile(r"[\^$*+?()\[{}|]")
DEFAULT_QUEUE = "root.default"
RECOVERY_QUEUE = acl.RECOVERY
FORCE_TAG = "application.create.force"
DEFAULT_USER = "nobody"  # the shim's default user: what an application without a user is taken to be


class Rejected(NamedTuple):
    """An application YuniKorn refuses at submission: none of its asks is ever scheduled."""

    application: str
    queue: str
    reason: str


class _Fail(Exception):
    pass


def find(root, path: str):
    """The queue at a full path (any case), or None: getQueueInternal."""
    parts = path.lower().split(".")
    if not parts or parts[0] != "root":
        return None
    q = root
    for name in parts[1:]:
        q = q.by_name.get(name)
        if q is None:
            return None
    return q


def expression(entries) -> str | None:
    """The entry newFilter reads as a regular expression (matched unanchored): the only entry of
    a list of one, when it has regular-expression characters. None: the entries are names."""
    entries = list(entries or [])
    if len(entries) == 1 and REGEX_CHARS.search(entries[0]):
        return entries[0]
    return None


def matcher(entries, valid):
    """newFilter's list or expression for users or groups: an `expression`, or a list of the
    entries that are valid names. None: no entries (nothing to match)."""
    entries = list(entries or [])
    if not entries:
        return None
    rx = expression(entries)
    if rx is not None:
        exp = compile_go(rx)
        if exp is None:  # Go refuses it (YuniKorn's filter then matches no one), or prio cannot read it
            return lambda name: False
        return lambda name: exp.search(name) is not None
    names = {e for e in entries if valid.fullmatch(e)}
    return names.__contains__


def _allows(rule, user: str, groups=()) -> bool:
    """Filter.allowUser: the user name, then each of the user's groups in order; a match lets
    an allow filter apply and makes a deny filter skip the rule, no match the opposite."""
    allow = (rule.filter_type or "") != "deny"
    by_user, by_group = matcher(rule.users, USER_NAME), matcher(rule.groups, GROUP_NAME)
    if by_user is None and by_group is None:
        return allow
    if by_user is not None and by_user(user):
        return allow
    if by_group is not None and any(by_group(g) for g in groups):
        return allow
    return not allow


def _check_parts(name: str) -> None:
    for part in name.split("."):
        if not QUEUE_NAME.fullmatch(part):
            raise _Fail(INVALID_NAME)


def _under_parent(rule, child: str, app, root) -> str | None:
    """The queue `child` below what the rule's parent rule gives (root when it has none)."""
    parent: str | None = ""
    if rule.parent is not None:
        parent = _apply(rule.parent, app, root)
        if not parent:
            return None
        if not parent.startswith("root."):
            parent = "root." + parent
        pq = find(root, parent)
        if pq is not None and pq.leaf:
            raise _Fail(f"parent rule returned a leaf queue: {parent}")
    return (parent or "root") + "." + child


def _apply(rule, app, root) -> str | None:
    """One rule's placeApplication: a queue name, None for no match; _Fail for an error."""
    kind = (rule.name or "").lower()
    user = getattr(app, "user", "") or ""
    groups = user_groups(user, getattr(app, "groups", ())) if user else ()
    name: str | None
    if kind in ("provided", "tag"):
        # provided: the queue the application names, exactly as submitted; tag: the tag's value
        name = _asked(app) if kind == "provided" else tag(app, rule.value)
        if not name or not _allows(rule, user, groups):
            return None
        if name.startswith("root."):  # case-sensitive, on the name as given
            _check_parts(name)
        else:
            child = name.replace(".", "_dot_")
            _check_parts(child)
            name = _under_parent(rule, child, app, root)
            if name is None:
                return None
    elif kind == "fixed":
        if not _allows(rule, user, groups):
            return None
        name = (rule.value or "").lower()
        if not name:
            return None
        if not name.startswith("root"):
            name = _under_parent(rule, name, app, root)
            if name is None:
                return None
    elif kind == "user":
        if not user or not _allows(rule, user, groups):
            return None  # prio does not know the user: the rule cannot match
        child = user.replace(".", "_dot_")
        _check_parts(child)
        name = _under_parent(rule, child, app, root)
        if name is None:
            return None
    else:  # a rule YuniKorn would refuse to build
        return None
    if not rule.create and find(root, name) is None:
        return None
    return name


def _asked(app) -> str:
    raw = getattr(app, "queue_raw", None)
    return raw if raw is not None else app.queue


def tag(app, name: str | None) -> str:
    """Application.GetTag: the value of the tag whose key equals `name` ignoring case ("" when
    the application has none)."""
    want = (name or "").lower()
    for k, v in (getattr(app, "tags", None) or {}).items():
        if str(k).lower() == want:
            return str(v)
    return ""


def forced(app) -> bool:
    """IsAppCreationForced: the tag application.create.force is `true` (any case)."""
    return tag(app, FORCE_TAG).lower() == "true"


RULE_TYPES = ("user", "fixed", "provided", "tag", "test")  # newRule's (recovery is internal)


def build_errors(rule, release: Release = NEWEST) -> list[tuple[tuple, str, str]]:
    """What newRule refuses in this rule itself (its parent rule is built with it: `buildable`):
    (where below the rule's path, the message, "value" or "key"), empty when it builds. The
    rule types, a fixed rule's value (a queue path of valid names, which YuniKorn 1.5 did not
    check; fully qualified, no parent rule) and a tag rule's value (rule.go newRule,
    fixed_rule.go and tag_rule.go initialise), as `release` builds them."""
    kind = (rule.name or "").lower()
    if kind == "recovery":
        if release is not NEWEST:  # the release's own words (1.5 does not know the rule at all)
            return [(("name",), f"YuniKorn {release.name}: {release.recovery_error}", "value")]
        return [(("name",), "the recovery rule is internal to YuniKorn and cannot be configured", "value")]
    if kind not in RULE_TYPES:
        return [(("name",), f"unknown rule name specified {rule.name}, failing placement rule config (types: user, fixed, provided, tag)", "value")]
    out: list[tuple[tuple, str, str]] = []
    value = rule.value or ""
    if kind == "fixed":
        if not value:
            out.append(((), "a fixed rule needs a non-empty value (the queue path)", "value"))
        else:
            bad = [part for part in value.split(".") if not QUEUE_NAME.fullmatch(part)] if release.fixed_value_checked else []
            if bad:
                out.append((("value",), f"fixed rule value {value!r} has invalid queue name parts: {', '.join(repr(b) for b in bad)}", "value"))
            if value.lower().startswith("root") and rule.parent is not None:  # lowercased at runtime
                out.append((("parent",), f"a fully qualified fixed rule ({value}) cannot have a parent rule", "key"))
    elif kind == "tag" and not value:
        out.append(((), "a tag rule needs a non-empty value (the tag to use, e.g. namespace)", "value"))
    return out


def unbuilt(rules) -> tuple[int, str] | None:
    """The first of the partition's rules newRule refuses, itself or through a parent rule: (its
    index, the first error), or None when buildRules builds them all."""
    for i, rule in enumerate(rules or ()):
        r = rule
        while r is not None:
            errors = build_errors(r)
            if errors:
                return i, errors[0][1]
            r = r.parent
    return None


def _admits(root, name: str, user: str, groups, acls: bool) -> bool:
    """PlaceApplication's checks of a rule's queue: an existing one must be a leaf and admit
    the user; for one to be created, the deepest existing queue on its path must admit them."""
    q = find(root, name)
    if q is None:
        current = name
        while q is None and "." in current:
            current = current.rsplit(".", 1)[0]
            q = find(root, current)
        return not acls or acl.submit_allowed(q, user, groups)
    if not q.leaf:
        return False  # placing in a parent queue is not allowed: the next rule is tried
    return not acls or acl.submit_allowed(q, user, groups)


def target(root, app, rules, acls: bool = True) -> str:
    """PlaceApplication: the queue the application goes to; _Fail when it is rejected. The
    implicit recovery rule comes last: a forced application goes to the recovery queue (no
    check), anything else to root.default when that exists and passes the checks."""
    user = getattr(app, "user", "") or DEFAULT_USER
    groups = user_groups(user, getattr(app, "groups", ()))
    for rule in rules:
        name = _apply(rule, app, root)
        if name and _admits(root, name, user, groups, acls):
            return name
    if forced(app):
        return RECOVERY_QUEUE
    if find(root, DEFAULT_QUEUE) is not None and _admits(root, DEFAULT_QUEUE, user, groups, acls):
        return DEFAULT_QUEUE
    raise _Fail(NO_RULE)


CLOSED = ("no queue of the config has a submitacl or adminacl, so YuniKorn lets no one submit "
          "(submitacl: '*' on root admits everyone)")


def place(root, app, rules, closed: bool = False) -> tuple[str | None, Rejected | None]:
    """Where the application goes: (full queue path, None), or (None, why it is rejected).
    `rules` None means the queue is taken as given (no config, or a REST dump of placed
    applications); a list (possibly empty) is the partition's placement rules. `closed`: no
    ACL of the tree lets anyone in (acl.nobody_may_submit), said with a rejection."""
    name = app.queue.lower()
    if rules:
        refused = unbuilt(rules)
        if refused is not None:  # NewPlacementManager keeps no rule, and PlaceApplication then rejects everything
            i, why = refused
            return None, Rejected(app.id, app.queue, f"failed to place application {app.id}: {NO_RULE}\n"
                                                     f"YuniKorn cannot build placement rule {i + 1} ({rules[i].name}: {why}): "
                                                     "it starts without rules and rejects every application")
    if rules is not None:
        user = getattr(app, "user", "")
        if user and getattr(app, "groups", ()) and not USER_NAME.fullmatch(user):
            # ConvertUGI checks the name only when the resource manager sent groups (without
            # them it resolves the user and returns before the check)
            return None, Rejected(app.id, app.queue, BAD_USER)
        try:
            name = target(root, app, list(rules) or [_PROVIDED])
        except _Fail as e:
            return None, Rejected(app.id, app.queue, f"failed to place application {app.id}: {e}" + (f"\n{CLOSED}" if closed else ""))
        name = name.lower()  # queue paths are lowercase in the core (getQueueInternal, the dynamic queues' names)
        if name == RECOVERY_QUEUE:
            return name, None  # createRecoveryQueue: no rule's checks
    elif not name.startswith("root.") and name != "root":
        name = "root." + name
    q = find(root, name)
    if q is not None:
        if q.leaf:
            return name, None
        return None, Rejected(app.id, app.queue, f"failed to find queue {name} for application {app.id}")
    # createQueue: the deepest queue that exists must be a parent
    current = name
    while q is None:
        current = current.rsplit(".", 1)[0]
        q = find(root, current)
    if q.leaf:
        return None, Rejected(app.id, app.queue, f"failed to create rule based queue {name} for application {app.id}\n"
                                                 f"creation of queue {name} failed parent is already a leaf: {current}")
    for part in name[len(current) + 1:].split("."):
        if not QUEUE_NAME.fullmatch(part):
            return None, Rejected(app.id, app.queue, f"failed to create rule based queue {name} for application {app.id}\n{INVALID_NAME}")
    return name, None


class _Rule(NamedTuple):
    name: str
    create: bool = False
    filter_type: str = ""
    users: list | None = None
    groups: list | None = None
    parent: object = None
    value: str = ""


_PROVIDED = _Rule("provided")  # buildRules without configured rules
