"""The checks explain and simulate run on a queue config (prio.yunikorn.lint.checks.config_errors): only the
decoder's and the families YuniKorn's validator refuses for are loaded (not Armada's, Kueue's, ...),
and an issue of another module's rule still resolves."""
import subprocess
import sys

from conftest import prio_env

PROBE = """
import sys
from prio.diagnostics import Issue
from prio.io import yamlnodes
from prio.yunikorn.lint.checks import config_errors
from prio.yunikorn.load import queues
text = "partitions:\\n  - name: default\\n    queues:\\n      - name: root\\n        queues:\\n          - name: a b\\n"
doc = yamlnodes.load("q.yaml", text, go=True)[0]
errors = config_errors(doc, queues.decode(doc))
print(errors)
# (each backend's recognise module loads with io: it says what a document is; none of its rules do)
print(sorted(m.split(".")[-1] for m in sys.modules if m.startswith(("prio.yunikorn.lint.", "prio.lint.rules.", "prio.kueue.", "prio.armada.", "prio.volcano."))
             and not m.endswith(".recognise")))
doc.issues.append(Issue("PRIO301", ("partitions", 0), "a class message"))
print(config_errors(doc, queues.decode(doc)))
"""


def test_config_errors_loads_only_what_it_runs():
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=prio_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    first, loaded, again = r.stdout.splitlines()
    assert "line 6" in first and "a b" in first  # PRIO106, an invalid queue name
    # the refusing families, the decoder's, and what they stand on (the checks module, the lint context, the schema)
    assert loaded == "['acl', 'checks', 'context', 'decoding', 'limits', 'nodesort', 'placement', 'resources', 'schema', 'structure']"
    assert "a class message" in again  # another module's rule (priorityclass): every rule loaded, and it resolves


def _configs():
    """Every recorded config of the validate corpora and the samples' configs: (name, text)."""
    import glob
    import os

    from conftest import SHARED, sample

    files = sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-conformance", "validate", "*.yaml")))
    files += sorted(glob.glob(os.path.join(SHARED, "testdata", "yunikorn-configs", "*.yaml")))
    files += [sample(n) for n in ("walkthrough-queues.yaml", "batch-queues.yaml", "mistakes.yaml", "preemption-queues.yaml")]
    for f in files:
        with open(f, encoding="utf-8") as fh:
            yield os.path.basename(f), fh.read()


def _config_documents():
    """The mapping documents of _configs() that parse: (name, Document)."""
    from prio.errors import InputError
    from prio.io import yamlnodes

    for name, text in _configs():
        try:
            docs = yamlnodes.load(name, text, go=True)
        except InputError:
            continue
        yield from ((name, doc) for doc in docs if isinstance(doc.data, dict))


def test_the_error_rules_alone_find_every_refusal(monkeypatch):
    """config_errors runs only the checks of error rules (a finding of the refusing families never
    raises its rule's severity): the same lines, on every recorded config and sample, as with
    every check of those families run; and none of their modules gives a finding "error" itself."""
    import inspect

    from prio.lint import registry
    from prio.yunikorn.lint import checks as runner
    from prio.yunikorn.load import queues

    runner.load(*runner.REFUSING)
    for family in runner.REFUSING:
        assert 'severity="error"' not in inspect.getsource(sys.modules[f"prio.yunikorn.lint.{family}"])
    every = registry.run
    refused = 0
    for name, doc in _config_documents():
        fast = runner.config_errors(doc, queues.decode(doc))
        with monkeypatch.context() as m:
            m.setattr(runner, "run", lambda target, *subject, family=None, severity=None: every(target, *subject, family=family))
            assert runner.config_errors(doc, queues.decode(doc)) == fast, name
        refused += bool(fast)
    assert refused > 20  # the corpora hold refused configs, not only clean ones


def test_the_queue_index_skips_only_queues_a_rule_has_nothing_to_say_of(monkeypatch):
    """Context.having (the queues that set limits, guaranteed, max, ... found in one pass) lets
    a rule loop over those alone: every queue rule of every family finds the same issues, on
    every recorded config and sample, as when each is handed every queue."""
    from prio.lint.registry import run
    from prio.lint.rules import load_all
    from prio.yunikorn.lint.context import Context
    from prio.yunikorn.load import queues

    load_all()
    having = Context.having
    compared = 0
    for name, doc in _config_documents():
        indexed = run("queues", Context(queues.decode(doc)))
        with monkeypatch.context() as m:
            m.setattr(Context, "having", lambda self, what: self.queues)
            assert run("queues", Context(queues.decode(doc))) == indexed, name
        ctx = Context(queues.decode(doc))
        sets = {"limits": lambda q: q.limits, "guaranteed": lambda q: q.guaranteed, "max": lambda q: q.max,
                "quantities": lambda q: q.limits or q.guaranteed or q.max, "maxapplications": lambda q: q.maxapplications,
                "childtemplate": lambda q: q.childtemplate is not None,
                "acl": lambda q: q.adminacl is not None or q.submitacl is not None, "children": lambda q: q.queues}
        for what, sets_it in sets.items():
            assert having(ctx, what) == [e for e in ctx.queues if sets_it(e[1])], (name, what)
        compared += bool(indexed)
    assert compared > 20
