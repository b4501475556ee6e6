"""prio.io.http: the client of a YuniKorn REST API (against the replayed API of
../shared/testdata/yunikorn-rest-live)."""
import pytest

from conftest import shared
from yunikorn_replay import Replay


def scenario(name):
    return shared("testdata", "yunikorn-rest-live", name)


def test_request_count_is_bounded():
    from prio.errors import InputError
    from prio.io import http

    with Replay(scenario("walkthrough")) as srv:
        c = http.Client(srv.url, max_requests=2)
        c.get_json("/ws/v1/partitions")
        c.get_json("/ws/v1/partitions")
        with pytest.raises(InputError, match="more than 2 requests"):
            c.get_json("/ws/v1/partitions")
