"""Lint an Armada scenario's scheduler settings for the current scheduler (`prio validate` on a
scenario with `model: armada` and `scheduler: current` or no scheduler). Severity follows the
project's rule: what Armada refuses is an error; what it accepts but reads differently from what
it says is a warning. Rules PRIO411-PRIO414, family `armada-scenario`."""
from __future__ import annotations

from prio.armada.recognise import is_current_scenario
from prio.diagnostics import Issue
from prio.io.document import Document
from prio.lint import registry
from prio.lint.registry import check, run

FAMILY = "armada-scenario"
registry.target("armada-scenario", "one Armada scenario for the current scheduler: its Document")
DEFAULT_CLASSES = ("armada-default", "armada-preemptible")


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _list(data: dict, key: str) -> list:
    v = data.get(key)
    return v if isinstance(v, list) else []


@check("PRIO411", "armada-negative-multiplier", "error", FAMILY, target="armada-scenario")
def negative_multiplier(doc: Document) -> list:
    """A resource in resourcesToConsiderWithMultipliers has a negative multiplier.

    Armada refuses the scheduler config ("ExperimentalDominantResourceFairnessResourcesToConsider
    has negative multiplier") and the pool is not scheduled. A multiplier of 0, or none, means 1
    (`defaultMultiplier`), not "ignore this resource": leave the resource out of the list for that.

    Example (error):
        resourcesToConsiderWithMultipliers:
          - {name: cpu, multiplier: 1}
          - {name: nvidia.com/gpu, multiplier: -0.5}
    Fix: a positive multiplier (0.5 makes a GPU count half), or remove the entry.
    """
    out = []
    for i, e in enumerate(_list(doc.data, "resourcesToConsiderWithMultipliers")):
        if isinstance(e, dict) and _num(e.get("multiplier")) and e["multiplier"] < 0:
            out.append(Issue("PRIO411", ("resourcesToConsiderWithMultipliers", i, "multiplier"),
                             f"multiplier {e['multiplier']:g} for {e.get('name')}: Armada refuses a negative multiplier "
                             "and does not schedule the pool"))
    return out


def _near(name: str, names) -> str | None:
    """The defined name `name` most likely means (a typo, or `gpu` for `nvidia.com/gpu`)."""
    import difflib

    names = [str(n) for n in names]
    tail = [n for n in names if n.rsplit("/", 1)[-1] == name]
    near = tail or difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return near[0] if near else None


@check("PRIO412", "armada-considered-resource-not-in-pool", "warning", FAMILY, target="armada-scenario")
def considered_resource_not_in_pool(doc: Document) -> list:
    """resourcesToConsider names a resource the pool does not have.

    Armada builds the cost from the resources it knows: one missing from the pool's total
    resources (a typo such as `gpu` for `nvidia.com/gpu`, or a resource of another pool) counts
    for nothing, silently, so queues using it look cheaper than they are.

    Example (warns):
        totalResources: {cpu: "100", nvidia.com/gpu: "8"}
        resourcesToConsider: [cpu, gpu]
    Fix: spell the resource as the pool does (nvidia.com/gpu), or add it to totalResources.
    """
    data = doc.data
    total = data.get("totalResources")
    if not isinstance(total, dict):
        return []
    out = []
    key = "resourcesToConsiderWithMultipliers" if "resourcesToConsiderWithMultipliers" in data else "resourcesToConsider"
    for i, e in enumerate(_list(data, key)):
        name = e.get("name") if isinstance(e, dict) else e
        if isinstance(name, str) and name not in total:
            path = (key, i, "name") if isinstance(e, dict) else (key, i)
            near = _near(name, total)
            out.append(Issue("PRIO412", path, f"{name} is not in totalResources ({', '.join(map(str, total)) or 'empty'}): "
                                              "it counts for nothing in every queue's cost",
                             fix=(f"spell the resource as the pool does ({near}), or add {name} to totalResources" if near
                                  else f"add {name} to totalResources, or remove it")))
    return out


@check("PRIO413", "armada-undefined-priority-class", "error", FAMILY, target="armada-scenario")
def undefined_priority_class(doc: Document) -> list:
    """A running or queued job names a priority class the scenario does not define.

    Armada refuses to submit a job whose priority class is not in the scheduler's
    `priorityClasses`; a job without one gets `defaultPriorityClassName` (armada-default), which
    must then be defined too. prio cannot model the job either.

    Example (error):
        priorityClasses:
          armada-default: {priority: 1000, preemptible: false}
        jobs:
          - {queue: a, requests: {cpu: "1"}, priorityClass: armada-preemtible}
    Fix: use a defined class (armada-preemptible here, once defined), or define the class.
    """
    data = doc.data
    classes = data.get("priorityClasses")
    defined = set(classes) if isinstance(classes, dict) else (set(DEFAULT_CLASSES) if classes is None else None)
    if defined is None:
        return []
    from prio.armada.current.model import DEFAULT_PRIORITY_CLASS  # lazily: only a scenario needs the model

    out = []
    for key in ("running", "jobs"):
        for i, e in enumerate(_list(data, key)):
            if not isinstance(e, dict):
                continue
            pc = e.get("priorityClass")
            if pc is None:
                if DEFAULT_PRIORITY_CLASS not in defined:
                    out.append(Issue("PRIO413", (key, i), f"no priorityClass: the default {DEFAULT_PRIORITY_CLASS} is "
                                                          "not defined in priorityClasses",
                                     fix=f"define {DEFAULT_PRIORITY_CLASS} in priorityClasses, or give the job a defined class"))
            elif isinstance(pc, str) and pc not in defined:
                near = _near(pc, defined)
                out.append(Issue("PRIO413", (key, i, "priorityClass"),
                                 f"priority class {pc!r} is not defined (defined: {', '.join(sorted(map(str, defined)))})",
                                 fix=(f"use {near}, or define {pc}" if near else f"define {pc} in priorityClasses, or use a defined class")))
    return out


@check("PRIO414", "armada-priority-factor-unset", "warning", FAMILY, target="armada-scenario")
def priority_factor_unset(doc: Document) -> list:
    """A queue's priorityFactor is 0 or negative, which the scheduler reads as unset.

    The current scheduler weighs a queue 1/priorityFactor only when the factor is above 0;
    otherwise the weight is 1, the same as priorityFactor 1. A factor of 0 meant to starve a
    queue, or a negative one meant to favour it, does neither. (Armada's API refuses a factor below
    1 when a queue is created; such factors come from older stores or direct database edits.)

    Example (warns):
        queues:
          - {name: scavenger, priorityFactor: 0}
    Fix: a large factor for a small share (priorityFactor: 10 gives weight 0.1), or remove it.
    """
    out = []
    for i, e in enumerate(_list(doc.data, "queues")):
        if isinstance(e, dict) and _num(e.get("priorityFactor")) and e["priorityFactor"] <= 0:
            out.append(Issue("PRIO414", ("queues", i, "priorityFactor"),
                             f"priorityFactor {e['priorityFactor']:g} counts as unset: queue {e.get('name')} gets "
                             "weight 1, as with priorityFactor 1"))
    return out


def lint_scenario(doc: Document) -> list[Issue]:
    """Every finding of this family for one scenario document (none for a legacy scenario)."""
    if not is_current_scenario(doc.data):
        return []
    return run("armada-scenario", doc)


registry.unit_check("armada-scenario", lint_scenario)
