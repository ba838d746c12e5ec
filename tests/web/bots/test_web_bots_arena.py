"""Issue 63's acceptance: bots at the server's DEFAULT limits lose no game to a limit.
``boardplay bot --agent hard`` processes against a real server whose only raised ceiling is the
sign-ups of one address (the test makes a dozen accounts): three of them in an arena, and one
of them in eight games at once against eight bots moving at once (random legal moves, Potlatch
and Montana, Montana's several moves a turn included). Every game's ending is read back, and
the hard bots' logs: no move refused, no request given up, no game lost on time. ``make test``
runs eight games for 15 s; the 5-minute runs are ``make soak``'s (tests/web/conftest.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from botcalls import ALL_SCOPES, Bot, make_bot, sign_up
from browsing import free_port, serve

from boardplay.cli.botclient import BotClient, agent_factory
from boardplay.web.config import Limits

DEFAULTS = Limits()
ENV = {
    "BOARDPLAY_WEB_RATE_PER_SECOND": str(DEFAULTS.rate_per_second),
    "BOARDPLAY_WEB_RATE_BURST": str(DEFAULTS.rate_burst),
    "BOARDPLAY_WEB_GAMES_PER_VISITOR": str(DEFAULTS.games_per_visitor),
    "BOARDPLAY_WEB_HEAVY_SHARE": str(DEFAULTS.heavy_share),
    "BOARDPLAY_WEB_HEAVY_BURST": str(DEFAULTS.heavy_burst),
    # The eight rivals challenge the bot again after each game, more than a person's 20 an
    # hour in five minutes; what is under test is the bot's limits, every one at its default.
    "BOARDPLAY_WEB_CHALLENGES_PER_HOUR": "1000",
}
"""The per-address ceilings ``browsing.serve`` raises for page tests, back at their defaults
(the rivals' challenges aside)."""
CLOCK = {"base": 120, "increment": 1}
"""Two minutes and a second a move: the hard agent thinks 0.5 s a move, so only a lost move
(or a stalled machine) can flag it."""
SRC = str(Path(__file__).parents[3] / "src")
TROUBLE = re.compile(r"refused:|given up| 429 ")


def hard_bot(base: str, bot: Bot, log: Path) -> subprocess.Popen[bytes]:
    """``boardplay bot --agent hard`` for ``bot``, logging to ``log``."""
    path = os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])
    args = [sys.executable, "-m", "boardplay.cli.main", "bot", "--server", base]
    args += ["--token", bot.token, "--agent", "hard", "--log", str(log)]
    return subprocess.Popen(args, env={**os.environ, "PYTHONPATH": path}, stderr=subprocess.DEVNULL)


def ended(base: str, game_id: str) -> dict[str, Any] | None:
    """The game's view once it is over (None while it runs)."""
    view: dict[str, Any] = httpcalls.get(f"{base}/api/games/{game_id}", timeout=20).json()
    return view if view["status"] != "active" else None


def how(view: dict[str, Any]) -> str:
    return str((view.get("result") or {}).get("ended") or view["status"])


def eight_games(base: str, tmp_path: Path, seconds: float) -> tuple[list[Any], list[Path]]:
    """One hard bot in eight games at once for ``seconds`` (each opponent challenging it again
    as soon as their game ends), then every game still running resigned by its opponent."""
    hard = make_bot(base, "hardbot")
    opponents = [make_bot(base, f"rival{i}") for i in range(8)]
    logs = [tmp_path / "hardbot.log"]
    process = hard_bot(base, hard, logs[0])
    clients = [
        BotClient(base, o.token, agent_factory("random"), seed=i) for i, o in enumerate(opponents)
    ]
    threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    running: dict[int, str] = {}
    views: list[Any] = []
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            for i, rival in enumerate(opponents):
                game_id = running.get(i)
                if game_id is not None:
                    view = ended(base, game_id)
                    if view is None:
                        continue
                    views.append(view)
                game = "montana" if i % 2 else "potlatch"
                body: dict[str, Any] = {"to": "hardbot", "game": game, "clock": CLOCK}
                if game == "montana":
                    body["options"] = {"players": 2}
                sent = rival.person.post(base, "/api/challenges", body)
                assert sent.status_code == 201, sent.text
                running[i] = accepted(rival, base, sent.json()["challenge"]["id"])
            time.sleep(1.0)
        for i, game_id in running.items():
            view = ended(base, game_id)
            if view is None:
                opponents[i].post(base, f"/api/bot/game/{game_id}/resign")
                view = ended(base, game_id)
                assert view is not None
                view["stopped"] = True
            views.append(view)
    finally:
        for c in clients:
            c.stop.set()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    return views, logs


