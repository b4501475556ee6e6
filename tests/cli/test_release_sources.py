"""Where the analysis commands' YuniKorn release comes from besides --yunikorn-version (issue 46):
`.prio.yaml`'s yunikornVersion (explain, simulate, preempt, diff, as validate reads it), and the
release `prio snapshot` records (yunikornVersion in the snapshot: asked for, or what --yunikorn's
REST shape or --kube's images show), which analysing the snapshot later uses unless
--yunikorn-version says otherwise."""
import json

import pytest
from test_kube import kube  # noqa: F401 - the fixture

from builders import FAIR_QUEUES as QUEUES
from builders import FAIR_SNAPSHOT as WORK
from builders import UNDER_ROOT
from conftest import run_cli, sample, shared
from yunikorn_replay import Replay

# A queue name 1.5 refuses: every command notes it when judged for 1.5.
HASH_NAME = UNDER_ROOT + '          - name: "team#1"\n'


@pytest.fixture
def here(tmp_path, monkeypatch):
    """The working directory, outside any repository: .prio.yaml is looked for there alone."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PRIO_YUNIKORN_VERSION", raising=False)
    (tmp_path / "q.yaml").write_text(QUEUES, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(WORK, encoding="utf-8")
    return tmp_path


def _first(args, *extra, env=None):
    r = run_cli("simulate", *args, "-o", "json", *extra, env=env)
    assert r.exit_code == 0, r.stderr
    return next(s["ask"] for s in json.loads(r.stdout)["steps"] if "ask" in s), r.stderr


@pytest.mark.parametrize("command", ["explain", "simulate", "preempt", "diff"])
def test_every_analysis_command_reads_the_settings_release(here, command):
    (here / "h.yaml").write_text(HASH_NAME, encoding="utf-8")
    args = ["h.yaml"] * (2 if command == "diff" else 1) + (["s.yaml"] if command == "preempt" else [])
    (here / ".prio.yaml").write_text('yunikornVersion: "1.5"\n', encoding="utf-8")
    r = run_cli(command, *args)
    assert "YuniKorn 1.5 would refuse this config" in r.stderr, (command, r.stderr)
    assert "Traceback" not in r.stderr
    (here / ".prio.yaml").write_text('yunikornVersion: "1.9"\n', encoding="utf-8")
    assert "would refuse" not in run_cli(command, *args).stderr


def test_the_settings_release_schedules_and_the_option_wins(here):
    (here / ".prio.yaml").write_text('yunikornVersion: "1.5"\n', encoding="utf-8")
    assert _first(["q.yaml", "s.yaml"])[0] == "b-0"
    assert _first(["q.yaml", "s.yaml"], "--yunikorn-version", "1.6")[0] == "a-0"
    assert _first(["q.yaml", "s.yaml"], env={"PRIO_YUNIKORN_VERSION": "1.9"})[0] == "a-0"


@pytest.mark.parametrize("text,said", [("yunikornVersion: [1]\n", ".prio.yaml:1:18: yunikornVersion: expected one of 1.5"),
                                       ('yunikornVersion: "1.10"\n', (".prio.yaml:1:18: yunikornVersion: expected one of 1.5, 1.6, 1.7, "
                                                                      "1.8, 1.9, found '1.10'"))])
def test_a_settings_file_that_does_not_read_is_one_line(here, text, said):
    (here / ".prio.yaml").write_text(text, encoding="utf-8")
    r = run_cli("simulate", "q.yaml", "s.yaml")
    assert r.exit_code == 2 and said in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def _snapshot(*args, env=None):
    r = run_cli("snapshot", *args, "--output-file", "-", env=env)
    assert r.exit_code == 0, r.stderr
    return r.stdout, r.stderr


def test_snapshot_records_the_release_asked_for_and_the_analysis_uses_it(here):
    text, _ = _snapshot("q.yaml", "s.yaml", "--yunikorn-version", "1.5.2")
    assert "\nyunikornVersion: '1.5'\n" in text  # the minor, quoted: 1.10 stays 1.10
    (here / "snap.yaml").write_text(text, encoding="utf-8")
    first, err = _first(["snap.yaml"])
    assert first == "b-0" and "snap.yaml: judged as YuniKorn 1.5, the release the snapshot recorded" in err
    first, err = _first(["snap.yaml"], "--yunikorn-version", "1.9")
    assert first == "a-0" and "--yunikorn-version 1.9, but the snapshot recorded YuniKorn 1.5" in err
    again, _ = _snapshot("snap.yaml")  # a snapshot of the snapshot keeps what it recorded
    assert "\nyunikornVersion: '1.5'\n" in again


def test_snapshot_for_an_older_release_names_no_scheduling_rules(here):
    """prio snapshot schedules nothing: no "prio schedules with ..." notes for the release it
    records (explain and simulate on the snapshot say them); a refusal is still noted."""
    (here / "h.yaml").write_text(HASH_NAME, encoding="utf-8")
    for args in (("q.yaml", "s.yaml"), ("h.yaml", "s.yaml")):
        _, err = _snapshot(*args, "--yunikorn-version", "1.5")
        assert "prio schedules with" not in err and "own rules" not in err and "no model of" not in err, err
    assert "YuniKorn 1.5 would refuse this config" in err
    assert "prio schedules with 1.5's own rules" in run_cli("simulate", "q.yaml", "s.yaml", "--yunikorn-version", "1.5").stderr


def test_nothing_asked_nothing_recorded(here):
    text, _ = _snapshot("q.yaml", "s.yaml")
    assert "yunikornVersion" not in text
    (here / "snap.yaml").write_text(text, encoding="utf-8")
    assert "recorded" not in _first(["snap.yaml"])[1]


def test_a_snapshot_release_prio_does_not_know_is_one_line(here):
    (here / "s2.yaml").write_text("yunikornVersion: '2.0'\n" + WORK, encoding="utf-8")
    r = run_cli("simulate", "q.yaml", "s2.yaml")
    assert r.exit_code == 2 and "s2.yaml:1" in r.stderr and "yunikornVersion: expected one of 1.5" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_snapshot_records_the_release_the_clusters_images_show(kube, monkeypatch, tmp_path):  # noqa: F811 - the fixture
    monkeypatch.setenv("FAKE_KUBECTL_SCHEDULER", "apache/yunikorn:scheduler-1.6.3")
    text, err = _snapshot("--kube")
    assert "\nyunikornVersion: '1.6'\n" in text and "judged as YuniKorn 1.6" in err
    monkeypatch.setenv("FAKE_KUBECTL_SCHEDULER", "apache/yunikorn:scheduler-1.4.0")  # one prio has no rules for: not recorded
    assert "yunikornVersion" not in _snapshot("--kube")[0]


def test_snapshot_records_the_release_the_servers_rest_shape_shows():
    with Replay(shared("testdata", "yunikorn-rest-live", "preemption-properties")) as srv:
        text, _ = _snapshot("--yunikorn", srv.url)  # its queues have quotaPreemptionDelay: 1.8 or later
        asked, err = _snapshot("--yunikorn", srv.url, "--yunikorn-version", "1.6")
    assert "\nyunikornVersion: '1.9'\n" in text
    assert "\nyunikornVersion: '1.6'\n" in asked and "--yunikorn-version 1.6, but the server's queues have the REST shape" in err


def test_the_snapshot_format_documents_the_field():
    with open(sample("../docs/snapshot-format.md"), encoding="utf-8") as f:
        page = f.read()
    assert "yunikornVersion:" in page
