"""Headless Chromium for the HTML report's tests (tests/browser), from the standard library only:
the browser runs as a process (`--dump-dom` gives the DOM after the page's script ran,
`--screenshot` a PNG), its console goes to stderr (`--enable-logging=stderr`), html.parser reads
the DOM and a small PNG decoder reads the pixels.

`browser()` finds Debian's `chromium` (or PRIO_CHROMIUM, or another Chromium/Chrome on PATH).
Without one the test is skipped, with how to get one, outside CI; in CI (CI=true) it fails: the
browser tests are part of what CI proves (.ci/run installs the browser)."""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
HOW = "apt-get install -y chromium (Debian), or set PRIO_CHROMIUM to a Chromium or Chrome binary"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def browser() -> str:
    """The browser's path; skips (outside CI) or fails (CI=true) without one."""
    path = os.environ.get("PRIO_CHROMIUM") or next((p for p in map(shutil.which, NAMES) if p), None)
    if path:
        return path
    if in_ci():
        pytest.fail(f"no Chromium for the browser tests in CI: {HOW}")
    pytest.skip(f"no Chromium found for the browser tests: {HOW}")


def _run(args: list, timeout: int = 120) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="prio-chromium-") as profile:
        cmd = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
               "--disable-background-networking", "--disable-sync", "--mute-audio", f"--user-data-dir={profile}",
               "--enable-logging=stderr", "--v=0", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def url(path: str, fragment: str = "") -> str:
    return "file://" + os.path.abspath(path) + (f"#{fragment}" if fragment else "")


def console(stderr: str) -> list[str]:
    """The page's console messages in Chromium's log."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def dump_dom(path: str, fragment: str = "", budget_ms: int = 5000, size=(1400, 900)) -> tuple[str, list[str]]:
    """The DOM after the page's scripts ran, and its console lines."""
    p = _run([f"--virtual-time-budget={budget_ms}", f"--window-size={size[0]},{size[1]}", "--dump-dom", url(path, fragment)])
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout, console(p.stderr)


def screenshot(path: str, out: str, fragment: str = "", size=(1400, 900), budget_ms: int = 5000) -> list[str]:
    """A PNG of the page at `out`; returns the console lines."""
    p = _run([f"--virtual-time-budget={budget_ms}", f"--window-size={size[0]},{size[1]}", "--hide-scrollbars",
              f"--screenshot={out}", url(path, fragment)])
    assert p.returncode == 0 and os.path.exists(out), p.stderr[-2000:]
    return console(p.stderr)


class Node:
    __slots__ = ("tag", "attrs", "children", "parent")

    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.children, self.parent = tag, dict(attrs), [], parent

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag=None, **attrs):
        """Every element below, in document order, with this tag and these attribute values
        (an attribute given as True: present; `cls`: one of its classes)."""
        out = []
        for c in self.children:
            if isinstance(c, str):
                continue
            if (tag is None or c.tag == tag) and all(_has(c, k, v) for k, v in attrs.items()):
                out.append(c)
            out.extend(c.all(tag, **attrs))
        return out

    def one(self, tag=None, **attrs):
        found = self.all(tag, **attrs)
        assert found, f"no <{tag or '*'} {attrs}> in the page"
        return found[0]

    def get(self, name, default=None):
        return self.attrs.get(name, default)


def _has(node, k, v) -> bool:
    if k == "cls":
        return v in (node.attrs.get("class") or "").split()
    k = k.replace("_", "-")
    if v is True:
        return k in node.attrs
    return node.attrs.get(k) == v


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in _VOID:
            self.cur = n

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(dom: str) -> Node:
    b = _Builder()
    b.feed(dom)
    return b.root


def png_pixels(path: str):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, as Chromium writes them."""
    with open(path, "rb") as fh:
        data = fh.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"PNG depth {depth} colour type {colour}"
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


class Page:
    """A page driven over Chromium's DevTools protocol on a pipe (`--remote-debugging-pipe`:
    JSON messages ended by NUL on fds 3 and 4, no websocket), for what a person does with keys
    and the mouse. `with Page(path) as p: p.key("ArrowDown"); p.js("document.title")`."""

    def __init__(self, path: str, fragment: str = "", size=(1280, 800), init: str | None = None):
        """`init`: a script the browser runs in the page before any of its own (DevTools'
        addScriptToEvaluateOnNewDocument: the page's CSP does not apply to it), e.g. a listener."""
        self.url, self.size, self.n, self.buf, self.session = url(path, fragment), size, 0, b"", None
        self.init = init

    def __enter__(self):
        to_child, self._w = os.pipe()
        self._r, from_child = os.pipe()
        self._profile = tempfile.TemporaryDirectory(prefix="prio-chromium-")

        def fds():  # the browser reads fd 3 and writes fd 4
            a, b = os.dup(to_child), os.dup(from_child)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             f"--user-data-dir={self._profile.name}", f"--window-size={self.size[0]},{self.size[1]}",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=fds)
        os.close(to_child)
        os.close(from_child)
        target = self.call("Target.createTarget", url="about:blank" if self.init else self.url)["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", width=self.size[0], height=self.size[1], deviceScaleFactor=1, mobile=False)
        if self.init:
            self.call("Page.enable")
            self.call("Page.addScriptToEvaluateOnNewDocument", source=self.init)
            self.call("Page.navigate", url=self.url)
        import time

        end = time.monotonic() + 60
        while self.js("document.body && document.body.getAttribute('data-ready')") != "1":
            assert time.monotonic() < end, "the page never got ready"
            time.sleep(0.1)
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._w)
        os.close(self._r)
        self._profile.cleanup()

    def call(self, method: str, session: bool = True, **params):
        import json

        self.n += 1
        msg = {"id": self.n, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                chunk = os.read(self._r, 1 << 16)
                assert chunk, "the browser closed its pipe"
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.n:
                assert "error" not in reply, reply["error"]
                return reply.get("result", {})

    def js(self, expression: str):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in r, r["exceptionDetails"]
        return r["result"].get("value")

    _CODES = {"ArrowDown": 40, "ArrowUp": 38, "ArrowLeft": 37, "ArrowRight": 39, "Enter": 13, "Home": 36, "End": 35,
              "PageDown": 34, "PageUp": 33}

    def key(self, key: str):
        """One key pressed and released in the focused element (a printable key types its text)."""
        code = self._CODES.get(key, ord(key.upper()) if len(key) == 1 else 0)
        text = {"Enter": "\r"}.get(key, key if len(key) == 1 else "")
        self.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", key=key, text=text, windowsVirtualKeyCode=code)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code)

    def mouse(self, kind: str, x: float, y: float, **more):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **more)
