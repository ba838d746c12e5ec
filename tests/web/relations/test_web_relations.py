"""Following and blocking (``relations/``, ``api/relations.py``), on SQLite and on PostgreSQL: the
routes' answers (signed in only, idempotent, a clear 4xx for an unknown or deleted player and
for oneself), the following list with where each player is (on the site, playing, in a
tournament), what a block does to follows and to challenges, the ceilings, and a deleted
account's relations going both ways."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from websettings import tiny_settings

from boardplay.web.accounts.service import COOKIE
from boardplay.web.app import create_app
from boardplay.web.relations.store import relations_table

LIMITS = {"follows_per_account": 3, "blocks_per_account": 2, "relations_per_hour": 1_000}
_names = itertools.count(1)


@dataclass
class Site:
    client: TestClient
    kind: str

    def player(self, stem: str) -> Player:
        return sign_up(self.client, f"{stem}{next(_names)}")

    @property
    def hub(self) -> Any:
        return self.client.app.state.hub  # type: ignore[attr-defined]


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("relations")
    settings = settings_on(request.param, folder, request, LIMITS)
    with TestClient(create_app(settings)) as client:
        yield Site(client, request.param)


def act(player: Player, method: str, what: str, name: str) -> Any:
    return player.client.request(method, f"/api/relations/{what}/{name}", headers=player.headers())


def ok(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def error(answer: Any, status: int) -> str:
    assert answer.status_code == status, answer.text
    code: str = answer.json()["error"]["code"]
    return code


def following(player: Player) -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in ok(player.get("/api/relations/following"))["following"]}


def with_(player: Player, name: str) -> dict[str, Any]:
    return ok(player.get(f"/api/relations/with/{name}"))


# ----- the routes ---------------------------------------------------------------------------
def test_follow_and_unfollow_are_idempotent(site: Site) -> None:
    ana, ben = site.player("Ana"), site.player("Ben")
    for _ in range(2):
        assert ok(act(ana, "POST", "follow", ben.name)) == {"name": ben.name, "following": True}
    assert list(following(ana)) == [ben.name]
    assert with_(ana, ben.name) == {"name": ben.name, "following": True, "blocking": False}
    assert following(ben) == {}  # one way
    for _ in range(2):
        assert ok(act(ana, "DELETE", "follow", ben.name))["following"] is False
    assert following(ana) == {}


def test_names_are_read_as_accounts_are(site: Site) -> None:
    ana, ben = site.player("Ana"), site.player("Ben")
    assert ok(act(ana, "POST", "follow", ben.name.upper()))["name"] == ben.name
    assert error(act(ana, "POST", "follow", "nobody-here"), 404) == "no_such_player"
    assert error(act(ana, "POST", "block", ana.name), 400) == "relation_self"
    assert error(act(ana, "POST", "follow", ana.name), 400) == "relation_self"
    assert error(act(ana, "POST", "follow", "x" * 65), 400)


def test_every_route_needs_a_signed_in_player(site: Site) -> None:
    ben = site.player("Ben")
    client = site.client
    for method, path in [
        ("POST", f"follow/{ben.name}"),
        ("DELETE", f"follow/{ben.name}"),
        ("POST", f"block/{ben.name}"),
        ("DELETE", f"block/{ben.name}"),
        ("GET", "following"),
        ("GET", "blocked"),
        ("GET", f"with/{ben.name}"),
    ]:
        answer = client.request(method, f"/api/relations/{path}")
        assert error(answer, 401) == "sign_in_required", path


def test_a_change_without_the_csrf_token_is_refused(site: Site) -> None:
    ana, ben = site.player("Ana"), site.player("Ben")
    answer = site.client.post(f"/api/relations/follow/{ben.name}", headers=ana.headers(False))
    assert error(answer, 403) == "csrf"
    assert following(ana) == {}


# ----- where the followed players are --------------------------------------------------------
def test_the_list_says_who_is_on_the_site(site: Site) -> None:
    ana, ben, cy = site.player("Ana"), site.player("Ben"), site.player("Cy")
    ok(act(ana, "POST", "follow", ben.name))
    ok(act(ana, "POST", "follow", cy.name))
    with site.client.websocket_connect(
        "/api/lobby/ws", headers={"Cookie": f"{COOKIE}={ben.cookie}"}
    ) as socket:
        assert socket.receive_json()["type"] == "seeks"
        listed = following(ana)
        assert listed[ben.name]["online"] and not listed[cy.name]["online"]
    site.client.portal.call(site.hub.lobby.upkeep)  # the heartbeat after the page closed
    assert not following(ana)[ben.name]["online"]


def test_the_list_links_a_game_being_played(site: Site) -> None:
    ana, ben, cy = site.player("Ana"), site.player("Ben"), site.player("Cy")
    ok(act(ana, "POST", "follow", ben.name))
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = ben.post("/api/games", {"game": "tiny", "seats": seats, "clock": RAPID}).json()
    assert following(ana)[ben.name]["playing"] is None  # waiting for an opponent
    assert cy.post(f"/api/games/{made['id']}/join", {"seat": 1}).status_code == 200
    assert following(ana)[ben.name]["playing"] == made["id"]
    # A private game, or one played over days, is not shown.
    ben.post(f"/api/games/{made['id']}/resign", {"token": made["token"]})
    for body in ({"clock": RAPID, "private": True}, {"clock": {"days": 3}}):
        other = ben.post("/api/games", {"game": "tiny", "seats": seats, **body}).json()
        assert cy.post(f"/api/games/{other['id']}/join", {"seat": 1}).status_code == 200
        assert following(ana)[ben.name]["playing"] is None, body


def test_the_list_names_a_running_tournament(site: Site) -> None:
    ana, ben = site.player("Ana"), site.player("Ben")
    ok(act(ana, "POST", "follow", ben.name))
    body = {"name": "Spring", "kind": "arena", "game": "tiny", "minutes": 30, "clock": RAPID}
    made = ben.post("/api/tournaments", {**body, "starts": time.time() + 30}).json()
    tid = made["tournament"]["id"]
    assert ben.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert following(ana)[ben.name]["tournament"] is None  # not started
    hub = site.hub
    clock = hub.now
    hub.now = lambda: time.time() + 60
    try:
        site.client.portal.call(hub.tournaments.tick)
    finally:
        hub.now = clock
    assert following(ana)[ben.name]["tournament"] == {"id": tid, "name": "Spring"}


def heard(socket: Any) -> list[dict[str, Any]]:
    """What a lobby socket was sent since it was last asked (up to the answer of a ping)."""
    socket.send_json({"type": "ping", "id": 7})
    out = []
    while (message := socket.receive_json()) != {"type": "pong", "id": 7}:
        out.append(message)
    return out


def test_a_follower_hears_when_a_followed_player_starts_a_game(site: Site) -> None:
    ana, ben, cy = site.player("Ana"), site.player("Ben"), site.player("Cy")
    ok(act(ana, "POST", "follow", ben.name))
    seats = [{"kind": "me"}, {"kind": "open"}]
    with site.client.websocket_connect(
        "/api/lobby/ws", headers={"Cookie": f"{COOKIE}={ana.cookie}"}
    ) as socket:
        assert socket.receive_json()["type"] == "seeks"
        made = ben.post("/api/games", {"game": "tiny", "seats": seats, "clock": RAPID}).json()
        assert heard(socket) == []  # waiting for an opponent: not started
        assert cy.post(f"/api/games/{made['id']}/join", {"seat": 1}).status_code == 200
        told = {"type": "followed", "game": made["id"], "players": [ben.name]}
        assert heard(socket) == [told]
        hidden = {"game": "tiny", "seats": seats, "private": True}
        other = ben.post("/api/games", hidden).json()
        assert cy.post(f"/api/games/{other['id']}/join", {"seat": 1}).status_code == 200
        assert heard(socket) == []  # a private game is told to nobody
        mine = ana.post("/api/games", {"game": "tiny", "seats": seats}).json()
        assert ben.post(f"/api/games/{mine['id']}/join", {"seat": 1}).status_code == 200
        assert heard(socket) == []  # nor is a follower told of their own game


# ----- blocks -------------------------------------------------------------------------------
def test_a_block_ends_the_follows_both_ways_and_stops_new_ones(site: Site) -> None:
    ana, ben = site.player("Ana"), site.player("Ben")
    ok(act(ana, "POST", "follow", ben.name))
    ok(act(ben, "POST", "follow", ana.name))
    for _ in range(2):
        assert ok(act(ana, "POST", "block", ben.name)) == {"name": ben.name, "blocking": True}
    assert following(ana) == {} and following(ben) == {}
    assert with_(ana, ben.name) == {"name": ben.name, "following": False, "blocking": True}
    assert [b["name"] for b in ok(ana.get("/api/relations/blocked"))["blocked"]] == [ben.name]
    assert error(act(ana, "POST", "follow", ben.name), 409) == "blocking"
    refusal = act(ben, "POST", "follow", ana.name)
    assert error(refusal, 403) == "not_followable"
    assert "block" not in refusal.json()["error"]["message"]  # says no more than it must
    for _ in range(2):
        assert ok(act(ana, "DELETE", "block", ben.name))["blocking"] is False
    assert ok(ana.get("/api/relations/blocked"))["blocked"] == []
    ok(act(ben, "POST", "follow", ana.name))


def test_a_blocked_player_cannot_challenge_the_blocker_nor_the_blocker_them(site: Site) -> None:
    ana, ben = site.player("Ana"), site.player("Ben")
    body = {"game": "tiny", "rated": False, "clock": RAPID}
    ok(act(ana, "POST", "block", ben.name))
    for sender, to in ((ben, ana), (ana, ben)):
        answer = sender.post("/api/challenges", {"to": to.name, **body})
        assert error(answer, 403) == "blocked"
    assert ok(ana.get("/api/challenges")) == {"incoming": [], "outgoing": []}
    ok(act(ana, "DELETE", "block", ben.name))
    assert ben.post("/api/challenges", {"to": ana.name, **body}).status_code == 201


# ----- ceilings -------------------------------------------------------------------------------
def test_the_follow_and_block_ceilings(site: Site) -> None:
    ana = site.player("Ana")
    others = [site.player("Pal") for _ in range(4)]
    for other in others[:3]:
        ok(act(ana, "POST", "follow", other.name))
    answer = act(ana, "POST", "follow", others[3].name)
    assert error(answer, 409) == "too_many_follows"
    assert "BOARDPLAY_WEB_FOLLOWS_PER_ACCOUNT" in answer.json()["error"]["message"]
    ok(act(ana, "POST", "follow", others[0].name))  # following one again needs no room
    ok(act(ana, "DELETE", "follow", others[0].name))
    ok(act(ana, "POST", "follow", others[3].name))
    for other in others[:2]:
        ok(act(ana, "POST", "block", other.name))
    assert error(act(ana, "POST", "block", others[2].name), 409) == "too_many_blocks"
    assert len(following(ana)) == 2  # the two blocked are followed no more


def test_changes_are_rate_limited(tmp_path: Path) -> None:
    settings = tiny_settings(tmp_path, {"relations_per_hour": 4})
    with TestClient(create_app(settings)) as client:
        ana, ben = sign_up(client, "Ana"), sign_up(client, "Ben")
        for method, what in [("POST", "follow"), ("DELETE", "follow")] * 2:
            ok(act(ana, method, what, ben.name))
        answer = act(ana, "POST", "block", ben.name)
        assert error(answer, 429) == "relations_rate"
        assert int(answer.headers["Retry-After"]) > 0
        assert ok(ana.get("/api/relations/blocked"))["blocked"] == []


# ----- a deleted account -----------------------------------------------------------------------
def test_a_deleted_account_leaves_every_list_both_ways(site: Site) -> None:
    ana, ben, cy = site.player("Ana"), site.player("Ben"), site.player("Cy")
    ok(act(ana, "POST", "follow", ben.name))
    ok(act(ben, "POST", "follow", cy.name))
    ok(act(cy, "POST", "block", ben.name))
    ok(act(ben, "POST", "block", ana.name))
    found = site.client.portal.call(site.hub.accounts.by_name, ben.name)
    deleted = ben.post("/api/account/delete", {"confirm": ben.name})
    assert deleted.status_code == 200, deleted.text
    assert following(ana) == {}
    assert ok(cy.get("/api/relations/blocked"))["blocked"] == []
    assert error(act(ana, "POST", "follow", ben.name), 404) == "no_such_player"
    ok(act(ana, "POST", "follow", cy.name))  # the block ben made went with him
    table = relations_table
    with site.hub.engine.connect() as conn:
        rows = conn.execute(
            table.select().where((table.c.owner == found.id) | (table.c.other == found.id))
        ).all()
    assert rows == []
