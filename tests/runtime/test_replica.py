"""The replica router's rule: reads that may lag go to the standby unless the client wrote a
moment ago, and a read the standby cannot answer yet is asked of the primary."""

import pytest
from django.test import RequestFactory

from games.errors import ServiceError
from games.runtime import replica


@pytest.fixture
def with_replica(settings, monkeypatch):
    monkeypatch.setattr(replica, "configured", lambda: True)  # as with DATABASE_REPLICA_URL
    settings.DATABASE_STICKY_S = 600
    settings.REDIS_HOSTS = []  # one process: the markers live in it
    replica._local.clear()
    yield
    replica._local.clear()


def seen_by(view_result: list):
    @replica.lagging_reads
    def view(request):
        view_result.append(replica._lagging.get())
        return "ok"

    return view


def test_the_router_sends_only_lagging_reads_to_the_replica():
    router = replica.ReplicaRouter()
    assert router.db_for_read(None) is None and router.db_for_write(None) is None
    with replica.reads_may_lag():
        assert router.db_for_read(None) == "replica"
        assert router.db_for_write(None) is None
    assert not router.allow_migrate("replica", "games")
    assert router.allow_migrate("default", "games")


def test_a_client_that_wrote_reads_the_primary_others_the_replica(with_replica):
    seen, factory = [], RequestFactory()
    view = seen_by(seen)
    writer = factory.get("/api/players/alice/", HTTP_COOKIE="sessionid=alice-session")
    other = factory.get("/api/players/alice/", HTTP_COOKIE="sessionid=bob-session")
    view(writer)
    replica.mark_wrote(replica.request_tag(writer))
    view(writer)
    view(other)
    view(factory.get("/api/players/alice/", REMOTE_ADDR="10.0.0.9"))
    assert seen == [True, False, True, True]


def test_without_a_replica_everything_reads_the_primary(settings):
    seen = []
    seen_by(seen)(RequestFactory().get("/api/leaderboards/beginner/"))
    assert seen == [False]


def test_a_read_the_replica_cannot_answer_yet_is_asked_of_the_primary(with_replica):
    seen = []

    @replica.lagging_reads
    def view(request):
        seen.append(replica._lagging.get())
        if replica._lagging.get():
            raise ServiceError("not_finished", "the move log is published when the game is over")
        return "from the primary"

    assert view(RequestFactory().get("/api/games/x/moves/")) == "from the primary"
    assert seen == [True, False]


def test_a_change_over_http_marks_its_client(with_replica):
    request = RequestFactory().post("/api/games/", HTTP_COOKIE="sessionid=carol-session")
    response = replica.ReadYourWritesMiddleware(lambda r: type("R", (), {"status_code": 201}))(
        request
    )
    assert response.status_code == 201
    assert replica.wrote_recently("scarol-session")
    refused = RequestFactory().post("/api/games/", HTTP_COOKIE="sessionid=dave-session")
    replica.ReadYourWritesMiddleware(lambda r: type("R", (), {"status_code": 400}))(refused)
    assert not replica.wrote_recently("sdave-session")
