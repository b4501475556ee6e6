"""A small read-only HTTP client for YuniKorn's REST API (standard library only).

GET is the only method it can send. Every fault (refused connection, timeouts, TLS, HTTP
statuses, redirects, wrong content types, truncated or oversized bodies) becomes one InputError
naming the URL, so a command prints one line and exits 2. Redirects are not followed: a
redirect could carry the Authorization header to another host.

Hard limits (issue 29), so no server can hold a run or its memory:
- time: `timeout` (--timeout, default 10 s) bounds connecting and each wait for data, and the
  response headers must be complete `timeout` seconds after the request starts; each response
  must be complete within BODY_DEADLINE x timeout, and all the run's requests together within
  RUN_DEADLINE x timeout. A watchdog closes the socket at a deadline, so a server sending a
  byte a second, in headers or body, ends the run on time.
- memory: a body announced (Content-Length) over MAX_BODY_BYTES is refused before it is read,
  any other stops being read at the cap; the body is read into one buffer, decoded, and dropped
  before the JSON is parsed; and before parsing, what the parsed JSON would take in memory is
  estimated from its text (containers and values counted) and refused over MAX_PARSED_BYTES.
  Together they keep a run under 1 GiB whatever the server sends. PRIO_MAX_RESPONSE_BYTES
  raises (or lowers) both for a run, in proportion (body_cap, parsed_cap): a server of more than
  about 200,000 applications answers more than the default lets through.
- credentials: a header's value is never shown (a malformed --header is described, not
  quoted), and a URL's user:password@ becomes an Authorization header and leaves the URL, so no
  message, log line or snapshot comment carries it."""
from __future__ import annotations

import base64
import http.client
import json
import math
import os
import re
import socket
import ssl
import threading
import time
import urllib.parse

from prio.errors import InputError
from prio.values import shown_number

DEFAULT_TIMEOUT = 10.0  # seconds, for connecting and for each read
MAX_TIMEOUT = 24 * 3600.0  # a larger --timeout is a typo (and inf overflows the socket layer)
BODY_DEADLINE = 10  # a whole response within 10 x --timeout (default 100 s)
RUN_DEADLINE = 30  # all of a run's requests within 30 x --timeout (default 300 s)
MAX_BODY_BYTES = 256 * 1024 * 1024  # a response's body; parsed, a full one of YuniKorn's applications takes about 600 MiB
MAX_PARSED_BYTES = 640 * 1024 * 1024  # what the parsed JSON of one response may take (estimate_parsed)


def body_cap() -> int:
    """The bytes of one response's body prio reads: MAX_BODY_BYTES, or PRIO_MAX_RESPONSE_BYTES
    for the run (a server of more than about 200,000 applications answers more)."""
    from prio.io import caps

    return caps.RESPONSE_BYTES.value() if os.environ.get(caps.RESPONSE_BYTES.env, "").strip() else MAX_BODY_BYTES


def parsed_cap() -> int:
    """What the parsed JSON of one response may take: MAX_PARSED_BYTES, in proportion to a body
    cap PRIO_MAX_RESPONSE_BYTES raised (or lowered)."""
    body = body_cap()
    return MAX_PARSED_BYTES if body == MAX_BODY_BYTES else MAX_PARSED_BYTES * body // MAX_BODY_BYTES


def _raise_hint() -> str:
    from prio.io import caps

    return f"; {caps.RESPONSE_BYTES.env}=N raises the cap"
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

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP header name (RFC 9110 token)


def parse_header(text: str, where: str = "--header") -> tuple[str, str]:
    """'Name: value' (as curl -H takes it) -> (name, value); InputError when malformed. The
    message describes the fault and never quotes the text: it may hold a token."""
    name, sep, value = str(text).partition(":")
    name = name.strip()
    if not sep:
        raise InputError(where, "expected 'Name: value', found a header without a colon (its text is not shown: it may "
                                "hold a credential)")
    if not name or not _TOKEN.match(name):
        raise InputError(where, "expected 'Name: value': the header's name is empty or has characters a header name cannot "
                                "have (spaces, quotes, ...); its text is not shown: it may hold a credential")
    if "\n" in value or "\r" in value:
        raise InputError(where, f"the value of header {name} has a line break")
    return name, value.strip()


def check_timeout(value, where: str = "--timeout") -> float:
    """Seconds, finite, more than 0 and at most a day; InputError naming `where` otherwise."""
    try:
        t = float(value)
    except (TypeError, ValueError):
        raise InputError(where, f"must be a number of seconds, not {value!r}") from None
    if not (t > 0 and math.isfinite(t) and t <= MAX_TIMEOUT):
        raise InputError(where, f"must be more than 0 and at most {MAX_TIMEOUT:g} seconds, not {value}")
    return t


