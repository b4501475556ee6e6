"""Bad input never produces a traceback: one line naming the file, exit 2 (or a finding, exit 1)."""
import codecs
import json
import os
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import lint, run_cli, sample

GOOD = open(sample("walkthrough-queues.yaml")).read()


def validate_text(text, *extra):
    return run_cli("validate", "-", *extra, input=text)


def one_line_error(r, code=2):
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout
    assert "internal error" not in r.stderr


def test_malformed_yaml_names_line_and_column():
    r = validate_text("partitions:\n  - name: default\n    queues: [\n")
    one_line_error(r)
    assert r.stderr.startswith("prio: <stdin>:4:1: invalid YAML")


def test_tab_indentation():
    r = validate_text("partitions:\n\t- name: default\n")
    one_line_error(r)
    assert "<stdin>:2:1" in r.stderr


def test_unquoted_star_acl_is_a_yaml_error():
    r = validate_text("partitions:\n  - queues:\n      - name: root\n        submitacl: *\n")
    one_line_error(r)
    assert "<stdin>:4" in r.stderr


def test_binary_nul_utf16(tmp_path):
    b = tmp_path / "b.yaml"
    b.write_bytes(b"\x00\x01\x02partitions")
    r = run_cli("validate", str(b))
    one_line_error(r)
    assert "binary" in r.stderr
    u = tmp_path / "u.yaml"
    u.write_bytes(codecs.BOM_UTF16_LE + GOOD.encode("utf-16-le"))
    assert run_cli("validate", str(u)).exit_code == 0
    bad = tmp_path / "l1.yaml"
    bad.write_bytes(b"partitions: []\nname: caf\xe9\n")
    r = run_cli("validate", str(bad))
    one_line_error(r)
    assert "UTF-8" in r.stderr and ":2" in r.stderr


def test_missing_file_and_directory(tmp_path):
    r = run_cli("validate", str(tmp_path / "nope.yaml"))
    one_line_error(r)
    assert "no such file" in r.stderr
    r = run_cli("simulate", str(tmp_path))
    one_line_error(r)
    assert "a directory with no YAML or JSON files" in r.stderr  # a directory is read file by file


def test_empty_directory_validates_nothing(tmp_path):
    # nothing checked is not "no problems" (issue 14): exit 2, one line naming the directory
    r = run_cli("validate", str(tmp_path))
    assert r.exit_code == 2
    assert r.stderr.startswith(f"prio: {tmp_path}: nothing to check: no .yaml, .yml or .json files")


def test_alias_bomb_refused_fast_but_anchors_and_merges_work():
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n"
    prev = "a"
    for c in "bcdefghi":
        bomb += f"{c}: &{c} [" + ",".join(["*" + prev] * 9) + "]\n"
        prev = c
    r = validate_text(bomb)
    one_line_error(r)
    assert "excessive aliasing" in r.stderr
    merged = """
defaults: &props
  priority.offset: "5"
partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            properties:
              <<: *props
              priority.policy: fence
"""
    f = lint(merged)
    assert [x.rule for x in f] == ["PRIO001"]  # only the unknown top-level key `defaults`


def test_recursive_alias():
    r = validate_text("a: &a\n  b: *a\n")
    one_line_error(r)


def test_deep_nesting_refused_before_parsing():
    r = validate_text("[" * 50000 + "]" * 50000)
    one_line_error(r)
    assert "nested more than" in r.stderr
    deep = "".join("  " * i + f"k{i}:\n" for i in range(1000))
    one_line_error(validate_text(deep))


def test_huge_file_is_capped(tmp_path, monkeypatch):
    from prio.io import source

    monkeypatch.setattr(source, "MAX_CONFIG_BYTES", 1000)
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * 2000 + "\n")
    r = run_cli("validate", str(big))
    one_line_error(r)
    assert "at most 1000 bytes" in r.stderr


def test_integers_beyond_64_bits_and_bool_keys():
    f = lint("partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapplications: 99999999999999999999999\n")
    assert [x.rule for x in f] == ["PRIO003"] and f[0].line == 5
    f = lint("partitions:\n  - name: default\n    on: yes\n    queues: [{name: root}]\n")
    assert [x.rule for x in f] == ["PRIO001"] and "'on'" in f[0].message


def test_python_tags_are_not_constructed():
    f = lint("partitions: !!python/object/apply:os.system ['echo hi']\n")
    assert "PRIO006" in {x.rule for x in f}


