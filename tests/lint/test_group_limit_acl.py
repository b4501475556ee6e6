"""PRIO214 group-limit-outside-acl: a group limit on a queue whose ACLs (the queue's, its
ancestors', and those below it) admit submitters only by other groups. YuniKorn's
CheckSubmitAccess allows a user when the submit or admin ACL of the queue or any queue above it
does; groups come from the identity provider, so the rule never fires where an ACL is open to
everyone or names a user, or where no ACL is set."""
import pytest

from conftest import lint
from prio.yunikorn import acl


def _config(root_acl: str = "", team_a: str = 'submitacl: " team-a"', child: str | None = None,
            limits: str = "[{groups: [team-b], maxapplications: 2}]") -> str:
    """root > team-a (with `limits`) > jobs (when `child` is given: its ACL line, or "")."""
    lines = ["partitions:", "  - name: default", "    queues:", "      - name: root"]
    lines += [f"        {root_acl}"] if root_acl else []
    lines += ["        queues:", "          - name: team-a"]
    lines += [f"            {team_a}"] if team_a else []
    lines += [f"            limits: {limits}"]
    if child is not None:
        lines += ["            queues:", "              - name: jobs"] + ([f"                {child}"] if child else [])
    return "\n".join(lines) + "\n"


def _found(text):
    return [f for f in lint(text) if f.rule == "PRIO214"]


def test_a_group_the_acls_do_not_admit_is_found():
    (f,) = _found(_config())
    assert "group team-b is limited on queue root.team-a" in f.message and "admit only the groups team-a" in f.message
    assert f.line == 8 and f.severity == "warning"
    assert len(_found(_config(child=""))) == 1  # a queue below without an ACL of its own admits no one more


@pytest.mark.parametrize("kw", [
    {"root_acl": "submitacl: '*'"},  # open to everyone at root: inherited by every queue
    {"root_acl": "adminacl: ' *'"},  # a wildcard group list: everyone; admin ACLs admit submitters too
    {"root_acl": "submitacl: 'alice,bob ops'"},  # a named user may be in team-b
    {"team_a": 'submitacl: "alice team-a"'},
    {"team_a": 'submitacl: " team-a,team-b"'},
    {"team_a": 'adminacl: " team-b"'},
    {"root_acl": "submitacl: ' team-b'"},  # admitted higher up: the check goes up the tree
    {"child": 'submitacl: " team-b"'},  # admitted on a queue below, where the limit applies too
    {"child": "submitacl: '*'"},
    {"team_a": ""},  # no ACL anywhere: not this rule's question
    {"limits": "[{groups: [team-a, '*'], maxapplications: 2}]"},  # the wildcard group: any group
    {"team_a": 'submitacl: "a b c"'},  # an ACL YuniKorn refuses (PRIO124): no guess here
])
def test_no_finding(kw):
    assert _found(_config(**kw)) == []


def test_every_limited_group_is_named_once():
    found = _found(_config(limits="[{groups: [team-a, team-b, team-c], maxapplications: 2}]"))
    assert [f.message.split()[1] for f in found] == ["team-b", "team-c"]


def test_a_group_name_yunikorns_acl_ignores_admits_no_one():
    """The runtime ACL pattern is stricter than the limit's: `team.b` in an ACL is ignored."""
    found = _found(_config(team_a='submitacl: " team-a,team.b"', limits="[{groups: [team.b], maxapplications: 2}]"))
    assert len(found) == 1 and "admit only the groups team-a:" in found[0].message


@pytest.mark.parametrize("text,want", [
    ("", acl.NOBODY), (None, acl.NOBODY),
    ("*", acl.ACL(True, frozenset(), frozenset())), (" * ", None),  # three parts on single spaces
    ("alice,bob dev", acl.ACL(False, frozenset({"alice", "bob"}), frozenset({"dev"}))),
    (" dev,ops", acl.ACL(False, frozenset(), frozenset({"dev", "ops"}))),
    ("alice *", acl.ACL(True, frozenset(), frozenset())),
    ("1bad,ok", acl.ACL(False, frozenset({"ok"}), frozenset())),
    ("a b c", None),
])
def test_acl_parse_is_newacl(text, want):
    assert acl.parse(text) == want
