"""PRIO201 and PRIO202 skip their reach walks when every offset together cannot take a queue out
of the user range (yunikorn/lint/priority.py `_within_user_range`): the findings must be the ones
the walks give, on trees with offsets of every size."""
from unittest import mock

from configs import tree
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import lint
from prio.yunikorn.lint import priority

_OFFSETS = st.one_of(st.none(), st.integers(-20, 20), st.integers(-2**31, 2**31 - 1),
                     st.sampled_from([2**31 - 1, -2**31, 1_000_000_001, -2_147_483_000, 999_999_999]))


@st.composite
def _queues(draw, depth: int = 0) -> list[str]:
    lines = []
    for i in range(draw(st.integers(1, 3))):
        lines.append(f"- name: q{depth}{i}")
        props = {}
        off = draw(_OFFSETS)
        if off is not None:
            props["priority.offset"] = f"'{off}'"
        if draw(st.integers(0, 3)) == 0:
            props["priority.policy"] = "fence"
        if props:
            lines.append("  properties: {" + ", ".join(f"{k}: {v}" for k, v in props.items()) + "}")
        if depth < 2 and draw(st.booleans()):
            lines.append("  queues:")
            lines += ["    " + line for line in draw(_queues(depth + 1))]
    return lines


def _found(text):
    return [(f.rule, f.line, f.message) for f in lint(text) if f.rule in ("PRIO201", "PRIO202")]


@settings(max_examples=150, deadline=None)
@given(_queues())
def test_the_bound_skips_only_walks_that_find_nothing(lines):
    text = tree("\n".join(lines))
    got = _found(text)
    with mock.patch.object(priority, "_within_user_range", lambda ctx: False):
        walked = _found(text)
    assert got == walked


def test_the_bound_holds_for_small_offsets_and_not_for_large_ones():
    small = tree("- name: a\n  properties: {priority.offset: '100'}\n- name: b\n  properties: {priority.offset: '-100'}")
    with mock.patch.object(priority, "reach", side_effect=AssertionError("walked")):
        assert _found(small) == []
    large = tree("- name: a\n  properties: {priority.offset: '1000000000'}")
    assert [r for r, _, _ in _found(large)] == ["PRIO201"]
