"""Hints and reviews over HTTP, on the real Potlatch engine with searches in the worker pool: a
planted blunder is flagged with a better move and the review is stored for the next visitor;
hints answer the player to move in words; refusals (spectators, hints off, unfinished games,
budgets over the ceilings) are clear 4xx that change nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webcalls import auth, refused
from websettings import TEST_LIMITS

from boardplay.web.advice.reviews import Reviewer
from boardplay.web.app import create_app
from boardplay.web.config import Settings
from reviewgames import Planted, planted_blunder

LIMITS = dataclasses.replace(
    TEST_LIMITS, hint_iterations=200, review_iterations=150, review_max_work=20_000
)
ME_TWICE = [{"kind": "me"}, {"kind": "hotseat"}]


def settings(path: Path) -> Settings:
    return Settings(database_url=f"sqlite:///{path}", ai_workers=1, limits=LIMITS)


@pytest.fixture(scope="module")
def planted() -> Planted:
    return planted_blunder()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path / "review.sqlite3"))) as test_client:
        yield test_client


def new_game(client: TestClient, seats: list[dict[str, Any]] = ME_TWICE) -> tuple[str, str]:
    response = client.post("/api/games", json={"game": "potlatch", "seats": seats})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def play(client: TestClient, game_id: str, token: str, actions: list[int]) -> dict[str, Any]:
    game: dict[str, Any] = {}
    for ply, action in enumerate(actions):
        response = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": action, "ply": ply},
            headers=auth(token),
        )
        assert response.status_code == 200, response.text
        game = response.json()["game"]
    return game


def finished(client: TestClient, planted: Planted) -> tuple[str, str]:
    game_id, token = new_game(client)
    game = play(client, game_id, token, [m.action for m in planted.record.moves])
    assert game["terminal"]
    return game_id, token


def wait_review(client: TestClient, game_id: str, query: str) -> dict[str, Any]:
    for _ in range(600):
        status: dict[str, Any] = client.get(f"/api/games/{game_id}/review?{query}").json()
        if status["state"] in ("done", "failed"):
            return status
        assert status["state"] == "running" and 0 <= status["done"] <= status["total"]
        time.sleep(0.2)
    raise AssertionError("the review did not finish")


def test_the_planted_blunder_is_flagged_and_the_review_is_stored(
    client: TestClient, planted: Planted, tmp_path: Path
) -> None:
    game_id, _ = finished(client, planted)
    query = f"seat={planted.seat}"
    assert client.get(f"/api/games/{game_id}/review?{query}").json()["state"] == "none"
    # A spectator (no token) may ask: the game is over and its record public.
    started = client.post(f"/api/games/{game_id}/review", json={"seat": planted.seat})
    assert started.status_code == 200, started.text
    assert started.json()["state"] in ("running", "done")
    status = wait_review(client, game_id, query)
    assert status["state"] == "done", status
    review = status["review"]
    assert review["iterations"] == LIMITS.review_iterations
    (entry,) = [m for m in review["flagged"] if m["ply"] == planted.ply]
    assert entry["verdict"] == "blunder" and entry["win_after"] == 0.0
    assert entry["best"]["move"] in planted.safe
    assert entry["words"] and entry["best"]["words"] and entry["best"]["struct"]
    assert review["curve"][-1] == {"ply": len(planted.record.moves), "win_probability": 0.0}

    # The second visitor reads the stored review at once, on this process or any other.
    again = client.post(f"/api/games/{game_id}/review", json={"seat": planted.seat})
    assert again.json()["state"] == "done" and again.json()["review"] == review
    with TestClient(create_app(settings(tmp_path / "review.sqlite3"))) as other:
        stored = other.get(f"/api/games/{game_id}/review?{query}").json()
        assert stored["state"] == "done" and stored["review"] == review


def test_review_refusals(client: TestClient, planted: Planted) -> None:
    game_id, token = new_game(client)
    message = refused(client.post(f"/api/games/{game_id}/review", json={}), 409)
    assert "finished game" in message
    play(client, game_id, token, [m.action for m in planted.record.moves])
    url = f"/api/games/{game_id}/review"
    message = refused(client.post(url, json={"iterations": LIMITS.review_max_iterations + 1}))
    assert f"1..{LIMITS.review_max_iterations}" in message
    message = refused(client.post(url, json={"iterations": 1_500}))
    assert "ceiling is 20,000" in message and "× 1500 iterations" in message
    assert "seat must be 0..1" in refused(client.post(url, json={"seat": 2}))
    assert "seat must be 0..1" in refused(client.get(f"{url}?seat=7"))
    # Nothing was started by any of these.
    assert client.get(url).json()["state"] == "none"
    assert refused(client.get("/api/games/nope/review"), 404)


def test_a_hint_says_the_best_move_in_words_to_the_player_to_move(client: TestClient) -> None:
    game_id, token = new_game(client)
    response = client.post(f"/api/games/{game_id}/hint", json={"ply": 0}, headers=auth(token))
    assert response.status_code == 200, response.text
    hint = response.json()
    game = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
    assert game["hints_allowed"] is True and game["ply"] == 0  # the hint changed nothing
    legal = {m["id"]: m for m in game["legal"]}
    assert hint["action"] in legal and hint["move"] == legal[hint["action"]]["move"]
    assert hint["words"] == legal[hint["action"]]["words"]
    assert hint["struct"] == legal[hint["action"]]["struct"]
    assert 0.0 <= hint["win_probability"] <= 1.0
    assert 0 < hint["iterations"] <= LIMITS.hint_iterations
    assert all(c["move"] != hint["move"] and c["words"] for c in hint["candidates"])


def test_hint_refusals(client: TestClient, planted: Planted) -> None:
    game_id, token = new_game(client)
    url = f"/api/games/{game_id}/hint"
    message = refused(client.post(url, json={}), 403)
    assert "spectator" in message
    assert "spectator" in refused(client.post(url, json={}, headers=auth("x" * 20)), 403)
    assert "ply 0" in refused(client.post(url, json={"ply": 3}, headers=auth(token)), 409)

    # Another person at the table: hints are off for everyone in the game.
    invited, host = new_game(client, [{"kind": "me"}, {"kind": "invite"}])
    game = client.get(f"/api/games/{invited}", headers=auth(host)).json()
    assert game["hints_allowed"] is False
    message = refused(client.post(f"/api/games/{invited}/hint", headers=auth(host)), 403)
    assert "hints are off" in message

    play(client, game_id, token, [m.action for m in planted.record.moves])
    assert "game is over" in refused(client.post(url, json={}, headers=auth(token)), 409)


def test_hints_are_on_against_the_ai_and_off_with_another_person(client: TestClient) -> None:
    cases = {
        "ai": ([{"kind": "me"}, {"kind": "ai", "spec": "random"}], True),
        "hotseat": (ME_TWICE, True),
        "open": ([{"kind": "me"}, {"kind": "open"}], False),
        "invite": ([{"kind": "invite"}, {"kind": "me"}], False),
    }
    for name, (seats, allowed) in cases.items():
        game_id, token = new_game(client, seats)
        view = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        assert view["hints_allowed"] is allowed, name


def test_a_process_runs_at_most_review_jobs_reviews_at_once(
    tmp_path: Path, planted: Planted, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first review's searches wait until the second has been refused, so the first is
    # running then however fast the machine is.
    asked = threading.Event()
    judge = Reviewer._judge

    async def held(self: Reviewer, *args: Any) -> Any:
        await asyncio.to_thread(asked.wait, 60)
        return await judge(self, *args)

    monkeypatch.setattr(Reviewer, "_judge", held)
    limits = dataclasses.replace(LIMITS, review_jobs=1)
    path = tmp_path / "busy.sqlite3"
    with TestClient(
        create_app(Settings(database_url=f"sqlite:///{path}", ai_workers=1, limits=limits))
    ) as client:
        first, _ = finished(client, planted)
        second, _ = finished(client, planted)
        assert client.post(f"/api/games/{first}/review", json={}).json()["state"] == "running"
        message = refused(client.post(f"/api/games/{second}/review", json={}), 429)
        asked.set()
        assert "as many games as it may at once (1)" in message
        assert client.get(f"/api/games/{second}/review").json()["state"] == "none"
