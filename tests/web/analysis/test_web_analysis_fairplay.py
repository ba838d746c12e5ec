"""Fair play on the analysis board (issue 64), on the real games: a rated game in progress is
analysed by nobody (403 ``game_in_progress``) until it ends, and a casual game in progress by
none of its players, at every door (a study made from it, read, searched); a review asks the
same rule. Hidden information — the seed of a reproducible game, which fixes every chance
outcome still to come (Passtally's tile reveals, Montana's spins) — is in no analysis answer.
And the engine's lines: the best moves of a level with their win chances and lines, stored for
the next reader, within the hourly ceiling."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from webcalls import auth, refused
from websettings import tiny_settings

from boardplay.web.app import create_app

SEED = 918_273_645
"""A reproducible game's seed, looked for in every answer."""


def forbidden_now(response: Any) -> None:
    assert response.status_code == 403, response.text
    assert response.json()["error"]["code"] == "game_in_progress"


def play(player: Player, game_id: str, token: str, plies: int) -> dict[str, Any]:
    view: dict[str, Any] = player.get(f"/api/games/{game_id}").json()
    for _ in range(plies):
        move = {"action": view["legal"][0]["id"], "ply": view["ply"]}
        answer = player.post(f"/api/games/{game_id}/actions", move, token=token)
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return view