def test_top_level_scalar_or_list():
    assert [x.rule for x in lint("just text\n")] == ["PRIO003"]
    assert [x.rule for x in lint("- a\n- b\n")] == ["PRIO003"]


def test_never_writes_to_inputs(tmp_path):
    p = tmp_path / "q.yaml"
    p.write_text(GOOD)
    before = (p.read_bytes(), os.stat(p).st_mtime_ns)
    run_cli("validate", str(p))
    run_cli("explain", str(p))
    assert (p.read_bytes(), os.stat(p).st_mtime_ns) == before


BAD_SNAPSHOTS = [
    ("applications:\n  - {id: a, queue: 'root..x', asks: [{priority: 1}]}\n", "queue must be a queue path like root.tenants.a"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{priority: 3000000000}]}\n", "outside the int32 range"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{priorityClassName: nosuch}]}\n", "resolves to no PriorityClass"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{priority: 1, resources: {vcore: -2}}]}\n", "negative"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{priority: 1, resources: {memory: 1.5G}}]}\n", "invalid quantity"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{prority: 1}]}\n", "did you mean 'priority'"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{priority: 1, count: 0}]}\n", "count"),
    ("applications:\n  - {id: a, queue: root.x}\n  - {id: a, queue: root.y}\n", "appears twice"),
    ("applications:\n  - {id: a, queue: root.x, asks: [{priority: one}]}\n", "must be an integer"),
    ("hello: world\n", "not an input prio understands"),
]


@pytest.mark.parametrize("text,msg", BAD_SNAPSHOTS)
def test_bad_snapshots(text, msg):
    for cmd in ("explain", "simulate"):
        r = run_cli(cmd, "-", "-o", "json", input=text)
        one_line_error(r)
        assert msg in r.stderr, r.stderr
        assert r.stderr.startswith("prio: <stdin>:")


