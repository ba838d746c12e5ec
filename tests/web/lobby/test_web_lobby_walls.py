"""What other domains decide reaches the lobby (the fifth attack round's N4 and its kin): an
account that becomes a bot takes its seeks and its seats at open tables away with it, so no
person meets it through the lobby (rated or not); a deleted account leaves nothing open behind
(seeks, seats, challenges sent or received, each other side told). Players are on addresses of
their own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from webcalls import elsewhere
from websettings import tiny_settings

from boardplay.web.app import create_app


@pytest.fixture
def home(tmp_path: Path) -> Iterator[TestClient]:
    settings = tiny_settings(tmp_path)
    app = create_app(dataclasses.replace(settings, catalogue="webtiny:TRIO_CATALOGUE"))
    with TestClient(app, client=("10.0.0.1", 1)) as client:
        yield client


def posted(player: Player, **body: Any) -> str:
    made = player.post("/api/seeks", {"game": "tiny", **body})
    assert made.status_code == 201, made.text
    found: str = made.json()["seek"]["id"]
    return found


def listed(home: TestClient) -> set[str]:
    return {s["id"] for s in home.get("/api/seeks").json()["seeks"]}


def upgrade(player: Player) -> None:
    made = player.post("/api/account/tokens", {"label": "bot", "scopes": ["bot:play"]})
    token = {"Authorization": f"Bearer {made.json()['token']}"}
    upgraded = player.client.post("/api/bot/account/upgrade", headers=token)
    assert upgraded.status_code == 200, upgraded.text


def test_a_rated_seek_made_before_the_upgrade_to_a_bot_goes_with_it(home: TestClient) -> None:
    """N4: the seek leaves the list at the upgrade, and a person taking it finds it gone
    (before: a rated game between the bot and the person)."""
    pat = sign_up(elsewhere(home, "10.0.0.2"), "Pat")
    quinn = sign_up(elsewhere(home, "10.0.0.3"), "Quinn")
    seek = posted(pat, rated=True, clock=RAPID)
    assert seek in listed(home)
    upgrade(pat)
    assert seek not in listed(home)
    taken = quinn.post(f"/api/seeks/{seek}/accept")
    assert taken.status_code == 404, taken.text
    assert quinn.get("/api/account/games").json()["games"] == []


def test_a_new_bot_gives_up_its_seat_at_an_open_table(home: TestClient) -> None:
    ana = sign_up(home, "Ana")
    pat = sign_up(elsewhere(home, "10.0.0.2"), "Pat")
    table = posted(ana, game="trio")
    assert pat.post(f"/api/seeks/{table}/sit").status_code == 200
    upgrade(pat)
    (found,) = [s for s in home.get("/api/seeks").json()["seeks"] if s["id"] == table]
    assert found["seated"] == []


def test_a_deleted_account_leaves_no_seek_seat_or_challenge_open(home: TestClient) -> None:
    ana = sign_up(home, "Ana")
    pat = sign_up(elsewhere(home, "10.0.0.2"), "Pat")
    quinn = sign_up(elsewhere(home, "10.0.0.3"), "Quinn")
    own = posted(pat)
    table = posted(ana, game="trio")
    assert pat.post(f"/api/seeks/{table}/sit").status_code == 200
    sent = pat.post("/api/challenges", {"to": "Quinn", "game": "tiny"}).json()["challenge"]
    got = ana.post("/api/challenges", {"to": "Pat", "game": "tiny"}).json()["challenge"]
    gone = pat.post("/api/account/delete", {"confirm": "Pat"})
    assert gone.status_code == 200, gone.text
    assert own not in listed(home)
    (found,) = [s for s in home.get("/api/seeks").json()["seeks"] if s["id"] == table]
    assert found["seated"] == []
    statuses = {c["id"]: c["status"] for c in quinn.get("/api/challenges").json()["incoming"]}
    assert statuses[sent["id"]] == "cancelled"
    statuses = {c["id"]: c["status"] for c in ana.get("/api/challenges").json()["outgoing"]}
    assert statuses[got["id"]] == "declined"
