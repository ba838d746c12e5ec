"""The agents on the real engines (each game as it lands): legal choices at every decision,
chance and multi-action turns handled, 3–4 player tables, evaluations well formed, seeds fixed."""

from __future__ import annotations

import random

import pytest

import boardplay
from boardplay.ai import make_agent
from boardplay.ai.agents import Agent
from boardplay.ai.evaluation import heuristics_for
from boardplay.core.game import Game, sample_chance

GAME_STRINGS = {
    "potlatch": ["potlatch", "potlatch(actions=3,layout=L4)"],
    "proteus": ["proteus", "proteus(rules=kadon)"],
    "passtally": ["passtally", "passtally(players=3)"],
    "montana": ["montana", "montana(players=4)"],
}
CASES = [text for name in boardplay.available() for text in GAME_STRINGS.get(name, [name])]
SPECS = ["random", "greedy", "mcts(iterations=15)", "mcts(iterations=15,cutoff=3)"]


def _load(text: str) -> Game:
    """The game (an engine whose compiled kernel is not built fails here, never skips)."""
    return boardplay.load(text)


def _play(game: Game, spec: str, seed: int, decisions: int) -> list[int]:
    """Play up to ``decisions`` agent decisions with ``spec`` in every seat, checking each."""
    state = game.new_initial_state()
    agents: list[Agent] = [make_agent(spec, game, seed + i) for i in range(game.num_players)]
    rng = random.Random(seed)
    heuristics = heuristics_for(game)
    seats_seen: set[int] = set()
    made = 0
    while not state.is_terminal() and made < decisions:
        seat = state.current_player()
        if seat < 0:
            action = sample_chance(state, rng)
        else:
            action = agents[seat].step(state)
            assert action in state.legal_actions(), (spec, state.action_to_string(action))
            value = heuristics.evaluate(state)
            assert len(value) == game.num_players
            assert all(v >= 0 for v in value) and sum(value) == pytest.approx(1.0, abs=1e-6)
            seats_seen.add(seat)
            made += 1
        state.apply_action(action)
        for agent in agents:
            agent.inform(action)
    assert made == decisions or state.is_terminal()
    if not state.is_terminal():
        assert len(seats_seen) == game.num_players
    return state.history()


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("text", CASES)
def test_agents_play_legal_moves_on_the_engine(text: str, spec: str) -> None:
    game = _load(text)
    _play(game, spec, seed=11, decisions=6 * game.num_players)


@pytest.mark.parametrize("text", CASES)
def test_search_is_deterministic_for_a_seed(text: str) -> None:
    game = _load(text)
    assert _play(game, "mcts(iterations=10)", 5, 8) == _play(game, "mcts(iterations=10)", 5, 8)


@pytest.mark.parametrize("text", CASES)
def test_mcts_reports_its_analysis(text: str) -> None:
    game = _load(text)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    agent = make_agent("mcts(iterations=30)", game, 0)
    action = agent.step(state)
    summary = agent.analysis()  # type: ignore[attr-defined]
    assert summary is not None
    assert 0.0 <= summary["win_probability"] <= 1.0
    assert summary["line"][0] == state.action_to_string(action)


@pytest.mark.parametrize("text", CASES)
def test_every_level_builds_for_the_game(text: str) -> None:
    from boardplay.ai.specs import LEVEL_NAMES, level_spec

    game = _load(text)
    for level in LEVEL_NAMES:
        agent = make_agent(level, game, 0)
        assert agent.name == level
        assert make_agent(level_spec(level, game), game, 0).name == level_spec(level, game)
