"""`prio validate DIR` reads only regular files of the tree (issue 43, item 4): a FIFO, a device,
a socket or a symlink to /dev/stdin is never opened (each would block the run or wait on input),
and a symlink out of the scanned tree is not followed (it would quote another file's lines).
A symlink inside the tree is read; `-v` says what was passed over and why."""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest
from test_suppress import QUEUES

from conftest import prio_env

OUTSIDE = QUEUES.replace("team.a", "secret-line-from-outside.x")


@pytest.fixture
def tree(tmp_path):
    d = tmp_path / "deploy"
    d.mkdir()
    (d / "queues.yaml").write_text(QUEUES)
    os.mkfifo(d / "blocked.yaml")
    os.symlink("/dev/stdin", d / "stdin.yaml")
    os.symlink("/dev/zero", d / "zero.yaml")
    (tmp_path / "elsewhere.yaml").write_text(OUTSIDE)
    os.symlink(tmp_path / "elsewhere.yaml", d / "escape.yaml")
    os.symlink("queues.yaml", d / "alias.yaml")  # inside the tree: read
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(d / "sock.yaml"))
    yield d
    s.close()


def _validate(*args, cwd=None):
    # a real process with a deadline: before, the FIFO blocked it forever
    return subprocess.run([sys.executable, "-m", "prio", "validate", *args, "-o", "text"], capture_output=True,
                          text=True, env=prio_env(), cwd=cwd, timeout=30, stdin=subprocess.PIPE)


def test_only_regular_files_inside_the_tree_are_read(tree):
    r = _validate(str(tree), "-v")
    assert r.returncode == 1, r.stderr
    assert "secret-line-from-outside" not in r.stdout + r.stderr
    assert "alias.yaml" in r.stdout and "queues.yaml" in r.stdout
    for name, why in (("blocked.yaml", "not a regular file"), ("sock.yaml", "not a regular file"),
                      ("stdin.yaml", "a symlink to outside the directory, not followed"),
                      ("zero.yaml", "a symlink to outside the directory, not followed"),
                      ("escape.yaml", "a symlink to outside the directory, not followed")):
        assert f"{name}: skipped: {why}" in r.stderr, (name, r.stderr)


def test_simulate_reading_a_directory_passes_over_them_too(tree):
    r = subprocess.run([sys.executable, "-m", "prio", "simulate", str(tree), "-o", "json"], capture_output=True,
                       text=True, env=prio_env(), timeout=30, stdin=subprocess.PIPE)
    assert "secret-line-from-outside" not in r.stdout + r.stderr
    assert r.returncode in (0, 1, 2) and "Traceback" not in r.stderr
