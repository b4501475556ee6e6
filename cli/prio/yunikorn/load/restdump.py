"""A YuniKorn REST dump saved by URL: a directory whose files mirror the request paths
(`ws/v1/partition/default/queues.json`, `ws/v1/partition/default/applications/active.json`,
`ws/v1/config.yaml`; a query string as `@name-value` in the file name), as `curl --create-dirs`
saves them and as ../shared/testdata/yunikorn-rest-live records them.

Such a directory is read as the server it recorded: the same reading as `--yunikorn URL`
(prio.yunikorn.load.live), with a file standing in for each response. The directory may be the dump's
top (holding `ws/`), `ws/v1`, or one partition's folder (`ws/v1/partition/default/`, or any folder
holding `queues.json` and `applications/`); a top with YAML or JSON files of its own is read as
those files, as any directory is. A response the reading needs and the dump lacks is
one line naming the file to save; the ones a server may lack too (config, nodes, rejected
applications) are a note, as from a server."""
from __future__ import annotations

import os

from prio.errors import InputError

_TYPES = {".json": "application/json", ".yaml": "application/x-yaml", ".yml": "application/x-yaml"}


def layout(path: str):
    """(top, partition folder or None, partition name or None) when `path` is a directory laid
    out by URL, else None."""
    if path == "-" or not os.path.isdir(path):
        return None
    p = os.path.normpath(path)
    # The folders' names are read from the absolute path: a relative one ("ws", "v1", ".") has
    # no parent in its own text. The returned paths stay relative to what the user gave.
    parts = os.path.abspath(p).replace("\\", "/").split("/")
    if os.path.isdir(os.path.join(p, "ws", "v1")) and not _inputs_beside(p):
        return p, None, None  # the dump's top (with files of its own, those are read instead)
    if parts[-1] == "ws" and os.path.isdir(os.path.join(p, "v1")):
        return _up(p, 1), None, None
    if parts[-2:] == ["ws", "v1"]:
        return _up(p, 2), None, None
    if parts[-3:] == ["ws", "v1", "partition"]:
        return _up(p, 3), None, None
    if parts[-4:-1] == ["ws", "v1", "partition"]:
        return _up(p, 4), p, parts[-1]
    if os.path.isfile(os.path.join(p, "queues.json")) and os.path.isdir(os.path.join(p, "applications")):
        return None, p, None  # one partition's responses, saved outside a ws/v1 tree
    return None


def _up(p: str, levels: int) -> str:
    """The folder `levels` above `p`, relative where `p` is ("ws" -> ".", "v1" -> "..")."""
    return os.path.normpath(os.path.join(p, *[os.pardir] * levels))


def _inputs_beside(d: str) -> bool:
    from prio.io import source

    return any(f.endswith(source.YAML_SUFFIXES) and os.path.isfile(os.path.join(d, f)) for f in os.listdir(d))


class _Response:
    """A saved response, as prio.io.http.Response is a received one."""

    def __init__(self, url: str, media_type: str, body: bytes):
        self.url, self.status, self.media_type, self.body = url, 200, media_type, body
        self.content_type = media_type


