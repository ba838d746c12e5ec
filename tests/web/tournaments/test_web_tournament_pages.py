"""What the tournament pages read (``tournaments/pages.py``): the list with each tournament's
player count (withdrawn players not counted) and the last ones finished with their winners, a
tournament's view with its bots named and marked on their lines of the standings, and the codes
of the refusals the pages word in their language."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, sign_up
from fastapi.testclient import TestClient
from test_web_tournament_app import resign, tick
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


def test_the_tournament_chat_hides_a_blocked_players_messages_both_ways(
    client: TestClient,
) -> None:
    """As at a game's table (``chat/blocks.py``): the blocker does not read the blocked player,
    nor the blocked player the blocker; everyone else reads both, and a block lifted shows
    them again."""
    ana, bo, cy = (sign_up(client, name) for name in ("Ana", "Bob", "Cyd"))
    body = {"name": "Quarrel", "kind": "arena", "game": "tiny", "minutes": 10, "clock": RAPID}
    tid = ana.post("/api/tournaments", {**body, "starts": time.time() + 600}).json()
    path = f"/api/tournament-pages/{tid['tournament']['id']}/chat"
    for player, text in ((ana, "hello all"), (bo, "rude words"), (cy, "good luck")):
        assert player.post(path, {"text": text}).status_code == 201

    def read(player: Any) -> list[str]:
        return [
            m["name"] for m in (player.get(path) if player else client.get(path)).json()["messages"]
        ]

    assert read(ana) == ["Ana", "Bob", "Cyd"]
    assert ana.post("/api/relations/block/Bob").status_code in (200, 201, 204)
    assert read(ana) == ["Ana", "Cyd"]
    assert read(bo) == ["Bob", "Cyd"]
    assert read(cy) == ["Ana", "Bob", "Cyd"] and read(None) == ["Ana", "Bob", "Cyd"]
    assert ana.client.delete("/api/relations/block/Bob", headers=ana.headers()).status_code in (
        200,
        204,
    )
    assert read(ana) == ["Ana", "Bob", "Cyd"]


def test_the_list_shows_the_last_tournaments_finished_with_their_winners(
    client: TestClient,
) -> None:
    ana, bo = (sign_up(client, name) for name in ("Ana", "Bob"))
    body = {"kind": "swiss", "game": "tiny", "clock": RAPID, "rounds": 1}
    # Each starts ten minutes ahead and the server's clock is moved there once both have
    # joined: a start of "now" raced the background tick (every 2 s), which on a loaded
    # machine started it between the two joins (409 for the second).
    ahead = [0.0]
    client.app.state.hub.now = lambda: time.time() + ahead[0]  # type: ignore[attr-defined]
    done = []
    for n in range(2):
        starts = time.time() + ahead[0] + 600
        made = ana.post("/api/tournaments", {**body, "name": f"Over {n}", "starts": starts})
        assert made.status_code == 201, made.text
        done.append(made.json()["tournament"]["id"])
        for player in (ana, bo):
            assert player.post(f"/api/tournaments/{done[-1]}/join").status_code == 200
        ahead[0] += 601
        tick(client)
        (table,) = client.get(f"/api/tournaments/{done[-1]}").json()["rounds"][0]["tables"]
        loser = {"Ana": ana, "Bob": bo}[table["players"][n]]  # Bob wins one, Ana the other
        resign(loser, table["game"])
        client.portal.call(client.app.state.hub.tournaments.ends_told)
    next_start = time.time() + ahead[0] + 600
    upcoming = ana.post("/api/tournaments", {**body, "name": "Next", "starts": next_start})
    listed = client.get("/api/tournament-pages").json()
    assert [t["name"] for t in listed["tournaments"]] == ["Next"]
    finished = listed["finished"]
    assert [t["id"] for t in finished] == done[::-1]  # the latest first
    assert [t["status"] for t in finished] == ["finished", "finished"]
    first, second = (client.get(f"/api/tournaments/{tid}").json() for tid in done)
    assert [t["winner"] for t in finished] == [
        second["standings"][0]["name"],
        first["standings"][0]["name"],
    ]
    assert {t["winner"] for t in finished} == {"Ana", "Bob"}
    assert [t["players"] for t in finished] == [2, 2]
    assert finished[0]["finished"] >= finished[1]["finished"] > 0  # when each ended
    assert upcoming.status_code == 201
    again = client.get("/api/tournament-pages").json()["finished"]  # the winners remembered
    assert again == finished


def test_the_refusals_a_page_words_have_codes_of_their_own(client: TestClient) -> None:
    """The create form's, the join button's and the chat's refusals each come with a code the
    pages map to words in the reader's language (static/tournaments/refusals.js)."""
    ana, bo = (sign_up(client, name) for name in ("Ana", "Bob"))
    body = {"kind": "swiss", "game": "tiny", "clock": RAPID, "rounds": 1}
    codes = {
        "rated_with_bots": {**body, "rated": True, "bots": True, "starts": time.time() + 60},
        "rated_clock_too_short": {
            **body,
            "rated": True,
            "clock": {"base": 15, "increment": 0},
            "starts": time.time() + 60,
        },
        "bad_start": {**body, "starts": time.time() + 90 * 86400},
        "bad_length": {**body, "rounds": 999, "starts": time.time() + 60},
    }
    for code, refused in codes.items():
        answer = ana.post("/api/tournaments", refused)
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] == code
    for n in range(3):  # the most one account may have open (tiny_settings' limits)
        made = ana.post("/api/tournaments", {**body, "starts": time.time() + 600 + n})
        assert made.status_code == 201, made.text
    too_many = ana.post("/api/tournaments", {**body, "starts": time.time() + 900})
    assert too_many.status_code == 429
    assert too_many.json()["error"]["code"] == "too_many_tournaments"
    over = made.json()["tournament"]["id"]
    assert bo.post(f"/api/tournaments/{over}/withdraw").json()["error"]["code"] == "not_entered"
