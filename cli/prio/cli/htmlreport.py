"""`-o html` for explain, simulate, preempt and diff: the wiring. A backend renders its -o json
document as usual and hands the chunks to `page` (prio.cli.backend_run), with what the page shows
beside them, its run's context (YuniKorn's: the queue tree taken before any run, and for a small
simulation the `--why-ask` answer of every ask); this module adds the header: what was
analysed, when, the notes said on stderr. The page itself is prio.render.html."""
from __future__ import annotations

import datetime as _dt
import os
import sys

from prio.cli.guard import public


class _Heard:
    """stderr as it was, keeping what prio says there (`prio: note: ...`) for the page's header."""

    def __init__(self, err):
        self.err, self.lines, self._part = err, [], ""

    def write(self, s: str) -> int:
        self._part += s
        *done, self._part = self._part.split("\n")
        self.lines.extend(line[len("prio: "):] for line in done if line.startswith("prio: "))
        return self.err.write(s)

    def __getattr__(self, name):  # flush, isatty, fileno...: stderr's own
        return getattr(self.err, name)


HEARD: list = []  # the lines of the run being rendered (a run is one process: one report)


def listening(body):
    """`body(o, fmt)` with what it says on stderr also kept in HEARD."""
    def run(o, fmt):
        saved = sys.stderr
        sys.stderr = heard = _Heard(saved)
        HEARD[:] = []
        heard.lines = HEARD
        try:
            return body(o, fmt)
        finally:
            sys.stderr = saved
    return run


def _when(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _url(url: str) -> str:
    """A URL as the page shows it: never a user or password in it."""
    from urllib.parse import urlsplit, urlunsplit

    p = urlsplit(url)
    return urlunsplit(p._replace(netloc=p.hostname + (f":{p.port}" if p.port else ""))) if p.username or p.password else url


def header(command: str, names=(), live=None, partition=None, **more) -> dict:
    """What was analysed: the inputs (each with its modification time, the snapshot's time as far
    as a file tells it) or the live URL (read now), the partition, prio's version, when."""
    from prio import __version__

    now = _dt.datetime.now(_dt.timezone.utc).timestamp()
    inputs = []
    for n in names:
        if "://" in str(n):  # what was read from a server: said once, below, without credentials
            if live is None:
                inputs.append({"name": _url(str(n))})
            continue
        entry = {"name": public(str(n))}
        if entry["name"] != str(n):  # a bundled sample: its file's time is when prio was installed
            entry["bundled"] = True
            inputs.append(entry)
            continue
        try:
            entry["modified"] = _when(os.stat(n).st_mtime)
        except (OSError, ValueError, TypeError):
            pass
        inputs.append(entry)
    ctx = {"command": command, "prio": __version__, "generated": _when(now), "inputs": inputs,
           "partition": partition, "notes": HEARD}
    if live is not None:
        ctx["live"] = _url(live.url)
        ctx["read"] = _when(now)
    ctx.update(more)
    return ctx


def page(command: str, chunks, ctx: dict, titles: dict | None = None):
    from prio.render.html import page as html_page

    return html_page(command, chunks, ctx, titles)


def diff_page(text: str, old: str, new: str, names, live, titles: dict | None = None, **more) -> str:
    """prio diff's page: its json `text` and what `more` holds for the page (OLD's and NEW's
    trees: `trees`, the backend's diff record has them)."""
    seen: list = []
    for n in names:  # the INPUTs are read by both sides: listed once
        if n not in seen:
            seen.append(n)
    ctx = header("diff", seen, live, None, old=public(str(old)), new=public(str(new)), **{"trees": {}, **more})
    return "".join(page("diff", [text], ctx, titles))
