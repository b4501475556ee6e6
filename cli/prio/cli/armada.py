"""The entry points the CLI calls for Armada scenarios: detect, explain, simulate.

Each takes already-parsed documents as (file name, Document) pairs and returns the whole stdout
text; bad input raises prio.errors.InputError (exit code 2, one line)."""
from __future__ import annotations

from prio.armada import analysis
from prio.armada.model import DECAYS, WEIGHTINGS, Options
from prio.cli.common import check_choice
from prio.errors import InputError
from prio.io.document import Document
from prio.loaders import armada as _scenario
from prio.render import armada as render

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
    from prio.cli.armada_current import choose

    if choose(docs, model) != "current":
        return False
    for flag, given in legacy_only.items():
        if given:
            raise InputError(flag, "applies to Armada's legacy model only (scheduler: legacy or --armada-model legacy)")
    return True


def run_explain(docs: list[tuple[str, Document]], fmt: str, *, decay: str = "code", weighting: str = "current",
                width: int | None = None, model: str | None = None, why: str | None = None) -> str:
    """Per queue: normalised usage, decayed priority, effective priority, share and slice (legacy);
    fair shares, costs and eviction (current, the default)."""
    if _current(docs, model, **{"--armada-decay": decay != "code", "--armada-weighting": weighting != "current"}):
        from prio.cli.armada_current import run_explain as current_explain

        return current_explain(docs, fmt, why=why, width=width)
    if why is not None:
        raise InputError("--why", "works with Armada's current scheduler; the legacy model's explain shows every queue")
    options = _options(fmt, decay, weighting)
    sc = _scenario.build(docs)
    return render.render_explain(analysis.explain(sc, options), fmt, width)


def run_simulate(docs: list[tuple[str, Document]], fmt: str, *, decay: str = "code", weighting: str = "current",
                 rounds: int | None = None, seed: int | None = None, width: int | None = None,
                 model: str | None = None) -> str:
    """Scheduling rounds: the slice round, the seeded probabilistic remainder, and the priority
    decay between rounds (legacy); one round's evictions and lease order (current, the default)."""
    if _current(docs, model, **{"--armada-decay": decay != "code", "--armada-weighting": weighting != "current",
                                "--rounds": rounds is not None, "--seed": seed is not None}):
        from prio.cli.armada_current import run_simulate as current_simulate

        return current_simulate(docs, fmt, width=width)
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
    return render.render_simulate(analysis.simulate(sc, options, rounds, seed), fmt, width)
