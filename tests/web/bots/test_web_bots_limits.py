"""Limits made for bots, on one process (``bots/limits.py``, docs/bots.md "Limits"): the bots of
one address are counted per token, not against the address's rate, while a person's burst and
a made-up token's still meet it; a move the game takes costs nothing, so a bot playing Montana
far past every per-minute ceiling is never refused a legal move; refused moves and other
requests have their ceilings, held from memory once reached; an accepted challenge is not a
game made by the acceptor's address."""

from __future__ import annotations

import dataclasses
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from test_web_bots import bearer, bot_of
from websettings import tiny_settings

import boardplay
from boardplay.web.app import create_app
from boardplay.web.config import DEFAULT_CATALOGUE


def app_of(tmp_path: Path, catalogue: str | None = None, **limits: int) -> TestClient:
    settings = tiny_settings(tmp_path, limits=limits)
    if catalogue is not None:
        settings = dataclasses.replace(settings, catalogue=catalogue)
    return TestClient(create_app(settings))


def challenged(client: TestClient, person: Player, bot: str, secret: str, game: str) -> str:
    """A person's challenge to ``bot``, accepted by its token: the game's id."""
    body: dict[str, Any] = {"to": bot, "game": game}
    if game == "montana":
        body["options"] = {"players": 2}
    sent = person.post("/api/challenges", body)
    assert sent.status_code == 201, sent.text
    challenge_id = sent.json()["challenge"]["id"]
    accepted = client.post(f"/api/challenge/{challenge_id}/accept", headers=bearer(secret))
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json().get("game") or challenge_id)


def codes(answers: list[Any]) -> list[str]:
    return [a.json()["error"]["code"] if a.status_code != 200 else "ok" for a in answers]


def test_the_bots_of_one_address_are_counted_per_token_not_by_the_address(
    tmp_path: Path,
) -> None:
    with app_of(tmp_path) as client:
        secrets = [bot_of(client, f"robo{i}")[1] for i in range(4)]
        person = sign_up(client, "ann")
        limiter = client.app.state.rate  # type: ignore[attr-defined]
        limiter.rate, limiter.burst = 5.0, 10.0  # the guard, tightened after the set-up
        limiter.buckets.clear()

        def burst(headers: list[dict[str, str]], path: str = "/api/account") -> list[Any]:
            with ThreadPoolExecutor(8) as pool:
                return list(pool.map(lambda h: client.get(path, headers=h), headers))

        bots = burst([bearer(secrets[i % 4]) for i in range(32)])  # 8 each, 32 from one address
        assert codes(bots) == ["ok"] * 32
        people = burst([person.headers()] * 32, "/api/account/me")
        assert "rate_limited" in codes(people)  # a person's burst meets the address's rate
        limiter.buckets.clear()
        made_up = burst([bearer("bp_" + "x" * 40)] * 32)
        assert set(codes(made_up)) == {"bad_token", "rate_limited"}  # never vouched for
        one = burst([bearer(secrets[0])] * 32)
        refused = [a for a in one if a.status_code == 429]
        assert refused and all("from this token" in a.text for a in refused)  # its own bucket


