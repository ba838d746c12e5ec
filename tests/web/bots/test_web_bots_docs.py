"""The 20-line bot of docs/bots.md, run as it is written (only its server and token filled in)
against a real server: a person challenges it and plays their side, and the game is played to
its end, the bot's moves made by the example."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpcalls
from botcalls import SERVER_ENV, make_bot, sign_up
from browsing import free_port, serve

ROOT = Path(__file__).resolve().parents[3]
ENV = SERVER_ENV


def example() -> str:
    """The Python block under "A bot in 20 lines" in docs/bots.md."""
    text = (ROOT / "docs" / "bots.md").read_text()
    section = text.split("## A bot in 20 lines", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "docs/bots.md has no Python example"
    return found.group(1)


def test_the_documented_bot_plays_a_whole_game(tmp_path: Path) -> None:
    code = example()
    assert len([line for line in code.splitlines() if line.strip()]) <= 24
    db, port = tmp_path / "docs.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port, ENV)
    bot_process = None
    try:
        bot = make_bot(base, "docbot")
        person = sign_up(base, "ann")
        filled = code.replace('"http://localhost:8000", "bp_…"', f'"{base}", "{bot.token}"')
        assert filled != code
        script = tmp_path / "bot.py"
        script.write_text(filled)
        bot_process = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE)
        time.sleep(1.0)  # its event stream is open
        sent = person.post(base, "/api/challenges", {"to": "docbot", "game": "tiny"})
        challenge_id = sent.json()["challenge"]["id"]
        game_id = None
        for _ in range(200):
            mine = person.get(base, "/api/challenges").json()["outgoing"]
            game_id = next((c["game_id"] for c in mine if c["id"] == challenge_id), None)
            if game_id:
                break
            time.sleep(0.05)
        assert game_id, "the example did not accept the challenge"
        token = person.post(base, f"/api/account/games/{game_id}/token").json()["token"]
        mine_h = {"Authorization": f"Bearer {token}"}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            view = httpcalls.get(f"{base}/api/games/{game_id}", headers=mine_h).json()
            if view["status"] == "finished":
                break
            if view["your_turn"]:
                move = random.choice(view["legal"])["move"]
                httpcalls.post(
                    f"{base}/api/games/{game_id}/actions",
                    json={"action": move, "ply": view["ply"]},
                    headers=mine_h,
                )
            else:
                time.sleep(0.05)
        assert view["status"] == "finished", view
        names = [s["name"] for s in view["seats"]]
        assert any(names[m["player"]] == "docbot" for m in view["moves"] if m["player"] >= 0)
        assert bot_process.poll() is None, bot_process.stderr.read() if bot_process.stderr else ""
    finally:
        if bot_process is not None:
            bot_process.kill()
            bot_process.wait(timeout=10)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
