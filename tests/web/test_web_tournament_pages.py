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
    assert client.get("/api/tournament-pages?game=nosuch").json() == {"tournaments": []}


def test_the_tournament_chat_is_plain_text_for_signed_in_writers_at_a_rate(
    client: TestClient,
) -> None:
    ana, bo = (sign_up(client, name) for name in ("Ana", "Bob"))
    body = {
        "name": "Talkative",
        "kind": "swiss",
        "game": "tiny",
        "clock": RAPID,
        "starts": time.time() + 600,
        "rounds": 1,
    }
    tid = ana.post("/api/tournaments", body).json()["tournament"]["id"]
    path = f"/api/tournament-pages/{tid}/chat"
    assert bo.post(f"/api/tournaments/{tid}/join").status_code == 200
    guest = client.get(path).json()
    assert guest == {"messages": [], "can_write": False, "length": 300}
    assert client.post(path, json={"text": "hi"}).status_code in (401, 403)
    assert bo.get(path).json()["can_write"] is True

    said = bo.post(path, {"text": "  <b>good\nluck</b>  "})
    assert said.status_code == 201, said.text
    assert said.json()["message"]["text"] == "<b>good luck</b>"  # tidied, never HTML
    again = bo.post(path, {"text": "and again"})  # within a second
    assert again.status_code == 429 and again.json()["error"]["code"] == "chat_rate"
    assert bo.post(path, {"text": "x" * 301}).json()["error"]["code"] == "chat_too_long"
    assert bo.post(path, {"text": " \n "}).json()["error"]["code"] == "chat_empty"
    (message,) = client.get(path).json()["messages"]
    assert message["name"] == "Bob" and message["text"] == "<b>good luck</b>"
    assert client.get("/api/tournament-pages/nosuch/chat").status_code == 404
