"""A YuniKorn REST stub for tests: the standard library's HTTP server on 127.0.0.1 (an
ephemeral port, in a thread) replaying a recorded scenario of ../shared/testdata/yunikorn-rest-live
at YuniKorn's real paths, per the scenario's manifest. Faults are injected per path (a status, a
body, a truncated or mistyped answer, a slow one, and hostile ones: a trickle of headers or body,
a huge announced length, an endless body).

    with Replay(scenario_dir, faults={"/ws/v1/partitions": ("status", 500)}) as srv:
        run_cli("explain", "--yunikorn", srv.url)
"""
from __future__ import annotations

import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Replay:
    def __init__(self, scenario: str, faults: dict | None = None, drop: tuple = ()):
        self.dir = scenario
        with open(os.path.join(scenario, "manifest.json"), encoding="utf-8") as fh:
            self.manifest = json.load(fh)
        self.faults = dict(faults or {})
        self.drop = set(drop)  # paths answered 404, as an older YuniKorn would
        self.requests: list = []  # (method, path, headers)
        self._stop = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def lookup(self, path: str, accept: str | None):
        entries = [r for r in self.manifest["responses"] if r["path"] == path]
        exact = [r for r in entries if r.get("accept") and r["accept"] == accept]
        plain = [r for r in entries if not r.get("accept")]
        return (exact or plain or [None])[0]

    def _handler(self):
        replay = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _send(self, status, body: bytes, ctype="application/json; charset=UTF-8", length=None):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                try:
                    self.wfile.write(body)
                    self.wfile.flush()
                except OSError:  # the client stopped reading (a refusal at its cap): as it may
                    pass

            def do_GET(self):
                replay.requests.append(("GET", self.path, dict(self.headers)))
                fault = replay.faults.get(self.path) or replay.faults.get("*")
                if self.path in replay.drop:
                    fault = ("status", 404)
                entry = replay.lookup(self.path, self.headers.get("Accept"))
                if fault and fault[0] == "slow":
                    replay._stop.wait(fault[1])
                    if replay._stop.is_set():
                        return
                    fault = None
                if fault and fault[0] == "status":
                    code = fault[1]
                    msg = json.dumps({"status_code": code, "message": fault[2] if len(fault) > 2 else "injected fault",
                                      "description": "injected fault"}).encode()
                    return self._send(code, msg)
                if fault and fault[0] == "body":
                    return self._send(200, fault[1], fault[2] if len(fault) > 2 else "application/json; charset=UTF-8")
                if fault and fault[0] in ("trickle-headers", "trickle-body", "announce", "endless"):
                    return self._hostile(fault)
                if entry is None:
                    msg = json.dumps({"status_code": 404, "message": "404 page not found"}).encode()
                    return self._send(404, msg, "text/plain; charset=utf-8")
                with open(os.path.join(replay.dir, entry["file"]), "rb") as fh:
                    body = fh.read()
                if fault and fault[0] == "truncate":
                    return self._send(entry["status"], body[: len(body) // 2], entry["contentType"], length=len(body))
                if fault and fault[0] == "ctype":
                    return self._send(entry["status"], body, fault[1])
                self._send(entry["status"], body, entry["contentType"])

            def _hostile(self, fault):
                """("trickle-headers", s) / ("trickle-body", s): one byte every s seconds, forever;
                ("announce", n): Content-Length n, then a little; ("endless",): a JSON list that
                never ends (no Content-Length)."""
                w = self.wfile
                self.close_connection = True
                try:
                    if fault[0] == "trickle-headers":
                        w.write(b"HTTP/1.1 200 OK\r\n")
                        while not replay._stop.wait(fault[1]):
                            w.write(b"X")
                            w.flush()
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    if fault[0] == "announce":
                        self.send_header("Content-Length", str(fault[1]))
                    self.end_headers()
                    if fault[0] == "trickle-body":
                        w.write(b"[")
                        while not replay._stop.wait(fault[1]):
                            w.write(b" ")
                            w.flush()
                    elif fault[0] == "announce":
                        w.write(b"[" + b" " * 65536)
                    else:
                        w.write(b"[")
                        block = b'{"applicationID": "x"},' * 4096
                        while not replay._stop.is_set():
                            w.write(block)
                except OSError:  # the client went away, as it should
                    pass

            def _refuse(self):
                replay.requests.append((self.command, self.path, dict(self.headers)))
                self._send(405, b'{"message": "method not allowed"}')

            do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _refuse

        return Handler


def wait_a_little():
    time.sleep(0)
