"""Bad input: illegal actions (clear message, state unchanged), bad position JSON (PositionError
naming the field), bad notation."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from proteus_helpers import load

import boardplay
from boardplay.core.errors import IllegalActionError, PositionError
from boardplay.games.proteus.state import ProteusState

P0 = {
    "a1": "Rc*Xc",
    "a2": "BsOt",
    "a3": "Rs",
    "b1": "Bc*Oc",
    "b2": "RtXs",
    "b3": "YcOs",
    "c1": "Yt*Xt",
    "c2": "Ys",
    "c3": "Bt",
}


def snapshot(state: ProteusState) -> tuple[Any, ...]:
    return (
        state.to_json(),
        state.turns,
        state.history(),
        state.legal_actions(),
        state.outcome,
        state.current_player(),
    )


PLACEMENT_CASES = [
    ("Rc@b3", "tile Rc is already on the board at a1"),
    ("Rs@b2", "b2 already holds tile Bs"),
    ("s@c3", "c3 has no tile"),
    ("c@b2", "already holds a piece"),
    ("a1-a2", "only in the movement phase"),
    ("a1~b2", "only in the movement phase"),
    ("pass", "a pass is allowed only when no other action is legal"),
]


@pytest.mark.parametrize(("move", "message"), PLACEMENT_CASES)
def test_illegal_placement_actions_explain_and_change_nothing(move: str, message: str) -> None:
    state = load({"a1": "Rc", "b2": "BsXc"}, to_move=1)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=message):
        state.apply_move(move)
    assert snapshot(state) == before


def test_a_piece_already_on_the_board_cannot_be_placed_again() -> None:
    state = load({"a1": "Rc", "b2": "BsXc", "c3": "Yt"}, to_move=0)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="Black's circle is already on the board at b2"):
        state.apply_action(boardplay.games.proteus.tables.piece_placement(0, 0))
    assert snapshot(state) == before


MOVEMENT_CASES = [
    ("Rc@b3", "tiles are placed only in the placement phase"),
    ("s@a3", "pieces are placed only in the placement phase"),
    ("a2-a3", "no Black piece on a2"),
    ("b2-a2", "a2 is occupied"),
    ("a1-c3", "KING does not go from a1 to c3"),
    ("a1~c2", "POLARITY does not allow swapping Rc at a1 with Ys at c2"),
    ("pass", "a pass is allowed only"),
]


@pytest.mark.parametrize(("move", "message"), MOVEMENT_CASES)
def test_illegal_movement_actions_explain_and_change_nothing(move: str, message: str) -> None:
    state = load(P0)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=message):
        state.apply_move(move)
    assert snapshot(state) == before


def test_no_move_or_trade_without_an_active_tile() -> None:
    board = dict(P0, a1="RcXc", b1="BcOc")
    state = load(board)
    with pytest.raises(IllegalActionError, match="no MOVE tile is active"):
        state.apply_move("b2-a3")
    with pytest.raises(IllegalActionError, match="no TRADE tile is active"):
        state.apply_move("a1~a2")


def test_forcing_rejection_names_the_missing_colours() -> None:
    board = dict(P0, b1="BcOc", a2="BtOt", c3="Bs")
    state = load(board)  # blue missing: only Xs onto the vacant Bs activates it
    assert state.legal_moves() == ["b2-c3"]
    with pytest.raises(IllegalActionError, match="missing: blue"):
        state.apply_move("c1-c2")


def test_bad_ids_and_finished_games() -> None:
    state = load(P0)
    before = snapshot(state)
    for bad in (-1, 217, 10_000):
        with pytest.raises(IllegalActionError, match="outside"):
            state.apply_action(bad)
    assert snapshot(state) == before
    with pytest.raises(IndexError):
        state.action_to_string(217)
    state = load(P0, max_turns=1)
    state.apply_move("b2-a3")
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_move("a3-b2")


@pytest.mark.parametrize("text", ["", "Rc@d4", "x@a1", "a1~a1", "a1-", "PASS", "Rc b2", "a1 ~ c3"])
def test_unparseable_notation_is_rejected(text: str) -> None:
    state = load(P0)
    with pytest.raises(IllegalActionError):
        state.string_to_action(text)


def test_notation_error_message_shows_the_forms() -> None:
    with pytest.raises(IllegalActionError, match=r"Rc@b2.*s@b2.*b2-c3.*a1~c3.*pass"):
        load(P0).string_to_action("hello")


def test_bare_ids_are_accepted() -> None:
    state = load(P0)
    action = state.legal_actions()[0]
    assert state.string_to_action(str(action)) == action


BAD_POSITIONS: list[tuple[Any, str]] = [
    ([], r"^position: expected an object, got \[\]"),
    ({"to_move": 0}, "^board: is missing"),
    ({"board": {}}, "^to_move: is missing"),
    ({"board": [], "to_move": 0}, "^board: expected an object"),
    ({"board": {}, "to_move": 2}, r"^to_move: expected 0 \(Black\) or 1 \(White\)"),
    ({"board": {}, "to_move": True}, r"^to_move: expected 0 \(Black\) or 1 \(White\)"),
    ({"board": {}, "to_move": "0"}, r"^to_move: expected 0 \(Black\) or 1 \(White\)"),
    ({"board": {}, "to_move": 0, "passes": 2}, "^passes: expected one of 0, 1, got 2"),
    ({"board": {}, "to_move": 0, "turn": 3}, "^turn: unknown field"),
    ({"board": {"d1": "Rc"}, "to_move": 0}, r"^board\.d1: is not a cell"),
    ({"board": {"a1": "Rx"}, "to_move": 0}, r"^board\.a1: expected a tile id"),
    ({"board": {"a1": "Rc**"}, "to_move": 0}, r"^board\.a1: expected a tile id"),
    ({"board": {"a1": "RcXq"}, "to_move": 0}, r"^board\.a1: expected a tile id"),
    ({"board": {"a1": "Xc"}, "to_move": 0}, r"^board\.a1: expected a tile id"),
    ({"board": {"a1": 5}, "to_move": 0}, r"^board\.a1: expected a tile id"),
    ({"board": {"a1": "Rc\n"}, "to_move": 0}, r"^board\.a1: expected a tile id"),
    ({"board": {"a1": "Rc", "b1": "Rc"}, "to_move": 0}, "tile Rc is also at a1"),
    ({"board": {"a1": "RcXc", "b1": "RsXc"}, "to_move": 0}, "piece Xc is also at a1"),
    ({"board": {"a1": "Rc*", "b1": "Rs*"}, "to_move": 0}, "red already has an active tile"),
]


@pytest.mark.parametrize(("data", "message"), BAD_POSITIONS)
@pytest.mark.parametrize("rules", ["seed", "kadon"])
def test_bad_position_json_is_rejected_naming_the_field(
    data: Any, message: str, rules: str
) -> None:
    game = boardplay.load("proteus", rules=rules)
    original = copy.deepcopy(data)
    with pytest.raises(PositionError, match=message):
        game.state_from_json(data)
    assert data == original  # the input is not modified


def test_kadon_rejects_infeasible_placement_positions_only() -> None:
    # Red missing but both red tiles left are covered by non-matching pieces and Rc is gone.
    board = {"a1": "RcXs", "a2": "RsXt", "a3": "RtXc", "b1": "Bs*Os"}
    with pytest.raises(PositionError, match="infeasible"):
        boardplay.load("proteus", rules="kadon").state_from_json({"board": board, "to_move": 1})
    state = boardplay.load("proteus").state_from_json({"board": board, "to_move": 1})
    assert state.to_json()["board"] == board
