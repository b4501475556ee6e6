"""--kube and the YuniKorn release (issue 46): the version the images of YuniKorn's own pods name
(apache/yunikorn:scheduler-1.6.3) is the release the config is judged by when --yunikorn-version
is not given; a --yunikorn-version they contradict is noted. Through the stand-in kubectl of
tests/cli/test_kube.py."""
import pytest
from test_kube import kube  # noqa: F401 - the fixture

from conftest import run_cli


@pytest.mark.parametrize("image,flag,said", [
    ("apache/yunikorn:scheduler-1.6.3", [], "the cluster's YuniKorn runs 1.6.3 (its pods' images): judged as YuniKorn 1.6"),
    ("apache/yunikorn:scheduler-1.6.3", ["--yunikorn-version", "1.8"], "--yunikorn-version 1.8, but the cluster's YuniKorn runs 1.6.3"),
    ("apache/yunikorn:scheduler-1.4.0", [], "runs 1.4.0 (its pods' images): judged as YuniKorn 1.9, the newest prio knows"),
])
def test_the_release_of_the_clusters_yunikorn(kube, monkeypatch, image, flag, said):  # noqa: F811 - the fixture
    monkeypatch.setenv("FAKE_KUBECTL_SCHEDULER", image)
    r = run_cli("explain", "--kube", *flag)
    assert r.exit_code == 0, r.stderr
    assert said in r.stderr
    if not flag and "1.6" in said:
        assert "no model of 1.6's" in r.stderr  # the run is 1.6's: its notes say so


def test_no_yunikorn_image_no_note(kube):  # noqa: F811 - the fixture
    r = run_cli("explain", "--kube")
    assert r.exit_code == 0 and "YuniKorn runs" not in r.stderr and "no model of" not in r.stderr
