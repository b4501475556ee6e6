"""Reading a cluster through the user's own `kubectl` (--kube, `kubectl prio`): no Kubernetes
client library, the user's kubeconfig and credentials as kubectl uses them, and only `get`.

Each call is `kubectl [--context C] get ... -o json` with a deadline (the process is killed when
it passes) and a cap on what is read of its output (a million pods is about a gigabyte of JSON,
as for snapshot files: prio.io.caps.INPUT_BYTES); prio.cli.kube counts the objects of each answer
against the caps before reading one. Every fault is one InputError naming what was asked: kubectl missing,
no current context or an unknown one, the API server unreachable, forbidden, not found, a
deadline passed, output that is not JSON. kubectl's own message is quoted by its last line
only, with every common shape of credential masked (`_mask`).

kubectl runs in a process group of its own, and the deadline ends the whole group: a wrapper
script that does not `exec` (or an exec credential plugin) would otherwise keep the output pipe
open and prio waiting. Its stderr is read while it runs, keeping only the tail, so a flood of
warnings can never fill the pipe and stall it."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading

from prio.errors import InputError

DEFAULT_TIMEOUT = 30.0  # seconds for one kubectl call, connecting included
_STDERR_BYTES = 64 * 1024
_CHUNK = 1024 * 1024
# The shapes credentials take in kubectl's and its auth plugins' messages: each keeps its
# first group (what names the secret) and loses the rest. One list, tested shape by shape.
_SECRETS = tuple(re.compile(p) for p in (
    r"(?i)(\b(?:bearer|basic)\s+)[^\s\"',;]+",                           # Authorization: Bearer/Basic X
    r"(?i)([\"']?\b[\w-]*(?:token|secret|password|passwd)[\"']?\s*[=:]\s*[\"']?)[^\s\"',;}]+",  # key: value, key=value, JSON
    r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+(?=@)",               # scheme://user:PASSWORD@host
    r"()\beyJ[\w-]*\.[\w-]+\.[\w-]*",                                  # a JWT: base64url JSON header
))


def command(args: list[str], context: str | None = None) -> list[str]:
    """The kubectl command line for `args` (a `get`), on `context` when given."""
    assert args and args[0] == "get", "prio only reads: kubectl get"
    return ["kubectl", *(["--context", context] if context else []), *args]


def label(args: list[str], context: str | None = None) -> str:
    """How the input is named in messages: the command a user would type."""
    return " ".join(command(args, context))


def get(args: list[str], context: str | None = None, timeout: float | None = None,
        limit: int | None = None) -> str:
    """The JSON text `kubectl get ARGS` prints; InputError (one line, exit 2) on any fault.
    `limit`: the bytes read of it, by default the input cap (prio.io.caps.INPUT_BYTES, which
    PRIO_MAX_INPUT_BYTES raises)."""
    from prio.io import caps

    name = label(args, context)
    raised = f"; {caps.INPUT_BYTES.env}=N raises the cap" if limit is None else ""
    limit = caps.INPUT_BYTES.value() if limit is None else limit
    argv = command(args, context)
    try:
        # a session of its own: the deadline can end kubectl and everything it started
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except FileNotFoundError:
        raise InputError(name, "kubectl is not on PATH: install it, or give the cluster's objects as files "
                               "(kubectl get pods -A -o json > pods.json)") from None
    except OSError as e:
        raise InputError(name, f"cannot run kubectl: {e.strerror or e}") from None
    timed_out = threading.Event()

    def kill() -> None:
        timed_out.set()
        _kill_group(proc)

    timer = threading.Timer(timeout or DEFAULT_TIMEOUT, kill)
    err = bytearray()

    def drain() -> None:
        # read all of it (a full pipe would stall kubectl), keep the tail: the summary is last
        while chunk := proc.stderr.read(_CHUNK):
            err.extend(chunk)
            if len(err) > _STDERR_BYTES:
                del err[:-_STDERR_BYTES]

    reader = threading.Thread(target=drain, daemon=True)
    timer.start()
    reader.start()
    try:
        out = bytearray()
        while len(out) <= limit:
            chunk = proc.stdout.read(_CHUNK)
            if not chunk:
                break
            out += chunk
        if len(out) > limit:
            _kill_group(proc)
            raise InputError(name, f"kubectl printed more than {limit} bytes; prio reads at most that much{raised}")
        code = proc.wait()
        reader.join(timeout=5)
    finally:
        timer.cancel()
        if proc.poll() is None:
            _kill_group(proc)
        proc.wait()
        reader.join(timeout=5)
        proc.stdout.close()
        proc.stderr.close()
    if timed_out.is_set():
        raise InputError(name, f"kubectl did not answer within {timeout or DEFAULT_TIMEOUT:g} seconds "
                               "(PRIO_KUBECTL_TIMEOUT=SECONDS to wait longer)")
    if code != 0:
        raise InputError(name, _fault(bytes(err).decode("utf-8", "replace"), code))
    text = out.decode("utf-8", "replace")
    if text.strip():
        try:
            json.loads(text)
        except json.JSONDecodeError:
            raise InputError(name, "kubectl's output is not JSON") from None
        except ValueError:  # past Python's 4300 digits: out of range for anything prio reads
            raise InputError(name, "kubectl's output holds a number of thousands of digits: out of range for any "
                                   "value prio reads") from None
        except RecursionError:
            raise InputError(name, "kubectl's output is nested too deeply for prio to read") from None
    return text


def _kill_group(proc: subprocess.Popen) -> None:
    """End kubectl and whatever it started (its session's process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:  # already gone (or no such group): kill the one process we know
        try:
            proc.kill()
        except OSError:
            pass


def _mask(text: str) -> str:
    """`text` with every credential of the shapes in _SECRETS written as ***."""
    for pattern in _SECRETS:
        text = pattern.sub(lambda m: m.group(1) + "***", text)
    return text


def _fault(stderr: str, code: int) -> str:
    """kubectl's failure as one line: what it means for prio, then kubectl's last line."""
    # kubectl's own summary is its last line (klog lines may come before it)
    first = next((ln.strip() for ln in reversed(stderr.splitlines()) if ln.strip()), f"kubectl exited with status {code}")
    first = _mask(first)[:300]
    low = stderr.lower()
    if "current-context is not set" in low or "no configuration has been provided" in low:
        why = "kubectl has no current context: give --context NAME, or set one (kubectl config use-context NAME)"
    elif re.search(r'context "[^"]*" does not exist', low) or "no context exists with the name" in low:
        why = "no such context in your kubeconfig (kubectl config get-contexts lists them)"
    elif "(forbidden)" in low or " is forbidden" in low:
        why = "forbidden: your credentials may not read this (prio needs get on it)"
    elif "(unauthorized)" in low or "must be logged in" in low:
        why = "the API server refused your credentials (log in again)"
    elif "(notfound)" in low or "the server doesn't have a resource type" in low:
        why = "not found"
    elif "unable to connect" in low or "connection refused" in low or "was refused" in low or "no such host" in low or "i/o timeout" in low:
        why = "the API server cannot be reached"
    else:
        why = f"kubectl failed (exit {code})"
    return f"{why}: {first}"


def items(text: str) -> list:
    """The objects of a `kubectl get -o json` answer (a List, or one object; nothing: none)."""
    if not text.strip():
        return []
    doc = json.loads(text)
    if isinstance(doc, dict) and isinstance(doc.get("items"), list):
        return doc["items"]
    return [doc] if isinstance(doc, dict) else []
