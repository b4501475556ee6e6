"""A small read-only HTTP client for YuniKorn's REST API (standard library only).

GET is the only method it can send. Every fault (refused connection, timeouts, TLS, HTTP
statuses, redirects, wrong content types, truncated or oversized bodies) becomes one InputError
naming the URL, so a command prints one line and exits 2. Redirects are not followed: a
redirect could carry the Authorization header to another host."""
from __future__ import annotations

import http.client
import json
import socket
import ssl
import urllib.error
import urllib.parse
import urllib.request

from prio.errors import InputError

DEFAULT_TIMEOUT = 10.0  # seconds, for connecting and for each read
MAX_BODY_BYTES = 1024 * 1024 * 1024  # as for snapshot files
CHUNK = 1024 * 1024
JSON_TYPES = ("application/json", "text/json")

_STATUS_HINTS = {
    401: "the server wants credentials: give --header 'Authorization: Bearer TOKEN' (or PRIO_YUNIKORN_HEADER)",
    403: "the credentials given are not allowed to read this (check the token's permissions)",
    404: "this server has no such endpoint: a YuniKorn older than the one prio was built against, "
         "or the URL is not YuniKorn's REST service",
    405: "the server refused a GET here",
    407: "a proxy wants credentials",
    429: "the server is rate limiting: try again later",
}


def parse_header(text: str) -> tuple[str, str]:
    """'Name: value' (as curl -H takes it) -> (name, value); InputError when malformed."""
    name, sep, value = str(text).partition(":")
    name = name.strip()
    if not sep or not name or any(c in name for c in " \t\r\n") or "\n" in value or "\r" in value:
        raise InputError("--header", f"expected 'Name: value', found {_redact(text)!r}")
    return name, value.strip()


def _redact(text: str) -> str:
    """A header as it may appear in a message: the value of credentials hidden."""
    name, sep, _ = str(text).partition(":")
    if sep and name.strip().lower() in ("authorization", "proxy-authorization", "cookie", "x-api-key"):
        return f"{name}: ***"
    return str(text)[:80]


def check_base_url(url: str) -> str:
    """The base URL of the REST service: http(s)://host[:port][/prefix], without a trailing slash."""
    raw = (url or "").strip()
    if not raw:
        raise InputError("--yunikorn", "the URL is empty; give the REST service's address, e.g. http://localhost:9080")
    if "://" not in raw:
        raw = "http://" + raw
    try:
        p = urllib.parse.urlsplit(raw)
        p.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as e:
        raise InputError("--yunikorn", f"not a URL: {url!r} ({e})") from None
    if p.scheme not in ("http", "https"):
        raise InputError("--yunikorn", f"only http:// and https:// URLs are read, not {p.scheme}://")
    if not p.hostname:
        raise InputError("--yunikorn", f"no host in {url!r}")
    if p.query or p.fragment:
        raise InputError("--yunikorn", f"give the service's base URL without a query or fragment, not {url!r}")
    path = p.path.rstrip("/")
    if path.endswith("/ws/v1"):
        path = path[: -len("/ws/v1")]
    return urllib.parse.urlunsplit((p.scheme, p.netloc, path, "", ""))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise InputError(req.full_url, f"HTTP {code}: redirected to {newurl}; give that address with --yunikorn "
                         "(prio does not follow redirects, so credentials stay with the host you named)")


class Response:
    def __init__(self, url: str, status: int, content_type: str, body: bytes):
        self.url, self.status, self.content_type, self.body = url, status, content_type, body

    @property
    def media_type(self) -> str:
        return self.content_type.split(";")[0].strip().lower()


class Client:
    """GETs below one base URL. `log(line)` hears about every request (for -v)."""

    def __init__(self, base_url: str, headers=(), timeout: float | None = None, cacert: str | None = None,
                 insecure: bool = False, log=None, max_requests: int = 100_000):
        self.base = check_base_url(base_url)
        self.headers = [parse_header(h) if isinstance(h, str) else tuple(h) for h in headers]
        self.timeout = DEFAULT_TIMEOUT if timeout is None else float(timeout)
        if not self.timeout > 0:
            raise InputError("--timeout", f"must be more than 0 seconds, not {timeout}")
        self.log = log
        self.requests = 0
        self.max_requests = max_requests  # a bound on every fetch loop
        handlers = [_NoRedirect(), urllib.request.ProxyHandler({})]
        if self.base.startswith("https:"):
            ctx = ssl.create_default_context()
            if cacert:
                try:
                    ctx.load_verify_locations(cafile=cacert)
                except FileNotFoundError:
                    raise InputError(cacert, "no such file (--cacert)") from None
                except (ssl.SSLError, OSError, ValueError) as e:
                    raise InputError(cacert, f"not a PEM CA certificate bundle ({getattr(e, 'reason', None) or e})") from None
            if insecure:
                ctx.check_hostname = False
                ctx.verify_mode = ssl.CERT_NONE
            handlers.append(urllib.request.HTTPSHandler(context=ctx))
        elif cacert:
            raise InputError("--cacert", f"goes with an https:// URL, not {self.base}")
        self.opener = urllib.request.build_opener(*handlers)

    def url(self, path: str, query: str = "") -> str:
        quoted = urllib.parse.quote(path, safe="/@:-._~")
        return self.base + quoted + (f"?{query}" if query else "")

    def get(self, path: str, query: str = "", accept: str = "application/json") -> Response:
        url = self.url(path, query)
        self.requests += 1
        if self.requests > self.max_requests:
            raise InputError(url, f"more than {self.max_requests} requests for one run; stopping")
        req = urllib.request.Request(url, method="GET")
        req.add_header("Accept", accept)
        req.add_header("User-Agent", "prio (read-only)")
        for k, v in self.headers:
            req.add_header(k, v)
        try:
            resp = self.opener.open(req, timeout=self.timeout)
        except InputError:
            raise
        except urllib.error.HTTPError as e:
            status = e.code
            body = b""
            try:
                body = e.read(4096)
            except Exception:  # noqa: BLE001 - the status is the message
                pass
            e.close()
            raise InputError(url, _status_message(status, e.reason, body)) from None
        except urllib.error.URLError as e:
            raise InputError(url, _connect_message(e.reason, self)) from None
        except (socket.timeout, TimeoutError):
            raise InputError(url, f"timed out after {self.timeout:g} s waiting for the response headers (--timeout)") from None
        except http.client.HTTPException as e:
            raise InputError(url, f"not an HTTP response ({type(e).__name__}): is this YuniKorn's REST port?") from None
        except (ConnectionError, OSError) as e:
            raise InputError(url, _connect_message(e, self)) from None
        with resp:
            ctype = resp.headers.get("Content-Type", "") or ""
            body = _read_body(url, resp, self.timeout)
            status = resp.status
        if self.log:
            self.log(f"GET {url} -> {status}, {len(body)} bytes, {ctype or 'no content type'}")
        return Response(url, status, ctype, body)

    def get_json(self, path: str, query: str = ""):
        r = self.get(path, query)
        if r.media_type not in JSON_TYPES and not r.media_type.endswith("+json"):
            raise InputError(r.url, f"expected JSON, the server sent {r.media_type or 'no content type'}"
                             + (" (a login page or a proxy in between?)" if "html" in r.media_type else ""))
        return decode_json(r)


