"""The live client's hard limits (prio.io.http; issue 29, items 5, 6, 7 and 11): deadlines no
trickling server can stretch, memory bounded by the response cap, credentials never echoed, and
one clear line for every fault, against the replay stub's hostile answers."""
import subprocess
import time

import pytest

from conftest import peak_rss_mib, run_cli, shared
from yunikorn_replay import Replay

APPS = "/ws/v1/partition/default/applications/active"
QUEUES = "/ws/v1/partition/default/queues"


def scenario():
    return shared("testdata", "yunikorn-rest-live", "walkthrough")


def _one_line(r, *words):
    assert r.exit_code == 2, r.stdout
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    for w in words:
        assert w in r.stderr, r.stderr


# ---- item 5: deadlines ----------------------------------------------------------------------

@pytest.mark.parametrize("path", [QUEUES, APPS])
def test_a_server_trickling_headers_cannot_outlast_the_timeout(path):
    with Replay(scenario(), faults={path: ("trickle-headers", 0.05)}) as srv:
        t = time.monotonic()
        r = run_cli("simulate", "--yunikorn", srv.url, "--timeout", "0.5")
        took = time.monotonic() - t
    _one_line(r, srv.url + path, "timed out after 0.5 s waiting for the response headers")
    assert took < 5


def test_a_server_trickling_the_body_ends_at_the_response_deadline(monkeypatch):
    from prio.io import http

    monkeypatch.setattr(http, "BODY_DEADLINE", 3)
    with Replay(scenario(), faults={APPS: ("trickle-body", 0.05)}) as srv:
        t = time.monotonic()
        r = run_cli("explain", "--yunikorn", srv.url, "--timeout", "0.4")
        took = time.monotonic() - t
    _one_line(r, srv.url + APPS, "the response took more than 1.2 s (3 x --timeout 0.4)")
    assert took < 6


def test_the_whole_run_has_a_deadline(monkeypatch):
    """Each request on time, but together longer than the run may take."""
    from prio.io import http

    monkeypatch.setattr(http, "RUN_DEADLINE", 2)
    with Replay(scenario(), faults={"*": ("slow", 0.3)}) as srv:
        r = run_cli("simulate", "--yunikorn", srv.url, "--timeout", "0.5")
    _one_line(r, "the requests of this run took more than 1 s in all (2 x --timeout 0.5)")


# ---- item 6: memory -------------------------------------------------------------------------

def test_an_announced_length_over_the_cap_is_refused_before_reading():
    with Replay(scenario(), faults={APPS: ("announce", 50 * 2**30)}) as srv:
        t = time.monotonic()
        r = run_cli("simulate", "--yunikorn", srv.url)
    _one_line(r, srv.url + APPS, f"the response is {50 * 2**30} bytes", "refused before reading it")
    assert time.monotonic() - t < 5


def test_an_endless_body_stops_at_the_cap(monkeypatch):
    from prio.io import http

    monkeypatch.setattr(http, "MAX_BODY_BYTES", 8 * 2**20)
    with Replay(scenario(), faults={APPS: ("endless",)}) as srv:
        r = run_cli("simulate", "--yunikorn", srv.url)
    _one_line(r, srv.url + APPS, f"larger than {8 * 2**20} bytes")


