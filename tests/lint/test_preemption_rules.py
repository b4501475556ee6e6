"""The preemption lint rules (PRIO5xx): a config that trips each (at the expected line) and one
that does not, plus their documentation."""
import json

import pytest
from configs import (
    DISABLED_WITH_POLICY,
    FENCE_IN_REACH,
    FENCE_OUT_OF_REACH,
    LEAF_GUARANTEE_ON_PARENT,
    LEAF_NO_GUARANTEE,
    QUOTA_BOTH,
    QUOTA_DELAY_NO_SWITCH,
    QUOTA_MAX_AT_GUARANTEE,
    QUOTA_MAX_UNDER_PARENT_GUARANTEE,
    QUOTA_NO_MAX,
    QUOTA_PARENT_DELAY,
    QUOTA_PARENT_DELAY_NO_MAX,
    QUOTA_SWITCH_NO_DELAY,
)

from conftest import lint, run_cli

CASES = [
    ("PRIO501", DISABLED_WITH_POLICY, 9, DISABLED_WITH_POLICY.replace("enabled: false", "enabled: true")),
    ("PRIO502", QUOTA_DELAY_NO_SWITCH, 9, QUOTA_BOTH),
    ("PRIO502", QUOTA_SWITCH_NO_DELAY, 4, QUOTA_BOTH),
    ("PRIO503", QUOTA_NO_MAX, 11, QUOTA_BOTH),
    ("PRIO503", QUOTA_PARENT_DELAY_NO_MAX, 8, QUOTA_PARENT_DELAY),
    ("PRIO506", QUOTA_MAX_UNDER_PARENT_GUARANTEE, 12, QUOTA_PARENT_DELAY),
    ("PRIO504", LEAF_NO_GUARANTEE, 9, LEAF_GUARANTEE_ON_PARENT),
    ("PRIO505", FENCE_OUT_OF_REACH, 8, FENCE_IN_REACH),
]


@pytest.mark.parametrize("rule,bad,line,good", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rule_fails_and_passes(rule, bad, line, good):
    got = [f for f in lint(bad) if f.rule == rule]
    assert got, f"{rule} not reported; got {[(f.rule, f.message) for f in lint(bad)]}"
    assert got[0].line == line, (got[0].line, got[0].message)
    assert got[0].severity == "warning"
    assert not [f for f in lint(good) if f.rule == rule], [f.message for f in lint(good)]


def test_messages_say_what_and_where():
    [f] = [f for f in lint(LEAF_NO_GUARANTEE) if f.rule == "PRIO504"]
    assert "root.batch" in f.message and "never trigger preemption" in f.message
    [f] = [f for f in lint(FENCE_OUT_OF_REACH) if f.rule == "PRIO505"]
    assert "root.research (offset 1000)" in f.message and "root.batch" in f.message
    [f] = [f for f in lint(QUOTA_PARENT_DELAY_NO_MAX) if f.rule == "PRIO503"]
    assert f.message == ("quota.preemption.delay on root.p has no effect: neither root.p nor any queue that inherits "
                         "the delay has max resources")
    [f] = [f for f in lint(QUOTA_MAX_UNDER_PARENT_GUARANTEE) if f.rule == "PRIO506"]
    assert "root.p guarantees vcore 20, more than root.p.a's max vcore 8" in f.message


def test_max_equal_to_guarantee_is_fine_for_quota_preemption():
    """YuniKorn frees the overshoot of a queue whose max equals its guarantee (preemptVictims says so,
    and ../shared/testdata/yunikorn-quota-preemption/quota-00007 preempts three tasks)."""
    assert not [f for f in lint(QUOTA_MAX_AT_GUARANTEE) if f.rule in ("PRIO503", "PRIO506")]


def test_a_delay_inherited_by_a_queue_with_a_max_is_not_reported():
    assert not [f for f in lint(QUOTA_PARENT_DELAY) if f.rule in ("PRIO502", "PRIO503", "PRIO506")]


def test_quota_preemption_alone_does_not_ask_for_guarantees():
    """A preemption: mapping that only switches quota preemption on says nothing about asks preempting."""
    assert not [f for f in lint(QUOTA_PARENT_DELAY) if f.rule == "PRIO504"]


def test_leaf_rule_is_quiet_without_preemption_settings():
    """Configs that never mention preemption are not nagged about it."""
    text = LEAF_NO_GUARANTEE.replace("    preemption: {enabled: true}\n", "")
    assert text != LEAF_NO_GUARANTEE
    assert not [f for f in lint(text) if f.rule == "PRIO504"]


def test_leaf_rule_is_quiet_when_the_partition_disables_preemption():
    text = LEAF_NO_GUARANTEE.replace("enabled: true", "enabled: false")
    assert not [f for f in lint(text) if f.rule == "PRIO504"]


def test_fence_reached_through_an_unfenced_queue_is_not_reported():
    """An ask in an unfenced queue can carry any priority: every fence is within its reach."""
    text = FENCE_OUT_OF_REACH + "          - name: free\n"
    assert not [f for f in lint(text) if f.rule == "PRIO505"]


def test_preemption_fence_below_the_common_parent_does_not_count():
    """batch's asks stop at their preemption fence: they never reach research at all, so the
    priority fence is not what keeps them out."""
    line = next(x for x in FENCE_OUT_OF_REACH.splitlines() if 'priority.offset: "10"' in x)
    indent = line[: len(line) - len(line.lstrip())]
    text = FENCE_OUT_OF_REACH.replace(line, line + "\n" + indent + "preemption.policy: fence")
    assert text != FENCE_OUT_OF_REACH and [f for f in lint(FENCE_OUT_OF_REACH) if f.rule == "PRIO505"]
    assert not [f for f in lint(text) if f.rule == "PRIO505"]


def test_rule_docs():
    from prio.lint.rules import all_rules

    rules = {k: v for k, v in all_rules().items() if k.startswith("PRIO5")}
    assert sorted(rules) == ["PRIO501", "PRIO502", "PRIO503", "PRIO504", "PRIO505", "PRIO506"]
    for r in rules.values():
        assert r.summary and "Example" in r.doc and "Fix" in r.doc and r.family == "preemption"
    one = run_cli("rule", "PRIO504")
    assert one.exit_code == 0 and "guarantees check failed" in one.stdout


def test_bundled_preemption_sample_lints_clean_of_errors():
    from conftest import sample

    r = run_cli("validate", "-o", "json", sample("preemption-queues.yaml"))
    assert r.exit_code == 0, r.stdout
    report = json.loads(r.stdout)
    assert report["summary"]["errors"] == 0 and report["summary"]["files"] == 1
    assert all(f["severity"] != "error" for f in report["findings"]), report["findings"]