_USERINFO = re.compile(r"(?<=//)[^/?#@]*@")


def redact_url(text: str) -> str:
    """A URL (or a text holding one) as it may appear in a message: user:password@ hidden."""
    return _USERINFO.sub("***@", str(text))


def _split_credentials(url: str):
    """(the URL without user:password@, an Authorization header for them or None)."""
    raw = (url or "").strip()
    if "://" not in raw:
        raw = "http://" + raw
    try:
        p = urllib.parse.urlsplit(raw)
    except ValueError:
        return url, None
    if "@" not in p.netloc:
        return url, None
    userinfo, _, hostport = p.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    token = base64.b64encode(f"{urllib.parse.unquote(user)}:{urllib.parse.unquote(password)}".encode()).decode()
    return urllib.parse.urlunsplit((p.scheme, hostport, p.path, p.query, p.fragment)), ("Authorization", f"Basic {token}")


def check_base_url(url: str) -> str:
    """The base URL of the REST service: http(s)://host[:port][/prefix], without a trailing slash."""
    raw = (url or "").strip()
    shown = redact_url(url)
    if not raw:
        raise InputError("--yunikorn", "the URL is empty; give the REST service's address, e.g. http://localhost:9080")
    if "://" not in raw:
        raw = "http://" + raw
    try:
        p = urllib.parse.urlsplit(raw)
        p.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as e:
        raise InputError("--yunikorn", f"not a URL: {shown!r} ({redact_url(e)})") from None
    if p.scheme not in ("http", "https"):
        raise InputError("--yunikorn", f"only http:// and https:// URLs are read, not {p.scheme}://")
    if not p.hostname:
        raise InputError("--yunikorn", f"no host in {shown!r}")
    if p.query or p.fragment:
        raise InputError("--yunikorn", f"give the service's base URL without a query or fragment, not {shown!r}")
    if "@" in p.netloc:
        raise InputError("--yunikorn", f"give the credentials as a header, not in the URL {shown!r}")
    path = p.path.rstrip("/")
    if path.endswith("/ws/v1"):
        path = path[: -len("/ws/v1")]
    return urllib.parse.urlunsplit((p.scheme, p.netloc, path, "", ""))


class Response:
    def __init__(self, url: str, status: int, content_type: str, body):
        self.url, self.status, self.content_type, self.body = url, status, content_type, body

    @property
    def media_type(self) -> str:
        return self.content_type.split(";")[0].strip().lower()


class _Deadline(Exception):
    """The watchdog closed the connection: `what` ran out of time."""