class DumpClient:
    """prio.io.http.Client's reading side over a saved dump: `get`, `get_json`, `url`, `base`."""

    def __init__(self, top: str | None, part_dir: str | None, part_name: str | None, given: str):
        self.top, self.part_dir, self.part_name, self.base = top, part_dir, part_name, given

    def _file(self, path: str, query: str = "") -> str:
        """The file that holds the response of GET `path` (without its suffix)."""
        rel = path.strip("/")
        if query:
            rel += "@" + query.replace("=", "-").replace("&", "@")
        prefix = f"ws/v1/partition/{self.part_name}/" if self.part_name else None
        if self.part_dir is not None and (self.top is None or prefix) and rel.startswith("ws/v1/partition/"):
            rest = rel.split("/", 4)[4] if rel.count("/") >= 4 else ""
            return os.path.join(self.part_dir, *rest.split("/"))
        return os.path.join(self.part_dir if self.top is None else self.top, *rel.split("/"))

    def _found(self, path: str, query: str = ""):
        stem = self._file(path, query)
        for suffix in (".yaml", ".json") if path.rstrip("/").endswith("/config") else (".json",):
            if os.path.isfile(stem + suffix):
                return stem + suffix
        return None

    def url(self, path: str, query: str = "") -> str:
        if self.top is None and not path.startswith("/ws/v1/partition/"):
            return f"{self.base} (no {path} beside one partition's folder)"
        return self._found(path, query) or self._file(path, query) + ".json"

    def get(self, path: str, query: str = "", accept: str = "application/json"):
        found = self._found(path, query)
        if found is None:
            if path == "/ws/v1/partitions" and self.part_name is None and self.top is not None:
                return self._partitions_from_folders()
            if path == "/ws/v1/partitions" and (self.part_name or self.top is None):
                # one partition's folder: that partition
                body = ('[{"name": "%s"}]' % (self.part_name or "default")).encode()
                return _Response(self.url(path), "application/json", body)
            # Applications are needed: without the active list, the per-queue lists stand in (an
            # older YuniKorn) only when the dump holds them; otherwise say what to save.
            fatal = path.endswith("/applications/active") and not os.path.isdir(os.path.dirname(self._file(path.replace("/applications/active", "/queue/x"))))
            raise InputError(self.url(path, query), missing(path, query, fatal))
        from prio.io import source

        with open(found, "rb") as fh:
            body = fh.read(source.MAX_SNAPSHOT_BYTES + 1)
        if len(body) > source.MAX_SNAPSHOT_BYTES:
            raise InputError(found, f"larger than {source.MAX_SNAPSHOT_BYTES} bytes; prio reads at most that much")
        return _Response(found, _TYPES.get(os.path.splitext(found)[1], "application/octet-stream"), body)

    def get_json(self, path: str, query: str = ""):
        from prio.io.http import decode_json

        return decode_json(self.get(path, query))

    def _partitions_from_folders(self):
        d = os.path.join(self.top, "ws", "v1", "partition")
        names = sorted(n for n in os.listdir(d) if os.path.isdir(os.path.join(d, n))) if os.path.isdir(d) else []
        if not names:
            raise InputError(os.path.join(d, ""), "a saved REST dump with no partition folder: save "
                             "/ws/v1/partition/NAME/queues and /ws/v1/partition/NAME/applications/active")
        if "default" in names:  # as a server lists it first
            names.remove("default")
            names.insert(0, "default")
        import json

        return _Response(self.url("/ws/v1/partitions"), "application/json", json.dumps([{"name": n} for n in names]).encode())


# What a missing response means; "HTTP 404" is what the live reading takes as "the server has
# none" for the endpoints a server may lack (config, rejected, nodes), and words it in its notes.
def missing(path: str, query: str = "", fatal: bool = False) -> str:
    what = path + (f"?{query}" if query else "")
    if path.endswith("/applications/active") or "/queue/" in path:
        need = "the pending asks and running allocations"
    elif path.endswith("/queues"):
        need = "the queue tree"
    else:
        need = "its response"
    return f"not in the saved dump{'' if fatal else ' (as HTTP 404 from a server)'}: save GET {what} here ({need})"


def whole(paths, classes_paths=()):
    """The inputs of a directory saved by URL, read as the server it recorded: alone, as
    --yunikorn reads a server (prio.io.gather asks it first, through YuniKorn's reader); None
    where no path is one."""
    paths, classes_paths = list(paths), list(classes_paths)
    dumps = [p for p in paths if layout(p) is not None]
    if not dumps:
        return None
    if len(paths) + len(classes_paths) > 1:
        raise InputError(dumps[0], "a saved REST dump (files by URL path) is read alone, as --yunikorn reads a server: "
                                   "its config, queues and applications; give no other inputs with it")
    return read(dumps[0]).inputs


def read(path: str, partition: str | None = None):
    """The dump at `path` as prio.yunikorn.load.live.Live (its Inputs: config, queues, applications,
    nodes, rejected applications)."""
    from prio.yunikorn.load import live

    top, part_dir, part_name = layout(path)
    client = DumpClient(top, part_dir, part_name, path)
    try:
        state = live.fetch(client, partition or part_name)
    except InputError as e:  # a response the reading needs: no "HTTP" in what is said of a folder
        raise InputError(e.file, e.message.replace(" (as HTTP 404 from a server)", ""), e.line, e.column) from None
    said = (("no config endpoint on this server (HTTP 404)", "no config in the saved dump"),
            ("not on this server (HTTP 404, an older YuniKorn)", "not in the saved dump"),
            ("not on this server (HTTP 404)", "not in the saved dump"))
    notes = state.inputs.notes
    for i, n in enumerate(notes):  # a server's words, said of a folder
        for server, folder in said:
            n = n.replace(server, folder)
        notes[i] = n
    return state
