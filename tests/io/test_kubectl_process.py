"""prio.io.kubectl against hostile kubectl processes and messages (issue 43, items 4 and 5): the
deadline ends the whole process group (a wrapper that does not `exec` included), stderr is read
while kubectl runs (a flood of warnings is no hang), an endless deadline is refused, and every
common shape of credential in kubectl's error text is masked."""
from __future__ import annotations

import os
import stat
import time

import pytest

from prio.errors import InputError


def _kubectl(tmp_path, monkeypatch, script: str) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "kubectl"
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")


def test_the_deadline_ends_a_wrapper_that_does_not_exec(tmp_path, monkeypatch):
    from prio.io import kubectl

    # the shell waits for its child, which keeps stdout open: killing the shell alone is no end
    _kubectl(tmp_path, monkeypatch, "sleep 30\necho '{}'\n")
    started = time.monotonic()
    with pytest.raises(InputError, match="did not answer within 0.5 seconds"):
        kubectl.get(["get", "pods", "-o", "json"], timeout=0.5)
    assert time.monotonic() - started < 10


def test_a_flood_of_warnings_on_stderr_is_read_while_kubectl_runs(tmp_path, monkeypatch):
    from prio.io import kubectl

    # 800 KB of warnings, far more than a pipe holds, then the answer
    _kubectl(tmp_path, monkeypatch, "i=0\nwhile [ $i -lt 10000 ]; do echo 'W1201 warning: a deprecated API version is in use, and so on and so on' >&2; i=$((i+1)); done\necho '{\"items\": []}'\n")
    assert kubectl.items(kubectl.get(["get", "pods", "-o", "json"], timeout=20)) == []


def test_a_failure_after_a_flood_of_warnings_quotes_the_last_line(tmp_path, monkeypatch):
    from prio.io import kubectl

    _kubectl(tmp_path, monkeypatch, "i=0\nwhile [ $i -lt 10000 ]; do echo 'W1201 warning: a deprecated API version is in use, and so on and so on' >&2; i=$((i+1)); done\n"
                                    "echo 'Error from server (Forbidden): pods is forbidden' >&2\nexit 1\n")
    with pytest.raises(InputError, match=r"forbidden: .*pods is forbidden"):
        kubectl.get(["get", "pods", "-o", "json"], timeout=20)


@pytest.mark.parametrize("raw", ["inf", "Infinity", "nan", "1e999", "0", "-1", "soon"])
def test_a_deadline_that_never_comes_is_refused(monkeypatch, raw):
    from prio.cli import kube

    monkeypatch.setenv("PRIO_KUBECTL_TIMEOUT", raw)
    with pytest.raises(InputError, match="PRIO_KUBECTL_TIMEOUT|must be"):
        kube._timeout()


SECRETS = [
    ("Authorization: Bearer", "error: request failed: Authorization: Bearer s3cr3tT0ken-value", "s3cr3tT0ken-value"),
    ("Authorization: Basic", "error: Authorization: Basic dXNlcjpzM2NyM3Q= was refused", "dXNlcjpzM2NyM3Q="),
    ("bearer alone", "error: You must be logged in to the server (Unauthorized): Bearer abc.def.ghi rejected", "abc.def.ghi"),
    ("access_token JSON", 'error: exec plugin answered {"access_token": "ya29.A0s3cr3t", "expires_in": 3599}', "ya29.A0s3cr3t"),
    ("id_token JSON", "error: oidc: {\"id_token\":\"opaque-id-s3cr3t\"}", "opaque-id-s3cr3t"),
    ("refresh_token JSON", "error: oidc refresh failed: {'refresh_token': 'r3fr3sh-s3cr3t'}", "r3fr3sh-s3cr3t"),
    ("client-secret=", "error: exec: get-token --client-id=prio --client-secret=cl13nt-s3cr3t failed", "cl13nt-s3cr3t"),
    ("client_secret JSON", 'error: {"client_secret":"cl13nt-s3cr3t-2"}', "cl13nt-s3cr3t-2"),
    ("password=", "error: password=hunter2 rejected", "hunter2"),
    ("token=", "error: token=abcdef123 rejected", "abcdef123"),
    ("URL password", "Unable to connect to the server: dial https://admin:hunter2@10.0.0.1:6443/api: refused", "hunter2"),
    ("JWT", "error: the server rejected eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqYW5lIn0.c2lnbmF0dXJl as expired", "eyJzdWIiOiJqYW5lIn0"),
    ("JWT quoted", "error: 'eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJrOHMifQ.sig-nat_ure' is invalid", "sig-nat_ure"),
]


@pytest.mark.parametrize("shape,stderr,secret", SECRETS, ids=[s[0] for s in SECRETS])
def test_every_common_shape_of_credential_is_masked(shape, stderr, secret):
    from prio.io.kubectl import _fault

    line = _fault(stderr + "\n", 1)
    assert secret not in line, line
    assert "***" in line, line


def test_masking_keeps_the_words_that_say_what_went_wrong():
    from prio.io.kubectl import _fault

    line = _fault("Unable to connect to the server: dial https://admin:hunter2@10.0.0.1:6443/api: refused\n", 1)
    assert line.startswith("the API server cannot be reached") and "https://admin:***@10.0.0.1:6443/api" in line, line