def test_the_response_cap_is_raised_and_lowered_by_the_environment(monkeypatch):
    """issue 43, item 1: every input size has a cap an environment variable raises; the
    memory estimate's cap moves with it."""
    from prio.io import http

    with Replay(scenario()) as srv:
        assert run_cli("simulate", "--yunikorn", srv.url).exit_code == 0
        monkeypatch.setenv("PRIO_MAX_RESPONSE_BYTES", "100")
        _one_line(run_cli("simulate", "--yunikorn", srv.url), srv.url, "more than prio reads (100)",
                  "PRIO_MAX_RESPONSE_BYTES=N raises the cap")
    monkeypatch.setenv("PRIO_MAX_RESPONSE_BYTES", str(2 * http.MAX_BODY_BYTES))
    assert http.body_cap() == 2 * http.MAX_BODY_BYTES and http.parsed_cap() == 2 * http.MAX_PARSED_BYTES
    with Replay(scenario(), faults={APPS: ("announce", 3 * http.MAX_BODY_BYTES)}) as srv:
        _one_line(run_cli("simulate", "--yunikorn", srv.url), srv.url + APPS, f"more than prio reads ({2 * http.MAX_BODY_BYTES})")
    monkeypatch.setenv("PRIO_MAX_RESPONSE_BYTES", "lots")
    with Replay(scenario()) as srv:
        _one_line(run_cli("simulate", "--yunikorn", srv.url), "PRIO_MAX_RESPONSE_BYTES", "must be a whole number above 0")


