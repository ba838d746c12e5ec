"""Repetition-aware search (``mcts(repetition=true)``): a line that comes back to a position
already met, in the game or earlier on the line, is scored as a draw with the searching seat's
contempt, in the compiled search and in the Python reference alike; the positions' identity is
the kernel's repetition key."""

from __future__ import annotations

import random

import pytest

import boardplay
from boardplay.ai import MCTSAgent
from boardplay.ai.evaluation import heuristics_for
from boardplay.ai.evaluation.proteus_leaf import ProteusEvaluation
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.repetition import PositionHistory, has_position_keys, position_key
from boardplay.ai.search import Search
from boardplay.core.errors import OptionError
from boardplay.core.game import State

CONTEMPT = 0.125
"""A contempt no evaluation value or result takes by chance: a repeated line is worth exactly
0.5 - CONTEMPT to the searching seat."""


def _returns(count: int, seed: int = 3) -> list[tuple[State, int]]:
    """Movement-phase Proteus positions ``after`` reached by one action from a position
    ``before`` of the same game, each with an action of ``after``'s mover that recreates
    ``before`` (a trade undone, a piece moved back), from random games."""
    game = boardplay.load("proteus")
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    state = game.new_initial_state()
    while len(found) < count:
        if state.is_terminal() or len(state.history()) > 120:
            state = game.new_initial_state()
            continue
        before = position_key(state)
        state.apply_action(rng.choice(state.legal_actions()))
        if before == 0 or state.is_terminal():
            continue
        for action in state.legal_actions():
            probe = state.clone()
            probe.apply_action(action)
            if not probe.is_terminal() and position_key(probe) == before:
                found.append((state.clone(), action))
                break
    return found


def test_proteus_keys_identify_movement_positions_and_skip_placement() -> None:
    game = boardplay.load("proteus", max_turns=300)
    state = game.new_initial_state()
    assert state.kernel is not None and state.kernel.has_position_key
    assert position_key(state) == 0  # placement positions cannot recur
    after, back = _returns(1)[0]
    assert position_key(after) != 0
    again = after.clone()
    again.apply_action(back)
    assert again.kernel is not None and after.kernel is not None
    assert again.turns == after.turns + 1  # counters differ, the key does not
    assert position_key(again) != position_key(after)
    twice = again.clone()
    twice.apply_action(after.history()[-1])
    assert position_key(twice) == position_key(after)
    assert not has_position_keys(boardplay.load("potlatch"))
    assert has_position_keys(boardplay.load("proteus(rules=kadon)"))


def _root_values(search: Search) -> dict[int, float]:
    return {action: search.node_value(node) for action, node, _ in search.children(search.root)}


def test_compiled_search_scores_a_return_to_a_game_position_as_a_draw() -> None:
    """One simulation per root move: the move that recreates the position before the last
    move is worth exactly a draw less contempt with ``repetition`` (the history comes from
    ``set_history``); without it, the evaluation's guess."""
    evaluation = ProteusEvaluation(2)
    unchanged = 0
    for state, back in _returns(6):
        assert state.kernel is not None
        legal = state.legal_actions()
        met = PositionHistory().keys(state)
        values = {}
        for repetition in (True, False):
            search = Search(
                state.kernel,
                evaluation,
                cutoff=0,
                contempt=CONTEMPT,
                repetition=repetition,
                seed=2,
            )
            search.set_history(met)
            search.seat = state.current_player()
            search.run(len(legal), 0.0, False)
            values[repetition] = _root_values(search)
            assert set(values[repetition]) == set(legal)
        assert values[True][back] == pytest.approx(0.5 - CONTEMPT, abs=1e-12)
        assert values[False][back] != pytest.approx(0.5 - CONTEMPT, abs=1e-12)
        unchanged += sum(values[True][a] == values[False][a] for a in legal if a != back)
        assert unchanged > 0  # the other moves keep their values
    without_history = Search(
        state.kernel, evaluation, cutoff=0, contempt=CONTEMPT, repetition=True, seed=2
    )
    without_history.seat = state.current_player()
    without_history.run(len(legal), 0.0, False)
    assert _root_values(without_history)[back] != pytest.approx(0.5 - CONTEMPT, abs=1e-12)


