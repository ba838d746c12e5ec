"""``boardplay bot --agent module:name`` with research code (``cli/botpolicy.py``): every kind of
player plays a legal move, every mistake is said in a sentence that names it before the bot
connects, and a player's illegal action or crash makes the client resign, never move for it
(the server is played by ``httpx.MockTransport``: what the client sends is what is checked)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from typer.testing import CliRunner

import boardplay
from boardplay.cli.botclient import BotClient, agent_factory
from boardplay.cli.botpolicy import PolicyError, research_agents
from boardplay.cli.main import build_app
from boardplay.core.game import Game

MODULE = """
import numpy as np
from boardplay.ai.agents import RandomAgent
from boardplay.ai.policy import find_policy

def first(observation, action_mask):
    return int(np.flatnonzero(action_mask)[0])

def player(game):
    return first if game.name == "proteus" else None

def seeded(game, seed):
    SEEDS.append(seed)
    return first

def illegal(game):
    return lambda observation, action_mask: int(np.flatnonzero(action_mask == 0)[0])

def broken(game):
    return lambda observation, action_mask: 1 / 0

def three(a, b, c):
    return first

def number(game):
    return 5

def raising(game):
    raise RuntimeError("no checkpoint for " + game.name)

SEEDS = []
NAME = "a string"
AGENT = RandomAgent(seed=1)
NET = find_policy("potlatch-ppo")
"""


@pytest.fixture
def research(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A module ``researchbot`` on the path (and its file)."""
    file = tmp_path / "researchbot.py"
    file.write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "researchbot", raising=False)
    return file


def legal_move(reference: str, game: Game, seed: int | None = 1) -> None:
    agent = research_agents(reference)(game, seed)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()


def test_a_policy_function_a_file_and_a_seeded_maker_play(research: Path) -> None:
    proteus = boardplay.load("proteus")
    legal_move("researchbot:player", proteus)
    legal_move(f"{research}:player", proteus)  # a file by its path
    legal_move("researchbot:seeded", proteus, seed=7)
    assert sys.modules["researchbot"].SEEDS == [7]
    with pytest.raises(boardplay.OptionError, match="researchbot:player does not play potlatch"):
        research_agents("researchbot:player")(boardplay.load("potlatch"), 1)


def test_a_trained_network_plays_its_game_and_refuses_another(research: Path) -> None:
    legal_move("researchbot:NET", boardplay.load("potlatch"))
    with pytest.raises(boardplay.OptionError, match="trained on potlatch"):
        research_agents("researchbot:NET")(boardplay.load("proteus"), 1)


def test_an_sb3_model_plays_its_best_legal_action_and_refuses_another_game(
    research: Path,
) -> None:
    from sb3_contrib import MaskablePPO

    from boardplay.adapters import gymnasium as bg

    model = MaskablePPO("MlpPolicy", bg.env("proteus"), n_steps=64, batch_size=64, seed=1)
    module: Any = importlib.import_module("researchbot")
    module.MODEL = model  # the model as a module would hold it
    proteus = boardplay.load("proteus")
    agent = research_agents("researchbot:MODEL")(proteus, 1)
    state = proteus.new_initial_state()
    observation = np.asarray(state.observation_tensor(0), dtype=np.float32)
    mask = np.zeros(proteus.num_distinct_actions, dtype=np.int8)
    mask[state.legal_actions()] = 1
    best = model.predict(observation, action_masks=mask, deterministic=True)[0]
    assert agent.step(state) == int(best)
    with pytest.raises(boardplay.OptionError, match=r"shape \(165,\) and 217 actions; potlatch"):
        research_agents("researchbot:MODEL")(boardplay.load("potlatch"), 1)


@pytest.mark.parametrize(
    ("reference", "words"),
    [
        ("nosuchbotmodule:player", "no module named 'nosuchbotmodule' on the Python path"),
        ("researchbot:plyer", "researchbot has no 'plyer'; it defines: broken, first, "),
        ("researchbot:three", r"takes \(a, b, c\): a maker takes the game, and the seed"),
        ("researchbot:NAME", "is 'a string': name a policy"),
        ("researchbot:AGENT", "is an Agent object, which keeps the state of one game"),
        ("researchbot", "write module:name or path/to/file.py:name"),
        ("no/such/file.py:player", "there is no file no/such/file.py"),
    ],
)
def test_a_mistake_is_named_before_the_bot_connects(
    research: Path, reference: str, words: str
) -> None:
    with pytest.raises(boardplay.OptionError, match=words):
        agent_factory(reference if ":" in reference else f"{reference}:")


