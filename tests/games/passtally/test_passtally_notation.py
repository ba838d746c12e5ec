"""Notation (spec §11), records, the text picture and the observation tensor."""

from __future__ import annotations

import random

import pytest
from passtally_fixtures import S1, S3, S4, S12_START, game, load, play

from boardplay.core.errors import IllegalActionError
from boardplay.core.playout import random_playout
from boardplay.core.records import Record
from boardplay.games.passtally.tables import CELL_INDEX, move_id, place_id


def test_action_strings() -> None:
    state = load(S1)
    assert state.action_to_string(7) == "@7"
    assert state.action_to_string(place_id(0, CELL_INDEX["b3"], 0)) == "A:b3E"
    assert state.action_to_string(place_id(2, CELL_INDEX["f6"], 3)) == "C:f6N"
    assert state.action_to_string(move_id(7, 1, 2)) == "m7+2"
    assert state.action_to_string(move_id(7, -1, 1)) == "m7-1"
    play(state, "A:b3E")
    assert state.action_to_string(1) == "A=XNE"


def test_spec_record_example_replays() -> None:
    record = "A=XX B=NENW C=XNE @0 @1 @12 @13 @6 @7 @18 @19 A:b3E A=NWNW m6+1"
    state = game().new_initial_state()
    for text in record.split():
        action = state.string_to_action(text)
        assert state.action_to_string(action) == text
        state.apply_action(action)
    out = state.to_json()
    assert out["markers"] == {"0": 0, "1": 1, "7": 1, "8": 0, "12": 1, "13": 0, "18": 1, "19": 0}
    assert out["to_move"] == 1 and out["scores"] == [0, 0]
    assert out["piles"][0] == {"face_up": "NWNW", "hidden": 12}


def test_accepted_alternative_spellings() -> None:
    state = load(S1)
    canonical = state.string_to_action("A:b3E")
    for text in ["a:b3e", " A : B3 E ", "A:c3W", "a:c3w"]:
        assert state.string_to_action(text) == canonical
    assert state.string_to_action("M7 + 1") == state.string_to_action("m7+1")
    assert state.string_to_action(str(canonical)) == canonical
    play(state, "A:b3E")
    assert state.string_to_action("a=nenw") == state.string_to_action("A=NENW")
    with pytest.raises(IllegalActionError):
        state.string_to_action("B=NENW")  # pile B is not being revealed
    setup = game().new_initial_state()
    play(setup, "A=XX", "B=XX", "C=XX")
    assert setup.string_to_action("@ 5") == 5


def test_string_errors_say_why() -> None:
    state = load(S1)
    with pytest.raises(IllegalActionError, match="off the board"):
        state.string_to_action("A:a1N")
    with pytest.raises(IllegalActionError, match="only their own markers"):
        state.string_to_action("m4+1")
    with pytest.raises(IllegalActionError, match="legal moves: A:a1E"):
        state.string_to_action("hello")


def test_illegal_action_ids_change_nothing() -> None:
    state = load(S1)
    before = state.to_json()
    for bad in [-1, 3, 552, 10_000, place_id(0, CELL_INDEX["f1"], 0)]:
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_json() == before
        assert state.history() == []


def test_game_over_rejects_everything() -> None:
    done = play(game(max_turns=1).state_from_json({**S3, "turns": 0}), "m2+1", "m3-1")
    assert done.is_terminal() and done.legal_actions() == []
    before = done.to_json()
    with pytest.raises(IllegalActionError, match="the game is over"):
        done.apply_action(move_id(2, 1, 1))
    with pytest.raises(IllegalActionError, match="the game is over"):
        done.string_to_action("m2+1")
    assert done.to_json() == before


def test_record_from_a_start_position() -> None:
    g = game()
    state = g.state_from_json(S4)
    record = Record.begin(g, start_position=S4)
    for text in ["m7+1", "m8-1"]:
        record.play(state, state.string_to_action(text))
    assert Record.loads(record.dumps()).replay().to_json()["scores"] == [3, 0]


def test_render_shows_board_ring_piles_scores_and_turn() -> None:
    state = load(S4)
    text = state.render()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert " X1 " in text  # a1, b1, a2, b2 hold XX halves at level 1
    assert "+    +    +----+" in text  # the seams of the two vertical tiles a1-a2, b1-b2
    assert "| X1 : X1 |" in load(S3).render()  # the seam of the horizontal tile a1-b1
    assert "A: XX (+11 face down)" in text and "B: NENW (+13 face down)" in text
    assert "Player 1: 0  Player 2: 0" in text
    assert "Player 1 to move, 2 actions left." in text
    assert "passes" not in text
    detail = state.render(detail=True)
    assert "Player 1: 6-23, 2 passes: f1 e1 d1 c1 b1 a1" in detail
    assert "Player 1: 7-22, 2 passes" in detail
    assert "Player 1: total 4 passes = 3 VP" in detail
    assert "Player 2: 10-19, 0 passes: f5 e5 d5 c5 b5 a5" in detail
    assert "Player 2: none" in load(S1).render(detail=True)
    assert str(state) == text


def test_render_of_setup_chance_and_game_over() -> None:
    assert "Chance: pile A reveals" in game(players=3).new_initial_state().render()
    setup = play(load(S12_START), "A=XX", "B=XX", "C=XX")
    assert "Setup: Player 1 places a marker" in setup.render()
    over = play(game(max_turns=1).state_from_json({**S3, "turns": 0}), "m2+1", "m3-1")
    assert "Game over: Player 1 wins" in over.render()


def test_observation_tensor() -> None:
    for players in (2, 3):
        g = game(players=players, max_turns=40)
        state = g.new_initial_state()
        rng = random.Random(11)
        while not state.is_terminal():
            for seat in range(players):
                obs = state.observation_tensor(seat)
                assert len(obs) == g.observation_shape()[0] == 372
            random_playout(state, rng, max_actions=1)
    state = load(S4)
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    assert mine[CELL_INDEX["a1"]] == 1.0 and mine[36 + CELL_INDEX["c1"]] == 0.0
    assert mine[216 + CELL_INDEX["a1"]] == 1.0  # a1 and a2 are one vertical tile
    assert mine[252 + 6] == 1.0 and theirs[252 + 24 + 6] == 1.0  # slot 6 holds P1's marker
    assert mine[357] == 1.0 and theirs[358] == 1.0  # P1 to move, seen from both seats
    with pytest.raises(ValueError):
        state.observation_tensor(2)
