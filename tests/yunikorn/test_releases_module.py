"""prio.yunikorn.releases as a module: cheap to import (every command that reads a config imports
it: no dataclasses machinery, no pattern compiled at import) and its Release immutable."""
import os
import subprocess
import sys

import pytest

from prio.yunikorn import releases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_importing_it_loads_no_dataclasses_and_compiles_no_pattern():
    code = ("import sys, re\nimport prio.yunikorn.properties\nn = len(re._cache)\nimport prio.yunikorn.releases as r\n"
            "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules), len(re._cache) - n, "
            "all(x._queue_name_re is None and x._user_name_re is None for x in r.RELEASES.values()))")
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "cli")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]", "0", "True"], r.stdout


def test_a_release_is_immutable_and_changed_copies_it():
    r = releases.NEWEST
    with pytest.raises(AttributeError):
        r.name = "2.0"
    c = r.changed(name="2.0", tag="v2.0.0")
    assert (c.name, c.tag, r.name) == ("2.0", "v2.0.0", releases.NAMES[-1])
    assert all(getattr(c, f) == getattr(r, f) for f in releases.SCHEDULING_FIELDS)
    assert c.queue_name_re.fullmatch("a#b") and not releases.RELEASES["1.5"].queue_name_re.fullmatch("a#b")
    with pytest.raises(TypeError):
        releases.Release("2.0", "v2", queue_name="x")  # every field without a default is given