def test_json_that_would_take_too_much_memory_is_refused_before_parsing():
    body = b"[" + b"{}," * (260 * 2**20 // 3 // 40) + b"{}]"  # about 6.5 MiB of empty objects: 160 MiB as objects
    from prio.io import http

    assert http.estimate_parsed(body.decode()) > 100 * 2**20
    with Replay(scenario(), faults={APPS: ("body", body)}) as srv:
        import prio.io.http as h

        saved = h.MAX_PARSED_BYTES
        h.MAX_PARSED_BYTES = 100 * 2**20
        try:
            r = run_cli("simulate", "--yunikorn", srv.url)
        finally:
            h.MAX_PARSED_BYTES = saved
    _one_line(r, srv.url + APPS, "would take about", "MiB of memory to read")


@pytest.mark.slow
@pytest.mark.parametrize("fault", [("endless",), ("announce", 2**40), "largest-valid", "largest-empty-objects"])
def test_a_whole_run_stays_under_1_gib_whatever_the_server_sends(fault):
    from prio.io import http

    if fault == "largest-valid":  # YuniKorn's applications, as many as the limits let through
        one = (b'{"applicationID":"app-%d","partition":"default","queueName":"root.tenants.tenant-a.child-a-1",'
               b'"submissionTime":1704067203000000000,"requests":[{"allocationKey":"a%d-1","requestTime":1704067203001000000,'
               b'"resource":{"pods":1,"memory":536870912},"priority":"5","applicationId":"app-%d"}],'
               b'"applicationState":"Accepted","user":"u","groups":["g"],"stateLog":[{"time":1,"applicationState":"New"}]}')
        n = http.MAX_PARSED_BYTES * 99 // 100 // http.estimate_parsed((one % (10**6, 10**6, 10**6)).decode() + ",")
        fault = ("body", b"[" + b",".join(one % (i, i, i) for i in range(n)) + b"]")
    elif fault == "largest-empty-objects":
        fault = ("body", b"[" + b"{}," * (http.MAX_BODY_BYTES // 3 - 1) + b"{}]")
    with Replay(scenario(), faults={APPS: fault}) as srv:
        code, err, peak = peak_rss_mib(["explain", "--yunikorn", srv.url, "-o", "json"])
    assert "Traceback" not in err and "internal error" not in err, err
    assert peak < 1024, (peak, err)


# ---- item 7: credentials --------------------------------------------------------------------

@pytest.mark.parametrize("header", ["Authorization Bearer s3cr3t-token", "Authori zation: Bearer s3cr3t-token",
                                    "Bearer s3cr3t-token: x", ": s3cr3t-token"])
def test_a_malformed_header_is_described_never_quoted(header, monkeypatch):
    r = run_cli("explain", "--yunikorn", "http://127.0.0.1:9", "--header", header)
    _one_line(r, "--header")
    assert "s3cr3t" not in r.stderr
    monkeypatch.setenv("PRIO_YUNIKORN_HEADER", header)
    r = run_cli("explain", "--yunikorn", "http://127.0.0.1:9")
    _one_line(r, "PRIO_YUNIKORN_HEADER")
    assert "s3cr3t" not in r.stderr


def test_credentials_in_the_url_are_sent_as_a_header_and_never_shown(tmp_path):
    with Replay(scenario(), faults={QUEUES: ("status", 500)}) as srv:
        url = srv.url.replace("http://", "http://alice:pa55word@")
        r = run_cli("explain", "--yunikorn", url, "-v")
        assert srv.requests[0][2].get("Authorization") == "Basic YWxpY2U6cGE1NXdvcmQ="
    _one_line_with_verbose = r.stderr
    assert r.exit_code == 2 and "pa55word" not in _one_line_with_verbose and "alice" not in r.stderr
    for bad in ("http://alice:pa55word@127.0.0.1:99999", "ftp://alice:pa55word@host", "http://alice:pa55word@host/?q=1"):
        r = run_cli("explain", "--yunikorn", bad)
        _one_line(r, "--yunikorn")
        assert "pa55word" not in r.stderr
    with Replay(scenario()) as srv:
        out = tmp_path / "snap.yaml"
        r = run_cli("snapshot", "--yunikorn", srv.url.replace("http://", "http://alice:pa55word@"), "--output-file", str(out))
        assert r.exit_code == 0, r.stderr
        assert "pa55word" not in out.read_text() and "pa55word" not in r.stderr


# ---- item 11: one clear line ------------------------------------------------------------------

@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "-1", "0", "soon"])
def test_absurd_timeouts_are_one_line(value, monkeypatch):
    if value not in ("-1", "0", "soon", "nan"):  # those typer refuses itself
        r = run_cli("explain", "--yunikorn", "http://127.0.0.1:9", f"--timeout={value}")
        _one_line(r, "--timeout")
    monkeypatch.setenv("PRIO_YUNIKORN_TIMEOUT", value)
    r = run_cli("explain", "--yunikorn", "http://127.0.0.1:9")
    _one_line(r, "PRIO_YUNIKORN_TIMEOUT")


@pytest.mark.parametrize("body,words", [
    (b"[" * 100000 + b"]" * 100000, ["nested too deeply"]),
    (b'[{"applicationID": "a", "queueName": "root.x", "requests": [{"priority": ' + b"9" * 5000 + b"}]}]", ["number"]),
    (b'[{"applicationID": "a", "queueName": "root.x", "requests": [{"priority": "' + b"9" * 5000 + b'"}]}]', []),
    (b'[{"applicationID": "a", "queueName": "root.x", "requests": [{"resource": {"memory": ' + b"9" * 5000 + b"}}]}]", ["number"]),
    (b'[{"applicationID": "a", "queueName": "root.x", "requests": [{"resource": {"memory": "' + b"9" * 5000 + b'"}}]}]', []),
    (b'[{"applicationID": "a", "queueName": "ro', ["cut short"]),
])
def test_server_faults_name_the_url_in_one_line(body, words):
    with Replay(scenario(), faults={APPS: ("body", body)}) as srv:
        r = run_cli("simulate", "--yunikorn", srv.url)
    _one_line(r, srv.url + APPS, *words)
    assert "at at" not in r.stderr


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    """An https server whose certificate names localhost only (self-signed: it is its own CA)."""
    import http.server
    import shutil
    import ssl
    import threading

    if not shutil.which("openssl"):
        pytest.skip("needs openssl to make a certificate")
    d = tmp_path_factory.mktemp("tls")
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)

    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"[]")

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(str(cert), str(key))
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    yield srv.server_address[1], str(cert)
    srv.shutdown()
    srv.server_close()


def test_a_certificate_for_another_host_name_gets_a_host_name_hint(tls_server):
    port, cert = tls_server
    r = run_cli("explain", "--yunikorn", f"https://127.0.0.1:{port}", "--cacert", cert)
    _one_line(r, "another host name", "--yunikorn")
    assert "--cacert" not in r.stderr
    r = run_cli("explain", "--yunikorn", f"https://localhost:{port}")  # the right name, an unknown CA
    _one_line(r, "--cacert")