def test_compiled_search_scores_a_cycle_on_its_own_path_as_a_draw() -> None:
    """Without any game history, the reply that undoes the searching seat's move returns to
    the root: that node is a draw for the opponent (0.5, no contempt), every time, and is
    never expanded; without ``repetition`` it is searched below like any other."""
    evaluation = ProteusEvaluation(2)
    state, back = _returns(1, seed=11)[0]
    assert state.kernel is not None
    undo = state.history()[-1]  # state's mover undoes ``back`` with the same action
    trees = {}
    for repetition in (True, False):
        search = Search(state.kernel, evaluation, cutoff=0, repetition=repetition, seed=4)
        search.seat = state.current_player()
        search.run(20000, 0.0, False)
        child = next(node for action, node, _ in search.children(search.root) if action == back)
        trees[repetition] = (search, child)
    search, child = trees[True]
    cycle = [(node, visits) for action, node, visits in search.children(child) if action == undo]
    assert cycle, "the undo should be legal after the searching seat's move back"
    node, visits = cycle[0]
    assert visits > 1
    assert search.node_value(node) == pytest.approx(0.5, abs=1e-12)
    assert search.children(node) == []
    plain, plain_child = trees[False]
    below = [n for a, n, v in plain.children(plain_child) if a == undo]
    assert below and plain.children(below[0]) != []


def test_reference_search_scores_repetitions_the_same_way() -> None:
    """The Python reference follows the game from the state's history (``PositionHistory``)
    and backs up the same draw."""
    for state, back in _returns(3):
        seat = state.current_player()
        values = {}
        for repetition in (True, False):
            agent = ReferenceMCTSAgent(
                state.game, cutoff=0, contempt=CONTEMPT, repetition=repetition, seed=2
            )
            root = agent.search(state, len(state.legal_actions()))
            values[repetition] = {a: child.mean(seat) for a, child in root.children.items()}
        assert values[True][back] == pytest.approx(0.5 - CONTEMPT, abs=1e-12)
        assert values[False][back] != pytest.approx(0.5 - CONTEMPT, abs=1e-12)


def test_the_agent_feeds_the_game_history_to_the_compiled_search() -> None:
    for state, back in _returns(3, seed=5):
        agent = MCTSAgent(
            state.game,
            iterations=len(state.legal_actions()),
            cutoff=0,
            contempt=CONTEMPT,
            repetition=True,
            early_stop=False,
            seed=1,
        )
        assert agent.compiled
        agent.step(state)
        assert agent.tree is not None
        assert _root_values(agent.tree)[back] == pytest.approx(0.5 - CONTEMPT, abs=1e-12)


def test_position_history_follows_a_game_and_a_loaded_position() -> None:
    state, back = _returns(1, seed=7)[0]
    history = PositionHistory()
    first = history.keys(state)
    assert position_key(state) in first
    walker = state.game.new_initial_state()
    replayed = {position_key(walker)}
    for action in state.history():
        walker.apply_action(action)
        replayed.add(position_key(walker))
    assert first == frozenset(replayed - {0})
    later = state.clone()
    later.apply_action(back)
    assert history.keys(later) == first | {position_key(later)}
    loaded = state.game.state_from_json(later.to_json())
    assert PositionHistory().keys(loaded) == frozenset({position_key(loaded)})


def test_repetition_is_a_spec_parameter_for_games_with_keys() -> None:
    game = boardplay.load("proteus")
    default = heuristics_for(game).repetition
    assert boardplay.ai.make_agent("mcts", game, 1).repetition is default  # type: ignore[attr-defined]
    for raw, value in (("true", True), ("false", False)):
        agent = boardplay.ai.make_agent(f"mcts(repetition={raw})", game, 1)
        assert isinstance(agent, MCTSAgent) and agent.repetition is value
    with pytest.raises(OptionError, match="'repetition' must be true or false"):
        boardplay.ai.make_agent("mcts(repetition=often)", game, 1)
    with pytest.raises(OptionError, match="potlatch has none"):
        boardplay.ai.make_agent("mcts(repetition=true)", boardplay.load("potlatch"), 1)
