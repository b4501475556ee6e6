"""`--output-file PATH`, for every command: never one of the inputs, and written the way its kind
of file wants (issue 29, items 2 and 3).

Never an input: `refuse_inputs` compares PATH with every input by file identity (device and
inode, through symlinks, `./` and `..` spellings, hard links, and stdin redirected from a file),
before anything is read. An input directory stands for the YAML and JSON files below it, so an
existing such file under it is an input too.

Written by kind:
- a regular file (or a path that does not exist yet) is written to a temporary file beside it
  and renamed over it on success, so a failed run leaves no half report; an existing file keeps
  its permission bits;
- a symlink is written through: its target gets the report (renamed over as above) and the link
  stays a link;
- anything else (a FIFO, a terminal, a device such as /dev/null, and the descriptor names
  /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N) is opened and written into, never
  replaced: a reader at the FIFO gets the report, /dev/null stays a device. A reader that goes
  away early does not change the exit code (prio.cli.pipes)."""
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
    """The regular file to write by rename (the symlink's target for a symlink), or None: write
    into `path` as it is."""
    if os.path.abspath(path).startswith(_DESCRIPTOR_DIRS):
        return None
    target = os.path.realpath(path)
    st = _stat(target)
    if st is not None and not stat.S_ISREG(st.st_mode):
        return None
    return target


def _cannot(path: str, e: OSError, what: str = "cannot write") -> InputError:
    return InputError(path, f"{what}: {e.strerror or e}")


def _open_into(path: str):
    from prio.cli.pipes import PipeSafe

    try:
        fh = open(path, "a", encoding="utf-8", newline="")  # no O_TRUNC: a device or a descriptor is written into as it is
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
    st = _stat(target)
    if st is not None:
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
