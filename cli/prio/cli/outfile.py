"""`--output-file PATH`, for every command: never one of the inputs, and written the way its kind
of file wants (issue 29, items 2 and 3).

Never an input: `refuse_inputs` compares PATH with every input by file identity (device and
inode, through symlinks, `./` and `..` spellings, hard links, and stdin redirected from a file),
before anything is read. An input directory stands for the YAML and JSON files below it, so an
existing such file under it is an input too.

Written by kind, and never through a symlink prio did not create (issue 43, item 6: a link
planted in a shared folder such as /tmp cannot redirect the report):
- a regular file, a path that does not exist yet, or a symlink is written to a temporary file
  made beside it (O_EXCL, by mkstemp) and renamed over the name on success, so a failed run
  leaves no half report and a link is replaced, its target left alone; an existing regular file
  keeps its permission bits;
- anything else (a FIFO, a terminal, a device) is opened with O_NOFOLLOW and written into, never
  replaced: a reader at the FIFO gets the report. The descriptor names /dev/stdout, /dev/stderr,
  /dev/fd/N, /proc/self/fd/N (links the system made, not a user's) and the devices under /dev
  such as /dev/null are opened as named. A reader that goes away early does not change the exit
  code (prio.cli.pipes)."""
from __future__ import annotations

import os
import stat
import sys

from prio.errors import InputError

_DESCRIPTOR_DIRS = ("/dev/", "/proc/")
_READ_SUFFIXES = (".yaml", ".yml", ".json")  # prio.io.source.YAML_SUFFIXES: what a directory stands for


def to_file(path) -> bool:
    return path not in (None, "", "-")


def _stat(path: str):
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _stdin_stat():
    try:
        return os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return None


def _same(a, b) -> bool:
    return a is not None and b is not None and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _under(directory, path: str) -> bool:
    """Whether `path` lies below the directory whose stat is `directory` (by identity)."""
    d = os.path.dirname(os.path.realpath(path))
    while True:
        if _same(_stat(d), directory):
            return True
        parent = os.path.dirname(d)
        if parent == d:
            return False
        d = parent


def refuse_inputs(path, inputs) -> None:
    """An InputError when `path` (an --output-file) is one of `inputs` (file names, directories,
    "-" for stdin; names that are no file, such as REV:PATH, are passed over)."""
    if not to_file(path):
        return
    out = _stat(path)
    if out is None:
        return  # nothing there yet: nothing of an input to overwrite
    for name in inputs:
        if not name:
            continue
        st = _stdin_stat() if name == "-" else _stat(name)
        if st is None:
            continue
        if _same(st, out) or (stat.S_ISDIR(st.st_mode) and stat.S_ISREG(out.st_mode)
                              and path.endswith(_READ_SUFFIXES) and _under(st, path)):
            what = "the file standard input reads" if name == "-" else "one of the inputs" \
                if os.path.normpath(name) == os.path.normpath(path) else f"one of the inputs ({name})"
            raise InputError(path, f"is {what}; prio never writes to its inputs (choose another --output-file)")


def _replaceable(path: str) -> str | None:
    """`path` itself when it is written by rename (a regular file, nothing yet, a symlink: never
    followed), or None: write into it as it is (a FIFO, a device, a descriptor name)."""
    if os.path.abspath(path).startswith(_DESCRIPTOR_DIRS):
        return None
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return path
    return path if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode) else None


def _cannot(path: str, e: OSError, what: str = "cannot write") -> InputError:
    return InputError(path, f"{what}: {e.strerror or e}")


def _open_into(path: str):
    from prio.cli.pipes import PipeSafe

    # no O_TRUNC: a device or a descriptor is written into as it is; O_NOFOLLOW: a FIFO or device
    # swapped for a link since it was looked at is refused, not followed (the system's own
    # descriptor links under /dev and /proc are followed: they name prio's own descriptors)
    follow = os.path.abspath(path).startswith(_DESCRIPTOR_DIRS)
    flags = os.O_WRONLY | os.O_APPEND | os.O_NOCTTY | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    try:
        fh = os.fdopen(os.open(path, flags), "a", encoding="utf-8", newline="")
    except OSError as e:
        raise _cannot(path, e) from None
    return fh, PipeSafe(fh)


def _temp_beside(path: str, target: str):
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".prio-", dir=os.path.dirname(target))
    except OSError as e:
        raise _cannot(path, e, "cannot write here") from None
    return fd, tmp


def _commit(path: str, tmp: str, target: str) -> None:
    try:
        st = os.lstat(target)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        mode = stat.S_IMODE(st.st_mode)
    else:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask  # as open() would have made it, not mkstemp's 0600
    try:
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as e:
        raise _cannot(path, e) from None


def _drop(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_text(path, text: str) -> None:
    """A finished report to `path` (None or -: standard output); a path that cannot be written is
    an input error (one line, exit 2)."""
    if not to_file(path):
        sys.stdout.write(text)
        return
    target = _replaceable(path)
    if target is None:
        fh, safe = _open_into(path)
        try:
            with fh:
                safe.write(text)
                safe.flush()
        except OSError as e:
            raise _cannot(path, e) from None
        return
    fd, tmp = _temp_beside(path, target)
    ok = False
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        _commit(path, tmp, target)
        ok = True
    except OSError as e:
        raise _cannot(path, e) from None
    finally:
        if not ok:
            _drop(tmp)


def redirected(path, fn) -> int:
    """Run `fn` with stdout going to `path` (None or -: stdout itself); its exit code. A regular
    file is renamed into place only when the run succeeds (0 or 1), so a failed run leaves no half
    report; a special file has had what was written."""
    if not to_file(path):
        return fn()
    target = _replaceable(path)
    saved = sys.stdout
    if target is None:
        fh, safe = _open_into(path)
        try:
            sys.stdout = safe
            try:
                return fn()
            finally:
                sys.stdout = saved
                safe.flush()
        finally:
            try:
                fh.close()
            except OSError:
                pass
    fd, tmp = _temp_beside(path, target)
    ok = False
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            sys.stdout = fh
            try:
                code = fn()
            finally:
                sys.stdout = saved
        if code in (0, 1):
            _commit(path, tmp, target)
            ok = True
        return code
    finally:
        if not ok:
            _drop(tmp)
