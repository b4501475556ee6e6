"""ConfigMaps the YuniKorn shim never reads, or reads without a queue config (issue 14):
PRIO008 configmap-missing-queues-key and PRIO009 configmap-not-read, and what validate checks
in a ConfigMap (only the key the shim reads)."""
from conftest import lint, run_cli

INNER = "partitions:\n  - name: default\n    queues:\n      - name: root\n"


def cm(name="yunikorn-configs", key="queues.yaml", extra=""):
    body = "".join("    " + ln + "\n" for ln in INNER.splitlines())
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{extra}  {key}: |\n{body}"


def rules(text):
    return [(f.rule, f.severity, f.line) for f in lint(text)]


def test_misspelt_key_is_a_warning_at_the_key():
    assert rules(cm(key="queues.yml")) == [("PRIO008", "warning", 6)]
    assert rules(cm(name="yunikorn-defaults", key="Queues.yaml")) == [("PRIO008", "warning", 6)]


def test_the_right_key_passes():
    assert rules(cm()) == []
    assert rules(cm(name="yunikorn-defaults")) == []


def test_only_other_settings_is_an_info():
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n  log.level: '-1'\n"
    assert rules(text) == [("PRIO008", "info", 4)]


def test_policy_group_names_the_key():
    # service.policyGroup: batch makes the shim read batch.yaml (and nothing else)
    ok = cm(key="batch.yaml", extra="  service.policyGroup: batch\n")
    assert rules(ok) == []
    bad = cm(key="queues.yaml", extra="  service.policyGroup: batch\n")
    assert [r[0] for r in rules(bad)] == ["PRIO008"]


def test_near_miss_name_is_a_warning_and_its_queues_still_linted():
    for name in ("yunikorn-config", "yunikorn-configs-x", "Yunikorn-Configs", "yunikorn-default"):
        got = lint(cm(name=name))
        assert [(f.rule, f.line) for f in got] == [("PRIO009", 4)], name
        assert "did you mean" in got[0].message
    bad = cm(name="yunikorn-config").replace("name: root", "name: root\n        maxApplications: 3")
    assert {f.rule for f in lint(bad)} == {"PRIO009", "PRIO001"}


def test_any_configmap_with_a_queues_yaml_is_not_read():
    assert [r[0] for r in rules(cm(name="scheduler-settings"))] == ["PRIO009"]
    nameless = cm().replace("metadata:\n  name: yunikorn-configs\n", "metadata: {}\n")
    got = lint(nameless)
    assert [f.rule for f in got] == ["PRIO009"] and "without metadata.name" in got[0].message


def test_unrelated_configmap_is_not_linted_as_a_queue_config():
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: grafana\ndata:\n  dashboard.yaml: |\n    panels: []\n"
    assert lint(text) == []
    r = run_cli("validate", "-", input=text)
    assert r.exit_code == 2 and "not something prio validates" in r.stderr


def test_cli_exit_codes(tmp_path):
    p = tmp_path / "cm.yaml"
    p.write_text(cm(key="queues.yml"))
    r = run_cli("validate", str(p))
    assert r.exit_code == 0 and "PRIO008" in r.stdout
    assert run_cli("validate", "--strict", str(p)).exit_code == 1
    assert "PRIO009" in run_cli("rule", "PRIO009").stdout
