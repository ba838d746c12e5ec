"""The shipped two-player Montana network (``ai/networks/montana-2p.npz``, issue 67 build 4): it
says which run made it, the two-player expert plays a game's first turns with it (no torch
needed), and a table of three is refused with a reason, its value head having one output a seat."""

from __future__ import annotations

import random

import pytest

from boardplay.ai.az import AZAgent, available_networks, load_network
from boardplay.ai.specs import make_agent
from boardplay.core.game import sample_chance
from boardplay.core.registry import load


def test_the_shipped_montana_network_is_the_two_player_experts_and_plays() -> None:
    assert "montana-2p" in available_networks()
    network, meta = load_network("montana-2p")
    assert meta["game"] == "montana" and meta["seed"] == 71 and meta["games"] == 4000
    assert network.hidden == (64, 64)
    game = load("montana(players=2)")
    expert = make_agent("expert", game, seed=1)
    assert isinstance(expert, AZAgent) and expert.uniform
    agent = make_agent("az(weights=montana-2p,iterations=200,uniform=true,mix=0.8)", game, 1)
    luck = random.Random(2)
    state = game.new_initial_state()
    decided = 0
    while not state.is_terminal() and decided < 12:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, luck))
            continue
        action = (
            agent.step(state) if state.current_player() == 0 else luck.choice(state.legal_actions())
        )
        state.apply_action(action)
        decided += 1
    assert decided == 12


def test_a_table_of_three_is_refused_with_the_reason() -> None:
    game = load("montana(players=3)")
    state = game.new_initial_state()
    luck = random.Random(1)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, luck))
    agent = make_agent("az(weights=montana-2p,iterations=50,uniform=true)", game, 0)
    with pytest.raises(ValueError, match="2 seats"):
        agent.step(state)
