"""--yunikorn-version X.Y end to end (issue 46): where the release comes from (the option,
PRIO_YUNIKORN_VERSION, .prio.yaml's yunikornVersion; default the newest), what an unknown one
does, `validate --upgrade-to`, and what explain, simulate and diff make of an older release. The
per-release verdicts themselves are tests/lint/test_yunikorn_versions.py's."""
import json

import pytest

from conftest import run_cli

# A quota-preemption delay under 1.8.0's key, and a queue name 1.5 refuses.
QUOTA_18 = """partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            properties:
              preemption.quota.delay: 30s
"""
HASH_NAME = """partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: "team#1"
"""


def _validate(tmp_path, text, *args, env=None):
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    r = run_cli("validate", *args, str(tmp_path / "q.yaml"), "-o", "json", env=env)
    assert r.exit_code in (0, 1, 2) and "Traceback" not in r.stderr, r.stderr
    return r, (json.loads(r.stdout)["findings"] if r.stdout else [])


def test_the_default_is_the_newest_and_names_the_release_that_reads_a_key(tmp_path):
    r, found = _validate(tmp_path, QUOTA_18, "--no-config")
    assert r.exit_code == 0
    (f,) = [f for f in found if f["rule"] == "PRIO210"]
    assert "ignored by YuniKorn 1.9: only YuniKorn 1.8 reads it; YuniKorn 1.9 reads 'quota.preemption.delay' instead" in f["message"]
    r, found = _validate(tmp_path, QUOTA_18, "--no-config", "--yunikorn-version", "1.8.0")  # a patch: its minor
    assert not [f for f in found if f["rule"] == "PRIO210"]


@pytest.mark.parametrize("how", ["option", "env", "settings"])
def test_the_release_comes_from_the_option_the_environment_or_the_settings(tmp_path, monkeypatch, how):
    monkeypatch.chdir(tmp_path)
    args, env = [], None
    if how == "option":
        args = ["--no-config", "--yunikorn-version", "1.5"]
    elif how == "env":
        args, env = ["--no-config"], {"PRIO_YUNIKORN_VERSION": "1.5"}
    else:
        (tmp_path / ".prio.yaml").write_text("yunikornVersion: 1.5\n", encoding="utf-8")
    r, found = _validate(tmp_path, HASH_NAME, *args, env=env)
    assert r.exit_code == 1
    assert [f["rule"] for f in found if f["severity"] == "error"] == ["PRIO106"]
    assert "YuniKorn 1.5: invalid child name team#1, a name must only have alphanumeric characters, - or _" in found[0]["message"]


def test_the_option_wins_over_the_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".prio.yaml").write_text("yunikornVersion: '1.5'\n", encoding="utf-8")
    r, _ = _validate(tmp_path, HASH_NAME, "--yunikorn-version", "1.6")
    assert r.exit_code == 0


def test_upgrade_to_an_older_release_is_refused(tmp_path):
    r, _ = _validate(tmp_path, HASH_NAME, "--no-config", "--upgrade-to", "1.8")
    assert r.exit_code == 2 and "--upgrade-to 1.8 is older than YuniKorn 1.9" in r.stderr


@pytest.mark.parametrize("args,settings", [(["--yunikorn-version", "2.0"], None), (["--upgrade-to", "1.10"], None),
                                           ([], "yunikornVersion: 1.10\n"), ([], "yunikornVersion: [1.9]\n")])
def test_an_unknown_release_is_one_line_and_exit_2(tmp_path, monkeypatch, args, settings):
    monkeypatch.chdir(tmp_path)
    if settings:
        (tmp_path / ".prio.yaml").write_text(settings, encoding="utf-8")
    r, _ = _validate(tmp_path, HASH_NAME, *args)
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "1.5, 1.6, 1.7, 1.8, 1.9" in r.stderr, r.stderr


def test_upgrade_to_reports_only_what_changes_meaning(tmp_path):
    r, found = _validate(tmp_path, QUOTA_18, "--no-config", "--yunikorn-version", "1.8", "--upgrade-to", "1.9")
    assert {f["rule"] for f in found} == {"PRIO216"}
    assert any("after the upgrade from YuniKorn 1.8 to 1.9" in f["message"] and "[PRIO210]" in f["message"] for f in found)
    r, found = _validate(tmp_path, HASH_NAME, "--no-config", "--yunikorn-version", "1.6", "--upgrade-to", "1.9")
    assert r.exit_code == 0 and not found
    # 1.5 refuses the name, 1.6 takes it: the upgrade fixes it (an info), and never fails the run
    r, found = _validate(tmp_path, HASH_NAME, "--no-config", "--yunikorn-version", "1.5", "--upgrade-to", "1.6")
    assert r.exit_code == 0 and [(f["rule"], f["severity"]) for f in found] == [("PRIO216", "info")]


