"""PRIO215 group-limit-outside-placement: a group limit on a queue that no placement rule gives a
member of the group. As yunikorn-core's placement package reads it: provided and tag rules can
place in any queue (a fully qualified name skips the parent rule), a user rule one level below
its parent, a fixed rule its value; no rules is one provided rule; root.default takes what no
rule placed; every filter on a chain must admit the user by name or by any of the user's groups
(Filter.allowUser), and only `deny` exactly denies. Run through `prio validate -o json`."""
from __future__ import annotations

import json
import textwrap

import pytest
from configs import line_of

from conftest import run_cli
from prio.yunikorn import reach
from prio.yunikorn.config import PlacementRule

LIMIT = "{groups: [contractors], maxapplications: 2}"
QUEUES = """
- name: batch
  limits:
    - LIMIT
- name: other
- name: tenants
  parent: true
"""


def config(rules: str | None, queues: str = QUEUES, limit: str = LIMIT) -> str:
    """A partition with placement `rules` (YAML list items; None: no placementrules key) and
    `queues` under root, LIMIT replaced by `limit`."""
    lines = ["partitions:", "  - name: default"]
    if rules is not None:
        lines += ["    placementrules:", textwrap.indent(textwrap.dedent(rules).strip("\n"), " " * 6)]
    lines += ["    queues:", "      - name: root", "        queues:",
              textwrap.indent(textwrap.dedent(queues).strip("\n").replace("LIMIT", limit), " " * 10)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def found(tmp_path, monkeypatch):
    """The PRIO215 findings `prio validate -o json` reports for a config text."""
    for var in ("PRIO_CONFIG", "PRIO_STRICT", "PRIO_OUTPUT_FILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)

    def go(text: str) -> list:
        (tmp_path / "queues.yaml").write_text(text, encoding="utf-8")
        r = run_cli("validate", "--no-config", "-o", "json", "queues.yaml")
        assert r.exit_code in (0, 1), (r.exit_code, r.stdout, r.stderr)
        return [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "PRIO215"]

    return go


def test_a_deny_filter_naming_the_group_is_found_at_the_group_entry(found):
    text = config("- {name: provided, filter: {type: deny, groups: [contractors]}}")
    (f,) = found(text)
    assert f["name"] == "group-limit-outside-placement" and f["severity"] == "warning" and f["file"] == "queues.yaml"
    assert f["line"] == line_of(text, "groups: [contractors], maxapplications") and f["column"] == 27
    assert f["path"] == "partitions[0].queues[0].queues[0].limits[0].groups[0]"
    assert f["message"] == ("group contractors is limited on queue root.batch, but the placement rules that can place an "
                            "application there (#0 provided) refuse every member of contractors by their filters")


@pytest.mark.parametrize("rules", [
    "- {name: provided, filter: {type: deny, groups: ['^contract']}}",  # an expression: matched unanchored
    "- {name: provided, filter: {type: deny, groups: [staff, contractors]}}",
    "- {name: provided, filter: {type: deny}}",  # a deny filter naming no one refuses everyone
    # every rule that can place there denies; the fixed rule to another queue does not count
    "- {name: fixed, value: other}\n- {name: fixed, value: batch, filter: {type: deny, groups: [contractors]}}",
])
def test_every_rule_that_reaches_the_queue_refuses_the_group(rules, found):
    (f,) = found(config(rules))
    assert "refuse every member of contractors" in f["message"]


def test_an_allow_filter_of_other_groups_admits_only_through_them(found):
    text = config("- {name: provided, filter: {type: allow, groups: [staff, ops]}}")
    (f,) = found(text)
    assert f["message"] == ("group contractors is limited on queue root.batch, but the placement rules that can place an "
                            "application there (#0 provided) admit members of contractors only through the groups staff, ops: "
                            "a member of contractors gets there only by also being in one of them")


def test_an_allow_expression_that_does_not_match_is_named(found):
    (f,) = found(config("- {name: provided, filter: {groups: ['^team-']}}"))  # no type: allow
    assert "only through the groups matching ^team-:" in f["message"]


def test_refusals_and_other_groups_together(found):
    (f,) = found(config("""
        - {name: fixed, value: batch, filter: {type: deny, groups: [contractors]}}
        - {name: provided, filter: {groups: [staff, ops]}}
        """))
    assert "there (#0 fixed, #1 provided) admit members of contractors only through the groups staff, ops:" in f["message"]


def test_deny_in_capitals_is_an_allow_filter(found):
    """newFilter compares the type with "deny" exactly; the validator accepts any case."""
    (f,) = found(config("- {name: provided, filter: {type: Deny, groups: [staff]}}"))
    assert "only through the groups staff (YuniKorn reads Deny as allow" in f["message"]
    assert found(config("- {name: provided, filter: {type: Deny, groups: [contractors]}}")) == []  # an allow filter naming the group


def test_no_rule_reaches_the_queue(found):
    for rules in ("- {name: fixed, value: root.other}",
                  "- {name: user}"):  # root.<user>: one level only, and batch is a leaf with a limit one level down
        text = config(rules, queues="- name: a\n  queues:\n    - name: batch\n      limits:\n        - LIMIT\n- name: other")
        (f,) = found(text)
        assert f["message"] == ("group contractors is limited on queue root.a.batch, but no placement rule can place an "
                                "application in it or below it: the limit is never used")


def test_a_fixed_rule_to_a_parent_queue_places_nothing(found):
    """PlaceApplication passes over a rule that gives a parent queue."""
    queues = "- name: tenants\n  parent: true\n  limits:\n    - LIMIT"
    assert len(found(config("- {name: fixed, value: tenants, create: true}", queues=queues))) == 1
    assert found(config("- name: user\n  create: true\n  parent: {name: fixed, value: tenants}", queues=queues)) == []


def test_nothing_is_placed_below_a_leaf(found):
    """A parent rule that gives a leaf is an error: the user rule below batch places nothing."""
    assert len(found(config("- name: user\n  create: true\n  parent: {name: fixed, value: batch}"))) == 1


def test_a_parent_rules_filter_counts(found):
    queues = "- name: tenants\n  parent: true\n  limits:\n    - LIMIT"
    rules = "- name: user\n  create: true\n  parent: {name: fixed, value: tenants, filter: {type: deny, groups: [contractors]}}"
    (f,) = found(config(rules, queues=queues))
    assert "queue root.tenants" in f["message"] and "(#0 user) refuse every member" in f["message"]


def test_a_limit_on_root_when_every_rule_refuses(found):
    text = config("- {name: provided, filter: {type: deny, groups: [contractors]}}", queues="- name: batch",
                  limit="").replace("      - name: root\n", f"      - name: root\n        limits: [{LIMIT}]\n")
    (f,) = found(text)
    assert "queue root," in f["message"]


def test_each_limited_group_once_and_not_the_wildcard(found):
    text = config("- {name: provided, filter: {groups: [staff]}}",
                  limit="{groups: [staff, contractors, interns, '*'], maxapplications: 2}")
    assert [(f["message"].split()[1], f["path"][-9:]) for f in found(text)] == [("contractors", "groups[1]"), ("interns", "groups[2]")]


@pytest.mark.parametrize("rules", [
    None,  # no rules: one provided rule, no filter
    "[]",
    "- {name: provided}",
    "- {name: provided, filter: {type: allow, groups: [staff, contractors]}}",
    "- {name: provided, filter: {type: allow, groups: ['^contr.*']}}",  # an allow expression matching the group
    "- {name: provided, filter: {type: allow, groups: [staff], users: [alice]}}",  # alice may be a member
    "- {name: provided, filter: {type: allow, users: ['^a']}}",
    "- {name: provided, filter: {type: deny, groups: [staff]}}",  # a member need not be in staff
    "- {name: fixed, value: other, filter: {type: deny, groups: [contractors]}}\n- {name: provided}",
    "- {name: fixed, value: root.batch}",
    "- {name: fixed, value: batch, create: true, filter: {groups: [contractors]}}",
    "- {name: user}",  # root.<user>: a member named batch
    "- {name: tag, value: namespace}",  # a tag value may be any queue
    # a qualified provided name is placed without the parent rule, whose filter then does not count
    "- name: provided\n  parent: {name: fixed, value: tenants, filter: {type: deny, groups: [contractors]}}",
    # Go's POSIX class, read as Go reads it (goregex): it matches the group
    "- {name: provided, filter: {groups: ['[[:alpha:]]+']}}",
    "- {name: nosuch}\n- {name: fixed, value: other}",  # rules YuniKorn does not build (PRIO133)
    "- {name: tag}\n- {name: fixed, value: other}",
])
def test_no_finding(rules, found):
    assert found(config(rules)) == []


def test_the_default_queue_takes_what_no_rule_placed(found):
    queues = "- name: default\n  limits:\n    - LIMIT\n- name: other"
    assert found(config("- {name: fixed, value: other, filter: {type: deny, groups: [contractors]}}", queues=queues)) == []
    # a default queue that is a parent takes nothing
    queues = "- name: default\n  parent: true\n  limits:\n    - LIMIT\n- name: other"
    assert len(found(config("- {name: fixed, value: other}", queues=queues))) == 1


@pytest.mark.parametrize("filt,want", [
    ({}, "all"),
    ({"filter_type": "deny"}, "none"),
    ({"filter_type": "deny", "groups": ["contractors"]}, "none"),
    ({"filter_type": "deny", "groups": ["c.*rs$"]}, "none"),
    ({"filter_type": "deny", "groups": ["x", "c.*"]}, "all"),  # two entries are names, never expressions
    ({"filter_type": "deny", "users": ["alice"]}, "all"),
    ({"filter_type": "allow", "groups": ["staff"]}, "through"),
    ({"filter_type": "allow", "groups": ["staff"], "users": ["bob"]}, "all"),
    ({"filter_type": "allow", "groups": ["(?<=x)y"]}, "all"),  # lookbehind: Go refuses it, not guessed here
    ({"filter_type": "allow", "groups": ["[unclosed"]}, "all"),
    ({"filter_type": "allow", "groups": ["a{,2}"]}, "through"),  # a literal in Go (a repeat in Python): no match
    ({"filter_type": "allow", "groups": ["^[[:lower:]]+$"]}, "all"),  # POSIX classes as Go reads them
    ({"filter_type": "allow", "groups": ["^[[:digit:]]+$"]}, "through"),
    ({"filter_type": "deny", "groups": ["[[:^digit:]]"]}, "none"),
    ({"filter_type": "deny", "groups": ["^\\Qcontr\\E"]}, "none"),
    ({"filter_type": "allow", "groups": ["\\pL+"]}, "all"),  # a Unicode class Python lacks
    ({"filter_type": "allow", "groups": ["(?i)^STAFF$"]}, "through"),  # flags both read alike
])
def test_filter_admission_is_allowuser_for_every_member(filt, want):
    assert reach.filter_admission(PlacementRule((), "provided", **filt), "contractors").kind == want
