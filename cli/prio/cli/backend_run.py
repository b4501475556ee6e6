"""The analysis commands on a backend's inputs (issue 47): pick the backend that claimed them
(prio.backends), refuse what does not apply in one line, then load -> run -> render, as
prio.backend describes. The commands call `answer` (explain, simulate, preempt), `diff_sides` (diff),
`foreign_option` (explain and simulate, before they answer) and `offered` (what a command reads
itself: diff's sides, snapshot's capture)."""
from __future__ import annotations

import sys


def backend_of(inp):
    """The backend that claimed the inputs (the registry's default row where none did)."""
    from prio import backends

    return backends.get(inp.backend or backends.DEFAULT.name)


def foreign_option(o, inp) -> str | None:
    """A backend's own option (prio.backends.Entry.options) given with other inputs: the line
    that refuses it (the command says it and exits 2: never silently ignored); None when none is."""
    from prio import backends

    for entry in backends.CLAIMED:  # the default row's are refused by each backend's `refused`
        if entry.name != inp.backend:
            for d in backends.declarations(entry):
                if getattr(o, d.name, d.default) not in (None, d.default):
                    return f"{d.flags[0]} applies to {entry.title} inputs"
    return None


def offered(command: str, inp, form: str | None = None) -> None:
    """`command` on inputs whose backend does not offer it, or in a `form` only the default
    backend's inputs take (`diff --yunikorn`): refused in one generated line (InputError, exit 2)."""
    backend = backend_of(inp)
    if command not in backend.offers or form is not None and inp.backend is not None:
        from prio.backend import not_offered
        from prio.errors import InputError

        raise InputError(inp.objects[0][0], not_offered(backend.title, form or command, backend.offers))


def _page(command: str, inp, live):
    """The backend's -o html page of its json text (or chunks): the command's header (the
    partition, when the context names one) and the backend's context."""
    from prio.cli import htmlreport

    def page(text, titles: dict | None, **context):
        ctx = htmlreport.header(command, inp.names, live, context.pop("partition", None), **context)
        return htmlreport.page(command, [text] if isinstance(text, str) else text, ctx, titles)
    return page


def answer(command: str, o, inp, fmt: str, live=None, progress=None, write=None) -> int:
    """A command on the backend's inputs: its refusals, then load, run, render. `live`: the
    server read (prio.cli.live.Remote, for the page's header); `progress(total)`: a bar for a
    long run, on a terminal; `write(text)`: where the whole output goes (default: stdout, in
    chunks as the renderer yields them)."""
    from prio.cli.common import say_notes, width, write_chunks
    from prio.cli.lifetime import keep

    backend = backend_of(inp)
    offered(command, inp)
    why = backend.refused(command, o, fmt)
    if why is not None:
        sys.stderr.write(f"prio: {why}\n")
        return 2
    model = backend.load(inp, command, o)
    keep(inp, model)  # freed with the process, not on return (lifetime.py)
    _say(inp.notes, say_notes)
    record = backend.run(command, model, o, fmt, progress)
    keep(record)
    _say(getattr(record, "notes", ()), say_notes)
    out = backend.render(command, record, fmt, width(), _page(command, inp, live))
    out = (out,) if isinstance(out, str) else out
    if write is not None:
        write("".join(out))
    else:
        write_chunks(out)
    return 0


def _say(notes, say_notes) -> None:
    from types import SimpleNamespace

    say_notes(SimpleNamespace(notes=list(notes)))
    if isinstance(notes, list):
        notes.clear()  # said once, also when a command reads the inputs again


def diff_sides(o, fmt: str, inp_a, inp_b, findings, fail_on: tuple) -> tuple:
    """prio diff on two sides of one backend: each side a simulate record, compared by the
    backend with each side's validate findings (`findings(arg)`). Returns (text, whether a change
    of a kind in `fail_on` is there)."""
    from prio.backend import not_offered
    from prio.cli import htmlreport
    from prio.cli.common import say_notes, width
    from prio.errors import InputError

    backend = backend_of(inp_a if inp_a.backend is not None else inp_b)  # the side a backend claimed
    if inp_a.backend != inp_b.backend:
        side, other = (o.old, o.new) if inp_a.backend == backend.name else (o.new, o.old)
        raise InputError(other, f"{side} holds {backend.title} objects and {other} none: compare {backend.compares}")
    if "diff" not in backend.offers:
        raise InputError(o.old, not_offered(backend.title, "diff", backend.offers))
    why = backend.refused("diff", o, fmt)
    if why is not None:
        raise InputError(o.old, why)
    sides = []
    for inp in (inp_a, inp_b):
        model = backend.load(inp, "diff", o)
        _say(inp.notes, say_notes)
        record = backend.run("simulate", model, o, "html" if fmt == "html" else "json")
        _say(getattr(record, "notes", ()), say_notes)
        sides.append((model, record))
    d = backend.diff(sides[0], sides[1], (findings(o.old), findings(o.new)))
    paths = list(o.inputs)

    def page(text, titles: dict | None, **context) -> str:
        text = text if isinstance(text, str) else "".join(text)
        return htmlreport.diff_page(text, o.old, o.new, [o.old, o.new, *paths], None, titles, **context)
    text = backend.render("diff", (d, o.old, o.new), fmt, width(), page)
    return text, any(backend.changed(d, k) for k in fail_on)
