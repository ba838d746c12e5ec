"""What the tournament pages read (``tournaments/pages.py``): the list with each tournament's
player count (withdrawn players not counted), and a tournament's view with its bots named and
marked on their lines of the standings."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from accountcalls import RAPID, sign_up
from fastapi.testclient import TestClient
from websettings import tiny_settings

from boardplay.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tiny_settings(tmp_path))) as test_client:
        yield test_client


def test_the_pages_count_players_and_mark_bots(client: TestClient) -> None:
    ana, bo, cy = (sign_up(client, name) for name in ("Ana", "Bob", "Cyd"))
    made = ana.post("/api/account/tokens", {"label": "engine", "scopes": ["bot:play"]})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    upgraded = client.post("/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"})
    assert upgraded.status_code == 200, upgraded.text
    body = {
        "name": "Bots welcome",
        "kind": "swiss",
        "game": "tiny",
        "clock": RAPID,
        "bots": True,
        "starts": time.time() + 600,
        "rounds": 2,
    }
    created = bo.post("/api/tournaments", body)
    assert created.status_code == 201, created.text
    tid = created.json()["tournament"]["id"]
    joined = client.post(
        f"/api/tournaments/{tid}/join", headers={"Authorization": f"Bearer {token}"}
    )
    assert joined.status_code == 200, joined.text
    for player in (bo, cy):
        assert player.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert cy.post(f"/api/tournaments/{tid}/withdraw").status_code == 200

    (listed,) = client.get("/api/tournament-pages").json()["tournaments"]
    assert listed["id"] == tid and listed["players"] == 2 and listed["name"] == "Bots welcome"
    view = client.get(f"/api/tournament-pages/{tid}").json()
    assert view["bots"] == ["Ana"]
    assert {line["name"]: line["bot"] for line in view["standings"]} == {
        "Ana": True,
        "Bob": False,
        "Cyd": False,
    }
    assert client.get("/api/tournament-pages/nosuch").status_code == 404
