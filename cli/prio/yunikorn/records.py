"""The result records of YuniKorn's runs (issue 47): what a renderer reads, taken from the engine
once the run is over, so that no renderer reaches into an engine. Data only."""
from __future__ import annotations

from typing import NamedTuple


class GangView(NamedTuple):
    """What a run with gang applications adds to its output."""

    steps: dict  # step number -> (placeholder, task group, the placeholder it replaces)
    events: list  # gangs.Event: releases and timeouts, each before its step
    placeholders: set  # (application, ask) of every placeholder
    summary: list  # one dict per gang application (the corpus's `gangs`)


class Simulation(NamedTuple):
    """`prio simulate`'s result: the steps and what could never be placed, with what the run saw."""

    steps: list  # step.Step, in order
    unscheduled: list  # the leftovers (engine.leftovers())
    rejected: tuple  # the applications placement refused (model.Rejected)
    step_nodes: dict | None  # step -> node, with nodes
    tied_leftovers: object  # leftovers whose order is a tie (None without)
    preemptions: list  # preemptions inside the run (none without nodes)
    gangs: GangView | None  # None without gang applications
    placed: list  # (leaf path, asks placed, first step, last step) per leaf that placed any


def simulation(eng, steps: list, unscheduled: list) -> Simulation:
    """The record of a finished run of `eng`."""
    gangs = None
    if getattr(eng, "gangs", None):
        from prio.yunikorn import gangs as gang_rules

        gangs = GangView(eng.gang_steps, list(eng.gang_events), gang_rules.placeholder_ids(eng), gang_rules.summary(eng))
    return Simulation(steps, unscheduled, tuple(getattr(eng, "rejected", ())), getattr(eng, "step_nodes", None),
                      getattr(eng, "tied_leftovers", None), list(getattr(eng, "preemptions", None) or ()), gangs,
                      [(q.path, q.placed, q.first_step, q.last_step) for q in eng.root.walk() if q.leaf and q.placed])