def test_a_module_that_fails_to_import_shows_its_own_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "needsmore.py").write_text("import nosuchdependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(boardplay.OptionError, match="importing needsmore failed: No module named"):
        research_agents("needsmore:player")
    with pytest.raises(boardplay.OptionError, match=r"running .*needsmore\.py failed"):
        research_agents(f"{tmp_path / 'needsmore.py'}:player")


def test_a_maker_that_raises_or_gives_no_player_is_refused_with_its_game(research: Path) -> None:
    proteus = boardplay.load("proteus")
    with pytest.raises(boardplay.OptionError, match="raising\\(game\\) failed for proteus: "):
        research_agents("researchbot:raising")(proteus, 1)
    with pytest.raises(
        boardplay.OptionError, match=r"number\(game\) returned 5 for proteus: a function"
    ):
        research_agents("researchbot:number")(proteus, 1)


def test_an_illegal_action_or_a_crash_is_a_policy_error(research: Path) -> None:
    proteus = boardplay.load("proteus")
    state = proteus.new_initial_state()
    with pytest.raises(PolicyError, match=r"researchbot:illegal in proteus at ply 0: .* not legal"):
        research_agents("researchbot:illegal")(proteus, 1).step(state)
    with pytest.raises(PolicyError, match="failed: ZeroDivisionError"):
        research_agents("researchbot:broken")(proteus, 1).step(state)


class Server:
    """What the client sends, answered as the server would (a game stream of one line)."""

    def __init__(self, game_full: dict[str, Any] | None = None) -> None:
        self.sent: list[str] = []
        self.game_full = game_full

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(f"{request.method} {request.url.path}")
        if request.url.path.startswith("/api/bot/game/stream/"):
            return httpx.Response(200, content=json.dumps(self.game_full).encode() + b"\n")
        return httpx.Response(200, json={"ok": True})


def client_of(reference: str, server: Server) -> BotClient:
    client = BotClient("http://bots.test", "bp_x", agent_factory(reference), name="me")
    client.client = httpx.Client(base_url="http://bots.test", transport=httpx.MockTransport(server))
    return client


def test_the_client_declines_what_the_maker_refuses_and_accepts_the_rest(research: Path) -> None:
    server = Server()
    client = client_of("researchbot:player", server)
    offered = {"to": "me", "status": "open", "options": {}, "rated": True, "clock": None}
    client.answer({**offered, "id": "c1", "game": "potlatch"})
    client.answer({**offered, "id": "c2", "game": "proteus"})
    assert server.sent == ["POST /api/challenge/c1/decline", "POST /api/challenge/c2/accept"]


def test_the_client_resigns_for_an_illegal_action_and_never_moves_for_it(research: Path) -> None:
    server = Server()
    client = client_of("researchbot:illegal", server)
    proteus = boardplay.load("proteus")
    agent = client.make_agent(proteus, None)
    line = {"moves": [], "ply": 0, "legal": ["Rc@a1"], "turn": 0}
    client._move("g1", proteus, agent, line)
    assert server.sent == ["POST /api/bot/game/g1/resign"]


def test_the_client_resigns_a_paired_game_its_maker_does_not_play(research: Path) -> None:
    state = {"type": "gameState", "moves": [], "ply": 0, "turn": 0, "status": "started"}
    full = {"type": "gameFull", "game": "potlatch", "options": {}, "yourSeats": [0]}
    server = Server({**full, "state": state})
    client = client_of("researchbot:player", server)
    client._game("g2")
    assert server.sent == ["GET /api/bot/game/stream/g2", "POST /api/bot/game/g2/resign"]
    assert client.finished == ["g2"]


def test_the_command_says_a_game_the_agent_refuses_before_connecting(research: Path) -> None:
    args = ["bot", "--server", "http://127.0.0.1:9", "--token", "bp_x"]
    refused = CliRunner().invoke(
        build_app(), [*args, "--agent", "researchbot:player", "--game", "potlatch"]
    )
    assert refused.exit_code != 0
    assert "researchbot:player does not play potlatch" in refused.output
    missing = CliRunner().invoke(build_app(), [*args, "--agent", "researchbot:plyer"])
    assert missing.exit_code != 0 and "researchbot has no 'plyer'" in missing.output