def decode_json(r: Response):
    try:
        text = r.body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(r.url, f"the response is not UTF-8 (invalid byte at {e.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()):
            raise InputError(r.url, f"the JSON response ends early after {len(r.body)} bytes (truncated body)") from None
        raise InputError(r.url, f"the response is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


def _read_body(url: str, resp, timeout: float) -> bytes:
    length = resp.headers.get("Content-Length")
    chunks = []
    got = 0
    try:
        while True:
            c = resp.read(CHUNK)
            if not c:
                break
            got += len(c)
            if got > MAX_BODY_BYTES:
                raise InputError(url, f"the response is larger than {MAX_BODY_BYTES} bytes; prio reads at most that much")
            chunks.append(c)
    except http.client.IncompleteRead as e:
        got += len(e.partial)
        raise InputError(url, f"the connection closed after {got} of {length or 'the announced'} bytes (truncated body)") from None
    except (socket.timeout, TimeoutError):
        raise InputError(url, f"timed out after {timeout:g} s reading the response body, {got} bytes in (--timeout)") from None
    except (ConnectionError, OSError) as e:
        raise InputError(url, f"the connection broke while reading the response after {got} bytes ({e})") from None
    if length and length.isdigit() and got < int(length):
        raise InputError(url, f"the connection closed after {got} of {length} bytes (truncated body)")
    return b"".join(chunks)


def _status_message(status: int, reason, body: bytes) -> str:
    msg = f"HTTP {status}" + (f" {reason}" if reason else "")
    if status in _STATUS_HINTS:
        msg += f": {_STATUS_HINTS[status]}"
    elif 500 <= status < 600:
        msg += ": the YuniKorn REST service failed to answer"
    detail = _error_detail(body)
    if detail:
        msg += f" (server said: {detail})"
    return msg


def _error_detail(body: bytes) -> str:
    """YuniKorn answers errors with {"status_code":..,"message":"..","description":".."}."""
    if not body:
        return ""
    text = body.decode("utf-8", "replace").strip()
    try:
        d = json.loads(text)
        if isinstance(d, dict):
            text = str(d.get("message") or d.get("description") or text)
    except ValueError:
        pass
    text = " ".join(text.split())
    return text[:160] + ("..." if len(text) > 160 else "")


def _connect_message(reason, client: Client) -> str:
    host = urllib.parse.urlsplit(client.base).netloc
    if isinstance(reason, ssl.SSLCertVerificationError) or (isinstance(reason, ssl.SSLError) and "CERTIFICATE_VERIFY_FAILED" in str(reason)):
        detail = getattr(reason, "verify_message", None) or getattr(reason, "reason", None) or str(reason)
        return f"TLS certificate verification failed for {host} ({detail}); give the CA that signed it with --cacert FILE"
    if isinstance(reason, ssl.SSLError):
        return f"TLS handshake with {host} failed ({getattr(reason, 'reason', None) or reason}): is it an https port?"
    if isinstance(reason, (socket.timeout, TimeoutError)):
        return f"timed out after {client.timeout:g} s connecting to {host} (--timeout)"
    if isinstance(reason, ConnectionRefusedError):
        return f"connection refused by {host}: is YuniKorn's REST service (port 9080 by default) listening there?"
    if isinstance(reason, socket.gaierror):
        return f"cannot resolve the host of {host} ({reason.strerror or reason})"
    if isinstance(reason, ConnectionResetError):
        return f"{host} closed the connection (is it an https port given as http://?)"
    if isinstance(reason, OSError):
        return f"cannot connect to {host}: {reason.strerror or reason}"
    return f"cannot connect to {host}: {reason}"