def test_snapshot_queue_below_a_configured_leaf_rejects_only_that_application(tmp_path):
    # YuniKorn refuses the application (no placement rule places it) and schedules the rest.
    s = tmp_path / "s.yaml"
    s.write_text("applications:\n  - {id: a, queue: root.system.system-low.deeper, asks: [{priority: 1}]}\n"
                 "  - {id: b, queue: root.system.system-low, asks: [{priority: 1}]}\n")
    r = run_cli("simulate", sample("walkthrough-queues.yaml"), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert [x["application"] for x in got["steps"]] == ["b"] and got["unscheduled"] == []
    assert got["rejected"] == [{"application": "a", "queue": "root.system.system-low.deeper",
                                "reason": "failed to place application a: application rejected: no placement rule matched"}]
    # with a rule that creates queues, the partition refuses to create one below a leaf
    q = tmp_path / "q.yaml"
    q.write_text(open(sample("walkthrough-queues.yaml")).read().replace(
        "  - name: default\n", "  - name: default\n    placementrules: [{name: provided, create: true}]\n", 1))
    r = run_cli("simulate", str(q), str(s), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["rejected"][0]["reason"] == (
        "failed to create rule based queue root.system.system-low.deeper for application a\n"
        "creation of queue root.system.system-low.deeper failed parent is already a leaf: root.system.system-low")


def test_two_configs_cannot_be_combined():
    r = run_cli("explain", sample("walkthrough-queues.yaml"), sample("walkthrough-queues.yaml"))
    one_line_error(r)


LINES = GOOD.splitlines()


@settings(max_examples=120, deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(st.data())
def test_mutated_configs_never_crash(data):
    lines = list(LINES)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "indent", "dedent", "garble", "value", "swap"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "indent":
            lines[i] = "  " + lines[i]
        elif op == "dedent":
            lines[i] = lines[i][2:]
        elif op == "garble":
            lines[i] = lines[i] + data.draw(st.sampled_from([":", " - x", " &a", " *a", " [", "{", " !!int", "\t", " \x00", " 1e999", ": 99999999999999999999999"]))
        elif op == "value":
            lines[i] = lines[i].split(":")[0] + ": " + data.draw(st.sampled_from(["[]", "{}", "null", "-1", "yes", "'x'", "2147483648", "[1, [2, [3]]]"]))
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        if not lines:
            lines = ["x"]
    text = "\n".join(lines) + "\n"
    for args in (("validate", "-"), ("validate", "-o", "json", "-"), ("explain", "-", "-o", "json"), ("simulate", "-", "-o", "json")):
        r = run_cli(*args, input=text)
        assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.stderr)
        assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
        assert "Traceback" not in r.stderr and "internal error" not in r.stderr, (args, text, r.stderr)


def test_explicit_scalar_tag_on_an_empty_value_is_no_crash():
    # found by test_mutated_configs_never_crash: `!!int` with nothing after it
    for text in ("The example: !!int\npartitions: []\n", "x: !!float abc\n", "x: !!bool maybe\n"):
        for cmd in ("explain", "simulate"):
            r = run_cli(cmd, "-", "-o", "json", input=text)
            assert r.exit_code == 2 and "internal error" not in r.stderr, (text, r.stderr)


# A big YAML that is no input prio reads is said so before it is parsed (issue 29, item 9).

def test_a_big_flat_yaml_map_is_refused_before_parsing_in_bounded_time_and_memory(tmp_path):
    import time

    from conftest import peak_rss_mib

    big = tmp_path / "values.yaml"
    with open(big, "w") as fh:
        i = n = 0
        while n < 27 * 2**20:
            line = f"key_{i}: some value number {i}\n"
            fh.write(line)
            n += len(line)
            i += 1
    t = time.monotonic()
    code, err, peak = peak_rss_mib(["explain", str(big)])
    assert code == 2 and f"{big}:1: not an input prio understands" in err, err
    assert time.monotonic() - t < 15 and peak < 300, (time.monotonic() - t, peak)  # parsed whole: 84 s and 1.2 GiB
    # in a directory it is skipped, and the rest is read
    d = tmp_path / "d"
    d.mkdir()
    big.rename(d / "values.yaml")
    for name in ("walkthrough-queues.yaml", "walkthrough-asks.yaml"):
        (d / name).write_text(open(sample(name)).read())
    r = run_cli("explain", str(d), "-o", "json")
    assert r.exit_code == 0 and "values.yaml: skipped: not an input prio reads" in r.stderr


def test_the_precheck_never_refuses_an_input_prio_reads():
    """surely_no_input is False for every sample and shared input (padded past the size where it
    runs), and for every shape it cannot read line by line."""
    import glob

    from conftest import SHARED
    from prio.io.recognise import surely_no_input

    files = glob.glob(os.path.join(os.path.dirname(sample("x")), "*")) + \
        glob.glob(os.path.join(SHARED, "testdata", "**", "*.y*ml"), recursive=True) + \
        glob.glob(os.path.join(SHARED, "testdata", "**", "*.json"), recursive=True)
    assert len(files) > 20
    for f in files:
        text = open(f, encoding="utf-8", errors="replace").read()
        assert not surely_no_input(text), f
    for text in ("  partitions:\n  - name: x\n", "a: 1\n---\npartitions: []\n", "- a\n", "'partitions': []\nb: 1\n",
                 "a: 1\n<<: *base\n", "%YAML 1.2\n---\na: 1\n", "? partitions\n: []\n", "a: 1\n\"partitions\" : x\n",
                 "# c\n\nb: 1\nkind: Pod\n", "{a: 1}\n", "a: |\n  x\npartitions: []\n"):
        assert not surely_no_input(text), text
    assert surely_no_input("# values\nreplicas: 3\nimage: nginx\nresources:\n  limits: {}\n")


@pytest.mark.parametrize("command", ["validate", "simulate", "explain"])
def test_nested_too_deeply_names_the_input(monkeypatch, command):
    """issue 43, item 7: a structure deeper than Python's recursion (a queue or cohort tree
    thousands of levels deep) is one line naming the input, not "input nested too deeply"."""
    from prio.io import gather as inputs
    from prio.lint import runner

    def deep(*a, **k):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(runner, "check_paths", deep)
    monkeypatch.setattr(inputs, "gather", deep)
    r = run_cli(command, sample("walkthrough-queues.yaml"))
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "walkthrough-queues.yaml: nested too deeply" in r.stderr, r.stderr


@pytest.mark.parametrize("command", ["preempt", "simulate"])
@pytest.mark.parametrize("where", ["vcore: 8,", "priority: 100,"])
def test_a_5000_digit_integer_in_preempt_input_is_a_message_about_the_input(tmp_path, command, where):
    """issue 43, item 7: past 4,300 digits Python refuses int(); prio says what is wrong instead."""
    with open(sample("preemption-asks.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    p = tmp_path / "asks.yaml"
    p.write_text(text.replace(where, where.split(":")[0] + ": " + "9" * 5000 + ",", 1))
    r = run_cli(command, sample("preemption-queues.yaml"), str(p))
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "internal error" not in r.stderr and "999999...999 (5000 digits)" in r.stderr, r.stderr
    assert len(r.stderr) < 400
