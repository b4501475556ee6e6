"""--yunikorn URL for explain, simulate and snapshot (and preempt, diff): the options, turned
into an HTTP client, and the server's state, turned into the inputs the commands run on."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from prio.cli.guard import say
from prio.errors import InputError

HEADER_ENV = "PRIO_YUNIKORN_HEADER"
TIMEOUT_ENV = "PRIO_YUNIKORN_TIMEOUT"


@dataclass
class Remote:
    url: str
    headers: list = field(default_factory=list)
    cacert: str | None = None
    timeout: float | None = None


URL_ENV = "PRIO_YUNIKORN_URL"


def remote(url, headers=(), cacert=None, timeout=None, paths=(), sample=None) -> Remote | None:
    """The --yunikorn options, or None when no URL is given. PRIO_YUNIKORN_URL stands in for
    --yunikorn only when no input files (or --sample) are given, so files still work with it set."""
    if url is None and not paths and not sample:
        url = os.environ.get(URL_ENV)
    url = (url or "").strip()
    extra = [h for h in os.environ.get(HEADER_ENV, "").splitlines() if h.strip()]
    if not url:
        if headers or cacert or timeout is not None:
            given = "--header" if headers else "--cacert" if cacert else "--timeout"
            raise InputError(given, "goes with --yunikorn URL (or PRIO_YUNIKORN_URL)")
        return None
    if cacert is None:
        cacert = os.environ.get("PRIO_YUNIKORN_CACERT") or None
    from prio.io.http import check_timeout, parse_header

    if timeout is not None:
        timeout = check_timeout(timeout, "--timeout")
    elif os.environ.get(TIMEOUT_ENV, "").strip():
        timeout = check_timeout(os.environ[TIMEOUT_ENV].strip(), TIMEOUT_ENV)
    # Each header checked here, where its source is known; a message never quotes one (a token).
    parsed = [parse_header(h, HEADER_ENV) for h in extra] + [parse_header(h, "--header") for h in headers or []]
    return Remote(url, parsed, cacert, timeout)


def client(r: Remote, verbose: bool = False):
    from prio.io.http import Client

    log = (lambda line: say(f"prio: {line}")) if verbose else None
    return Client(r.url, r.headers, r.timeout, r.cacert, log=log)


def _progress(line: str) -> None:
    say(f"prio: {line}")
    sys.stderr.flush()


def fetch(r: Remote, partition=None, verbose: bool = False, paths=(), sample=None, classes=(), version=None, judge=False,
          schedules: bool = True):
    """The server's state (prio.yunikorn.load.live.Live). Input files do not mix with --yunikorn.
    `judge`: its config is judged by the YuniKorn release `version` names, or, not given, the one
    the server shows (server_release); else by the newest, and nothing is noted. `schedules`:
    False for a command that schedules nothing (prio snapshot), which names no scheduling rules."""
    if paths or sample:
        raise InputError("--yunikorn", "reads everything from the server; give no input files or --sample with it")
    if classes:
        raise InputError("--priority-classes", "not needed with --yunikorn: the server's asks carry resolved priorities")
    from prio import backends
    from prio.yunikorn.load import live

    state = live.fetch(client(r, verbose), partition, progress=_progress)
    backends.judge(state.inputs, server_release(state, version) if judge else None, schedules)
    if verbose:
        snap = state.inputs.snapshot
        config = next((what for _, what in state.fetched if what.startswith("the queue config")), "no config endpoint")
        from prio.values import count

        say(f"prio: {state.url}: partition {state.partition} (of {', '.join(state.partitions)}); {config}; "
                         f"{count(len(state.inputs.rest_queues), 'queue')}, {count(len(snap.apps), 'active application')} with "
                         f"{count(snap.ask_count(), 'pending ask')}, {count(state.allocations, 'running allocation')}, "
                         f"{len(state.rejected)} rejected, {count(len(state.nodes), 'node')}")
        say(f"prio: {state.url}: REST shape seen: {state.shape}")
    state.inputs.recognised = []  # said above, with the URLs
    return state


def load(r: Remote, o):
    """Inputs for explain, simulate and preempt from a running YuniKorn (`o`: the command's options)."""
    o.release()  # an unknown one ends the run before the server is asked
    return fetch(r, o.partition, o.verbose, o.inputs, o.sample, o.priority_classes, o.version_asked(), judge=True).inputs


def server_release(state, version):
    """The YuniKorn release a server's state is judged by: `version` (--yunikorn-version, known),
    with a note when the server's queue tree has the REST shape of other releases only; not
    given, the newest release the shape allows, said when it is not the newest."""
    from prio.yunikorn import releases

    shown = releases.from_queue_fields(state.queue_fields)
    if version is not None:
        release = releases.get(version)
        if shown and release.name not in shown:
            state.inputs.notes.append(f"{state.url}: --yunikorn-version {release.name}, but the server's queues have the REST shape "
                                      f"of YuniKorn {releases.span(shown)}")
        return release
    release = releases.RELEASES[shown[-1]] if shown else releases.NEWEST
    if release is not releases.NEWEST:
        state.inputs.notes.append(f"{state.url}: judged as YuniKorn {release.name}, the release whose REST shape the server's "
                                  "queues have (--yunikorn-version says otherwise)")
    return release