def accepted(rival: Bot, base: str, challenge_id: str) -> str:
    """The game of ``rival``'s challenge once the hard bot accepted it."""
    for _ in range(400):
        for c in rival.person.get(base, "/api/challenges").json()["outgoing"]:
            if c["id"] == challenge_id and c["game_id"]:
                return str(c["game_id"])
            assert c["id"] != challenge_id or c["status"] in ("open", "accepted"), c
        time.sleep(0.05)
    raise AssertionError(f"challenge {challenge_id} was never accepted")


def arena(base: str, tmp_path: Path, minutes: int) -> tuple[list[Any], list[Path]]:
    """Three hard bots in a Potlatch arena of ``minutes``; every game of it."""
    scopes = [*ALL_SCOPES, "tournament:write"]
    bots = [make_bot(base, f"arena{i}", scopes) for i in range(3)]
    owner = sign_up(base, "organiser")
    body: dict[str, Any] = {"name": "Hard bots", "kind": "arena", "game": "potlatch"}
    body |= {"clock": CLOCK}
    body |= {"bots": True, "minutes": minutes, "starts": time.time() + 5}
    made = owner.post(base, "/api/tournaments", body)
    assert made.status_code in (200, 201), made.text
    tournament_id = made.json()["tournament"]["id"]
    for bot in bots:
        joined = bot.post(base, f"/api/tournaments/{tournament_id}/join")
        assert joined.status_code == 200, joined.text
    logs = [tmp_path / f"arena{i}.log" for i in range(3)]
    processes = [hard_bot(base, bot, log) for bot, log in zip(bots, logs, strict=True)]
    try:
        deadline = time.monotonic() + minutes * 60 + 300
        while True:
            assert time.monotonic() < deadline, "the arena never finished"
            seen = httpcalls.get(f"{base}/api/tournaments/{tournament_id}", timeout=20).json()
            if seen["tournament"]["status"] == "finished":
                break
            time.sleep(2.0)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)
    ids = {t["game"] for r in seen["rounds"] for t in r["tables"]}
    views = [httpcalls.get(f"{base}/api/games/{g}", timeout=20).json() for g in sorted(ids)]
    return views, logs


@pytest.mark.parametrize(
    ("kind", "seconds"),
    [("eight", 15), ("eight", 300), ("arena", 300)],
    ids=["eight-15s", "eight-5min", "arena-5min"],
)
def test_bots_at_default_limits_lose_no_game_to_a_limit(
    tmp_path: Path, kind: str, seconds: int
) -> None:
    db, port = tmp_path / "arena.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port, ENV)
    try:
        if kind == "eight":
            views, logs = eight_games(base, tmp_path, seconds)
        else:
            views, logs = arena(base, tmp_path, seconds // 60)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    text = "\n".join(log.read_text() for log in logs)
    trouble = [
        line  # a move that met the game's end (the opponent resigned meanwhile) is no trouble
        for line in text.splitlines()
        if TROUBLE.search(line) and '"game_over"' not in line
    ]
    endings = Counter(how(v) + (" (stopped)" if v.get("stopped") else "") for v in views)
    summary = {
        "games": len(views),
        "endings": dict(endings),
        "moves": sum(len(v["moves"]) for v in views),
        "429s": len(re.findall(r" 429 ", text)),
        "retries": text.count("trying again"),
        "trouble": trouble[:20],
    }
    (tmp_path / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary))
    assert views and not trouble, summary
    assert endings.get("time", 0) == 0, summary  # no game lost on time