def test_an_upgrade_the_new_release_refuses_is_an_error(tmp_path):
    template = HASH_NAME.replace('"team#1"', "a\n            parent: true\n            childtemplate:\n"
                                             "              resources: {max: {vcore: abc}}")
    r, found = _validate(tmp_path, template, "--no-config", "--yunikorn-version", "1.5")
    assert r.exit_code == 0 and [f["severity"] for f in found if f["rule"] == "PRIO136"] == ["warning"]
    r, found = _validate(tmp_path, template, "--no-config", "--yunikorn-version", "1.5", "--upgrade-to", "1.6")
    assert r.exit_code == 1
    assert any(f["severity"] == "error" and "the config is refused" in f["message"] for f in found)


def test_explain_notes_the_refusal_and_the_scheduling_not_modelled(tmp_path):
    (tmp_path / "q.yaml").write_text(HASH_NAME, encoding="utf-8")
    r = run_cli("explain", str(tmp_path / "q.yaml"), "--yunikorn-version", "1.5")
    assert r.exit_code == 0, r.stderr
    assert "YuniKorn 1.5 would refuse this config" in r.stderr
    assert "no model of 1.5's: after a config update, inherited properties missing" in r.stderr
    newest = run_cli("explain", str(tmp_path / "q.yaml"))
    assert "would refuse" not in newest.stderr and "no model of" not in newest.stderr
    assert newest.stdout == r.stdout  # the same scheduling: the differences are named, not modelled


@pytest.mark.parametrize("command", ["explain", "simulate", "preempt", "diff"])
def test_every_analysis_command_refuses_an_unknown_release(tmp_path, command):
    (tmp_path / "q.yaml").write_text(QUOTA_18, encoding="utf-8")
    args = [str(tmp_path / "q.yaml")] * (2 if command == "diff" else 1)
    r = run_cli(command, *args, "--yunikorn-version", "0.9")
    assert r.exit_code == 2 and "unknown YuniKorn release '0.9'" in r.stderr, r.stderr


def test_properties_are_read_as_the_release_reads_them():
    """1.8.0's quota-preemption delay key is the delay in 1.8 (the engine reads it under the
    newest's name), nothing in 1.9 and before 1.8."""
    from prio.yunikorn import releases

    props = {"preemption.quota.delay": "30s", "application.unschedasks.backoff": "3", "priority.offest": "1"}
    assert releases.reads(props, releases.RELEASES["1.8"]) == {"quota.preemption.delay": "30s", "application.unschedasks.backoff": "3",
                                                             "priority.offest": "1"}
    assert releases.reads(props, releases.RELEASES["1.7"]) == {"priority.offest": "1"}  # a typo stays a typo
    assert releases.reads(props, releases.RELEASES["1.9"]) == {"application.unschedasks.backoff": "3", "priority.offest": "1"}


@pytest.mark.parametrize("image,version", [("apache/yunikorn:scheduler-1.6.3", "1.6.3"), ("docker.io/apache/yunikorn:scheduler-plugin-1.8.0", "1.8.0"),
                                           ("apache/yunikorn:admission-1.9.0@sha256:ab", "1.9.0"), ("apache/yunikorn:web-1.6.3", None),
                                           ("apache/spark:3.5.1", None), ("myregistry/yunikorn-fork:scheduler-1.6.3", None)])
def test_the_release_an_image_of_yunikorn_names(image, version):
    from prio.yunikorn.releases import from_image

    assert from_image(image) == version


def test_preempt_reads_the_quota_delay_key_of_the_release(tmp_path):
    """1.8.0 reads the quota-preemption delay as preemption.quota.delay: under 1.8 the sample's
    lowered max is armed with it; 1.9 ignores that key, so nothing is armed."""
    from conftest import sample

    with open(sample("quota-queues.yaml"), encoding="utf-8") as f:
        text = f.read().replace("quota.preemption.delay: 5m", "preemption.quota.delay: 5m")
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    args = ("preempt", str(tmp_path / "q.yaml"), sample("quota-asks.yaml"))
    assert "armed root.tenants.team-a" in run_cli(*args, "--yunikorn-version", "1.8").stdout
    assert "none armed" in run_cli(*args, "--yunikorn-version", "1.9").stdout
