"""One test per rule of the Proteus spec (§3-§8), beyond the scenarios of §13."""

from __future__ import annotations

import pytest
from proteus_helpers import TARGETS, active_tiles, load

import boardplay
from boardplay.core.errors import PositionError
from boardplay.games.proteus.kernel import feasible
from boardplay.games.proteus.state import ProteusState
from boardplay.games.proteus.tables import CELLS, MOVE_TARGETS, TILES

BOTH = ["seed", "kadon"]

# A full movement position, every colour active: BISHOP/KNIGHT (a3), COLOR trade (b1),
# 3-IN-LINE (c1); nobody holds a line.
COLOR_TRADE_BOARD = {
    "a1": "RcXs",
    "a2": "RsOc",
    "a3": "Rt*",
    "b1": "Bs*Xt",
    "b2": "Bc",
    "b3": "BtOs",
    "c1": "Yc*Ot",
    "c2": "Ys",
    "c3": "YtXc",
}


def new(**options: object) -> ProteusState:
    state = boardplay.load("proteus", **options).new_initial_state()
    assert isinstance(state, ProteusState)
    return state


# ----- §3 setup -------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", BOTH)
def test_setup_is_empty_board_black_to_move(rules: str) -> None:
    state = new(rules=rules)
    assert state.to_json() == {"board": {}, "to_move": 0}
    assert state.unplaced == 15 and state.in_placement
    assert state.current_player() == 0 and state.turns == 0 and state.passes == 0
    assert [state.active_tile(c) for c in range(3)] == [-1, -1, -1]
    assert state.returns() == [0.0, 0.0]


# ----- §4 placement phase ---------------------------------------------------------------------
@pytest.mark.parametrize("rules", BOTH)
def test_tile_placement_goes_face_down_on_an_empty_cell(rules: str) -> None:
    state = new(rules=rules)
    state.apply_move("Rc@b2")
    assert state.to_json() == {"board": {"b2": "Rc"}, "to_move": 1}
    assert "Rs@b2" not in state.legal_moves()  # b2 now holds a tile
    assert "Rc@a1" not in state.legal_moves()  # Rc is no longer in the pool
    assert state.legal_moves().count("c@b2") == 1  # the piece placement is now possible


@pytest.mark.parametrize("rules", BOTH)
def test_matching_placement_activates_a_missing_colour(rules: str) -> None:
    state = load({"a1": "Yt", "b1": "Rs"}, rules=rules)
    state.apply_move("t@a1")
    assert state.to_json()["board"]["a1"] == "Yt*Xt"
    assert active_tiles(state) == {"Y": "Yt"}


@pytest.mark.parametrize("rules", BOTH)
def test_non_matching_placement_activates_nothing(rules: str) -> None:
    state = load({"a1": "Yt", "b1": "Rs"}, rules=rules)
    state.apply_move("c@a1")
    assert state.to_json()["board"]["a1"] == "YtXc"
    assert active_tiles(state) == {}


def test_seed_no_flip_placement_on_an_active_colour() -> None:
    state = load({"a1": "Rc*Xc", "b1": "Rs"}, to_move=1, rules="seed")
    state.apply_move("s@b1")
    assert state.to_json()["board"] == {"a1": "Rc*Xc", "b1": "RsOs"}


def test_kadon_forbids_a_match_on_an_active_colour() -> None:
    state = load({"a1": "Rc*Xc", "b1": "Rs"}, to_move=1, rules="kadon")
    assert "s@b1" not in state.legal_moves()
    with pytest.raises(boardplay.IllegalActionError, match="red already has an active tile"):
        state.apply_move("s@b1")


def test_seed_forcing_window_opens_at_six_unplaced() -> None:
    # Red missing; Black holds the circle, White all three pieces; five tiles in the pool.
    state = load({"a1": "Rc", "a2": "Bs*Xs", "a3": "YtXt", "b1": "Yc*"}, rules="seed")
    assert state.unplaced == 9
    assert len(state.legal_moves()) == 5 * 5 + 2  # tile placements + c@a1, c@b1
    state.apply_move("Rs@b2")
    state.apply_move("Rt@b3")
    assert state.unplaced == 7  # window not open yet: tile placements still legal
    assert "Bc@c1" in state.legal_moves() and "c@a1" in state.legal_moves()
    state.apply_move("Bc@c1")
    assert state.unplaced == 6 and state.to_move == 1
    # White's activating actions: a piece of matching shape on a vacant red tile.
    assert sorted(state.legal_moves()) == ["c@a1", "s@b2", "t@b3"]
    with pytest.raises(boardplay.IllegalActionError, match="forcing rule"):
        state.apply_move("Ys@c2")


