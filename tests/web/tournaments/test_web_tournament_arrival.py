"""A tournament's game holds its clock for its players (``table/clocks.py``): the pairing comes
while a player may still read how their last game ended, so no clock runs until each player has
come to the table (a request with their seat's token, their page's socket saying who they are,
their bot's game stream, a move), or until ``ARRIVAL_GRACE`` has passed; then the seat to move
begins to think, with its whole time. A game the lobby makes for players who asked for it that
moment starts at once. Time is the hub's clock, moved by hand."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accountcalls import sign_up
from fastapi.testclient import TestClient
from webcalls import auth
from websettings import tiny_settings

from boardplay.web.admission import Door
from boardplay.web.app import create_app
from boardplay.web.bots import GameStream
from boardplay.web.table import TimeControl
from boardplay.web.table.clocks import ARRIVAL_GRACE

START = 1_800_000_000.0
BASE = 60.0


class FakeClock:
    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock, list[int]]]:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        clock = FakeClock()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.now = clock
        ids = []
        for name in ("Ann", "Bob"):
            sign_up(client, name)
            account = client.portal.call(hub.accounts.by_name, name)
            ids.append(account.id)
        yield client, clock, ids


def made(
    client: TestClient, ids: list[int], door: Door = Door.TOURNAMENT, bots: bool = False
) -> tuple[str, list[str]]:
    """A game of ``ids`` made through ``door`` as the tournament (or the lobby) makes it (one
    for bots if ``bots``): its id and each seat's token."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seat = functools.partial(
        hub.maker.seat, door, "tiny", {}, ids, rated=False, clock=TimeControl(BASE, 1), bots=bots
    )
    room, tokens = client.portal.call(seat)
    return room.row.id, tokens


