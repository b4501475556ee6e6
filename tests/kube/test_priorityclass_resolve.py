"""PriorityClass resolution exactly as the Priority admission plugin does it."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prio.kube.priorityclass import (
    BUILTIN,
    PriorityClass,
    ResolveError,
    catalogue,
    global_default,
    resolve,
    resolve_class,
)

TIERS = [PriorityClass("tier1", 4000), PriorityClass("tier2", 2000), PriorityClass("tier3", 1000),
         PriorityClass("batch-low", -100, preemption_policy="Never")]


def test_name_resolves_to_its_value():
    assert resolve("tier2", TIERS) == 2000
    assert resolve("batch-low", TIERS) == -100


def test_no_name_no_default_is_zero():
    assert resolve(None, TIERS) == 0
    assert resolve("", TIERS) == 0
    assert resolve(None, []) == 0


def test_no_name_takes_the_global_default():
    classes = TIERS + [PriorityClass("standard", 500, global_default=True)]
    assert resolve(None, classes) == 500
    assert resolve_class(None, classes).name == "standard"


def test_several_defaults_lowest_value_wins():
    classes = [PriorityClass("a", 300, True), PriorityClass("b", 100, True), PriorityClass("c", 200, True)]
    assert resolve(None, classes) == 100
    assert global_default(classes).name == "b"


def test_tie_between_defaults_broken_by_name():
    classes = [PriorityClass("zeta", 100, True), PriorityClass("alpha", 100, True)]
    assert global_default(classes).name == "alpha"


def test_unknown_name_is_an_error_and_no_default_is_substituted():
    classes = TIERS + [PriorityClass("standard", 500, global_default=True)]
    with pytest.raises(ResolveError) as e:
        resolve("tier0", classes)
    assert "'tier0'" in str(e.value) and "tier1" in str(e.value)


def test_unknown_name_without_user_classes_says_so():
    with pytest.raises(ResolveError, match="only the built-in"):
        resolve("gold", [])


def test_system_classes_always_exist():
    assert resolve("system-cluster-critical", []) == 2000000000
    assert resolve("system-node-critical", []) == 2000001000
    assert set(catalogue([])) == set(BUILTIN)


def test_builtins_cannot_be_overridden_by_a_manifest():
    assert resolve("system-node-critical", [PriorityClass("system-node-critical", 7)]) == 2000001000


def test_builtins_are_never_the_global_default():
    assert resolve(None, []) == 0


def test_pod_priority_equal_to_class_is_accepted():
    assert resolve("tier1", TIERS, 4000) == 4000
    assert resolve(None, TIERS, 0) == 0
    assert resolve(None, TIERS + [PriorityClass("d", 7, True)], 7) == 7


def test_pod_priority_disagreeing_with_class_is_an_error():
    with pytest.raises(ResolveError, match=r"spec.priority 5 disagrees.*'tier1' has value 4000"):
        resolve("tier1", TIERS, 5)


def test_pod_priority_disagreeing_with_default_is_an_error():
    with pytest.raises(ResolveError, match="global default 'd' \\(7\\)"):
        resolve(None, TIERS + [PriorityClass("d", 7, True)], 8)
    with pytest.raises(ResolveError, match="gets 0"):
        resolve(None, TIERS, 8)


def test_first_definition_of_a_name_counts():
    assert resolve("x", [PriorityClass("x", 1), PriorityClass("x", 2)]) == 1


@pytest.mark.slow
@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(-2**31, 10**9), st.booleans()), max_size=8))
def test_default_is_the_lowest_valued_default(specs):
    classes = [PriorityClass(n, v, d) for n, v, d in specs]
    firsts = {}
    for c in classes:
        firsts.setdefault(c.name, c)
    defaults = [c for c in firsts.values() if c.global_default]
    want = min(c.value for c in defaults) if defaults else 0
    assert resolve(None, classes) == want
