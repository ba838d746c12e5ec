"""The compiled network's speed work keeps the search's results: seeded ``az`` searches with the
shipped networks give the root visit counts they gave before the forward pass and the PUCT
selection were reworked for speed (issue 67, build 2). Each case covers one path of the pass:
Potlatch's value-only pass over compact bytes blended with the evaluation (``uniform``), its
legal-logits pass over compact bytes, and Proteus's over the float observation with repetition.
The visit counts are compared through a digest of the whole root vector, so one visit moved
between two moves fails the test."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from boardplay.ai.az import AZAgent
from boardplay.ai.specs import make_agent
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import load

POTLATCH_VALUE = (
    "az(weights=potlatch-value,iterations=3000,contempt=0.3,mix=0.8,finish_turn=true,"
    "uniform=true,reuse=false)"
)
POTLATCH_POLICY = "az(weights=potlatch,iterations=3000,contempt=0.3,reuse=false)"
PROTEUS = "az(weights=proteus,iterations=3000,repetition=true,contempt=0.3,c=1.0,reuse=false)"


def position(game: Game, plies: int, seed: int) -> State:
    """The first decision with a choice at or after ``plies`` random actions."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < plies or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# (game, spec, plies, the move played, its visits, the first 12 hex digits of the SHA-256 of
# the root's visit counts by action as int32), recorded with the code before the speed work.
CASES = [
    ("potlatch", POTLATCH_VALUE, 0, 2, 516, "34e2e008ffd0"),
    ("potlatch", POTLATCH_VALUE, 9, 7, 2029, "2a59592db3b4"),
    ("potlatch", POTLATCH_VALUE, 19, 6, 1276, "fb7f5a4f66be"),
    ("potlatch", POTLATCH_POLICY, 0, 0, 1090, "b78c34b40f5b"),
    ("potlatch", POTLATCH_POLICY, 9, 8, 1166, "d7a86415c327"),
    ("potlatch", POTLATCH_POLICY, 19, 6, 1824, "c560bc64f2c4"),
    ("proteus(max_turns=200)", PROTEUS, 0, 56, 414, "4b8e639ee8f6"),
    ("proteus(max_turns=200)", PROTEUS, 9, 73, 1675, "02e4d6f79a3f"),
    ("proteus(max_turns=200)", PROTEUS, 13, 73, 2288, "647e7152c87e"),
]


def root_visits(name: str, spec: str, plies: int) -> tuple[int, np.ndarray]:
    game = load(name)
    agent = make_agent(spec, game, seed=11)
    assert isinstance(agent, AZAgent)
    action = agent.step(position(game, plies, seed=7))
    visits = np.zeros(game.num_distinct_actions, dtype=np.float32)
    assert agent.tree is not None
    agent.tree.visits_into(visits)
    return action, visits.astype(np.int32)


@pytest.mark.parametrize(("name", "spec", "plies", "action", "most", "digest"), CASES)
def test_seeded_az_searches_visit_as_before(
    name: str, spec: str, plies: int, action: int, most: int, digest: str
) -> None:
    played, visits = root_visits(name, spec, plies)
    assert (played, int(visits.max()), int(visits.sum())) == (action, most, 2999)
    assert hashlib.sha256(visits.tobytes()).hexdigest()[:12] == digest
