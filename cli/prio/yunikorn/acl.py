"""Queue ACLs as YuniKorn's scheduler reads them (yunikorn-core pkg/common/security/acl.go
NewACL, CheckAccess; pkg/scheduler/objects/queue.go CheckSubmitAccess). Pure: no I/O.

An ACL string is `users groups`: a comma-separated user list, one space, a comma-separated group
list (a leading space: groups only). `*` alone, or as the whole user or group list, allows
everyone. Names that do not match the runtime patterns are ignored (silently: the validator is
laxer). An empty ACL allows no one. Submitting to a queue is allowed when the submit ACL or the
admin ACL of the queue, or of any queue above it, allows the user (the check goes up the tree)."""
from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

WILDCARD = "*"


@cache
def _names() -> tuple[re.Pattern, re.Pattern]:
    """security.userNameRegExp and groupRegExp (stricter than the config validator's), compiled
    when an ACL first names someone: most configs' ACLs are `*` or none, and every explain,
    simulate and validate imports this module."""
    return re.compile(r"^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$"), re.compile(r"^[_a-zA-Z][a-zA-Z0-9_-]*$")


class ACL(NamedTuple):
    everyone: bool
    users: frozenset
    groups: frozenset


NOBODY = ACL(False, frozenset(), frozenset())


def parse(text: str | None) -> ACL | None:
    """NewACL: the ACL a string gives, NOBODY for an absent or empty one; None for a string
    YuniKorn refuses when it creates the queue (more than two parts on single spaces)."""
    if not text:
        return NOBODY
    fields = text.split(" ")
    if len(fields) > 2:
        return None
    if text.strip() == WILDCARD:
        return ACL(True, frozenset(), frozenset())
    users = fields[0].split(",")
    if users == [WILDCARD]:
        return ACL(True, frozenset(), frozenset())
    groups = fields[1].split(",") if len(fields) == 2 else []
    if groups == [WILDCARD]:
        return ACL(True, frozenset(), frozenset())
    user, group = _names()
    return ACL(False, frozenset(u for u in users if u and user.fullmatch(u)),
               frozenset(g for g in groups if g and group.fullmatch(g)))


RECOVERY = "root.@recovery@"


def allows(acl: ACL | None, user: str, groups) -> bool:
    """ACL.CheckAccess (an ACL YuniKorn refused, None, lets no one in)."""
    if acl is None:
        return False
    # (isdisjoint: one C call, not a generator per check; placement asks this of every queue
    # up from each application's leaf)
    return acl.everyone or user in acl.users or not acl.groups.isdisjoint(groups)


def submit_allowed(queue, user: str, groups) -> bool:
    """Queue.CheckSubmitAccess from `queue` (a tree.QNode) up: its submit or admin ACL, else its
    parent's. A queue without ACLs (a dynamic one) defers to its parent; the recovery queue
    admits no one."""
    q = queue
    if q is not None and q.path == RECOVERY:
        return False
    while q is not None:
        acls = q.acl
        if acls is not None and (allows(acls[0], user, groups) or allows(acls[1], user, groups)):
            return True
        q = q.parent
    return False


def nobody_may_submit(root) -> bool:
    """Whether no queue of the tree has a submit or admin ACL that lets anyone in: the config
    under which YuniKorn refuses every application."""
    for q in root.walk():
        for a in q.acl or ():
            if a is not None and (a.everyone or a.users or a.groups):
                return False
    return True
