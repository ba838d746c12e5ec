"""Property tests: seeded random games (Hypothesis draws the seed and the options) checked
against the invariants of spec §12 after every action, plus round trips of position JSON and
notation, and the board and colour symmetries (clones, seeds and records:
``tests/core/test_contract.py``).

Every random game is played with a ``max_turns`` cap: the rules allow endless play (the default
``max_turns`` is none and neither ruleset has a repetition draw), so a guard of ``GUARD`` turns
replaces "none" here. Random games almost always end long before it (median ~35 actions).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proteus_helpers import (
    CELLS,
    active_tiles,
    goal_met,
    independent_moves,
    independent_trades,
    parse_board,
)

import boardplay
from boardplay.core.playout import random_playout
from boardplay.core.records import Record
from boardplay.games.proteus.layout import PASS
from boardplay.games.proteus.state import ProteusState
from support import games

GUARD = 1000
RULES = ["seed", "kadon"]


def options_strategy() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "repetition": st.sampled_from(["none", "forbid"]),
            "max_turns": st.one_of(st.just(GUARD), st.integers(1, 60)),
        }
    )


def new_state(**options: Any) -> ProteusState:
    state = boardplay.load("proteus", **options).new_initial_state()
    assert isinstance(state, ProteusState)
    return state


def colours(state: ProteusState) -> set[str]:
    return set(active_tiles(state))


def activating(state: ProteusState, action: int) -> bool:
    """Whether ``action`` gives a currently missing colour an active tile (by applying it)."""
    before = colours(state)
    child = state.clone()
    child.apply_action(action)
    return bool(colours(child) - before)


def check_position(state: ProteusState, kadon: bool) -> None:
    """Invariants of a single position (I1, I2, I4, I7, I8, I10, I12, I14)."""
    board = parse_board(state)
    tiles = [v[0] for v in board.values()]
    pieces = [v[2] for v in board.values() if v[2] is not None]
    assert len(set(tiles)) == len(tiles)  # I1: nine distinct tiles at most once each
    assert len(set(pieces)) == len(pieces)
    actives = [t for t, a, _ in board.values() if a]
    assert len({t[0] for t in actives}) == len(actives)  # I2: one active tile per colour
    pool = 9 - len(tiles)
    hands = 6 - len(pieces)
    assert state.unplaced == pool + hands  # I4
    assert state.in_placement == (pool + hands > 0)
    for colour in range(3):  # active tiles are on the board (never in the pool)
        tile = state.active_tile(colour)
        assert tile < 0 or (tile // 3 == colour and state.cell_of_tile(tile) >= 0)
    for tile in range(9):  # the engine's cell<->tile and cell<->piece indexes agree
        cell = state.cell_of_tile(tile)
        assert cell < 0 or state.tile_at(cell) == tile
    for piece in range(6):
        cell = state.cell_of_piece(piece)
        assert cell < 0 or (state.piece_at(cell) == piece and state.tile_at(cell) >= 0)
    for cell in range(9):  # every piece stands on a tile
        assert state.piece_at(cell) < 0 or state.tile_at(cell) >= 0
    if state.is_terminal():
        assert state.legal_actions() == []
        return
    legal = state.legal_moves()
    assert legal, "legal actions are empty only when the game is over"
    assert ("pass" in legal) == (legal == ["pass"])  # I10
    if not state.in_placement:
        assert len(tiles) == 9 and len(pieces) == 6
        assert sum(1 for v in board.values() if v[2] is None) == 3
        trades = independent_trades(state)
        if "B" in colours(state):
            assert len(trades) == 9  # I12
        moves = independent_moves(state)
        candidates = moves | trades
        legal_set = set(legal) - {"pass"}
        assert legal_set <= candidates
        forbid = state.game.forbid
        forcing = not kadon and len(colours(state)) < 3
        if not forbid and not forcing:
            assert legal_set == candidates
        check_move_availability(state, moves)
        if kadon:
            assert colours(state) == {"R", "B", "Y"}  # I7
            assert legal != ["pass"]  # I10: no movement pass under kadon
    else:
        if legal == ["pass"]:
            mover_letter = "XO"[state.to_move]
            assert pool == 0
            assert sum(1 for p in pieces if p[0] == mover_letter) == 3
        if kadon:
            assert state.kadon_feasible()  # I8
            if any(state.cell_of_piece(3 * state.to_move + s) < 0 for s in range(3)):
                assert legal != ["pass"]


def check_move_availability(state: ProteusState, moves: set[str]) -> None:
    """I14: ROOK and BISHOP/KNIGHT always give a move; KING fails exactly when boxed in."""
    move_tile = active_tiles(state).get("R")
    if move_tile is None:
        return
    if move_tile in ("Rs", "Rt"):
        assert moves
        return
    board = parse_board(state)
    me, them = "XO"[state.to_move], "XO"[1 - state.to_move]
    mine = {c for c, v in board.items() if v[2] and v[2][0] == me}
    theirs = {c for c, v in board.items() if v[2] and v[2][0] == them}
    boxed = False
    for edge, middle in (
        ({"a1", "b1", "c1"}, {"a2", "b2", "c2"}),
        ({"a3", "b3", "c3"}, {"a2", "b2", "c2"}),
        ({"a1", "a2", "a3"}, {"b1", "b2", "b3"}),
        ({"c1", "c2", "c3"}, {"b1", "b2", "b3"}),
    ):
        if mine == edge and theirs == middle:
            boxed = True
    assert (not moves) == boxed


def check_step(
    before: ProteusState,
    action: int,
    after: ProteusState,
    kadon: bool,
    seen: set[str],
) -> None:
    """Invariants of one turn (I3, I4, I5, I6, I9, I11, I13, I15, I16, I20, I21)."""
    name = before.action_to_string(action)
    old, new = parse_board(before), parse_board(after)
    old_active, new_active = colours(before), colours(after)
    assert old_active <= new_active  # I3
    assert after.turns == before.turns + 1
    max_turns = before.game.max_turns
    assert max_turns is None or after.turns <= max_turns  # I20
    # I5 / I21: a tile that became active sits on a new pair and matches; a tile that went
    # inactive was replaced by one of its colour.
    new_pairs = set()
    if "-" in name:
        new_pairs = {name[3:]}
    elif "~" in name:
        new_pairs = {name[:2], name[3:]}
    elif "@" in name and name[0] in "cst":
        new_pairs = {name[2:]}
    old_tiles_active = {v[0] for v in old.values() if v[1]}
    new_tiles_active = {v[0] for v in new.values() if v[1]}
    for tile in new_tiles_active - old_tiles_active:
        cell = next(c for c, v in new.items() if v[0] == tile)
        assert cell in new_pairs
        piece = new[cell][2]
        assert piece is not None and piece[1] == tile[1]
    for tile in old_tiles_active - new_tiles_active:
        assert any(t[0] == tile[0] for t in new_tiles_active - old_tiles_active)
    if before.in_placement:  # I4: one item placed, nothing moves
        if name != "pass":
            assert after.unplaced == before.unplaced - 1
            for cell, (tile, _, piece) in old.items():
                assert new[cell][0] == tile and (piece is None or new[cell][2] == piece)
        if not kadon:
            assert after.outcome in ("ongoing", "draw")  # I6
    if name == "pass":
        assert after.to_json()["board"] == before.to_json()["board"]
        assert after.is_terminal() or after.passes == before.passes + 1  # I11
        assert not (before.in_placement and before.passes == 1)
    else:
        assert after.passes == 0 or after.is_terminal()
        assert after.to_json()["board"] != before.to_json()["board"]  # I13
        if not after.is_terminal():
            assert after.to_move != before.to_move
    if after.outcome in ("black-wins", "white-wins"):  # I15
        winner = 0 if after.outcome == "black-wins" else 1
        assert goal_met(after, winner) and not goal_met(after, 1 - winner)
    elif after.outcome == "draw":
        # double pass (seed), the turn cap, or (kadon, reachable only with repetition=forbid)
        # a movement-phase player left without a legal action (§5.4)
        kadon_stuck = kadon and not after.in_placement and before.game.forbid
        assert (after.passes == 2 and not kadon) or after.turns == max_turns or kadon_stuck
    if not kadon and after.passes >= 2:
        assert after.outcome != "ongoing"
    if before.game.forbid and name != "pass" and not before.in_placement:  # I16
        assert key_text(after) not in seen
    # I9 (seed forcing): when forcing applies and something activates, everything does.
    forcing = (
        not kadon and len(old_active) < 3 and (not before.in_placement or before.unplaced <= 6)
    )
    if forcing:
        flags = [activating(before, a) for a in before.legal_actions() if a != PASS]
        if any(flags):
            assert all(flags)


def key_text(state: ProteusState) -> str:
    data = state.to_json()
    return json.dumps([data["board"], state.to_move], sort_keys=True)


def play_checked(rules: str, seed: int, options: dict[str, Any]) -> ProteusState:
    state = new_state(rules=rules, **options)
    kadon = rules == "kadon"
    rng = random.Random(seed)
    seen = {key_text(state)}
    check_position(state, kadon)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        before = state.clone()
        # notation round trip for every legal action
        for a in legal:
            text = state.action_to_string(a)
            assert state.string_to_action(text) == a
            if "~" in text:
                assert state.string_to_action(f"{text[3:]}~{text[:2]}") == a
        state.apply_action(action)
        check_step(before, action, state, kadon, seen)
        check_position(state, kadon)
        if not state.is_terminal():
            seen.add(key_text(state))
            check_json_round_trip(state)
    assert state.is_terminal()
    return state


def check_json_round_trip(state: ProteusState) -> None:
    """I19: export(load(j)) == j, and (without history effects) the same legal actions."""
    data = state.to_json()
    game = boardplay.load("proteus", rules=state.game.options["rules"])
    loaded = game.state_from_json(json.loads(json.dumps(data)))
    assert loaded.to_json() == data
    if not state.game.forbid and not loaded.is_terminal():
        assert loaded.legal_actions() == state.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_random_games_keep_every_invariant(rules: str) -> None:
    @settings(max_examples=games(300, 2000))
    @given(seed=st.integers(0, 2**32 - 1), options=options_strategy())
    def run(seed: int, options: dict[str, Any]) -> None:
        play_checked(rules, seed, options)

    run()


@pytest.mark.parametrize("rules", RULES)
def test_random_games_end_within_the_guard(rules: str) -> None:
    """Plain playouts (no per-step checks) with the guard: each game ends, results are valid."""
    game = boardplay.load("proteus", rules=rules, max_turns=GUARD)
    outcomes = set()
    for seed in range(games(500, 2000)):
        state = game.new_initial_state()
        random_playout(state, random.Random(seed))
        assert state.is_terminal()
        assert sum(state.returns()) == 1.0
        outcomes.add(state.outcome)
    assert {"black-wins", "white-wins"} <= outcomes


# ----- symmetries (I17, I18) --------------------------------------------------------------------
def _transforms() -> list[dict[str, str]]:
    """The 8 symmetries of the square as cell maps."""
    out = []
    for k in range(8):
        mapping = {}
        for cell in CELLS:
            x, y = "abc".index(cell[0]) - 1, int(cell[1]) - 2
            for _ in range(k % 4):
                x, y = -y, x
            if k >= 4:
                x = -x
            mapping[cell] = f"{'abc'[x + 1]}{y + 2}"
        out.append(mapping)
    return out


SYMMETRIES = _transforms()


def map_move(text: str, mapping: dict[str, str]) -> str:
    if text == "pass":
        return text
    if "@" in text:
        head, cell = text.split("@")
        return f"{head}@{mapping[cell]}"
    if "-" in text:
        a, b = text.split("-")
        return f"{mapping[a]}-{mapping[b]}"
    a, b = (mapping[c] for c in text.split("~"))
    return f"{min(a, b)}~{max(a, b)}"


def swap_colours(data: dict[str, Any]) -> dict[str, Any]:
    board = {
        c: v.replace("X", "#").replace("O", "X").replace("#", "O") for c, v in data["board"].items()
    }
    return {**data, "board": board, "to_move": 1 - data["to_move"]}


@pytest.mark.parametrize("rules", RULES)
def test_board_and_colour_symmetries(rules: str) -> None:
    game = boardplay.load("proteus", rules=rules, max_turns=GUARD)
    for seed in range(games(60, 500)):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            data = state.to_json()
            legal = set(state.legal_moves())
            for mapping in SYMMETRIES:
                board = {mapping[c]: v for c, v in data["board"].items()}
                image = game.state_from_json({**data, "board": board})
                assert set(image.legal_moves()) == {map_move(m, mapping) for m in legal}
            mirror = game.state_from_json(swap_colours(data))
            assert set(mirror.legal_moves()) == legal
            action = rng.choice(state.legal_actions())
            child = mirror.clone()
            child.apply_move(state.action_to_string(action))
            state.apply_action(action)
            flipped = {"black-wins": "white-wins", "white-wins": "black-wins"}
            expected = flipped.get(state.outcome, state.outcome)
            if state.turns < GUARD:
                assert child.outcome == expected


# ----- records ------------------------------------------------------------------------------------
def test_record_from_a_loaded_position_and_a_tampered_record() -> None:
    game = boardplay.load("proteus")
    p0 = {
        "board": {
            "a1": "Rc*Xc",
            "a2": "BsOt",
            "a3": "Rs",
            "b1": "Bc*Oc",
            "b2": "RtXs",
            "b3": "YcOs",
            "c1": "Yt*Xt",
            "c2": "Ys",
            "c3": "Bt",
        },
        "to_move": 0,
    }
    state = game.state_from_json(p0)
    record = Record.begin(game, start_position=p0)
    for move in ("b2-a3", "b3-b2"):
        record.play(state, state.string_to_action(move))
    again = Record.loads(record.dumps())
    assert again.replay().to_json() == state.to_json()
    data = record.to_json()
    data["actions"][1] = data["actions"][0]
    data["moves"][1] = data["moves"][0]
    with pytest.raises(boardplay.RecordError, match="move 2"):
        Record.from_json(data).replay()


@pytest.mark.parametrize("rules", RULES)
def test_repetition_keys_match_the_positions_reached(rules: str) -> None:
    """The repetition filter's predicted position (computed without applying the action)
    equals the position the action really produces, for every legal movement action."""
    game = boardplay.load("proteus", rules=rules, max_turns=GUARD)
    for seed in range(games(30, 300)):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if not state.in_placement:
                for action in state.legal_actions():
                    if action == PASS:
                        continue
                    child = state.clone()
                    child.apply_action(action)
                    data = child.to_json()
                    expected = (data["board"], 1 - state.to_move)
                    predicted = game.state_from_json(
                        {"board": data["board"], "to_move": 1 - state.to_move}
                    )
                    assert state._key_after(action) == predicted.key(), expected
            state.apply_action(rng.choice(state.legal_actions()))
