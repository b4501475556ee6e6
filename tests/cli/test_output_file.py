"""--output-file on every command (prio.cli.outfile): never one of the inputs, compared by file
identity before anything is read; a regular file is replaced atomically, a symlink never followed
(the link itself is replaced, issue 43 item 6), and a FIFO, a device or a descriptor name written
into, never replaced."""
import os
import shutil
import stat
import subprocess
import sys
import threading

import pytest

from builders import walkthrough_queues_lowered
from conftest import prio_env, run_cli, sample


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Copies of the walkthrough inputs (queues, asks, a lowered config), the preemption pair,
    a PriorityClass file; the working directory is tmp_path."""
    for name in ("walkthrough-queues.yaml", "walkthrough-asks.yaml", "preemption-queues.yaml", "preemption-asks.yaml",
                 "priorityclasses.yaml"):
        shutil.copy(sample(name), tmp_path / name)
    (tmp_path / "new.yaml").write_text(walkthrough_queues_lowered())
    monkeypatch.chdir(tmp_path)
    return tmp_path


# Each command with its inputs; the last element is the argument the output file will collide with.
COMMANDS = {
    "simulate": ["simulate", "walkthrough-queues.yaml", "walkthrough-asks.yaml"],
    "explain": ["explain", "walkthrough-queues.yaml", "walkthrough-asks.yaml"],
    "preempt": ["preempt", "preemption-queues.yaml", "preemption-asks.yaml"],
    "diff": ["diff", "walkthrough-queues.yaml", "new.yaml", "walkthrough-asks.yaml"],
    "validate": ["validate", "walkthrough-queues.yaml", "new.yaml"],
    "snapshot": ["snapshot", "walkthrough-queues.yaml", "walkthrough-asks.yaml"],
}


def _refused(r, out):
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "prio never writes to its inputs" in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("cmd", COMMANDS)
@pytest.mark.parametrize("spelling", ["same", "dot-slash", "absolute", "dotdot", "symlink", "hardlink"])
def test_output_file_naming_an_input_is_refused(files, cmd, spelling):
    args = COMMANDS[cmd]
    victim = args[-1]
    before = (files / victim).read_bytes()
    out = {"same": victim, "dot-slash": f"./{victim}", "absolute": str(files / victim),
           "dotdot": f"../{files.name}/{victim}"}.get(spelling)
    if spelling == "symlink":
        os.symlink(victim, files / "link.yaml")
        out = "link.yaml"
    elif spelling == "hardlink":
        os.link(victim, files / "hard.yaml")
        out = "hard.yaml"
    _refused(run_cli(*args, "--output-file", out), out)
    assert (files / victim).read_bytes() == before


@pytest.mark.parametrize("cmd", COMMANDS)
def test_refused_before_anything_is_read(files, cmd):
    """The input is garbage: the refusal comes first, not the parse error, and it stays garbage."""
    args = COMMANDS[cmd]
    (files / args[-1]).write_text("{{{ not yaml")
    _refused(run_cli(*args, "--output-file", args[-1]), args[-1])
    assert (files / args[-1]).read_text() == "{{{ not yaml"


def test_priority_classes_file_and_a_file_of_an_input_directory_are_inputs(files):
    r = run_cli("simulate", "walkthrough-queues.yaml", "walkthrough-asks.yaml", "--priority-classes", "priorityclasses.yaml",
                "--output-file", "priorityclasses.yaml")
    _refused(r, "priorityclasses.yaml")
    os.mkdir("deploy")
    shutil.copy("walkthrough-queues.yaml", "deploy/queues.yaml")
    _refused(run_cli("validate", "deploy", "--output-file", "deploy/queues.yaml"), "deploy/queues.yaml")
    _refused(run_cli("validate", "deploy", "-o", "json", "--output-file", "./deploy/../deploy/queues.yaml"), "")
    # a new file in an input directory is no input
    assert run_cli("validate", "deploy", "-o", "json", "--output-file", "deploy/report.json").exit_code == 0
    assert os.path.exists("deploy/report.json")


def test_stdin_redirected_from_the_output_file_is_refused(files):
    with open("walkthrough-queues.yaml", "rb") as stdin:
        p = subprocess.run([sys.executable, "-m", "prio", "validate", "-", "--output-file", "walkthrough-queues.yaml"],
                           stdin=stdin, capture_output=True, text=True, env=prio_env(), timeout=60)
    assert p.returncode == 2 and "standard input" in p.stderr and "never writes to its inputs" in p.stderr
    assert open("walkthrough-queues.yaml").read() == open(sample("walkthrough-queues.yaml")).read()


# Item 3: only regular files are replaced.

@pytest.mark.parametrize("cmd", ["simulate", "validate", "diff", "preempt", "snapshot"])
def test_a_fifo_is_written_into_not_replaced(files, cmd):
    os.mkfifo("out.fifo")
    got = []
    reader = threading.Thread(target=lambda: got.append(open("out.fifo", "rb").read()))
    reader.start()
    r = run_cli(*COMMANDS[cmd], "-o", "json", "--output-file", "out.fifo")
    reader.join(30)
    assert r.exit_code in (0, 1), r.stderr
    assert stat.S_ISFIFO(os.lstat("out.fifo").st_mode)
    assert got and got[0].strip()


def test_a_symlink_is_never_followed_the_link_itself_is_replaced(files):
    """A link planted in a shared folder cannot redirect the report: its target is left as it
    was and the report is a regular file where the link was (issue 43, item 6)."""
    os.mkdir("reports")
    (files / "reports" / "order.txt").write_text("old report\n")
    os.symlink("reports/order.txt", "latest.txt")
    assert run_cli("simulate", "walkthrough-queues.yaml", "walkthrough-asks.yaml", "--output-file", "latest.txt").exit_code == 0
    assert not os.path.islink("latest.txt") and "tenant" in (files / "latest.txt").read_text()
    assert (files / "reports" / "order.txt").read_text() == "old report\n"
    assert [f for f in os.listdir(".") if f.startswith(".prio-")] == []
    os.symlink("reports/new.txt", "dangling.txt")  # a link to nothing yet: nothing is created there
    assert run_cli("validate", "walkthrough-queues.yaml", "--output-file", "dangling.txt").exit_code == 0
    assert not os.path.islink("dangling.txt") and not (files / "reports" / "new.txt").exists()


def test_a_symlink_to_a_device_or_fifo_is_not_followed_either(files):
    os.mkfifo("victim.fifo")
    os.symlink("victim.fifo", "out.txt")
    r = run_cli("validate", "walkthrough-queues.yaml", "--output-file", "out.txt")  # would block on the FIFO if followed
    assert r.exit_code == 0, r.stderr
    assert not os.path.islink("out.txt") and stat.S_ISFIFO(os.lstat("victim.fifo").st_mode)


def test_a_regular_file_keeps_its_permissions(files):
    (files / "order.txt").write_text("old report\n")
    os.chmod("order.txt", 0o640)
    assert run_cli("simulate", "walkthrough-queues.yaml", "walkthrough-asks.yaml", "--output-file", "order.txt").exit_code == 0
    assert stat.S_IMODE(os.stat("order.txt").st_mode) == 0o640 and "old report" not in (files / "order.txt").read_text()


def test_devices_and_descriptor_names_are_written_into(tmp_path):
    """A character device stays a device (a node of /dev/null's kind made here, so a regression
    can never replace the machine's own /dev/null), and /dev/stdout is the process's stdout."""
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers
    except (PermissionError, AttributeError):
        pytest.skip("creating a device node needs root")
    before = os.stat(null)
    for args in (["validate", sample("mistakes.yaml")], ["simulate", "-o", "json"], ["explain"]):
        p = subprocess.run([sys.executable, "-m", "prio", *args, "--output-file", str(null)], capture_output=True, text=True,
                           env=prio_env(), timeout=60)
        assert p.returncode in (0, 1) and p.stdout == "", p.stderr
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    p = subprocess.run([sys.executable, "-m", "prio", "validate", "-o", "json", sample("mistakes.yaml"), "--output-file",
                        "/dev/stdout"], capture_output=True, text=True, env=prio_env(), timeout=60)
    assert p.returncode == 1 and '"findings"' in p.stdout


def test_a_fifo_reader_that_leaves_early_does_not_change_the_verdict(files):
    os.mkfifo("out.fifo")
    p = subprocess.Popen([sys.executable, "-m", "prio", "validate", sample("mistakes.yaml"), "--output-file", "out.fifo"],
                         stderr=subprocess.PIPE, text=True, env=prio_env())
    with open("out.fifo", "rb") as fh:
        fh.read(1)  # then the reader goes away
    err = p.stderr.read()
    assert p.wait(60) == 1, err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["simulate", "explain", "preempt", "diff"])
@pytest.mark.parametrize("name", ["report.html", "report.json", "sub/../report.txt"])
def test_a_report_written_to_a_file_says_where(command, name, files):
    # As snapshot does ("prio: wrote FILE: ..."): a report the terminal never shows is named once
    # it is in place, with the name as given.
    out = files / name.replace("sub/../", "")
    os.makedirs(files / "sub", exist_ok=True)
    fmt = ["-o", "json"] if name.endswith(".json") else []
    r = run_cli(*COMMANDS[command], *fmt, "--output-file", name)
    assert r.exit_code in (0, 1), r.stderr
    assert out.stat().st_size > 0 and r.stdout == ""
    assert r.stderr.splitlines()[-1] == f"prio: wrote {name}", r.stderr


@pytest.mark.parametrize("command", ["simulate", "diff"])
def test_nothing_is_said_written_when_nothing_was(command, files):
    r = run_cli(*COMMANDS[command], "--output-file", "/dev/null")  # a device written into: not a report to open
    assert r.exit_code in (0, 1) and "wrote" not in r.stderr
    r = run_cli(*COMMANDS[command], "nosuch.yaml", "--output-file", "x.html")
    assert r.exit_code == 2 and "wrote" not in r.stderr and not (files / "x.html").exists()
