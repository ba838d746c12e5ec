"""``boardplay bot``'s parts that need no server (``cli/botclient.py``): the challenge filter,
agents by spec and by ``module:function``, the position rebuilt from a game stream's moves
(chance outcomes included), and the command line without the web extra's ``httpx``."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import boardplay
from boardplay.cli.botclient import DECLINE, Wanted, agent_factory, state_of
from boardplay.core.game import sample_chance


def challenge(**fields: object) -> dict[str, object]:
    return {"game": "proteus", "options": {}, "rated": False, "clock": None, **fields}


def test_the_filter_accepts_what_it_names_and_says_why_it_declines() -> None:
    anything = Wanted()
    assert anything.refuses(challenge()) is None
    assert anything.refuses(challenge(game="nosuchgame")) is not None  # cannot be played here
    only = Wanted(frozenset({"potlatch"}), rated=True, clock="realtime")
    reason, why = only.refuses(challenge()) or ("", "")
    assert reason == "variant" and "not among potlatch" in why
    timed = {"base": 300, "increment": 3}
    assert only.refuses(challenge(game="potlatch", rated=False, clock=timed)) == (
        "rated",
        "casual",
    )
    assert only.refuses(challenge(game="potlatch", rated=True)) == ("timeControl", "clock none")
    assert only.refuses(challenge(game="potlatch", rated=True, clock=timed)) is None
    assert Wanted(rated=False).refuses(challenge(rated=True)) == ("casual", "rated")
    mail = Wanted(clock="correspondence")
    assert mail.refuses(challenge(clock={"days": 3})) is None
    assert mail.refuses(challenge(clock=timed)) == ("timeControl", "clock realtime")
    reason, why = anything.refuses(challenge(options={"rules": "nonsense"})) or ("", "")
    assert reason == "standard" and "cannot be played here" in why
    assert {r for r, _ in filter(None, map(only.refuses, [challenge()]))} <= DECLINE


def test_agents_by_spec_and_by_module_function() -> None:
    game = boardplay.load("proteus")
    state = game.new_initial_state()
    first = agent_factory("botagents:first_legal")(game, 1)
    assert first.step(state) == state.legal_actions()[0]
    search = agent_factory("mcts(iterations=20)")(game, 1)
    assert search.step(state) in state.legal_actions()
    with pytest.raises(boardplay.OptionError):
        agent_factory("nosuchagent")(game, 1)


def test_the_position_is_rebuilt_from_the_moves_chance_included() -> None:
    game = boardplay.load("passtally")
    state, rng, moves = game.new_initial_state(), random.Random(5), []
    for _ in range(40):
        if state.is_terminal():
            break
        action = (
            sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    assert any(m for m in moves) and state_of(game, moves).to_json() == state.to_json()


def test_the_command_line_works_without_httpx_and_the_bot_says_what_it_needs() -> None:
    script = (
        "import sys\n"
        "sys.modules['httpx'] = None\n"
        "from boardplay.cli.main import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    sys.exit(exc.code)\n"
    )
    sim = subprocess.run(
        [sys.executable, "-c", script, "sim", "potlatch", "--games", "2", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert sim.returncode == 0, sim.stderr[-2000:]
    bot = subprocess.run(
        [sys.executable, "-c", script, "bot", "--token", "bp_x"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bot.returncode == 2 and "needs httpx" in bot.stderr, bot.stderr[-2000:]
