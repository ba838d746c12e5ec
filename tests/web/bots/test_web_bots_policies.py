"""Research agents as bots (docs/bots.md, "Your own policy as a bot"), end to end: the page's two
files run as written, their training shortened, through ``boardplay bot --agent file.py:player``
against a real server with the real games. The MaskablePPO model trains itself when its file is
first imported (as the page says) and plays a rated Potlatch game against a person to its end;
a network that ``boardplay train`` wrote is the other bot; both enter an arena open to bots with
``--tournament`` and play their pairing to its end. Every move of both is its agent's own: a
policy error would resign, and the logs say none happened."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from botcalls import Person, make_bot, sign_up
from browsing import free_port, serve
from typer.testing import CliRunner

from boardplay.cli.main import build_app

ROOT = Path(__file__).resolve().parents[3]
BOARDPLAY = str(Path(sys.executable).parent / "boardplay")
CLOCK = {"base": 120, "increment": 2}


def examples() -> dict[str, str]:
    """The Python files of docs/bots.md's "Your own policy as a bot", by the name on their first
    line (``# potlatch_sb3.py``)."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("## Your own policy as a bot", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    return {block.splitlines()[0].removeprefix("# "): block for block in blocks}


def shortened(code: str) -> str:
    """The SB3 file with a training a test can wait for (one rollout of 256 steps)."""
    short = code.replace("total_timesteps=50_000", "total_timesteps=256")
    assert short != code, "the SB3 example's training length changed: update the test"
    return short


def connect(base: str, token: str) -> list[str]:
    return ["bot", "--server", base, "--token", token]


def bot(base: str, token: str, folder: Path, name: str, *extra: str) -> subprocess.Popen[bytes]:
    """``boardplay bot`` in ``folder`` (where the example files and the runs are), logging to
    ``<name>.log`` there."""
    args = [BOARDPLAY, *connect(base, token), "--log", f"{name}.log", *extra]
    return subprocess.Popen(args, cwd=folder, stderr=subprocess.PIPE)


def wait_for(what: str, check: Any, seconds: float, process: Any = None) -> Any:
    """``check()`` once it is truthy, looked at every 0.1 s; fails after ``seconds`` or as soon
    as ``process`` (a bot) has exited, with its stderr."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the bot stopped before {what}: {process.stderr.read()!r}")
        time.sleep(0.1)
    raise AssertionError(f"{what} never came")


def challenge_game(person: Person, base: str, challenge_id: str) -> str | None:
    for c in person.get(base, "/api/challenges").json()["outgoing"]:
        if c["id"] == challenge_id:
            assert c["status"] in ("open", "accepted"), c
            return c["game_id"] or None
    return None


def play_out(person: Person, base: str, game_id: str, seconds: float) -> dict[str, Any]:
    """The person plays random legal moves in the game until it is over; its last view."""
    token = person.post(base, f"/api/account/games/{game_id}/token").json()["token"]
    mine = {"Authorization": f"Bearer {token}"}
    rng = random.Random(63)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view: dict[str, Any] = httpcalls.get(
            f"{base}/api/games/{game_id}", headers=mine, timeout=20
        ).json()
        if view["status"] == "finished":
            return view
        if view["your_turn"]:
            move = rng.choice(view["legal"])["move"]
            body = {"action": move, "ply": view["ply"]}
            httpcalls.post(
                f"{base}/api/games/{game_id}/actions", json=body, headers=mine, timeout=20
            )
        else:
            time.sleep(0.05)
    raise AssertionError(f"game {game_id} never ended")


def arena_game(base: str, tournament_id: str) -> dict[str, Any] | None:
    """The arena's first game once it has ended, else None."""
    view = httpcalls.get(f"{base}/api/tournaments/{tournament_id}", timeout=20).json()
    tables = [t for entry in view["rounds"] for t in entry["tables"]]
    if not tables:
        return None
    game = httpcalls.get(f"{base}/api/games/{tables[0]['game']}", timeout=20)
    found: dict[str, Any] | None = game.json() if game.status_code == 200 else None
    return found if found is not None and found["terminal"] else None


def moves_by(view: dict[str, Any], name: str) -> int:
    names = [seat["name"] for seat in view["seats"]]
    return sum(1 for m in view["moves"] if m["player"] >= 0 and names[m["player"]] == name)


@pytest.mark.soak
def test_an_sb3_model_and_a_trained_network_play_rated_and_arena_games(tmp_path: Path) -> None:
    """Under make soak: two trainings, torch and three games cost the suite about 45 s of two
    cores. make test keeps each part on its own: ``file.py:name`` agents
    (tests/cli/test_cli_botpolicy.py), MaskablePPO through the bridge
    (tests/adapters/test_sb3_bridge.py), ``boardplay train`` (tests/ai/test_ai_train.py) and
    ``boardplay bot`` at a real server (test_web_bots_cli.py)."""
    files = examples()
    assert set(files) == {"potlatch_sb3.py", "potlatch_net.py"}
    for name, code in files.items():
        assert len([line for line in code.splitlines() if line.strip()]) <= 14, name
    (tmp_path / "potlatch_sb3.py").write_text(shortened(files["potlatch_sb3.py"]))
    (tmp_path / "potlatch_net.py").write_text(files["potlatch_net.py"])
    # the network, as the page says (runs/potlatch-ppo-1/policy.npz), trained briefly
    quick = ["--steps", "256", "--envs", "4", "--hidden", "16"]
    quick += ["--eval-games", "0", "--easy-games", "0", "--final-games", "0"]
    trainer = subprocess.Popen(
        [BOARDPLAY, "train", "potlatch", *quick], cwd=tmp_path, stdout=subprocess.DEVNULL
    )
    db, port = tmp_path / "policies.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        person = sign_up(base, "ann")
        model_bot, net_bot = make_bot(base, "sb3bot"), make_bot(base, "netbot")
        arena: dict[str, Any] = {"name": "Policies", "kind": "arena", "game": "potlatch"}
        arena |= {"clock": CLOCK, "bots": True, "minutes": 10, "starts": time.time() + 1}
        made = person.post(base, "/api/tournaments", arena)
        assert made.status_code == 201, made.text
        tournament_id = made.json()["tournament"]["id"]
        nowhere = [*connect(base, model_bot.token), "--agent", "random", "--tournament", "nosuch"]
        refused = CliRunner().invoke(build_app(), nowhere)
        assert refused.exit_code != 0 and "cannot enter tournament nosuch" in refused.output
        enter = ["--tournament", tournament_id]
        sb3 = ["--agent", "potlatch_sb3.py:player", "--game", "potlatch", "--max-games", "2"]
        net = ["--agent", "potlatch_net.py:player", "--max-games", "1"]
        bots.append(bot(base, model_bot.token, tmp_path, "sb3", *sb3, *enter))  # trains first
        assert trainer.wait(timeout=120) == 0
        bots.append(bot(base, net_bot.token, tmp_path, "net", *net, *enter))
        sb3_log, net_log = tmp_path / "sb3.log", tmp_path / "net.log"

        def connected() -> bool:
            return sb3_log.is_file() and "plays on" in sb3_log.read_text()

        wait_for("the model", connected, 90, bots[0])
        assert (tmp_path / "potlatch-maskableppo.zip").is_file()  # trained and saved once
        rated = {"to": "sb3bot", "game": "potlatch", "rated": True, "clock": CLOCK}
        challenge = person.post(base, "/api/challenges", rated)
        assert challenge.status_code in (200, 201), challenge.text
        challenge_id = challenge.json()["challenge"]["id"]
        game_id = wait_for(
            "the accepted challenge", lambda: challenge_game(person, base, challenge_id), 30
        )
        view = play_out(person, base, game_id, 60)
        assert view["rated"] and moves_by(view, "sb3bot") >= 5, view
        paired = wait_for("the arena's game", lambda: arena_game(base, tournament_id), 60)
        assert sorted(seat["name"] for seat in paired["seats"]) == ["netbot", "sb3bot"]
        assert paired["status"] == "finished", paired["status"]  # played out, nobody resigned
        assert moves_by(paired, "netbot") >= 5 and moves_by(paired, "sb3bot") >= 5
        for process in bots:  # each stops after its games (--max-games)
            assert process.wait(timeout=40) == 0, process.stderr.read() if process.stderr else ""
        for log in (sb3_log, net_log):
            text = log.read_text()
            assert f"entered tournament {tournament_id}" in text
            assert f"game {paired['id']} over" in text
            assert "resigning" not in text and "random legal move" not in text, text
        assert f"accepted challenge {challenge_id}" in sb3_log.read_text()
    finally:
        for process in [*bots, trainer]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


SHIPPED = """\
from boardplay.ai.policy import find_policy, learned_policy

def player(game):  # the network of the game's learned level
    return find_policy(learned_policy(game))
"""


@pytest.mark.soak
def test_shipped_networks_play_the_other_games_to_their_ends(tmp_path: Path) -> None:
    """The heavier variant: a maker of the shipped networks plays a whole game of Proteus,
    Passtally (chance moves in the stream) and Montana (several decisions a turn, hundreds
    in a game) against a person, each decision read from the observation the client rebuilds."""
    (tmp_path / "shipped.py").write_text(SHIPPED)
    db, port = tmp_path / "shipped.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(db, port)
    process = None
    try:
        person = sign_up(base, "ann")
        shipped = make_bot(base, "shippedbot")
        process = bot(base, shipped.token, tmp_path, "shipped", "--agent", "shipped.py:player")
        log = tmp_path / "shipped.log"
        wait_for("the bot", lambda: log.is_file() and "plays on" in log.read_text(), 60, process)
        for game in ("proteus", "passtally", "montana"):
            sent = person.post(base, "/api/challenges", {"to": "shippedbot", "game": game})
            assert sent.status_code in (200, 201), sent.text
            challenge_id = sent.json()["challenge"]["id"]
            game_id = wait_for(
                f"the {game} game", lambda c=challenge_id: challenge_game(person, base, c), 30
            )
            view = play_out(person, base, game_id, 600)
            assert moves_by(view, "shippedbot") >= 5, (game, view["status"])
        assert "resigning" not in log.read_text() and "random legal move" not in log.read_text()
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