def test_a_bot_far_past_every_ceiling_in_montana_is_never_refused_a_legal_move(
    tmp_path: Path,
) -> None:
    ceilings = {"api_requests_per_minute": 12, "api_refused_moves_per_minute": 3}
    with app_of(tmp_path, DEFAULT_CATALOGUE, **ceilings) as client:
        ann_player, ann = bot_of(client, "ann")
        _, bob = bot_of(client, "bob")
        game_id = challenged(client, ann_player, "bob", bob, "montana")
        names = {"ann": ann, "bob": bob}
        game, rng = boardplay.load("montana", players=2), random.Random(3)
        played = 0
        while played < 120:  # ten times the request ceiling, forty times the refused ones
            view = client.get(f"/api/games/{game_id}").json()
            assert view["status"] == "active", view["result"]
            state = game.new_initial_state()
            for move in view["moves"]:
                state.apply_action(move["action"])
            mover = view["seats"][view["current_player"]]["name"]
            move = state.action_to_string(rng.choice(state.legal_actions()))
            path = f"/api/bot/game/{game_id}/move/{move}"
            sent = client.post(path, params={"ply": view["ply"]}, headers=bearer(names[mover]))
            assert sent.status_code == 200, (played, sent.text)
            played += 1
        # The refused moves' ceiling: three, then 429 with Retry-After, held from memory.
        illegal = f"/api/bot/game/{game_id}/move/zz9"
        spam = [client.post(illegal, headers=bearer(bob)) for _ in range(5)]
        # Refused, each counted: illegal (400) if bob is to move, else not his turn (409).
        first = [a.status_code for a in spam[:3]]
        assert first in ([400, 400, 400], [409, 409, 409]), first
        assert [a.status_code for a in spam[3:]] == [429, 429]
        assert spam[4].json()["error"]["code"] == "move_rate"
        assert 1 <= int(spam[4].headers["retry-after"]) <= 60
        # A stale ply is refused (409) and counted as refused, never played.
        view = client.get(f"/api/games/{game_id}").json()
        mover = view["seats"][view["current_player"]]["name"]
        stale = client.post(
            f"/api/bot/game/{game_id}/move/x", params={"ply": 0}, headers=bearer(ann)
        )
        assert stale.status_code in (409, 429)
        # Every other request has its ceiling: twelve a minute (the thirteenth is refused even
        # if the set-up's window has ended meanwhile).
        asked = [client.get("/api/account", headers=bearer(ann)) for _ in range(13)]
        assert codes(asked).count("api_rate") >= 1
        assert codes(asked)[-1] == "api_rate" and "other than moves" in asked[-1].text
        # ...and a token held for its requests still moves, if the game takes it.
        if mover == "ann":
            state = game.new_initial_state()
            for move in view["moves"]:
                state.apply_action(move["action"])
            move = state.action_to_string(state.legal_actions()[0])
            taken = client.post(f"/api/bot/game/{game_id}/move/{move}", headers=bearer(ann))
            assert taken.status_code == 200, taken.text


def test_a_burst_of_refused_moves_gets_no_more_than_the_ceiling(tmp_path: Path) -> None:
    with app_of(tmp_path, api_refused_moves_per_minute=5) as client:
        person = sign_up(client, "ann")
        _, secret = bot_of(client, "robo")
        game_id = challenged(client, person, "robo", secret, "tiny")

        def refused(_: int) -> int:
            path = f"/api/bot/game/{game_id}/move/nonsense"
            status: int = client.post(path, headers=bearer(secret)).status_code
            return status

        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(refused, range(60)))
        # One at a time runs (the others meanwhile: 429 move_in_flight), each refusal counted,
        # and once the ceiling is reached every one is refused from memory: 5 run in all.
        ran = len([a for a in answers if a != 429])
        assert 1 <= ran <= 5, answers
        after = [refused(0) for _ in range(6 - ran)]
        # Refused by the game (400 if robo is to move, else 409), then 429: the ceiling, exactly.
        assert after[-1] == 429 and set(after[:-1]) <= {400, 409}, after


def test_accepting_forty_challenges_in_an_hour_is_no_game_made_by_the_address(
    tmp_path: Path,
) -> None:
    with app_of(tmp_path, games_per_visitor=30, challenges_per_hour=20) as client:  # defaults
        _, secret = bot_of(client, "robo")
        people = [sign_up(client, name) for name in ("ann", "bea")]
        games = [challenged(client, people[i % 2], "robo", secret, "tiny") for i in range(40)]
        assert len(set(games)) == 40
        # The senders' ceiling still holds: a third of twenty from one account is refused.
        over = people[0].post("/api/challenges", {"to": "robo", "game": "tiny"})
        assert over.status_code == 429 and over.json()["error"]["code"] == "too_many_challenges"
