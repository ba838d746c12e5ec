"""The real engines behind the API: each game can be created from its options, played against the
AI (computed in a worker process) and replayed from its record."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardplay.web.catalogue import REGISTRY

GAMES = REGISTRY.names()


def wait_for_human(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    for _ in range(1200):
        game: dict[str, Any] = client.get(
            f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        if game["your_turn"] or game["terminal"]:
            return game
        time.sleep(0.05)
    raise AssertionError("the AI never finished its turn")


@pytest.mark.parametrize("game_name", GAMES)
def test_play_against_the_easy_ai_through_the_process_pool(
    registry_client: TestClient, game_name: str
) -> None:
    catalogue = {g["name"]: g for g in registry_client.get("/api/catalogue").json()["games"]}
    entry = catalogue[game_name]
    assert "easy" in entry["ai_levels"]
    seats = [{"kind": "me"}] + [{"kind": "ai", "spec": "easy"}] * (entry["num_players"] - 1)
    created = registry_client.post("/api/games", json={"game": game_name, "seats": seats}).json()
    gid, token = created["id"], created["token"]
    game = wait_for_human(registry_client, gid, token)
    ai_moves = 0
    for _ in range(60):
        if game["terminal"] or ai_moves >= 2:
            break
        move = game["legal"][0]["move"]
        answer = registry_client.post(
            f"/api/games/{gid}/actions",
            json={"action": move, "ply": game["ply"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        game = wait_for_human(registry_client, gid, token)
        ai_moves = sum(1 for m in game["moves"] if m["player"] > 0)
    assert ai_moves >= 1 or game["terminal"]
    assert game["position"] is not None and game["text"]
    replay = registry_client.get(f"/api/games/{gid}/replay").json()
    assert len(replay["frames"]) == game["ply"] + 1
    assert replay["frames"][-1]["position"] == game["position"]


def option_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_choice_of_the_lobby_form_is_accepted(
    registry_client: TestClient, game_name: str
) -> None:
    """The lobby sends option values as text; every value it offers must load."""
    games = registry_client.get("/api/catalogue").json()["games"]
    entry = next(g for g in games if g["name"] == game_name)
    for option in entry["options"]:
        for value in option["choices"] or [option["default"]]:
            answer = registry_client.post(
                "/api/games/preview",
                json={"game": game_name, "options": {option["name"]: option_text(value)}},
            )
            assert answer.status_code == 200, (option["name"], value, answer.text)
    bad = registry_client.post(
        "/api/games/preview", json={"game": game_name, "options": {"no_such_option": "1"}}
    )
    assert bad.status_code == 400 and "no_such_option" in bad.json()["error"]["message"]


def test_server_answers_while_a_strong_ai_thinks(registry_client: TestClient) -> None:
    """The search runs in a worker process: while it thinks, requests are answered and report
    the thinking seat (were it on the event loop, no answer could say "thinking")."""
    created = registry_client.post(
        "/api/games",
        json={
            "game": "potlatch",
            "seats": [{"kind": "me"}, {"kind": "ai", "spec": "mcts(time=2.0,early=false)"}],
        },
    ).json()
    gid, token = created["id"], created["token"]
    headers = {"Authorization": f"Bearer {token}"}
    game = created["game"]
    while game["current_player"] == 0 and not game["terminal"]:
        move = game["legal"][0]["move"]
        game = registry_client.post(
            f"/api/games/{gid}/actions", json={"action": move}, headers=headers
        ).json()["game"]
    assert game["thinking"] == 1
    seen_thinking = 0
    while True:
        game = registry_client.get(f"/api/games/{gid}", headers=headers).json()
        if game["thinking"] != 1:
            break
        seen_thinking += 1
        assert registry_client.get("/api/catalogue").status_code == 200
        time.sleep(0.05)
    assert seen_thinking >= 1
    assert game["moves"][-1]["player"] in (1, 0)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_ai_level_the_lobby_offers_can_be_seated(
    registry_client: TestClient, game_name: str
) -> None:
    """The lobby offered "expert" for Potlatch, Proteus and Passtally, whose searches cap their
    iterations at 100,000-200,000 within 0.1 s, and the server then refused the game for its
    iteration ceiling (which holds only for specs that set no think time)."""
    catalogue = {g["name"]: g for g in registry_client.get("/api/catalogue").json()["games"]}
    entry = catalogue[game_name]
    for level in entry["ai_levels"]:
        seats = [{"kind": "ai", "spec": level}] * entry["num_players"]
        seats[0] = {"kind": "me"}
        answer = registry_client.post("/api/games", json={"game": game_name, "seats": seats})
        assert answer.status_code == 201, (level, answer.text)
