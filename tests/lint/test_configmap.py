"""ConfigMaps that carry queues.yaml: findings point at lines of the outer file."""
import base64
import gzip
import json

from builders import UNDER_ROOT
from conftest import lint, run_cli, sample, shared

INNER = UNDER_ROOT + "          - name: a\n            properties:\n              priority.offset: abc\n"


def cm(body: str, style="|") -> str:
    if style == "|":
        block = "|\n" + "".join("    " + l + "\n" for l in body.splitlines())
    else:
        block = json.dumps(body) + "\n"
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n  queues.yaml: " + block


def test_literal_block_positions_map_to_outer_lines():
    f = lint(cm(INNER))
    assert [(x.rule, x.line, x.column) for x in f] == [("PRIO203", 15, 36)]  # UNDER_ROOT: 6 lines


def test_sample_configmap():
    f = lint(open(sample("yunikorn-configs.yaml")).read())
    assert [(x.rule, x.line) for x in f] == [("PRIO204", 24)]


def test_quoted_block_points_at_the_key_and_says_so():
    f = lint(cm(INNER, style="quoted"))
    rules = {x.rule: x for x in f}
    assert rules["PRIO203"].line == 6 and rules["PRIO007"].line == 6


def test_list_and_multi_document_with_other_kinds():
    text = "apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Service\n    metadata: {name: s}\n  - " + \
        cm(INNER).replace("\n", "\n    ").rstrip() + "\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
    f = lint(text)
    assert [x.rule for x in f] == ["PRIO203"]
    assert f[0].line == next(i for i, l in enumerate(text.splitlines(), 1) if l.endswith("priority.offset: abc"))
    r = run_cli("validate", "-v", "-", input=text)
    assert "skipped" in r.stderr and "Deployment" in r.stderr


def test_binary_data_gz():
    payload = base64.b64encode(gzip.compress(INNER.encode())).decode()
    text = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\nbinaryData:\n  queues.yaml.gz: {payload}\n"
    f = lint(text)
    assert {x.rule for x in f} == {"PRIO203", "PRIO007"}
    assert all(x.line == 6 for x in f)


def test_embedded_yaml_error_points_into_outer_file():
    r = run_cli("validate", "-", input=cm("partitions:\n  - name: x\n   bad: [\n"))
    assert r.exit_code == 2
    assert r.stderr.startswith("prio: <stdin>:9:8: in the embedded queues.yaml")


def test_configmap_drives_explain_too():
    r = run_cli("explain", sample("yunikorn-configs.yaml"), sample("walkthrough-asks.yaml"), "-o", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["queues"][0]["priority"] == 1001


def test_shared_fixture_configs_all_readable():
    import os

    d = shared("testdata", "yunikorn-configs")
    for name in sorted(os.listdir(d)):
        r = run_cli("validate", "-o", "json", os.path.join(d, name))
        assert r.exit_code in (0, 1), (name, r.stderr)
        report = json.loads(r.stdout)  # read and checked: no unreadable-input entry
        assert report["summary"]["files"] == 1 and not [f for f in report["findings"] if f["rule"] == "PRIO000"], name
