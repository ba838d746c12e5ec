"""An opening's own cutoff (``mcts(opening_cutoff=N)``): a search rooted in the game's opening
(``Heuristics.opening``, Proteus's placement) cuts its rollouts off after ``N`` actions instead
of ``cutoff``, in the compiled search and in the Python reference alike."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import boardplay
from boardplay.ai import MCTSAgent, make_agent
from boardplay.ai.evaluation.proteus import in_placement
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.core.errors import OptionError
from boardplay.core.game import State
from boardplay.core.heuristics import Evaluation


def _positions(seed: int = 3) -> tuple[State, State]:
    """A Proteus position in the middle of placement and one in the movement phase, both with
    a choice of actions, from one random game."""
    game = boardplay.load("proteus")
    rng = random.Random(seed)
    state = game.new_initial_state()
    placing: State | None = None
    while True:
        assert not state.is_terminal(), "the random game ended before the movement phase"
        legal = state.legal_actions()
        if len(legal) > 1 and len(state.history()) == 6:
            placing = state.clone()
        if placing is not None and not in_placement(state) and len(legal) > 1:
            return placing, state.clone()
        state.apply_action(rng.choice(legal))


def test_the_placement_is_proteus_s_opening() -> None:
    placing, moving = _positions()
    assert in_placement(placing)
    assert not in_placement(moving)


@pytest.mark.parametrize("kind", [MCTSAgent, ReferenceMCTSAgent])
def test_the_cutoff_follows_the_root(kind: type[ReferenceMCTSAgent]) -> None:
    placing, moving = _positions()
    agent = kind(placing.game, iterations=50, cutoff=8, opening_cutoff=16, seed=1)
    assert agent.cutoff_at(placing) == 16
    assert agent.cutoff_at(moving) == 8
    plain = kind(placing.game, iterations=50, cutoff=8, seed=1)
    assert plain.cutoff_at(placing) == plain.cutoff_at(moving) == 8


def test_the_compiled_search_runs_with_the_root_s_cutoff() -> None:
    placing, moving = _positions()
    agent = MCTSAgent(placing.game, iterations=200, cutoff=8, opening_cutoff=None, seed=2)
    assert agent.compiled
    agent.step(placing)
    assert agent.tree is not None and agent.tree.cutoff == -1  # to the end
    agent.reset()
    agent.step(moving)
    assert agent.tree is not None and agent.tree.cutoff == 8


def test_rollouts_from_the_opening_are_evaluated_only_after_it() -> None:
    """With an opening cutoff longer than the placements left, no leaf of a search rooted in
    the placement is evaluated there; with the short cutoff alone most of them are."""
    placing, _ = _positions()
    seen: dict[str, list[bool]] = {}
    for label, opening_cutoff in (("opening", 16), ("plain", "cutoff")):
        agent = ReferenceMCTSAgent(
            placing.game, iterations=120, cutoff=0, opening_cutoff=opening_cutoff, seed=5
        )
        evaluate = agent.heuristics.evaluate
        flags = seen.setdefault(label, [])

        def recording(
            state: State, flags: list[bool] = flags, evaluate: Evaluation = evaluate
        ) -> list[float]:
            flags.append(in_placement(state))
            return evaluate(state)

        agent.heuristics = replace(agent.heuristics, evaluate=recording)
        agent.step(placing.clone())
    assert seen["opening"] and not any(seen["opening"])
    assert sum(seen["plain"]) > len(seen["plain"]) / 2


def test_an_opening_cutoff_needs_a_game_with_an_opening() -> None:
    make_agent("mcts(iterations=10,opening_cutoff=none)", boardplay.load("proteus"))
    with pytest.raises(OptionError, match="opening"):
        make_agent("mcts(iterations=10,opening_cutoff=4)", boardplay.load("potlatch"))
    with pytest.raises(OptionError, match="0 or more"):
        make_agent("mcts(iterations=10,opening_cutoff=-2)", boardplay.load("proteus"))
