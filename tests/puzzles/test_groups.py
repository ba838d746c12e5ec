"""Answer groups: in a game of several actions a turn, the turns that share the deciding action
are one answer (``judge.verdict``), and the site's solving rule accepts any of them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import boardplay
from boardplay.core.game import State
from boardplay.core.records import Record
from boardplay.puzzles import SOLVED, WRONG, Puzzle, Solving, find, verify
from boardplay.puzzles.judge import Judge, Value, score, verdict
from boardplay.puzzles.turns import turn_choices


def values(*means: float) -> list[Value]:
    return [Value(m, m) for m in means]


def test_turns_that_share_the_deciding_action_are_one_answer() -> None:
    # Placing A on b1 wins whichever marker moves first; every other turn does not.
    moves = [("m1+1", "A:b1E"), ("A:b1E",), ("m1+1", "B:c2S"), ("B:c2S",), ("m1+1", "m2+1")]
    found = verdict(values(0.9, 0.95, 0.2, 0.1, 0.3), moves)
    assert found is not None
    assert (found.kind, found.group, found.decisive) == ("win", (1, 0), ("A:b1E",))
    assert found.value == 0.9 and found.runner_up == 0.3
    # One turn of the group is enough to spoil it when it sits between the classes.
    assert verdict(values(0.9, 0.95, 0.6, 0.1, 0.3), moves) is None


def test_two_different_winning_groups_are_no_puzzle() -> None:
    # A on b1 wins, and so does B on c2 after the same marker move: no action in common.
    moves = [("A:b1E",), ("m1+1", "B:c2S"), ("B:c2S",), ("m1+1", "m2+1"), ("m2+1", "m2+1")]
    assert verdict(values(0.9, 0.9, 0.2, 0.1, 0.0), moves) is None
    # Without the turns' actions a group of two cannot be told from two answers.
    assert verdict(values(0.9, 0.9, 0.2, 0.1, 0.0)) is None


def test_a_few_winning_turns_with_nothing_in_common_are_one_answer() -> None:
    # Two placements in different cells win among forty turns: any of them solves it, as any
    # mate solves lichess's mate-in-one; a guess hits one time in twenty.
    moves = [("A:b1E",), ("m1+1", "B:c2S")] + [(f"m{i}+1", "m2+1") for i in range(38)]
    found = verdict(values(0.9, 0.95, *[0.2] * 38), moves)
    assert found is not None
    assert (found.kind, found.group, found.decisive) == ("win", (1, 0), ())
    # One fewer turn to miss, and two winners are more than one in twenty: no puzzle.
    assert verdict(values(0.9, 0.95, *[0.2] * 37), moves[:-1]) is None


def test_a_group_leaves_turns_enough_to_miss() -> None:
    moves = [("A:b1E",), ("m1+1", "A:b1E"), ("m2+1", "A:b1E"), ("B:c2S",)]
    assert verdict(values(0.9, 0.9, 0.9, 0.1), moves) is None
    found = verdict(values(0.9, 0.9, 0.9, 0.1, 0.0), [*moves, ("m1+1", "m2+1")])
    assert found is not None and found.decisive == ("A:b1E",)


def test_a_save_group_holds_where_every_other_turn_loses() -> None:
    moves = [("m1+1", "A:b1E"), ("A:b1E",), ("B:c2S",), ("m1+1", "m2+1")]
    found = verdict(values(0.45, 0.5, 0.05, 0.0), moves)
    assert found is not None and (found.kind, found.group) == ("save", (1, 0))


@pytest.fixture(scope="module")
def passtally_turn() -> tuple[Puzzle, list[list[str]], list[str]]:
    """A Passtally position after setup, a puzzle (not judged: the solving rule is the point)
    whose answer group is one placement alone and after each marker move, and a turn outside."""
    game = boardplay.load("passtally")
    record = Record.begin(game)
    state = game.new_initial_state()
    while state.is_chance_node() or state.to_json().get("setup"):
        record.play(state, state.legal_actions()[0])
    choices = turn_choices(state, limit=100_000)
    placement = choices[0].moves[0]
    group = [list(c.moves) for c in choices if c.moves[-1] == placement]
    outside = next(list(c.moves) for c in choices if placement not in c.moves)
    assert len(group) > 2
    puzzle = Puzzle(
        game="passtally",
        options=dict(game.options),
        position=state.to_json(),
        to_move=state.current_player(),
        kind="win",
        solution=group[0],
        line=[],
        themes=["win"],
        value=0.9,
        runner_up=0.3,
        choices=len(choices),
        iterations=1000,
        seed=1,
        answers=group,
    )
    return puzzle, group, outside


def action_ids(solving: Solving, turn: list[str]) -> list[int]:
    """A turn's actions, in notation, as the ids the solver plays from the puzzle's start."""
    walker = solving.start.clone()
    actions = []
    for move in turn:
        actions.append(walker.string_to_action(move))
        walker.apply_action(actions[-1])
    return actions


def test_the_solver_accepts_any_turn_of_the_winning_group(
    passtally_turn: tuple[Puzzle, list[list[str]], list[str]],
) -> None:
    puzzle, group, outside = passtally_turn
    solving = Solving(puzzle)
    for turn in group:
        _, steps = solving.replay(action_ids(solving, turn))
        assert steps[-1].verdict == SOLVED, turn
    action = solving.start.string_to_action(outside[0])
    _, steps = solving.replay([action])
    if len(outside) == 1:
        assert steps[-1].verdict == WRONG
    else:  # a marker move keeps the group within reach; the second action misses it
        walker = solving.start.clone()
        walker.apply_action(action)
        second = walker.string_to_action(outside[1])
        _, steps = solving.replay([action, second])
        assert [s.verdict for s in steps][-1] == WRONG


def test_the_line_answers_only_the_solution_itself(
    passtally_turn: tuple[Puzzle, list[list[str]], list[str]],
) -> None:
    # The line was searched after the solution; after another turn of the group it is no reply.
    puzzle, group, _ = passtally_turn
    walker = puzzle.load()[1]
    for move in puzzle.solution:
        walker.apply_move(move)
    line = []
    while walker.is_chance_node() or walker.current_player() != puzzle.to_move:
        action = walker.legal_actions()[0]
        line.append(walker.action_to_string(action))
        walker.apply_action(action)
    solving = Solving(dataclasses.replace(puzzle, line=line))

    def replies(turn: list[str]) -> list[tuple[int, int]]:
        _, steps = solving.replay(action_ids(solving, turn))
        assert steps[-1].verdict == SOLVED
        return steps[-1].replies

    assert len(replies(group[0])) == len(line) > 0
    assert replies(group[1]) == []


def test_the_group_round_trips_through_the_file(
    passtally_turn: tuple[Puzzle, list[list[str]], list[str]],
) -> None:
    puzzle, group, _ = passtally_turn
    data = puzzle.to_json()
    assert data["answers"] == group
    assert Puzzle.from_json(data).answer_turns() == group


MONTANA_GROUP = Path(__file__).parent / "positions" / "montana_group.json"
"""A Montana position from self-play (puzzle montana-7d58e8a0b944, mined at this seed): the
mover wins by building on 0,3 and trading cattle for the good p, then building on -2,4, or on
1,2 and 2,1: two turns, one answer; every other of the 41 turns falls short."""


def test_a_montana_position_whose_answer_is_a_group() -> None:
    data = json.loads(MONTANA_GROUP.read_text(encoding="utf-8"))
    game = boardplay.load("montana", **data["options"])
    puzzle = find(game, game.state_from_json(data["position"]), 1000, data["seed"], {})
    assert puzzle is not None and puzzle.kind == "win"
    turns = puzzle.answer_turns()
    assert len(turns) == 2 and puzzle.solution == turns[0]
    shared = set(turns[0]).intersection(turns[1])
    assert shared == {"build:0,3", "trade:cattle>good:p"}
    check = verify(puzzle)
    assert check["ok"], check


class Counting(Judge):
    """A judge that values every position at a fixed number and counts its searches."""

    def __init__(self, worth: float) -> None:
        super().__init__(boardplay.load("passtally"), 10, 1)
        self.worth, self.searched = worth, 0

    def value(self, state: State, seat: int) -> Value:
        self.searched += 1
        return Value(self.worth, self.worth)


def test_a_losing_first_action_values_its_turns_by_one_search(
    passtally_turn: tuple[Puzzle, list[list[str]], list[str]],
) -> None:
    puzzle, _, _ = passtally_turn
    _, state = puzzle.load()
    choices = turn_choices(state, limit=100_000)
    firsts = {c.actions[0] for c in choices if len(c.actions) > 1}
    alone = sum(1 for c in choices if len(c.actions) == 1)
    losing = Counting(0.0)
    assert score(losing, choices, 0, start=state) == [Value(0.0, 0.0)] * len(choices)
    assert losing.searched <= alone + len(firsts) < len(choices) // 4
    # A first action that may matter has every completion searched.
    even = Counting(0.5)
    score(even, choices, 0, start=state)
    assert even.searched == len(choices) + len(firsts)
