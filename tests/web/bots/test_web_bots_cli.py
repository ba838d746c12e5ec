"""``boardplay bot`` against a real server (``cli/botclient.py``): it declines a challenge its
filter refuses and accepts one it wants, plays the game with its agent while the person plays
theirs, comes back by itself when the server is restarted in mid-game and finishes the game,
and logs what it did."""

from __future__ import annotations

import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpcalls
from botcalls import SERVER_ENV, Person, make_bot, sign_up
from browsing import free_port, serve
from typer.testing import CliRunner

from boardplay.cli.main import build_app
from boardplay.core.registry import register, unregister

ENV = SERVER_ENV


def challenges_out(person: Person, base: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = person.get(base, "/api/challenges").json()["outgoing"]
    return found


def settled(person: Person, base: str, challenge_id: str) -> dict[str, Any]:
    for _ in range(200):
        for c in challenges_out(person, base):
            if c["id"] == challenge_id and c["status"] != "open":
                return c
        time.sleep(0.05)
    raise AssertionError(f"challenge {challenge_id} was never answered")


def test_the_bot_command_answers_challenges_plays_and_survives_a_restart(tmp_path: Path) -> None:
    register("tiny", "webtiny:TinyGame")  # the server's test game, for the bot's engine here
    db, port = tmp_path / "bots.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port, ENV)
    log = tmp_path / "bot.log"
    result: list[Any] = []
    try:
        bot = make_bot(base, "clibot")
        person = sign_up(base, "ann")
        args = ["bot", "--server", base, "--token", bot.token, "--agent", "random"]
        args += ["--game", "tiny", "--rated", "no", "--max-games", "1", "--log", str(log)]
        runner = threading.Thread(
            target=lambda: result.append(CliRunner().invoke(build_app(), args)), daemon=True
        )
        runner.start()
        time.sleep(1.0)  # its event stream is open
        rated = person.post(
            base,
            "/api/challenges",
            {"to": "clibot", "game": "tiny", "rated": True, "clock": {"base": 600, "increment": 5}},
        ).json()["challenge"]
        assert settled(person, base, rated["id"])["status"] == "declined"
        casual = person.post(base, "/api/challenges", {"to": "clibot", "game": "tiny"})
        game_id = settled(person, base, casual.json()["challenge"]["id"])["game_id"]
        answer = person.post(base, f"/api/account/games/{game_id}/token")
        assert answer.status_code == 200, answer.text  # accepted: its game exists
        token = answer.json()["token"]
        mine = {"Authorization": f"Bearer {token}"}
        restarted = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            view = httpcalls.get(f"{base}/api/games/{game_id}", headers=mine, timeout=10).json()
            if view["status"] == "finished":
                break
            # The restart comes on the person's own turn, which waits for them: the bot's turn
            # could end the tiny game before a poll saw it running.
            # It also waits until the bot has the game: a restart before its stream's first
            # line would make the bot's first sight of the game the one after the restart.
            has_it = log.exists() and f"playing game {game_id}" in log.read_text()
            if view["your_turn"] and view["ply"] >= 2 and has_it and not restarted:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
                time.sleep(1.0)  # the bot's streams drop and it tries again meanwhile
                server = serve(db, port, ENV)
                restarted = True
                continue
            if view["your_turn"]:
                move = random.choice(view["legal"])["move"]
                httpcalls.post(
                    f"{base}/api/games/{game_id}/actions",
                    json={"action": move, "ply": view["ply"]},
                    headers=mine,
                    timeout=10,
                )
            else:
                time.sleep(0.05)
        assert restarted and view["status"] == "finished", view
        runner.join(timeout=30)
        assert not runner.is_alive(), "the bot did not stop after its one game"
        assert result[0].exit_code == 0, result[0].output
        text = log.read_text()
        assert f"declined challenge {rated['id']}" in text
        assert "accepted challenge" in text and f"playing game {game_id}" in text
        assert f"game {game_id}: back after a drop" in text
        assert f"game {game_id} over" in text
        seat_names = [s["name"] for s in view["seats"]]
        bot_moves = [
            m for m in view["moves"] if m["player"] >= 0 and seat_names[m["player"]] == "clibot"
        ]
        assert bot_moves and text.count(f"game {game_id} ply") >= len(bot_moves)
    finally:
        unregister("tiny")  # the worker's later tests see the real games only
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
