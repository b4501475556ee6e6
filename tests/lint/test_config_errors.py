"""The checks explain and simulate run on a queue config (lint.runner.config_errors): only the
decoder's and the families YuniKorn's validator refuses for are loaded (not Armada's, Kueue's, ...),
and an issue of another module's rule still resolves."""
import subprocess
import sys

from conftest import prio_env

PROBE = """
import sys
from prio.diagnostics import Issue
from prio.io import yamlnodes
from prio.lint.runner import config_errors
from prio.loaders import queues
text = "partitions:\\n  - name: default\\n    queues:\\n      - name: root\\n        queues:\\n          - name: a b\\n"
doc = yamlnodes.load("q.yaml", text, go=True)[0]
errors = config_errors(doc, queues.decode(doc))
print(errors)
print(sorted(m.split(".")[-1] for m in sys.modules if m.startswith("prio.lint.rules.")))
doc.issues.append(Issue("PRIO301", ("partitions", 0), "a class message"))
print(config_errors(doc, queues.decode(doc)))
"""


def test_config_errors_loads_only_what_it_runs():
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=prio_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    first, loaded, again = r.stdout.splitlines()
    assert "line 6" in first and "a b" in first  # PRIO106, an invalid queue name
    assert loaded == "['acl', 'decoding', 'limits', 'nodesort', 'placement', 'resources', 'structure']"
    assert "a class message" in again  # another module's rule (priorityclass): every rule loaded, and it resolves
