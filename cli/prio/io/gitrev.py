"""REV:PATH arguments (`prio diff origin/main:deploy/queues.yaml ...`): the file as it is at a git
revision, read with `git cat-file` (the I/O edge; read-only: cat-file never writes)."""
from __future__ import annotations

import os
import shutil
import subprocess

from prio.errors import InputError
from prio.io import source


def is_rev_path(arg: str) -> bool:
    """REV:PATH when it is not a file that exists and has a non-empty revision before a colon."""
    if arg == "-" or os.path.exists(arg):
        return False
    rev, sep, path = arg.partition(":")
    return bool(sep and rev and path) and not (len(rev) == 1 and rev.isalpha() and os.name == "nt")


def show(arg: str, limit: int = source.MAX_SNAPSHOT_BYTES, cwd: str | None = None) -> str:
    """The text of REV:PATH. PATH is taken as git takes it: relative to the repository root, or
    to the working directory when it starts with ./ or ../ (git's own rule).

    The blob's size is asked first (`git cat-file -s`) and a blob over `limit` is refused
    without reading it; `--end-of-options` keeps an argument that starts with a dash (a REV of
    `--output=FILE`) from being read as one of git's options."""
    git = shutil.which("git")
    if git is None:
        raise InputError(arg, "reading REV:PATH needs git, and git is not installed (or not on PATH)")
    kind = _git(git, arg, ["cat-file", "-t", "--end-of-options", arg], cwd).decode("utf-8", "replace").strip()
    if kind != "blob":
        raise InputError(arg, f"is a {kind or 'missing object'} in git, not a file")
    size = _git(git, arg, ["cat-file", "-s", "--end-of-options", arg], cwd).decode("ascii", "replace").strip()
    if not size.isdigit():
        raise InputError(arg, f"git gave no size for it ({size[:40]!r})")
    if int(size) > limit:
        raise InputError(arg, f"is {size} bytes in git; prio reads at most {limit} bytes of this kind of input")
    data = _git(git, arg, ["cat-file", "blob", "--end-of-options", arg], cwd)
    if len(data) > limit:  # it changed between the two calls (a ref moved)
        raise InputError(arg, f"input exceeds {limit} bytes; prio reads at most that much of this kind of input")
    return source.decode(arg, data)


def _git(git: str, arg: str, args: list, cwd) -> bytes:
    try:
        done = subprocess.run([git, *args], capture_output=True, cwd=cwd, stdin=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        raise InputError(arg, f"could not run git: {e}") from None
    if done.returncode != 0:
        msg = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = next((m for m in msg if m.startswith("fatal:")), msg[0] if msg else f"exit code {done.returncode}")
        raise InputError(arg, f"git cannot read it: {why.removeprefix('fatal: ')}")
    return done.stdout