class _Watchdog:
    """Closes a connection's socket when a deadline passes, so no read blocks beyond it however
    slowly the server sends (a socket timeout only bounds each wait, and a trickle resets it)."""

    def __init__(self, conn):
        self.conn = conn
        self.sock = None  # the connected socket: the response keeps reading it after the connection lets go of it
        self.fired = None  # what was running when it fired
        self._timer = None
        self._lock = threading.Lock()

    def arm(self, at: float, what: str) -> None:
        self.cancel()
        delay = max(0.0, at - time.monotonic())
        self._timer = threading.Timer(delay, self._fire, (what,))
        self._timer.daemon = True
        self._timer.start()

    def _fire(self, what: str) -> None:
        with self._lock:
            self.fired = what
            sock = self.sock or getattr(self.conn, "sock", None)
            if sock is not None:
                try:
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)
                except OSError:
                    pass

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Client:
    """GETs below one base URL. `log(line)` hears about every request (for -v)."""

    def __init__(self, base_url: str, headers=(), timeout: float | None = None, cacert: str | None = None,
                 log=None, max_requests: int = 100_000):
        base_url, basic = _split_credentials(base_url)
        self.base = check_base_url(base_url)
        self.headers = [parse_header(h) if isinstance(h, str) else tuple(h) for h in headers]
        if basic and not any(k.lower() == "authorization" for k, _ in self.headers):
            self.headers.append(basic)
        self.timeout = DEFAULT_TIMEOUT if timeout is None else check_timeout(timeout)
        self.log = log
        self.requests = 0
        self.max_requests = max_requests  # a bound on every fetch loop
        self.run_ends = None  # the run's deadline: set at its first request
        p = urllib.parse.urlsplit(self.base)
        self._host, self._port, self._prefix = p.hostname, p.port, p.path
        self._ctx = None
        if p.scheme == "https":
            ctx = ssl.create_default_context()
            if cacert:
                try:
                    ctx.load_verify_locations(cafile=cacert)
                except FileNotFoundError:
                    raise InputError(cacert, "no such file (--cacert)") from None
                except (ssl.SSLError, OSError, ValueError) as e:
                    raise InputError(cacert, f"not a PEM CA certificate bundle ({getattr(e, 'reason', None) or e})") from None
            self._ctx = ctx
        elif cacert:
            raise InputError("--cacert", f"goes with an https:// URL, not {self.base}")

    def url(self, path: str, query: str = "") -> str:
        quoted = urllib.parse.quote(path, safe="/@:-._~")
        return self.base + quoted + (f"?{query}" if query else "")

    def _connection(self):
        if self._ctx is not None:
            return http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout, context=self._ctx)
        return http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)

    def get(self, path: str, query: str = "", accept: str = "application/json") -> Response:
        url = self.url(path, query)
        self.requests += 1
        if self.requests > self.max_requests:
            raise InputError(url, f"more than {self.max_requests} requests for one run; stopping")
        start = time.monotonic()
        if self.run_ends is None:
            self.run_ends = start + RUN_DEADLINE * self.timeout
        if start >= self.run_ends:
            raise InputError(url, self._deadline_message("run"))
        target = self._prefix + url[len(self.base):]
        conn = self._connection()
        dog = _Watchdog(conn)
        try:
            dog.arm(*self._limit(start + self.timeout, "headers"))
            try:
                conn.connect()
                dog.sock = conn.sock
                conn.putrequest("GET", target, skip_accept_encoding=True)
                conn.putheader("Accept", accept)
                conn.putheader("User-Agent", "prio (read-only)")
                for k, v in self.headers:
                    conn.putheader(k, v)
                conn.endheaders()
                resp = conn.getresponse()
                dog.arm(*self._limit(start + BODY_DEADLINE * self.timeout, "body"))
                status, ctype = resp.status, resp.headers.get("Content-Type", "") or ""
                if 300 <= status < 400:
                    raise InputError(url, f"HTTP {status}: redirected to {redact_url(resp.headers.get('Location', '(no Location)'))}; "
                                     "give that address with --yunikorn (prio does not follow redirects, so credentials stay "
                                     "with the host you named)")
                if status >= 400:
                    raise InputError(url, _status_message(status, resp.reason, _read_some(resp, 4096)))
                body = _read_body(url, resp, self.timeout, dog)
            except InputError:
                if dog.fired:
                    raise InputError(url, self._deadline_message(dog.fired)) from None
                raise
            except TimeoutError:
                if dog.fired:
                    raise InputError(url, self._deadline_message(dog.fired)) from None
                raise InputError(url, f"timed out after {self.timeout:g} s waiting for the response headers (--timeout)") from None
            except http.client.HTTPException as e:
                if dog.fired:
                    raise InputError(url, self._deadline_message(dog.fired)) from None
                raise InputError(url, f"not an HTTP response ({type(e).__name__}): is this YuniKorn's REST port?") from None
            except (ConnectionError, OSError, ssl.SSLError) as e:
                if dog.fired:
                    raise InputError(url, self._deadline_message(dog.fired)) from None
                raise InputError(url, _connect_message(e, self)) from None
            except _Deadline as e:
                raise InputError(url, self._deadline_message(str(e))) from None
        finally:
            dog.cancel()
            conn.close()
        if self.log:
            self.log(f"GET {url} -> {status}, {len(body)} bytes, {ctype or 'no content type'}")
        return Response(url, status, ctype, body)

    def _limit(self, at: float, what: str) -> tuple:
        """(when, what): this request's deadline, or the run's when that comes first."""
        return (at, what) if at <= self.run_ends else (self.run_ends, "run")

    def _deadline_message(self, what: str) -> str:
        t = self.timeout
        if what == "run":
            return f"the requests of this run took more than {RUN_DEADLINE * t:g} s in all ({RUN_DEADLINE} x --timeout {t:g})"
        if what == "headers":
            return f"timed out after {t:g} s waiting for the response headers (--timeout)"
        return f"the response took more than {BODY_DEADLINE * t:g} s ({BODY_DEADLINE} x --timeout {t:g}): the server sends too slowly"

    def get_json(self, path: str, query: str = ""):
        r = self.get(path, query)
        if r.media_type not in JSON_TYPES and not r.media_type.endswith("+json"):
            raise InputError(r.url, f"expected JSON, the server sent {r.media_type or 'no content type'}"
                             + (" (a login page or a proxy in between?)" if "html" in r.media_type else ""))
        return decode_json(r)


