"""What explain and simulate call for an Armada scenario of the current scheduler. Each takes the
already-parsed documents as (file name, Document) pairs and returns the whole stdout text; bad
input raises prio.errors.InputError (exit 2, one line)."""
from __future__ import annotations

from prio.armada import load_current as reader
from prio.armada import render_current as render
from prio.armada.current import fairness
from prio.armada.current import round as round_mod
from prio.armada.model import MODELS
from prio.errors import InputError, check_choice


def choose(docs: list, option: str | None) -> str:
    """The model for these documents: the scenario's `scheduler` (or `model: armada-legacy`),
    else --armada-model, else current. A scenario naming one model and the option the other is
    an error, not a silent choice."""
    from prio.armada.load import is_scenario

    check_choice("--armada-model", option, MODELS)
    for file, doc in docs:
        if not is_scenario(doc.data):
            continue
        said = reader.scheduler_of(doc.data)
        if said is not None and said not in MODELS:
            pos = doc.pos(("scheduler",))
            raise InputError(file, f"scheduler: {doc.data.get('scheduler')!r} is not one of {', '.join(MODELS)}",
                             pos.line if pos else None, pos.column if pos else None)
        if said is not None and option is not None and said != option:
            pos = doc.pos(("scheduler",)) or doc.start
            raise InputError(file, f"the scenario says scheduler: {said} but --armada-model is {option}; "
                                   "drop one of them", pos.line, pos.column)
        if said is not None:
            return said
    return option or "current"


def _scenario(docs: list):
    from prio.armada.load import is_scenario

    found = [(f, d) for f, d in docs if is_scenario(d.data)]
    others = [(f, d) for f, d in docs if d.data is not None and not is_scenario(d.data)]
    if others:
        file, doc = others[0]
        raise InputError(file, "Armada Queue manifests go with the legacy model only; for the current scheduler "
                               "list the queues under the scenario's queues: ({name, priorityFactor})",
                         doc.start.line, doc.start.column)
    if not found:
        raise InputError(docs[0][0] if docs else "<input>", "no Armada scenario: give a YAML or JSON file with model: armada")
    if len(found) > 1:
        file, doc = found[1]
        raise InputError(file, f"a second Armada scenario (the first is in {found[0][0]}); prio reads one scenario "
                               "at a time", doc.start.line, doc.start.column)
    file, doc = found[0]
    return reader.build(file, doc)


def explain_record(docs: list, why: str | None = None) -> tuple:
    """The current scheduler's explain: (kind, scenario, fair shares, --why's queue)."""
    sc = _scenario(docs)
    return ("current-explain", sc, fairness.shares(sc), why)


def simulate_record(docs: list) -> tuple:
    """One round of the current scheduler: (kind, scenario, fair shares, the round)."""
    sc = _scenario(docs)
    sh = fairness.shares(sc)
    return ("current-simulate", sc, sh, round_mod.run(sc, sh))


def render_record(record: tuple, fmt: str, width: int | None = None) -> str:
    kind, sc, sh, more = record
    if kind == "current-simulate":
        return render.render_simulate(sc, sh, more, fmt, width)
    why = more
    if why is not None:
        try:
            lines = render.why_lines(sc, sh, why)
        except KeyError:
            from prio.suggest import did_you_mean

            raise InputError("--why", f"no queue {why!r} in this scenario (queues: "
                                      f"{', '.join(q.name for q in sc.queues)}){did_you_mean(why, [q.name for q in sc.queues])}") from None
        if fmt == "json":
            import json

            return json.dumps({"queue": why, "why": lines}, indent=2) + "\n"
        return "\n".join(lines) + "\n"
    return render.render_explain(sc, sh, fmt, width)