def clock_of(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    shown: dict[str, Any] = answer.json()["clock"]
    return shown


def stored_deadline(client: TestClient, game_id: str) -> float | None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    row = client.portal.call(hub.games.get, game_id)
    assert row is not None
    found: float | None = row.deadline
    return found


def sweep(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.portal.call(hub.sweep)


def test_no_clock_runs_until_both_players_came_then_the_mover_has_their_whole_time(
    site: tuple[TestClient, FakeClock, list[int]],
) -> None:
    client, clock, ids = site
    game_id, tokens = made(client, ids)
    held = clock_of(client, game_id)  # a spectator's look is nobody's coming
    assert held["running"] is None and held["waiting"] == [0, 1]
    assert held["start_by"] == START + ARRIVAL_GRACE
    assert stored_deadline(client, game_id) == START + ARRIVAL_GRACE  # the sweep's next look

    clock.t += 4  # seat 1's player still reads their last game; seat 0's opens this one
    after_one = clock_of(client, game_id, tokens[0])
    assert after_one["running"] is None and after_one["waiting"] == [1]
    clock.t += 3
    sweep(client)  # nothing is due: the grace has not run out
    assert clock_of(client, game_id)["running"] is None

    # Seat 1's page opens the game: its socket's hello is their coming.
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()  # the spectator's view every socket starts with
        socket.send_json({"type": "hello", "token": tokens[1], "id": 1})
        socket.send_json({"type": "ping", "id": 2})  # answered once the hello was handled
        while socket.receive_json() != {"type": "pong", "id": 2}:
            pass
    running = clock_of(client, game_id)
    assert "waiting" not in running
    assert running["running"] == 0 and running["since"] == START + 7
    assert running["left"] == [BASE, BASE]  # seven seconds away cost nobody anything
    assert stored_deadline(client, game_id) == START + 7 + BASE


def test_a_move_is_a_coming_and_a_turn_played_on_a_held_clock_earns_no_time(
    site: tuple[TestClient, FakeClock, list[int]],
) -> None:
    client, clock, ids = site
    game_id, tokens = made(client, ids)

    def step(seat: int) -> dict[str, Any]:
        game = client.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json()
        assert game["current_player"] == seat
        played = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": game["legal"][0]["id"], "ply": game["ply"]},
            headers=auth(tokens[seat]),
        )
        assert played.status_code == 200, played.text
        shown: dict[str, Any] = played.json()["game"]["clock"]
        return shown

    clock.t += 2
    step(0)
    clock.t += 1
    held = step(0)  # seat 0's whole turn (two steps) while seat 1's player is away
    assert held["running"] is None and held["waiting"] == [1]
    assert held["left"] == [BASE, BASE]  # no time spent, so no increment earned
    clock.t += 5
    # Seat 1's player comes by moving (a bot that moves over HTTP, no stream, no look first):
    # the clock runs from that moment, theirs first, within their own turn.
    moved = client.post(
        f"/api/games/{game_id}/actions", json={"action": 0}, headers=auth(tokens[1])
    )
    assert moved.status_code == 200, moved.text
    shown = moved.json()["game"]["clock"]
    assert shown["running"] == 1 and shown["since"] == START + 8
    assert shown["left"] == [BASE, BASE]


def test_a_player_who_never_comes_has_the_clock_run_after_the_grace_and_aborts_the_game(
    site: tuple[TestClient, FakeClock, list[int]],
) -> None:
    client, clock, ids = site
    game_id, tokens = made(client, ids)
    to_move = client.get(f"/api/games/{game_id}").json()["current_player"]
    clock_of(client, game_id, tokens[1 - to_move])  # only the one not to move comes
    clock.t += ARRIVAL_GRACE - 0.5
    sweep(client)
    assert clock_of(client, game_id)["running"] is None
    clock.t += 1
    sweep(client)  # the grace has run out: the clock runs for the absent seat to move
    running = clock_of(client, game_id)
    assert running["running"] == to_move and running["since"] == START + ARRIVAL_GRACE + 0.5
    assert running["left"][to_move] == BASE
    clock.t += BASE + 1
    sweep(client)
    game = client.get(f"/api/games/{game_id}").json()
    assert game["terminal"] and game["result"]["ended"] == "aborted"  # flagged before moving


def test_a_game_the_lobby_makes_starts_its_clock_at_once(
    site: tuple[TestClient, FakeClock, list[int]],
) -> None:
    client, _, ids = site
    game_id, _ = made(client, ids, Door.SEEK)
    shown = clock_of(client, game_id)
    assert shown["running"] is not None and shown["since"] == START
    assert "waiting" not in shown


def bots(client: TestClient, names: tuple[str, ...]) -> tuple[list[int], list[str]]:
    """Bot accounts of ``names``: their ids and personal API tokens (``bot:play``)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    ids, secrets = [], []
    for name in names:
        player = sign_up(client, name)
        made_token = player.post("/api/account/tokens", {"scopes": ["bot:play"]})
        assert made_token.status_code == 201, made_token.text
        secret = made_token.json()["token"]
        upgraded = client.post("/api/bot/account/upgrade", headers=auth(secret))
        assert upgraded.status_code == 200, upgraded.text
        ids.append(client.portal.call(hub.accounts.by_name, name).id)
        secrets.append(secret)
    return ids, secrets


def test_two_bots_whose_game_streams_open_together_each_get_the_whole_game_first(
    site: tuple[TestClient, FakeClock, list[int]],
) -> None:
    """A bot comes to the table by opening its game stream, and whatever the room stores and
    sends meanwhile (here its opponent's coming, stored first), the stream's first line is
    ``gameFull``: a bot learns its seats from it before any ``gameState`` (docs/bots.md)."""
    client, clock, _ = site
    hub = client.app.state.hub  # type: ignore[attr-defined]
    ids, secrets = bots(client, ("Robo", "Droid"))
    game_id, _ = made(client, ids, bots=True)
    clock.t += 3

    async def opened_together() -> list[Any]:
        room = await hub.room(game_id)
        users = [await hub.bots.authorise(f"Bearer {secret}") for secret in secrets]
        for user in users:  # their seats' tokens kept: nothing below waits but for the room
            hub.bots.seat_token(user, room)
        streams = [GameStream(hub, user, room).run() for user in users]

        async def first(lines: Any) -> Any:
            return json.loads(await anext(lines))

        async with room.lock:  # the room busy with another change as both streams open
            opening = [asyncio.create_task(first(lines)) for lines in streams]
            for _ in range(20):
                await asyncio.sleep(0)
        try:
            return list(await asyncio.gather(*opening))
        finally:
            for lines in streams:
                await lines.aclose()

    firsts = client.portal.call(opened_together)
    assert [line["type"] for line in firsts] == ["gameFull", "gameFull"]
    assert [line["yourSeats"] for line in firsts] == [[0], [1]]
    running = clock_of(client, game_id)  # both came: the clock runs from then
    assert "waiting" not in running and running["since"] == START + 3
    assert running["left"] == [BASE, BASE]
