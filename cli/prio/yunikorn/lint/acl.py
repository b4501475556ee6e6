"""ACL strings: `"user1,user2 group1,group2"`, a leading space for groups only."""
from __future__ import annotations

from prio.diagnostics import Issue
from prio.lint.registry import check
from prio.yunikorn.config import queue_path


def _acls(ctx):
    for _p, q, anc in ctx.having("acl"):
        for key in ("adminacl", "submitacl"):
            v = getattr(q, key)
            if v is not None:
                yield q, anc, key, v


@check("PRIO124", "acl-too-many-parts", "error", "acl")
def acl_too_many_parts(ctx):
    """An ACL with more than two space-separated parts.

    An ACL is `users groups`: a comma-separated user list, one space, a comma-separated group
    list. The validator splits on runs of whitespace and refuses more than two fields
    ("multiple spaces found in ACL").

    Example (fails): `submitacl: "alice bob admins"`
    Fix: `submitacl: "alice,bob admins"`
    """
    for q, anc, key, v in _acls(ctx):
        t = v.strip()
        if t and t != "*" and len(t.split()) > 2:
            yield Issue("PRIO124", q.path + (key,), f"multiple spaces found in ACL: {t!r} ({queue_path(q, anc)} {key})")


@check("PRIO125", "acl-spacing", "error", "acl")
def acl_spacing(ctx):
    """An ACL the validator accepts but the scheduler refuses when it creates the queue.

    At queue creation YuniKorn splits the ACL on single spaces without trimming, so a trailing
    space, two spaces in a row, or a space at both ends make three parts and the queue (and the
    config reload) fails, although /ws/v1/validate-conf said yes.

    Example (fails): `adminacl: "alice  admins"` or `adminacl: "alice admins "`
    Fix: exactly one space between users and groups, none at the end.
    """
    for q, anc, key, v in _acls(ctx):
        t = v.strip()
        if t and t != "*" and len(t.split()) > 2:
            continue  # the validator already refuses it (acl-too-many-parts)
        if len(v.split(" ")) > 2:
            yield Issue("PRIO125", q.path + (key,), f"ACL {v!r} of {queue_path(q, anc)} splits into {len(v.split(' '))} parts on single spaces: YuniKorn's validator accepts it but creating the queue fails with 'multiple spaces found in ACL'")
