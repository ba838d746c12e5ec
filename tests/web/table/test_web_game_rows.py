"""A game this process has just made is not read back (``House.made``): its room holds the row
as it was written. That copy must be what a read of the game gives (``Storage.get_game``), on
both databases, or a view, a rating or a bot's stream would start from a row nobody stored."""

from __future__ import annotations

import dataclasses
import functools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from accountcalls import sign_up
from fastapi.testclient import TestClient
from websettings import tiny_settings

from boardplay.web.admission import Door
from boardplay.web.app import create_app
from boardplay.web.config import Settings
from boardplay.web.table import TimeControl


def as_stored(row: Any) -> dict[str, Any]:
    """The row's fields, each time in UTC (SQLite gives times back without their zone), but
    ``updated``: a copy never follows its own writes' times (a copy read back did not either),
    and nothing it shows or decides reads it."""
    fields = dataclasses.asdict(row)
    del fields["updated"]
    for name, value in fields.items():
        if isinstance(value, datetime) and value.tzinfo is None:
            fields[name] = value.replace(tzinfo=UTC)
    return fields


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "sqlite":
        return tiny_settings(tmp_path)
    url = request.getfixturevalue("postgres_url")
    return Settings(database_url=url, catalogue="webtiny:CATALOGUE", ai_workers=0)


@pytest.mark.parametrize("door", [Door.TOURNAMENT, Door.CHALLENGE])
def test_a_game_made_here_is_held_as_a_read_gives_it(settings: Settings, door: Door) -> None:
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        names = [f"person-{door.value}", f"robot-{door.value}"]  # one database for both doors
        for name in names:
            sign_up(client, name)
        client.portal.call(hub.bots.upgrade, client.portal.call(hub.accounts.by_name, names[1]))
        ids = [client.portal.call(hub.accounts.by_name, name).id for name in names]
        seat = functools.partial(
            hub.maker.seat,
            *(door, "tiny", {}, ids),
            rated=False,
            clock=TimeControl(60.0, 1),
            bots=door == Door.TOURNAMENT,  # a tournament open to bots
        )
        room, tokens = client.portal.call(seat)
        assert len(tokens) == 2
        assert [s.bot for s in room.row.seats] == [False, True]
        stored = client.portal.call(hub.db, hub.storage.get_game, room.row.id)
        assert as_stored(room.row) == as_stored(stored)
