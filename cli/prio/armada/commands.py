"""Armada's explain and simulate, either model: records from already-parsed documents ((file
name, Document) pairs), and their text (`render_record`); bad input raises
prio.errors.InputError (exit code 2, one line). prio.armada.backend wires them to the commands."""
from __future__ import annotations

from prio.armada import analysis
from prio.armada import load as _scenario
from prio.armada import render as render
from prio.armada.model import DECAYS, WEIGHTINGS, Options
from prio.errors import InputError, check_choice
from prio.io.document import Document

FORMATS = render.FORMATS


def is_scenario(data) -> bool:
    """True for a mapping with `model: armada`."""
    return _scenario.is_scenario(data)


def _options(fmt: str, decay: str, weighting: str) -> Options:
    """The legacy model's options (their values were checked by check_armada_options)."""
    check_choice("-o", fmt, FORMATS)
    check_choice("--armada-decay", decay, DECAYS)
    check_choice("--armada-weighting", weighting, WEIGHTINGS)
    return Options(decay, weighting)


def _current(docs, model: str | None, **legacy_only) -> bool:
    """True when these documents are for Armada's current scheduler (the default); the legacy
    model's options are refused there, not ignored."""
    from prio.armada.commands_current import choose

    if choose(docs, model) != "current":
        return False
    for flag, given in legacy_only.items():
        if given:
            raise InputError(flag, "applies to Armada's legacy model only (scheduler: legacy or --armada-model legacy)")
    return True


def explain_record(docs: list[tuple[str, Document]], fmt: str, *, decay: str = "code", weighting: str = "current",
                   model: str | None = None, why: str | None = None) -> tuple:
    """Per queue: normalised usage, decayed priority, effective priority, share and slice (legacy);
    fair shares, costs and eviction (current, the default). A record for `render`."""
    if _current(docs, model, **{"--armada-decay": decay != "code", "--armada-weighting": weighting != "current"}):
        from prio.armada.commands_current import explain_record as current

        return current(docs, why)
    if why is not None:
        raise InputError("--why", "works with Armada's current scheduler; the legacy model's explain shows every queue")
    options = _options(fmt, decay, weighting)
    return ("legacy-explain", analysis.explain(_scenario.build(docs), options))


def simulate_record(docs: list[tuple[str, Document]], fmt: str, *, decay: str = "code", weighting: str = "current",
                    rounds: int | None = None, seed: int | None = None, model: str | None = None) -> tuple:
    """Scheduling rounds: the slice round, the seeded probabilistic remainder, and the priority
    decay between rounds (legacy); one round's evictions and lease order (current, the default).
    A record for `render`."""
    if _current(docs, model, **{"--armada-decay": decay != "code", "--armada-weighting": weighting != "current",
                                "--rounds": rounds is not None, "--seed": seed is not None}):
        from prio.armada.commands_current import simulate_record as current

        return current(docs)
    options = _options(fmt, decay, weighting)
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= _scenario.MAX_ROUNDS):
        raise InputError("<options>", f"rounds must be a whole number from 1 to {_scenario.MAX_ROUNDS}, not {rounds!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InputError("<options>", f"seed must be a whole number >= 0, not {seed!r}")
    sc = _scenario.build(docs)
    if sc.offer is None:
        file = next((f for f, d in docs if _scenario.is_scenario(d.data)), "<input>")
        raise InputError(file, "simulate needs an offer: the resources one scheduling round hands out "
                               "(offer: {cpu: \"8\", memory: 16Gi})")
    return ("legacy-simulate", analysis.simulate(sc, options, rounds, seed))


def render_record(record: tuple, fmt: str, width: int | None = None) -> str:
    """The text of an explain or simulate record, either model's."""
    if record[0] == "legacy-explain":
        return render.render_explain(record[1], fmt, width)
    if record[0] == "legacy-simulate":
        return render.render_simulate(record[1], fmt, width)
    from prio.armada.commands_current import render_record as current

    return current(record, fmt, width)
