"""Armada's own options (issue 47: a backend declares its options), as data (prio.optspec): the
commands name them by their names where they take them (prio.cli.analysis_options.SHARED holds
every backend's, through prio.backends), and with other inputs they are refused in one line."""
from __future__ import annotations

from prio.optspec import Opt

OPTIONS = (
    Opt("armada_decay", ("--armada-decay",), "Armada scenarios: code (true half-life, default) or document (the doc's formula).",
        default="code", metavar="code|document"),
    Opt("armada_weighting", ("--armada-weighting",), "Armada scenarios: current (unknown resources weigh 0) or legacy (1).",
        default="current", metavar="current|legacy"),
    Opt("armada_model", ("--armada-model",), "Armada scenarios: current (DRF fair share, the default) or legacy (usage decay, up "
                                             "to 2022); a scenario's scheduler: field says the same.", metavar="current|legacy"),
    Opt("rounds", ("--rounds",), "Armada scenarios: scheduling rounds to run.", type=int, min=1, metavar="N"),
    Opt("seed", ("--seed",), "Armada scenarios: random seed (overrides the scenario's).", type=int, metavar="N"),
)

# where the commands take them: simulate runs ("run", then "model"); explain reads ("model")
GROUPS = {"run": ("rounds", "seed"), "model": ("armada_decay", "armada_weighting", "armada_model")}
