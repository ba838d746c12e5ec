"""The puzzle test, verification and the puzzle file, on positions whose answer a reader can
check by hand (boardplay.puzzles)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import boardplay
from boardplay.core.records import Record
from boardplay.puzzles import Puzzle, PuzzleError, find, read_puzzles, verify, write_puzzles
from boardplay.puzzles.judge import Value, verdict
from boardplay.puzzles.mine import candidates, mine
from boardplay.puzzles.turns import TooManyChoices, at_turn_start, turn_choices

# Proteus under Kadon's rules (no forcing in movement), KING and 3-IN-LINE in force, no TRADE
# tile face up. Black (X) holds a1 and a2; its triangle on b3 steps to a3 and fills column a.
# White (O) holds c1 and c2 and its circle on b2 steps to c3 next turn, so every other Black
# move loses or at best blocks (b3-c3, which only holds the game).
#      a      b      c
#  3   Rt     BsXt   Yt
#  2   RsXs   BcOc   YsOt
#  1   Rc*Xc  Yc*    BtOs
PROTEUS_ONE_WIN = {
    "board": {
        "a1": "Rc*Xc",
        "a2": "RsXs",
        "a3": "Rt",
        "b1": "Yc*",
        "b2": "BcOc",
        "b3": "BsXt",
        "c1": "BtOs",
        "c2": "YsOt",
        "c3": "Yt",
    },
    "to_move": 0,
}

# The same rules; Black holds a1, b2 and b3 and wins two ways: a1-b1 fills column b, b3-c3 the
# diagonal a1-b2-c3. Not a puzzle.
PROTEUS_TWO_WINS = {
    "board": {
        "a1": "Rc*Xc",
        "a2": "RsOc",
        "a3": "RtOs",
        "b1": "Yc*",
        "b2": "BcXs",
        "b3": "BsXt",
        "c1": "Bt",
        "c2": "YtOt",
        "c3": "Ys",
    },
    "to_move": 0,
}

# Potlatch Klone, Red to move with stacks on 0,0 (under Red's pawn) and 0,2. The 2-high 1,0
# becomes Red's third stack only if a run *ends* there (a Chip Move after it would take the red
# chip off): P-NE onto 1,-1, then P-SE onto 1,0. Blue, on 0,1, cannot break a red stack in reply:
# 1,0 holds Red's pawn, and on 0,0 every neighbour is 3 high or blank with an empty stock, so
# no Chip Move can leave it. Red starts its next turn with three stacks.
POTLATCH_THIRD_STACK = {
    "tiles": {
        "-1,0": "NNB",
        "0,0": "NNR",
        "1,0": "NN",
        "-1,1": "NNN",
        "0,1": "NNN",
        "1,1": "NNB",
        "2,-1": "NNN",
        "0,2": "NNR",
        "1,-1": "NNN",
    },
    "stock": 0,
    "pawns": ["0,0", "0,1"],
    "to_move": 0,
    "actions": 2,
}

ITERATIONS = 1000


def proteus_puzzle(position: dict[str, Any]) -> Puzzle | None:
    game = boardplay.load("proteus", rules="kadon")
    return find(game, game.state_from_json(position), ITERATIONS, 1, {"kind": "test"})


def test_proteus_the_one_winning_move_is_the_puzzle() -> None:
    puzzle = proteus_puzzle(PROTEUS_ONE_WIN)
    assert puzzle is not None
    assert (puzzle.kind, puzzle.solution, puzzle.to_move) == ("win", ["b3-a3"], 0)
    # The triangle lands on the red triangle: the MOVE rule changes as the line is made.
    assert puzzle.themes == ["win", "rule_change", "goal_reached"]
    assert puzzle.value == 1.0 and puzzle.runner_up <= 0.5
    assert puzzle.choices == 5


def test_a_position_with_two_winning_moves_is_no_puzzle() -> None:
    assert proteus_puzzle(PROTEUS_TWO_WINS) is None


def test_potlatch_the_one_turn_that_makes_the_third_stack() -> None:
    game = boardplay.load("potlatch")
    state = game.state_from_json(POTLATCH_THIRD_STACK)
    puzzle = find(game, state, ITERATIONS, 1, {"kind": "test"})
    assert puzzle is not None
    assert puzzle.kind == "win"
    assert puzzle.solution == ["P-NE", "P-SE"]
    assert "third_stack" in puzzle.themes
    assert puzzle.choices == 11  # every distinct pair of actions Red can take


def test_verify_confirms_with_a_deeper_search_and_another_seed() -> None:
    puzzle = proteus_puzzle(PROTEUS_ONE_WIN)
    assert puzzle is not None
    check = verify(puzzle)
    assert check["ok"], check
    assert check["iterations"] == 4 * ITERATIONS and check["seed"] != puzzle.seed


@pytest.mark.parametrize(
    ("solution", "reason"),
    [
        (["b3-c3"], "the deeper search's answer is b3-a3"),
        (["a3-b3"], "is not legal"),
        (["b3-a3", "c2-c3"], "after the mover's turn has passed"),
    ],
)
def test_verify_rejects_a_tampered_solution(solution: list[str], reason: str) -> None:
    puzzle = proteus_puzzle(PROTEUS_ONE_WIN)
    assert puzzle is not None
    check = verify(replace(puzzle, solution=solution))
    assert not check["ok"]
    assert reason in check["reason"]


def test_verdict_thresholds() -> None:
    def values(*means: float) -> list[Value]:
        return [Value(m, m) for m in means]

    assert verdict(values(0.9, 0.5, 0.1)) is not None  # a win: the others at most even
    assert verdict(values(0.9, 0.55, 0.1)) is None  # another turn still wins more often
    saved = verdict(values(0.1, 0.5, 0.05))
    assert saved is not None and (saved.index, saved.kind) == (1, "save")
    assert verdict(values(0.6, 0.2, 0.0)) is None  # the others do not all lose
    assert verdict(values(1.0, 0.0)) is None  # two turns: a guess solves it
    # Chance: the answer must win whatever comes up; its mean alone is not enough.
    lucky = [Value(0.95, 0.6), Value(0.3, 0.3), Value(0.0, 0.0)]
    assert verdict(lucky) is None
    held = verdict([Value(0.95, 0.6), Value(0.1, 0.1), Value(0.0, 0.0)])
    assert held is not None and held.kind == "save"  # it wins on average but only holds for sure


def test_turns_stop_at_a_chance_node_and_merge_transpositions() -> None:
    game = boardplay.load("passtally")
    record = Record.begin(game)
    state = game.new_initial_state()
    while state.is_chance_node() or state.to_json().get("setup"):
        record.play(state, state.legal_actions()[0])
    choices = turn_choices(state, limit=100_000)
    keys = {choice.key for choice in choices}
    assert len(keys) == len(choices)
    placements = [c for c in choices if len(c.actions) == 1]
    assert placements and all(c.after.is_chance_node() for c in placements)
    assert all(len(c.actions) == 2 for c in choices if not c.after.is_chance_node())
    with pytest.raises(TooManyChoices):
        turn_choices(state, limit=50)


def test_turn_starts_in_a_record() -> None:
    game = boardplay.load("potlatch")
    state = game.new_initial_state()
    assert at_turn_start(state, None)
    moved = state.clone()
    moved.apply_move("P-E")
    assert not at_turn_start(moved, state)  # Red's second action
    record = Record.begin(game)
    for _ in range(6):
        record.play(state, state.legal_actions()[0])
    assert [c.source["ply"] for c in candidates(record, {})] == [6, 4, 2, 0]  # latest first


def test_puzzle_file_round_trip_and_errors(tmp_path: Path) -> None:
    puzzle = proteus_puzzle(PROTEUS_ONE_WIN)
    assert puzzle is not None
    path = tmp_path / "p.jsonl"
    assert write_puzzles(path, [puzzle, puzzle], append=False) == 2
    again = list(read_puzzles(path))
    assert [p.to_json() for p in again] == [puzzle.to_json()] * 2
    assert again[0].id.startswith("proteus-")
    path.write_text(json.dumps({"format": "other"}) + "\n", encoding="utf-8")
    with pytest.raises(PuzzleError, match="line 1"):
        list(read_puzzles(path))
    broken = {**puzzle.to_json(), "to_move": 1}
    with pytest.raises(PuzzleError, match="seat 0 is to move"):
        Puzzle.from_json(broken).load()


def test_mining_self_play_is_reproducible() -> None:
    game = boardplay.load("proteus")

    def run() -> list[str]:
        from boardplay.puzzles import selfplay

        games = ((r, f"selfplay/{i}") for i, r in enumerate(selfplay(game, "medium", 5)))
        tally = mine(game, games, 300, 5, count=2)
        assert tally.verified == 2 and tally.positions >= 2
        return [p.id for p in tally.puzzles]

    assert run() == run()