def test_seed_forcing_needs_an_activating_action_to_bind() -> None:
    # U = 5, red missing, but Black's last piece (a circle) cannot reach a red circle tile.
    board = {"a1": "RcOt", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "RtXs", "c1": "Bc"}
    state = load(board, rules="seed")
    assert state.unplaced == 5
    moves = state.legal_moves()
    assert len(moves) == 3 * 3 + 2  # Bt/Yc/Ys on b3, c2, c3 plus c@b1 and the no-flip c@c1
    assert {"Bt@c3", "c@b1", "c@c1"} <= set(moves)


def test_seed_forcing_does_not_apply_when_all_colours_are_active() -> None:
    board = {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "Bc", "b3": "Yc"}
    state = load(board, rules="seed")
    assert state.unplaced == 6
    moves = state.legal_moves()
    assert "s@b1" in moves and "Rt@c3" in moves  # a no-flip placement and a tile placement


def test_kadon_feasibility_rejects_a_placement_that_strands_a_colour() -> None:
    # Blue and yellow missing; only Bs and Ys remain matchable and the two squares must take them.
    state = load(
        {"a1": "Rc*Xc", "a2": "RsOt", "b1": "Bs", "b2": "BcXt", "c1": "Yt", "c2": "Ys"},
        to_move=1,
        rules="kadon",
    )
    moves = set(state.legal_moves())
    assert {"c@c1", "s@c1", "s@b1", "s@c2"} <= moves
    assert not {"c@b1", "c@c2"} & moves
    with pytest.raises(boardplay.IllegalActionError, match="exactly one tile of each colour"):
        state.apply_move("c@b1")


def test_feasibility_search_counts_colours_and_shapes() -> None:
    all_tiles = (1 << 9) - 1
    assert feasible((2, 2, 2), all_tiles, 0b111)
    assert feasible((0, 0, 0), 0, 0)
    assert not feasible((0, 0, 0), 0b111, 0b001)  # red missing, nothing left to place
    # Two circles, open tiles Rc and Bc only, red and blue missing: both can match.
    assert feasible((2, 0, 0), 0b1001, 0b011)
    # ... but if only red is missing, the second circle has no non-matching tile.
    assert not feasible((2, 0, 0), 0b1001, 0b001)


@pytest.mark.parametrize("rules", BOTH)
def test_placement_pass_only_with_empty_pool_and_hand(rules: str) -> None:
    board = {
        "a1": "Rc*Xc",
        "a2": "Bs*Os",
        "a3": "Yt*Xt",
        "b1": "Rs",
        "b2": "BcXs",
        "b3": "Yc",
        "c1": "Rt",
        "c2": "BtOc",
        "c3": "Ys",
    }
    state = load(board, to_move=0, rules=rules)
    assert state.legal_moves() == ["pass"]
    state.apply_move("pass")
    assert state.passes == 1 and state.to_move == 1
    assert "pass" not in state.legal_moves()
    state.apply_move("t@b3")
    assert state.passes == 0 and not state.in_placement and state.to_move == 0


@pytest.mark.parametrize("rules", BOTH)
def test_white_makes_the_first_movement_turn(rules: str) -> None:
    state = new(rules=rules)
    script = ["Rc@a1", "Bs@a2", "Yt@a3", "c@a1", "s@a2", "t@a3"]
    script += ["Rs@b1", "Bc@b2", "Yc@b3", "Rt@c1", "Bt@c2", "Ys@c3", "c@b1", "s@c1", "t@b2"]
    for move in script:
        assert state.in_placement
        state.apply_move(move)
    assert not state.in_placement and state.turns == 15
    assert state.to_move == 1 and not state.is_terminal()
    assert set(active_tiles(state).values()) == {"Rc", "Bs", "Yt"}


