"""`.prio.yaml` cannot switch prio off silently (issue 43, item 3): a settings file (or options)
that leaves no rule on says so and fails unless `allow-no-rules: true`; discovery stops at the
repository root (a file planted above it, in /tmp say, applies to nothing below); `-v` names the
file used; per-path-ignores patterns match in linear time, and a bad pattern is one clear line."""
from __future__ import annotations

import json
import time
import warnings

import pytest
from test_suppress import (  # noqa: F401 - _isolated is autouse there
    QUEUES,
    _isolated,
    findings,
    invoke,
    write,
)

from prio.lint.settings import SettingsError, glob, parse


@pytest.mark.parametrize("text", ["ignore: [ALL]\n", "select: []\n", "select: [PRIO201]\nignore: [PRIO2]\n"])
def test_a_settings_file_that_leaves_no_rule_on_fails_and_says_so(tmp_path, text):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", text)
    for fmt in ("text", "json", "github"):
        r = invoke("q.yaml", "-o", fmt)
        assert r.exit_code == 2, (fmt, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("prio: .prio.yaml") and "leaves no rule on" in r.stderr, r.stderr


def test_no_rule_on_from_the_options_fails_too(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    r = invoke("q.yaml", "--no-config", "--ignore", "ALL")
    assert r.exit_code == 2 and "no rule on" in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_no_rule_on_is_allowed_only_when_said_and_still_said(tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", "ignore: [ALL]\nallow-no-rules: true\n")
    r = invoke("q.yaml", "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["findings"] == []
    assert "no rule is on" in r.stderr, r.stderr
    write(tmp_path, ".prio.yaml", "ignore: [ALL]\nallow-no-rules: yes please\n")
    r = invoke("q.yaml")
    assert r.exit_code == 2 and "allow-no-rules: expected true or false" in r.stderr, r.stderr


def test_discovery_stops_at_the_repository_root(tmp_path, monkeypatch):
    write(tmp_path, ".prio.yaml", "ignore: [ALL]\nallow-no-rules: true\n")  # planted above the repository
    write(tmp_path, "repo/.git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "repo/deploy/queues.yaml", QUEUES)
    monkeypatch.chdir(tmp_path / "repo" / "deploy")
    r, got = findings("queues.yaml")
    assert len(got) == 3 and r.exit_code == 1, (got, r.stderr)
    write(tmp_path, "repo/.prio.yaml", "ignore: [PRIO106]\n")  # the repository's own applies
    assert sorted(findings("queues.yaml")[1]) == [("PRIO201", 8), ("PRIO202", 8)]


def test_a_worktree_whose_git_is_a_file_is_a_repository_root(tmp_path, monkeypatch):
    write(tmp_path, ".prio.yaml", "ignore: [ALL]\nallow-no-rules: true\n")
    write(tmp_path, "wt/.git", "gitdir: /elsewhere/.git/worktrees/wt\n")
    write(tmp_path, "wt/q.yaml", QUEUES)
    monkeypatch.chdir(tmp_path / "wt")
    assert len(findings("q.yaml")[1]) == 3


def test_outside_a_repository_only_the_working_directory_is_searched(tmp_path, monkeypatch):
    write(tmp_path, ".prio.yaml", "ignore: [ALL]\nallow-no-rules: true\n")
    write(tmp_path, "work/q.yaml", QUEUES)
    monkeypatch.chdir(tmp_path / "work")
    assert len(findings("q.yaml")[1]) == 3
    monkeypatch.chdir(tmp_path)
    assert findings("work/q.yaml")[1] == []


def test_verbose_names_the_settings_file_used_or_none(tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "q.yaml", QUEUES)
    r = invoke("q.yaml", "-v")
    assert "prio: settings: none (no .prio.yaml or .prio.yml from here up to the repository root)" in r.stderr, r.stderr
    write(tmp_path, ".prio.yaml", "ignore: [PRIO106]\n")
    assert "prio: settings from .prio.yaml\n" in invoke("q.yaml", "-v").stderr


def test_many_double_stars_against_a_deep_path_take_linear_time():
    pattern = "**/" * 30 + "x.yaml"
    deep = "/".join(["d"] * 10) + "/y.yaml"
    started = time.monotonic()
    assert not glob(pattern).match(deep)
    assert not glob("**" * 40 + "z").match("a" * 60)
    assert not glob("*a" * 30 + "b").match("a" * 80)
    assert time.monotonic() - started < 1
    assert glob(pattern).match("d/d/x.yaml")


@pytest.mark.parametrize("pattern", ["[z-a].yaml", "[^]", "[!]", "a/[]", "a["])
def test_a_bad_pattern_is_a_clear_error(pattern):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SettingsError, match="bad path pattern"):
            parse(".prio.yaml", f"per-path-ignores:\n  - paths: ['{pattern}']\n    reason: x\n")


def test_a_bad_pattern_is_one_line_exit_2(tmp_path):
    write(tmp_path, "q.yaml", QUEUES)
    write(tmp_path, ".prio.yaml", "per-path-ignores:\n  - paths: ['[z-a]']\n    reason: x\n")
    r = invoke("q.yaml")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("prio: .prio.yaml:2:") and "bad path pattern" in r.stderr, r.stderr


@pytest.mark.parametrize("pattern, yes, no", [
    ("[[]x", ["[x"], ["x"]),              # a [ inside a class is a character, no nested set
    ("[]a]", ["]", "a"], ["b"]),
    ("[!a-c].yaml", ["d.yaml"], ["b.yaml", "/.yaml"]),
    ("[^a].yaml", ["b.yaml"], ["a.yaml"]),
    ("a[[]", ["a["], ["a"]),
    ("vendor**.yaml", ["vendor.yaml", "vendor/x/y.yaml"], ["a/vendor.yaml.bak"]),
])
def test_classes_and_stars_mean_what_they_say(pattern, yes, no):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = glob(pattern)
    assert all(r.match(p) for p in yes), pattern
    assert not any(r.match(p) for p in no), pattern
