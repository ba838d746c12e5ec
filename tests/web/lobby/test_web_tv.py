"""TV (``lobby/tv.py``, ``GET /api/tv``): each game's best game being played now, by its
players' mean rating in its pool (none: a new player's rating), among public real-time games
with signed-in players at every seat; a game against the AI, a correspondence game and a game
over are never on. When the game on the air ends, the next look shows the next best at once;
otherwise a reckoning is reused for a few seconds however many pages ask."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from accountcalls import sign_up
from fastapi.testclient import TestClient
from websettings import tiny_settings

from boardplay.web.admission import Door
from boardplay.web.app import create_app
from boardplay.web.lobby.tv import FRESH
from boardplay.web.ratings.tables import ratings_table
from boardplay.web.table import TimeControl, resign_account

NAMES = ("ann", "bob", "cyd", "dee", "eve", "fay")
RATINGS = {"ann": 1400.0, "bob": 1450.0, "cyd": 1900.0, "dee": 1800.0, "eve": 2400.0}
"""Each player's Tiny rating (fay has none: she counts as new, 1500)."""


class Ticks:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, int], Ticks]]:
    settings = tiny_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        ticks = Ticks()
        hub.tv.clock = ticks
        ids = {}
        for name in NAMES:
            sign_up(client, name)
            ids[name] = client.portal.call(hub.accounts.by_name, name).id
        engine = sa.create_engine(settings.database_url)
        with engine.begin() as conn:
            for name, rating in RATINGS.items():
                conn.execute(
                    ratings_table.insert().values(
                        account_id=ids[name],
                        pool="tiny",
                        rating=rating,
                        deviation=60.0,
                        volatility=0.06,
                        games=30,
                        updated=time.time(),
                    )
                )
        engine.dispose()
        yield client, ids, ticks


def made(client: TestClient, players: list[int], clock: TimeControl) -> str:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seat = functools.partial(
        hub.maker.seat, Door.SEEK, "tiny", {}, players, rated=False, clock=clock
    )
    room, _ = client.portal.call(seat)
    return str(room.row.id)


def on_air(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/tv")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["channels"]
    return found


def test_the_best_game_in_play_is_on_and_the_next_best_once_it_ends(
    site: tuple[TestClient, dict[str, int], Ticks],
) -> None:
    client, ids, ticks = site
    assert on_air(client) == []  # nobody plays
    rapid = TimeControl(180, 2)
    low = made(client, [ids["ann"], ids["bob"]], rapid)  # mean 1425
    high = made(client, [ids["cyd"], ids["dee"]], rapid)  # mean 1850
    # Never on, however strong: a correspondence game, and a game against the AI.
    made(client, [ids["eve"], ids["fay"]], TimeControl(days=1))
    versus_ai = client.post(
        "/api/games",
        json={
            "game": "tiny",
            "seats": [{"kind": "me"}, {"kind": "ai", "spec": "random"}],
            "clock": {"base": 180, "increment": 2},
        },
    )
    assert versus_ai.status_code == 201, versus_ai.text
    assert on_air(client) == []  # the reckoning of a moment ago, reused
    ticks.t += FRESH

    (channel,) = on_air(client)
    assert channel["game"] == "tiny" and channel["id"] == high
    assert channel["players"] == [{"name": "cyd", "rating": 1900}, {"name": "dee", "rating": 1800}]
    assert channel["rating"] == 1850 and channel["rated"] is False

    # A better game starting meanwhile waits for the next reckoning (FRESH seconds), so a
    # crowd of pages asking costs one.
    better = made(client, [ids["eve"], ids["fay"]], rapid)  # mean (2400 + 1500) / 2 = 1950
    assert on_air(client)[0]["id"] == high
    ticks.t += FRESH
    assert on_air(client)[0]["id"] == better

    # The game on the air ends: the next look shows the next best at once, and so on.
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for game_id, loser, after in ((better, "fay", high), (high, "dee", low)):
        room = client.portal.call(hub.room, game_id)
        assert client.portal.call(resign_account, room, ids[loser])
        assert on_air(client)[0]["id"] == after
    room = client.portal.call(hub.room, low)
    assert client.portal.call(resign_account, room, ids["bob"])
    assert on_air(client) == []
