"""--yunikorn URL and the YuniKorn release (issue 46): the release the server's queue tree shows
(its REST fields, dao/queue_info.go at each tag) is the one its config is judged by when
--yunikorn-version is not given, and a --yunikorn-version the server's shape contradicts is noted."""

import pytest

from conftest import run_cli, shared
from yunikorn_replay import Replay


def scenario(name):
    return shared("testdata", "yunikorn-rest-live", name)


@pytest.mark.parametrize("fields,releases", [
    ({"queuename", "childrenNames"}, ("1.5",)),
    ({"queuename", "childNames", "currentPriority"}, ("1.6",)),
    ({"queuename", "childNames", "isPriorityFence", "sortingPolicy"}, ("1.7", "1.8", "1.9")),
    ({"queuename", "isPriorityFence", "quotaPreemptionDelay"}, ("1.8", "1.9")),
    ({"queuename"}, ("1.5", "1.6", "1.7", "1.8", "1.9")),  # nothing to tell by: omitempty fields prove nothing when absent
])
def test_the_release_a_queue_tree_shows(fields, releases):
    from prio.yunikorn.releases import from_queue_fields

    assert from_queue_fields(fields) == releases


def test_a_release_the_server_contradicts_is_noted():
    sc = scenario("preemption-properties")
    with Replay(sc) as srv:
        newest = run_cli("explain", "--yunikorn", srv.url)
        older = run_cli("explain", "--yunikorn", srv.url, "--yunikorn-version", "1.6")
        unknown = run_cli("explain", "--yunikorn", srv.url, "--yunikorn-version", "3.1")
    assert newest.exit_code == 0 and "REST shape" not in newest.stderr
    assert older.exit_code == 0
    assert f"{srv.url}: --yunikorn-version 1.6, but the server's queues have the REST shape of YuniKorn 1.8 to 1.9" in older.stderr
    assert unknown.exit_code == 2 and "unknown YuniKorn release '3.1'" in unknown.stderr
    assert not [r for r in srv.requests if "3.1" in str(r)]


def test_an_older_server_is_judged_as_its_release():
    from types import SimpleNamespace

    from prio.cli.live import server_release
    from prio.yunikorn.load.inputs import Inputs

    state = SimpleNamespace(url="http://yk:9080", queue_fields=frozenset({"queuename", "childrenNames"}), inputs=Inputs())
    assert server_release(state, None).name == "1.5"
    assert state.inputs.notes == ["http://yk:9080: judged as YuniKorn 1.5, the release whose REST shape the server's queues have "
                                  "(--yunikorn-version says otherwise)"]
