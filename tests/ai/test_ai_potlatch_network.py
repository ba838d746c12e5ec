"""The shipped Potlatch network (``ai/networks/potlatch.npz``, issue 50 build 3): it reads the
compact bytes, says which run made it, and ``az(weights=potlatch,...)`` plays a game with it
(no torch needed)."""

from __future__ import annotations

import random

from boardplay.ai.az import available_networks, load_network
from boardplay.ai.specs import make_agent
from boardplay.core.registry import load


def test_the_shipped_potlatch_network_loads_and_plays() -> None:
    assert "potlatch" in available_networks()
    network, meta = load_network("potlatch")
    assert meta["game"] == "potlatch" and meta["input"] == "compact" and "run" in meta
    assert network.hidden == (64, 64)
    game = load("potlatch")
    agent = make_agent("az(weights=potlatch,iterations=50,contempt=0.3)", game, seed=1)
    other = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < 60:
        if state.current_player() == 0:
            action = agent.step(state)
        else:
            action = other.choice(state.legal_actions())
        state.apply_action(action)
        agent.inform(action)
    assert len(state.history()) > 4
