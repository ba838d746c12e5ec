"""One outcome, everywhere (issue 52, defect 9): in a game of three, a seat that resigned and was
played out by the AI may finish first by the rules. The result the game then shows, lists,
stores, exports, counts in profiles and rates must be one and the same, and never name the
resigned seat a winner (it was named the winner by the game's page and list, while the stored
result said nobody won, profiles counted a draw for everyone and the rating placed it last)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from webcalls import auth
from websettings import tiny_settings
from webtiny import TRIO_CATALOGUE

from boardplay.web.app import create_app

EAST = 2


def rules_winners(moves: list[dict[str, Any]]) -> list[int]:
    """Who the rules alone make the winners of these moves."""
    state = TRIO_CATALOGUE.load("trio", {}).new_initial_state()
    for move in moves:
        state.apply_action(move["action"])
    return state.winners()


def test_a_resigned_seat_that_finishes_first_wins_nowhere(tmp_path: Path) -> None:
    settings = dataclasses.replace(tiny_settings(tmp_path), catalogue="webtiny:TRIO_CATALOGUE")
    with TestClient(create_app(settings)) as client:
        players = [sign_up(client, name) for name in ("Nora", "Sato", "Eiji")]
        for _ in range(30):  # until the AI playing East takes more than the others
            game, tokens = _rated_trio(client, players)
            resigned = client.post(
                f"/api/games/{game['id']}/resign", json={}, headers=auth(tokens[EAST])
            )
            assert resigned.status_code == 200, resigned.text
            view = _play_out(client, game["id"], tokens)
            if EAST in rules_winners(view["moves"]):
                break
        else:
            raise AssertionError("East never finished first")
        result = view["result"]
        assert EAST not in result["winners"] and EAST in result["resigned"]
        assert result["winners"]  # North or South: the best score among those still playing
        # The list, the record, the last move's words and every reader's view say the same.
        (listed,) = [g for g in client.get("/api/games").json()["games"] if g["id"] == view["id"]]
        assert listed["winners"] == result["winners"] and listed["result"] == result["text"]
        record = client.get(f"/api/games/{view['id']}/record").json()
        assert record["result"]["winners"] == result["winners"]
        ends = (view["moves"][-1].get("struct") or {}).get("ends")  # games with words have it
        assert ends is None or ends["winners"] == result["winners"]
        spectator = client.get(f"/api/games/{view['id']}").json()
        assert spectator["result"] == result
        # Profiles: East lost, whoever won; the rating placed East last.
        east = client.get("/api/players/Eiji").json()
        assert east["results"]["trio"]["lost"] >= 1 and east["results"]["trio"]["drawn"] == 0
        ratings = {p.name: _rating(client, p.name) for p in players}
        assert ratings["Eiji"] == min(ratings.values())


def _rated_trio(client: TestClient, players: list[Player]) -> tuple[dict, dict[int, str]]:
    made = players[0].post(
        "/api/games",
        {
            "game": "trio",
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
            "rated": True,
            "clock": RAPID,
        },
    )
    assert made.status_code == 201, made.text
    tokens = {0: made.json()["token"]}
    for seat, player in ((1, players[1]), (2, players[2])):
        joined = player.post(f"/api/games/{made.json()['id']}/join", {"seat": seat})
        assert joined.status_code == 200, joined.text
        tokens[seat] = joined.json()["token"]
    return made.json()["game"], tokens


def _play_out(client: TestClient, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    for _ in range(400):
        view: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if view["status"] == "finished":
            return view
        seat = view["current_player"]
        if seat in (0, 1):
            moved = client.post(
                f"/api/games/{game_id}/actions",
                json={"action": "t1", "ply": view["ply"]},
                headers=auth(tokens[seat]),
            )
            assert moved.status_code == 200, moved.text
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def _rating(client: TestClient, name: str) -> float:
    for standing in client.get(f"/api/players/{name}").json()["ratings"]:
        if standing["pool"] == "trio":
            return float(standing["rating"])
    return 1500.0
