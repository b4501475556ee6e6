"""The fast engines against the reference engine (yunikorn/reference.py) on generated
scenarios (tests/strategies.py): identical steps (tie notes and notes included), leftovers and
final state. Three ways through each scenario: the default (simplerun where it fits, else the
engine's heaps with its fast pick), the engine's step-by-step walk (a limit always takes it),
and the reference engine."""
from hypothesis import HealthCheck, given, settings

from builders import build_engine, run_state, step_rows
from strategies import scenarios

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _agree(queues, snapshot):
    default, walk, ref = (build_engine(queues, snapshot, c) for c in ("auto", "fast", "reference"))
    want = step_rows(ref.run())
    assert step_rows(default.run()) == want
    assert step_rows(walk.run(limit=10**9)) == want
    assert default.leftovers() == ref.leftovers() == walk.leftovers()
    assert run_state(default) == run_state(ref) == run_state(walk)
    assert ref.run() == []  # nothing more can be placed once it stopped


@SETTINGS
@given(scenarios(limits=False))
def test_without_limits_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)


@SETTINGS
@given(scenarios(limits=True))
def test_with_limits_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)


@SETTINGS
@given(scenarios(many_siblings=True))
def test_more_than_20_siblings_the_fast_runs_give_the_reference_steps(scenario):
    _agree(*scenario)