def test_a_rated_game_in_progress_is_analysed_by_nobody_until_it_ends(
    registry_client: TestClient,
) -> None:
    client = registry_client
    hana, kenji, mei = (sign_up(client, n) for n in ("Hana", "Kenji", "Mei"))
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = hana.post(
        "/api/games", {"game": "proteus", "seats": seats, "rated": True, "clock": RAPID}
    ).json()
    gid = made["id"]
    joined = kenji.post(f"/api/games/{gid}/join", {"seat": 1}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    view = joined["game"]
    for _ in range(6):  # three turns each: a game resigned sooner is not rated
        seat = view["current_player"]
        move = {"action": view["legal"][0]["id"], "ply": view["ply"]}
        view = hana.post(f"/api/games/{gid}/actions", move, token=tokens[seat]).json()["game"]
    door = {"from_game": gid}
    forbidden_now(hana.post("/api/analysis", door, token=tokens[0]))
    forbidden_now(kenji.post("/api/analysis", door))  # by the account alone
    forbidden_now(mei.post("/api/analysis", door))  # a spectator, signed in
    forbidden_now(client.post("/api/analysis", json=door))  # a guest
    forbidden_now(client.post(f"/api/games/{gid}/review", json={}))  # the same rule
    kenji.post(f"/api/games/{gid}/resign", {}, token=tokens[1])
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    for who in (hana, kenji, mei):
        made_now = who.post("/api/analysis", door)
        assert made_now.status_code == 201, made_now.text
        assert len(made_now.json()["nodes"]) == 7 and made_now.json()["source"]["game_id"] == gid


def test_a_casual_game_in_progress_is_closed_to_its_players_at_every_door(
    registry_client: TestClient,
) -> None:
    client = registry_client
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    made = hana.post(
        "/api/games", {"game": "potlatch", "seats": [{"kind": "me"}, {"kind": "open"}]}
    )
    gid, host = made.json()["id"], made.json()["token"]
    guest = kenji.post(f"/api/games/{gid}/join", {"seat": 1}).json()["token"]
    play(hana, gid, host, 2)
    forbidden_now(hana.post("/api/analysis", {"from_game": gid}))
    forbidden_now(client.post("/api/analysis", json={"from_game": gid}, headers=auth(guest)))

    # A spectator may study it, and share the study: not with the game's players.
    spectator = client.post("/api/analysis", json={"from_game": gid})
    assert spectator.status_code == 201, spectator.text
    study = spectator.json()
    assert [n["ply"] for n in study["nodes"]] == [0, 1, 2]  # the moves so far, no more
    path = f"/api/analysis/{study['id']}"
    last = study["nodes"][-1]["id"]
    forbidden_now(hana.get(path))
    forbidden_now(client.get(path, headers=auth(guest)))
    forbidden_now(hana.get(f"{path}/nodes/{last}"))
    forbidden_now(hana.post(f"{path}/nodes/{last}/lines", {"level": "easy"}))
    forbidden_now(client.post(f"{path}/nodes/{last}/lines", json={}, headers=auth(host)))
    forbidden_now(kenji.post(f"{path}/fork", {}))
    forbidden_now(kenji.get(f"{path}/export"))
    assert client.get(path).status_code == 200
    hana.post(f"/api/games/{gid}/resign", {}, token=host)
    assert hana.get(path).status_code == 200


def hidden_seed_game(client: TestClient, game: str, plies: int) -> tuple[str, dict[str, Any]]:
    """A reproducible hot-seat game of ``game`` with ``SEED``, ``plies`` player moves in."""
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    body = {"game": game, "seats": seats, "reproducible": True, "seed": SEED}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    gid, token = made.json()["id"], made.json()["token"]
    client.cookies.clear()
    view: dict[str, Any] = made.json()["game"]
    for _ in range(plies):
        move = {"action": view["legal"][0]["id"], "ply": view["ply"]}
        answer = client.post(f"/api/games/{gid}/actions", json=move, headers=auth(token))
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return gid, view


@pytest.mark.parametrize("game", ["passtally", "montana"])
def test_no_analysis_answer_carries_a_game_s_hidden_luck(
    registry_client: TestClient, game: str
) -> None:
    client = registry_client
    gid, view = hidden_seed_game(client, game, 4)
    record = client.get(f"/api/games/{gid}/record").text
    assert str(SEED) in record  # the game's own record names it: the check below can fail
    made = client.post("/api/analysis", json={"from_game": gid})
    assert made.status_code == 201, made.text
    study = made.json()
    assert len(study["nodes"]) == view["ply"] + 1  # what has happened, nothing to come
    path = f"/api/analysis/{study['id']}"
    last = study["nodes"][-1]["id"]
    answers = [made.text, client.get(path).text, client.get(f"{path}/export").text]
    answers += [client.get(f"{path}/nodes/{n['id']}").text for n in study["nodes"]]
    position = client.get(f"{path}/nodes/{last}").json()
    if position["chance"]:
        drawn = client.post(f"{path}/nodes/{last}/moves", json={"draw": True})
        assert drawn.status_code == 200, drawn.text
        answers.append(drawn.text)
        last = drawn.json()["node"]
    lines = client.post(f"{path}/nodes/{last}/lines", json={"level": "easy", "k": 2})
    assert lines.status_code == 200, lines.text
    answers.append(lines.text)
    for text in answers:
        assert str(SEED) not in text
    assert client.get(f"{path}/export").json()["meta"] == {"study": study["id"]}


def test_engine_lines_are_the_best_moves_with_their_chances_and_lines(
    registry_client: TestClient,
) -> None:
    client = registry_client
    study = client.post("/api/analysis", json={"game": "potlatch"}).json()
    path = f"/api/analysis/{study['id']}/nodes/0/lines"
    answer = client.post(path, json={"level": "easy", "k": 3})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["level"] == "easy" and found["seat"] == 0 and not found["stored"]
    assert len(found["lines"]) == 3 and found["iterations"] > 0
    visits = [line["visits"] for line in found["lines"]]
    assert visits == sorted(visits, reverse=True)
    legal = {m["move"] for m in client.get(f"/api/analysis/{study['id']}/nodes/0").json()["legal"]}
    for line in found["lines"]:
        assert line["move"] in legal and line["line"][0] == line["move"]
        assert 0.0 <= line["win_probability"] <= 1.0
    again = client.post(path, json={"level": "easy", "k": 2}).json()  # stored: free
    assert again["stored"] and again["lines"] == found["lines"][:2]
    assert "k" in refused(client.post(path, json={"level": "easy", "k": 6}))
    assert "level" in refused(client.post(path, json={"level": "grandmaster"}))
    node = client.get(f"/api/analysis/{study['id']}/nodes/0").json()
    assert node["lines"]["easy"]["lines"] == found["lines"]


@pytest.fixture
def few_lines(tmp_path: Path) -> Iterator[TestClient]:
    settings = tiny_settings(tmp_path, {"analysis_lines_per_hour": 2})
    with TestClient(create_app(settings)) as client:
        yield client


def test_engine_searches_stop_at_the_hourly_ceiling_and_stored_lines_stay_free(
    few_lines: TestClient,
) -> None:
    client = few_lines
    study = client.post("/api/analysis", json={"game": "tiny"}).json()["id"]
    base = f"/api/analysis/{study}/nodes"
    assert client.post(f"{base}/0/lines", json={}).status_code == 409  # chance decides here
    rolled = client.post(f"{base}/0/moves", json={"move": "roll1"}).json()["node"]
    taken = client.post(f"{base}/{rolled}/moves", json={"move": "t1"}).json()["node"]
    assert client.post(f"{base}/{rolled}/lines", json={"level": "easy"}).status_code == 200
    assert client.post(f"{base}/{taken}/lines", json={"level": "easy"}).status_code == 200
    refusal = client.post(f"{base}/{rolled}/lines", json={"level": "medium"})
    assert refusal.status_code == 429 and refusal.json()["error"]["code"] == "lines_rate"
    assert client.post(f"{base}/{rolled}/lines", json={"level": "easy"}).json()["stored"]