def estimate_parsed(text: str) -> int:
    """About what json.loads(text) takes in memory, from the text alone (an upper bound for
    every shape measured: a dict about 200 bytes, a list 90, each further value 80, and the
    characters of strings): a body of empty objects takes 25 times its size, YuniKorn's
    applications about 6 times."""
    return 200 * text.count("{") + 90 * text.count("[") + 80 * (text.count(",") + 1) + len(text)


def decode_json(r: Response):
    """The JSON of a response; its body is dropped first (one copy at a time)."""
    body, r.body = r.body, b""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(r.url, f"the response is not UTF-8 (invalid byte at {e.start})") from None
    del body
    need = estimate_parsed(text)
    cap = parsed_cap()
    if need > cap:
        raise InputError(r.url, f"the JSON response would take about {need >> 20} MiB of memory to read, more than prio "
                                f"allows ({cap >> 20} MiB){_raise_hint()}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        from prio.io.yamlnodes import json_error

        raise InputError(r.url, f"the response's {json_error(e, text)}") from None
    except RecursionError:
        raise InputError(r.url, "the JSON response is nested too deeply") from None
    except ValueError as e:  # a number of more than 4300 digits (Python's int limit)
        raise InputError(r.url, f"the JSON response has a number prio cannot read ({_plain(e)})") from None


def _plain(e: Exception) -> str:
    return str(e).split(";")[0]


def _read_some(resp, n: int) -> bytes:
    try:
        return resp.read(n)
    except Exception:
        return b""


def _read_body(url: str, resp, timeout: float, dog=None):
    """The body, into one buffer of at most body_cap() bytes: an announced length over the cap is
    refused before reading, anything else stops being read at the cap."""
    length = resp.headers.get("Content-Length")
    announced = int(length) if length and length.strip().isdigit() and len(length.strip()) < 20 else None
    limit = body_cap()
    if announced is None and length and length.strip().isdigit():
        announced = limit + 1  # a length of twenty digits or more: past any cap
    if announced is not None and announced > limit:
        raise InputError(url, f"the response is {shown_number(length)} bytes, more than prio reads ({limit}); refused before "
                              f"reading it{_raise_hint()}")
    buf = bytearray(announced) if announced is not None else bytearray()
    got = 0
    try:
        if announced is not None:
            view = memoryview(buf)
            while got < announced:
                n = resp.readinto(view[got:])
                if not n:
                    break
                got += n
            view.release()
            del buf[got:]
        else:
            while True:
                c = resp.read1(CHUNK) if hasattr(resp, "read1") else resp.read(CHUNK)
                if not c:
                    break
                got += len(c)
                if got > limit:
                    raise InputError(url, f"the response is larger than {limit} bytes; prio reads at most that much{_raise_hint()}")
                buf += c
    except http.client.IncompleteRead as e:
        got += len(e.partial)
        raise InputError(url, f"the connection closed after {got} of {length or 'the announced'} bytes (truncated body)") from None
    except TimeoutError:
        if dog is not None and dog.fired:
            raise
        raise InputError(url, f"timed out after {timeout:g} s reading the response body, {got} bytes in (--timeout)") from None
    except (ConnectionError, OSError, ValueError) as e:
        if dog is not None and dog.fired:
            raise _Deadline(dog.fired) from None
        raise InputError(url, f"the connection broke while reading the response after {got} bytes ({e})") from None
    if dog is not None and dog.fired:
        raise _Deadline(dog.fired)
    if announced is not None and got < announced:
        raise InputError(url, f"the connection closed after {got} of {length} bytes (truncated body)")
    return buf


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


_NAME_MISMATCH = (62, 64)  # OpenSSL's X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH


def _connect_message(reason, client: Client) -> str:
    host = urllib.parse.urlsplit(client.base).netloc
    if isinstance(reason, ssl.SSLCertVerificationError) or (isinstance(reason, ssl.SSLError) and "CERTIFICATE_VERIFY_FAILED" in str(reason)):
        detail = getattr(reason, "verify_message", None) or getattr(reason, "reason", None) or str(reason)
        if getattr(reason, "verify_code", None) in _NAME_MISMATCH or "mismatch" in str(detail).lower():
            return (f"TLS certificate verification failed for {host} ({str(detail).rstrip('.')}): the certificate is for "
                    "another host name; give --yunikorn a name the certificate lists (its subject alternative names), not "
                    "another name or an IP address of the same server")
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