# ----- §5 movement phase ----------------------------------------------------------------------
@pytest.mark.parametrize("move_tile", ["Rc", "Rs", "Rt"])
def test_move_rule_geometry_matches_the_spec_table(move_tile: str) -> None:
    rule = TILES.index(move_tile)
    for cell, targets in TARGETS[move_tile].items():
        assert {CELLS[t] for t in MOVE_TARGETS[rule][CELLS.index(cell)]} == targets


@pytest.mark.parametrize("rules", BOTH)
def test_pieces_move_only_to_vacant_tiles_and_only_their_own(rules: str) -> None:
    state = load(COLOR_TRADE_BOARD, rules=rules)
    moves = [m for m in state.legal_moves() if "-" in m]
    # BISHOP/KNIGHT: Xs a1 -> b2, c2; Xt b1 -> a3, c2; Xc c3 -> b2. White's pieces stay put.
    assert sorted(moves) == ["a1-b2", "a1-c2", "b1-a3", "b1-c2", "c3-b2"]
    with pytest.raises(boardplay.IllegalActionError, match="no Black piece on a2"):
        state.apply_move("a2-b2")
    with pytest.raises(boardplay.IllegalActionError, match="occupied"):
        state.apply_move("a1-a2")


@pytest.mark.parametrize("rules", BOTH)
def test_trade_moves_tiles_and_keeps_pieces_and_flags(rules: str) -> None:
    p0 = {
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
    state = load(p0, rules=rules)
    state.apply_move("a1~a2")
    board = state.to_json()["board"]
    assert board["a1"] == "BsXc" and board["a2"] == "Rc*Ot"  # KING travelled with its tile
    assert set(active_tiles(state).values()) == {"Rc", "Bc", "Yt"}


@pytest.mark.parametrize("rules", BOTH)
def test_reversed_trade_notation_is_accepted(rules: str) -> None:
    state = load(COLOR_TRADE_BOARD, rules=rules)
    assert state.string_to_action("b3~b1") == state.string_to_action("b1~b3")
    assert state.action_to_string(state.string_to_action("b3~b1")) == "b1~b3"


@pytest.mark.parametrize("rules", BOTH)
def test_two_same_colour_matches_cancel(rules: str) -> None:
    # COLOR trade a1~a2: Rs lands under Xs and Rc under Oc; both red, both inactive: void.
    state = load(COLOR_TRADE_BOARD, rules=rules)
    state.apply_move("a1~a2")
    board = state.to_json()["board"]
    assert board["a1"] == "RsXs" and board["a2"] == "RcOc" and board["a3"] == "Rt*"


def test_seed_cancelled_double_match_is_not_activating() -> None:
    board = {**COLOR_TRADE_BOARD, "a3": "Rt"}  # red missing: no MOVE, forcing looks for red
    state = load(board, rules="seed")
    assert sorted(state.legal_moves()) == sorted(
        ["a1~a2", "a1~a3", "a2~a3", "b1~b2", "b1~b3", "b2~b3", "c1~c2", "c1~c3", "c2~c3"]
    )
    state.apply_move("a1~a2")
    assert "R" not in active_tiles(state)


@pytest.mark.parametrize("rules", BOTH)
def test_double_match_with_one_tile_already_active(rules: str) -> None:
    # D18: Rc* (active) lands under Oc again (no-op) and Rs under Xs: Rs activates.
    board = {**COLOR_TRADE_BOARD, "a1": "Rc*Xs", "a3": "Rt"}
    state = load(board, rules=rules)
    state.apply_move("a1~a2")
    b = state.to_json()["board"]
    assert b["a1"] == "Rs*Xs" and b["a2"] == "RcOc"


@pytest.mark.parametrize("rules", BOTH)
def test_rematching_the_active_tile_changes_nothing(rules: str) -> None:
    # ROOK active on a3 and vacant; Black's square walks back onto it.
    board = {**COLOR_TRADE_BOARD, "a1": "RcXs", "a3": "Rs*", "a2": "RtOc"}
    state = load(board, rules=rules)
    before = active_tiles(state)
    state.apply_move("a1-a3")
    assert active_tiles(state) == before
    assert state.to_json()["board"]["a3"] == "Rs*Xs"


@pytest.mark.parametrize("rules", BOTH)
def test_new_match_replaces_the_active_tile_of_its_colour(rules: str) -> None:
    # KING active on a1 under Black's square, which steps onto the inactive ROOK tile.
    board = {**COLOR_TRADE_BOARD, "a1": "Rc*Xs", "a3": "Rt", "b2": "Rs", "a2": "BcOc"}
    board["b1"] = "Bs*Xt"
    state = load(board, rules=rules)
    state.apply_move("a1-b2")  # square onto Rs: ROOK replaces KING
    assert state.to_json()["board"]["b2"] == "Rs*Xs"
    assert state.to_json()["board"]["a1"] == "Rc"
    assert active_tiles(state)["R"] == "Rs"


# ----- §7 wins and draws ----------------------------------------------------------------------
BOTH_IN_LINE = {
    "a1": "Rc*Xc",
    "a2": "BsXs",
    "a3": "Rs",
    "b1": "Bc*",
    "b2": "Rt",
    "b3": "YsXt",
    "c1": "Yc*Ot",
    "c2": "BtOc",
    "c3": "YtOs",
}


@pytest.mark.parametrize("rules", BOTH)
def test_both_players_meeting_the_goal_is_no_win(rules: str) -> None:
    state = load(BOTH_IN_LINE, rules=rules)
    state.apply_move("b3-a3")  # Black completes column a; White already holds column c
    assert state.outcome == "ongoing" and state.to_move == 1


@pytest.mark.parametrize("rules", BOTH)
def test_lone_non_mover_wins(rules: str) -> None:
    state = load(BOTH_IN_LINE, rules=rules)
    state.apply_move("b3-b2")
    assert state.outcome == "white-wins"
    assert state.returns() == [0.0, 1.0] and state.winners() == [1]
    assert state.is_terminal() and state.legal_actions() == []


def test_seed_placement_win_is_deferred_to_the_first_movement_turn() -> None:
    board = {
        "a1": "Yc*Xc",
        "a2": "RsXs",
        "a3": "Rt",
        "b1": "Rc",
        "b2": "BcOs",
        "b3": "Bs",
        "c1": "BtOt",
        "c2": "YsOc",
        "c3": "Yt",
    }
    state = load(board, rules="seed")
    assert state.legal_moves() == ["t@a3"]  # forcing: the only action that activates red
    state.apply_move("t@a3")
    assert not state.in_placement and state.outcome == "ongoing"  # began in placement
    assert sorted(state.legal_moves()) == ["b2-c3", "c1-b3", "c2-b1", "c2-b3"]
    results = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        results[state.action_to_string(action)] = child.outcome
    # On White's turn Black alone holds a line and wins, unless White completes column c too.
    assert results == {
        "b2-c3": "ongoing",
        "c1-b3": "black-wins",
        "c2-b1": "black-wins",
        "c2-b3": "black-wins",
    }


def test_kadon_rejects_an_infeasible_placement_position() -> None:
    board = {
        "a1": "Yc*Xc",
        "a2": "RsXs",
        "a3": "Rt",
        "b1": "Rc",
        "b2": "BcOs",
        "b3": "Bs",
        "c1": "BtOt",
        "c2": "YsOc",
        "c3": "Yt",
    }
    with pytest.raises(PositionError, match="infeasible under rules=kadon"):
        load(board, rules="kadon")
    load(board, rules="seed")  # accepted under seed (§1.2)


def test_seed_pass_can_produce_a_win() -> None:
    # Only GOAL (3-IN-LINE) is active; White cannot act and passes; Black already holds column a.
    board = {
        "a1": "Yc*Xc",
        "a2": "RsXs",
        "a3": "RtXt",
        "b1": "RcOc",
        "b2": "Bc",
        "b3": "BsOt",
        "c1": "Bt",
        "c2": "YsOs",
        "c3": "Yt",
    }
    state = load(board, to_move=1, rules="seed")
    assert state.legal_moves() == ["pass"]
    state.apply_move("pass")
    assert state.outcome == "black-wins"


def test_goals_need_all_three_pieces_on_the_board() -> None:
    state = load({"a1": "Yc*Xc", "a2": "RsXs", "a3": "Rt", "b1": "Rc"}, rules="kadon")
    assert not state.satisfies_goal(0)
    assert state.outcome == "ongoing"


@pytest.mark.parametrize(
    ("goal", "black_cells", "met"),
    [
        ("Yc", ("a1", "b2", "c3"), True),
        ("Yc", ("a1", "b2", "c2"), False),
        ("Ys", ("a1", "a2", "a3"), True),  # Rc Rs Rt: all red
        ("Ys", ("a1", "a2", "b1"), False),
        ("Yt", ("a1", "b1", "c1"), True),  # Rc Bc Yc: all circles
        ("Yt", ("a1", "b1", "c2"), False),
    ],
)
def test_goal_tests(goal: str, black_cells: tuple[str, str, str], met: bool) -> None:
    layout = {
        "a1": "Rc",
        "a2": "Rs",
        "a3": "Rt",
        "b1": "Bc",
        "b2": "Bs",
        "b3": "Bt",
        "c1": "Yc",
        "c2": "Ys",
        "c3": "Yt",
    }
    board = {cell: tile + ("*" if tile == goal else "") for cell, tile in layout.items()}
    for cell, piece in zip(black_cells, ("Xs", "Xt", "Xc"), strict=True):
        board[cell] += piece  # piece shapes deliberately differ from the tiles'
    state = load(board, rules="seed")
    assert state.satisfies_goal(0) is met
    assert not state.satisfies_goal(1)  # White has no pieces on the board


def test_seed_double_pass_is_a_draw_and_a_move_resets_the_counter() -> None:
    board = {
        "a1": "RcOt",
        "a2": "Yc*Xc",
        "a3": "RsOc",
        "b1": "BcOs",
        "b2": "RtXs",
        "b3": "BsXt",
        "c1": "Yt",
        "c2": "Ys",
        "c3": "Bt",
    }
    state = load(board, to_move=1, rules="seed")
    state.apply_move("pass")
    state.apply_move("pass")
    assert state.outcome == "draw" and state.returns() == [0.5, 0.5]
    assert state.result_text() == "draw (both players passed)"


def test_kadon_movement_player_without_action_draws_at_once() -> None:
    board = {
        "a1": "RcOt",
        "a2": "Yc*Xc",
        "a3": "RsOc",
        "b1": "BcOs",
        "b2": "RtXs",
        "b3": "BsXt",
        "c1": "Yt",
        "c2": "Ys",
        "c3": "Bt",
    }
    state = load(board, to_move=1, rules="kadon")
    assert state.is_terminal() and state.outcome == "draw" and state.turns == 0
    assert state.legal_actions() == []


@pytest.mark.parametrize("rules", BOTH)
def test_max_turns_counts_placement_turns(rules: str) -> None:
    state = new(rules=rules, max_turns=3)
    for move in ("Rc@a1", "Rs@a2", "Rt@a3"):
        assert not state.is_terminal()
        state.apply_move(move)
    assert state.outcome == "draw" and state.turns == 3


@pytest.mark.parametrize("rules", BOTH)
def test_repetition_forbid_never_removes_pass(rules: str) -> None:
    board = {
        "a1": "RcOt",
        "a2": "Yc*Xc",
        "a3": "RsOc",
        "b1": "BcOs",
        "b2": "RtXs",
        "b3": "BsXt",
        "c1": "Yt",
        "c2": "Ys",
        "c3": "Bt",
    }
    state = load(board, to_move=1, rules="seed", repetition="forbid")
    state.apply_move("pass")
    assert state.legal_moves() == ["pass"]  # recreates the loaded position, still legal
    state.apply_move("pass")
    assert state.outcome == "draw"


def test_repetition_forbid_explains_the_rejection() -> None:
    p0 = {
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
    state = load(p0, rules="seed", repetition="forbid")
    state.apply_move("b2~b3")
    with pytest.raises(boardplay.IllegalActionError, match="already occurred"):
        state.apply_move("b3~b2")


def test_options_are_validated_and_canonical() -> None:
    game = boardplay.load("proteus(rules=kadon,repetition=forbid,max_turns=50)")
    assert game.options == {"rules": "kadon", "repetition": "forbid", "max_turns": 50}
    assert game.max_game_length == 50
    assert boardplay.load("proteus").options == {
        "rules": "seed",
        "repetition": "none",
        "max_turns": None,
    }
    with pytest.raises(boardplay.OptionError, match="seed, kadon"):
        boardplay.load("proteus", rules="boardspace")
    with pytest.raises(boardplay.OptionError):
        boardplay.load("proteus", max_turns=0)
    with pytest.raises(boardplay.OptionError):
        boardplay.load("proteus", repetition="allow")
