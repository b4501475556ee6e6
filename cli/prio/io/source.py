"""Reading input files as text: size cap, encodings, binary detection, stdin, directories."""
from __future__ import annotations

import codecs
import os
import stat
import sys
from dataclasses import dataclass

from prio.errors import InputError
from prio.io import caps

# Real queue configs are kilobytes; snapshots of a million asks are large but JSON-friendly.
# The defaults of the caps (prio.io.caps): the environment raises them for a run.
MAX_CONFIG_BYTES = caps.CONFIG_BYTES.default
MAX_SNAPSHOT_BYTES = caps.INPUT_BYTES.default
YAML_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Source:
    name: str  # as the user gave it ("-" shown as "<stdin>")
    text: str


def decode(name: str, data: bytes) -> str:
    """Bytes to text the way a YAML parser would accept them: UTF-8, or UTF-16/32 with a BOM."""
    for bom, enc in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                     (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                     (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(enc)
            except UnicodeDecodeError as e:
                raise InputError(name, f"invalid {enc} text at byte {e.start}") from None
    if b"\0" in data[:8192] or b"\0" in data:
        raise InputError(name, "binary file (contains NUL bytes), expected YAML or JSON text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(name, f"not UTF-8 text (invalid byte 0x{data[e.start]:02x})", line) from None


# Inputs already read by other means, by the name they were given (prio diff's REV:PATH).
PROVIDED: dict = {}


def read(path: str, limit: int | None = None) -> Source:
    """Read one path ("-" = stdin). Never writes; refuses directories, specials and huge files."""
    if limit is None:
        limit = MAX_CONFIG_BYTES
    cap = {caps.CONFIG_BYTES.default: caps.CONFIG_BYTES, caps.INPUT_BYTES.default: caps.INPUT_BYTES}.get(limit)
    if cap is not None:
        limit = cap.value()  # a kind's default limit, raised by the environment where it says so
    hint = f" ({cap.env}=N raises the cap)" if cap is not None else ""
    if path in PROVIDED:
        return Source("<stdin>" if path == "-" else path, PROVIDED[path])
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
        name = "<stdin>"
    else:
        name = path
        try:
            st = os.stat(path)
        except FileNotFoundError:
            raise InputError(name, "no such file") from None
        except OSError as e:
            raise InputError(name, e.strerror or str(e)) from None
        if os.path.isdir(path):
            raise InputError(name, "is a directory")
        if st.st_size > limit:
            raise InputError(name, f"file is {st.st_size} bytes; prio reads at most {limit} bytes of this kind of input{hint}")
        try:
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
        except OSError as e:
            raise InputError(name, e.strerror or str(e)) from None
    if len(data) > limit:
        raise InputError(name, f"input exceeds {limit} bytes; prio reads at most that much of this kind of input{hint}")
    return Source(name, decode(name, data))


def in_tree(root: str, path: str) -> str | None:
    """Why `path`, found under the directory `root`, is not read (None: it is): only regular
    files are, and a symlink only when its target is one inside `root`. A FIFO would block the
    run forever, a device or a link to /dev/stdin wait on input, and a link out of the tree
    quote another file's lines (issue 43, item 4). Looked at with lstat: nothing is opened."""
    try:
        st = os.lstat(path)
    except OSError as e:
        return e.strerror or str(e)
    if stat.S_ISLNK(st.st_mode):
        real, top = os.path.realpath(path), os.path.realpath(root)
        if os.path.commonpath([real, top]) != top:
            return "a symlink to outside the directory, not followed"
        try:
            st = os.stat(real)
        except OSError:
            return "a symlink to nothing"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file (a FIFO, a socket or a device), not opened"
    return None


def expand(paths: list[str], skipped: list | None = None) -> list[str]:
    """Directories become the regular YAML/JSON files below them (sorted, see in_tree); other
    paths pass unchanged. What a directory holds but is not read goes to `skipped` as notes."""
    out: list[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = []
            for dirpath, dirnames, filenames in os.walk(p):  # symlinked directories are not walked
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for f in filenames:
                    if not f.endswith(YAML_SUFFIXES):
                        continue
                    path = os.path.join(dirpath, f)
                    why = in_tree(p, path)
                    if why is None:
                        found.append(path)
                    elif skipped is not None:
                        skipped.append(f"{path}: skipped: {why}")
            out += sorted(found)
        else:
            out.append(p)
    return out
