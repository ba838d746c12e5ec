"""The tournaments in the whole app, as ``hub.py`` and ``app.py`` wire them: players sign up
and sign in through the account API, create and enter a Swiss with their session and CSRF token
through the front door (``guard.py``), are told of their game on their lobby socket, take its
seat with the account's token route and play it to its end through the table's routes, and the
standings move; the end of the round's last game pairs the next at once."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from websettings import tiny_settings

from boardplay.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tiny_settings(tmp_path))) as test_client:
        yield test_client


def tick(client: TestClient) -> None:
    client.portal.call(client.app.state.hub.tournaments.tick)


def joined(socket: WebSocketTestSession) -> None:
    """Wait until the lobby has joined ``socket`` (it answers a ping only then): a round paired
    sooner would also be found by the join's look back at the games of the last minute, and
    told a second time, marked ``again``, perhaps before the notice the test reads."""
    socket.send_json({"type": "ping", "id": "joined"})
    while socket.receive_json().get("type") != "pong":
        pass


def resign(player: Player, game_id: str) -> None:
    """``player`` takes their seat with the account's token route and resigns."""
    seat = player.post(f"/api/account/games/{game_id}/token")
    assert seat.status_code == 200, seat.text
    done = player.client.post(f"/api/games/{game_id}/resign", json={"token": seat.json()["token"]})
    assert done.status_code == 200, done.text


def test_a_swiss_through_the_app_from_sign_up_to_standings(client: TestClient) -> None:
    ana, bo, cy = (sign_up(client, name) for name in ("Ana", "Bob", "Cyd"))
    # It starts ten minutes ahead and the server's clock is moved there once all have joined:
    # a start of "now" raced the background tick (every 2 s), which on a loaded machine
    # cancelled it between the joins (too few players yet: 409 for the next).
    ahead = [0.0]
    client.app.state.hub.now = lambda: time.time() + ahead[0]  # type: ignore[attr-defined]
    body = {
        "name": "Evening Swiss",
        "kind": "swiss",
        "game": "tiny",
        "clock": RAPID,
        "rated": True,
        "starts": time.time() + 600,
        "rounds": 2,
    }
    assert ana.post("/api/tournaments", body, csrf=False).status_code == 403  # the front door
    made = ana.post("/api/tournaments", body)
    assert made.status_code == 201, made.text
    base = f"/api/tournaments/{made.json()['tournament']['id']}"
    for player in (ana, bo, cy):
        assert player.post(f"{base}/join").status_code == 200
    ahead[0] = 601
    by_name = {"Ana": ana, "Bob": bo, "Cyd": cy}
    with contextlib.ExitStack() as stack:
        sockets = {
            name: stack.enter_context(
                client.websocket_connect("/api/lobby/ws", headers=player.headers(csrf=False))
            )
            for name, player in by_name.items()
        }
        for socket in sockets.values():
            joined(socket)
        tick(client)
        view = client.get(base).json()
        (table,) = view["rounds"][0]["tables"]
        for name in table["players"]:  # each player of the table is told on their socket
            told = sockets[name].receive_json()
            while told.get("type") != "started":
                told = sockets[name].receive_json()
            assert told == {
                "type": "started",
                "game": table["game"],
                "tournament": view["tournament"]["id"],
            }
    game = client.get(f"/api/games/{table['game']}").json()
    assert game["rated"] and game["clock"]["control"] == RAPID
    # Held for its players until they come to the table (table/clocks.py).
    assert game["clock"]["running"] is None and game["clock"]["waiting"] == [0, 1]
    resign(by_name[table["players"][1]], table["game"])
    client.portal.call(client.app.state.hub.tournaments.ends_told)
    # The round's only game is over: round 2 is paired as it ends (in a task of its own, done
    # by now), with no tick.
    view = client.get(base).json()
    assert [r["round"] for r in view["rounds"]] == [1, 2]
    winner, loser = table["players"]
    (first_bye,) = view["rounds"][0]["byes"]
    # The loser, alone at zero and without a bye so far, sits round 2 out with one.
    assert view["rounds"][1]["byes"] == [loser]
    assert set(view["rounds"][1]["tables"][0]["players"]) == {winner, first_bye}
    lines = {line["name"]: line for line in view["standings"]}
    assert [lines[n]["points"] for n in (winner, first_bye, loser)] == [1.0, 1.0, 1.0]
    assert [lines[n]["byes"] for n in (winner, first_bye, loser)] == [0, 1, 1]
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert [t["status"] for t in listed] == ["started"]
    # Rated as any rated game: resigned before a turn was played, it rates nobody, and says so.
    rated = client.get(f"/api/games/{table['game']}/rating").json()
    assert rated == {"rated": True, "settled": True, "unrated": "early", "seats": []}


def test_a_token_is_judged_alone_when_the_client_also_holds_a_cookie(
    client: TestClient,
) -> None:
    """A client holding both a session cookie and a personal API token (a bot's owner's script
    that signed in first) sends no CSRF token: the token decides, on a tournament route and a
    Bot-API route, and the cookie is not read (a cookie-only route answers 401, not acting for
    the cookie's account)."""
    ana = sign_up(client, "Ana")
    body = {
        "name": "Bots welcome",
        "kind": "swiss",
        "game": "tiny",
        "clock": RAPID,
        "starts": time.time() + 600,
        "rounds": 1,
        "bots": True,
    }
    made = ana.post("/api/tournaments", body)
    assert made.status_code == 201, made.text
    tournament_id = made.json()["tournament"]["id"]
    bot = sign_up(client, "Robo")
    secret = bot.post("/api/account/tokens", {"scopes": ["bot:play"]}).json()["token"]
    both = {**bot.headers(csrf=False), "Authorization": f"Bearer {secret}"}
    upgraded = client.post("/api/bot/account/upgrade", headers=both)
    assert upgraded.status_code == 200, upgraded.text
    for path in (f"/api/tournaments/{tournament_id}/join", f"/api/swiss/{tournament_id}/join"):
        joined = client.post(path, headers=both)
        assert joined.status_code == 200, joined.text
    names = [
        line["name"] for line in client.get(f"/api/tournaments/{tournament_id}").json()["standings"]
    ]
    assert names == ["Robo"]
    # Ana's cookie with Robo's token: Robo withdraws (the token's account, not the cookie's).
    mixed = {**ana.headers(csrf=False), "Authorization": f"Bearer {secret}"}
    left = client.post(f"/api/tournaments/{tournament_id}/withdraw", headers=mixed)
    assert left.status_code == 200, left.text
    assert [line["status"] for line in left.json()["standings"]] == ["withdrawn"]
    # A route of the session alone, with a token: the cookie is not read.
    listed = client.get("/api/account/tokens", headers=mixed)
    assert listed.status_code == 401, listed.text
    # Without the token the cookie is the session, and still needs its CSRF token.
    no_csrf = client.post(f"/api/tournaments/{tournament_id}/join", headers=ana.headers(False))
    assert no_csrf.status_code == 403 and no_csrf.json()["error"]["code"] == "csrf"
