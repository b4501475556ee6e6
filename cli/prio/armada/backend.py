"""Armada as a prio backend (issue 47; the protocol is prio.backend.Backend): its scenario and
Queue documents, either model's explain or simulate as a record (prio.armada.commands), the
record's text. No -o html, diff, preempt or snapshot (refused in one line)."""
from __future__ import annotations

from prio.backend import Backend


class Armada:
    name, title, offers = "armada", "Armada", ("explain", "simulate")

    def refused(self, command: str, o, fmt: str) -> str | None:
        from prio.armada.choices import DECAYS, MODELS, WEIGHTINGS
        from prio.errors import check_choice

        check_choice("--armada-decay", o.armada_decay, DECAYS)
        check_choice("--armada-weighting", o.armada_weighting, WEIGHTINGS)
        check_choice("--armada-model", o.armada_model, MODELS)
        if command == "simulate" and (o.steps is not None or o.limit is not None):
            return f"{'--steps' if o.steps is not None else '--limit'} applies to YuniKorn inputs, not Armada scenarios"
        if command == "explain" and o.pending:
            return "--pending applies to YuniKorn inputs, not Armada scenarios"
        if command == "explain" and (o.why_ask or o.behind or o.queue):
            flag = "--why-ask" if o.why_ask else "--behind" if o.behind else "--queue"
            return f"{flag} applies to YuniKorn inputs, not Armada scenarios (--why QUEUE explains one Armada queue)"
        if fmt == "html":
            return "-o html draws YuniKorn inputs; for an Armada scenario use -o table, plain, markdown or json"
        return None

    def load(self, inp, command: str, o=None) -> list:
        return list(inp.objects)  # (file name, Document): the models read them as they run

    def run(self, command: str, docs: list, o, fmt: str, progress=None) -> tuple:
        from prio.armada import commands

        if command == "simulate":
            return commands.simulate_record(docs, fmt, decay=o.armada_decay, weighting=o.armada_weighting,
                                            rounds=o.rounds, seed=o.seed, model=o.armada_model)
        return commands.explain_record(docs, fmt, decay=o.armada_decay, weighting=o.armada_weighting,
                                       model=o.armada_model, why=o.why)

    def render(self, command: str, record: tuple, fmt: str, width: int | None, page) -> str:
        from prio.armada.commands import render_record

        return render_record(record, fmt, width)


BACKEND: Backend = Armada()  # mypy holds it to the protocol
