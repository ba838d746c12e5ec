"""Records replay exactly and refuse to load a corrupt game, naming the first bad entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardplay
from boardplay.core.errors import RecordError
from boardplay.core.records import Record, read_jsonl, write_jsonl
from support import random_record


@pytest.mark.parametrize("spec", boardplay.available())
def test_saved_record_replays_to_the_same_position(spec: str, tmp_path: Path) -> None:
    record, final = random_record(spec, seed=11)
    path = tmp_path / "game.json"
    record.save(path)
    again = Record.load(path)
    assert again.to_json() == record.to_json()
    replayed = again.replay()
    assert replayed.to_json() == final.to_json()
    assert replayed.history() == final.history()
    assert replayed.returns() == final.returns()


def test_states_steps_through_every_move() -> None:
    record, final = random_record("potlatch", seed=3, limit=12)
    states = list(record.states())
    assert len(states) == len(record.moves) + 1
    assert states[0].to_json() == boardplay.load("potlatch").new_initial_state().to_json()
    assert states[-1].to_json() == final.to_json()
    assert [s.history() for s in states[1:]] == [
        [m.action for m in record.moves[: i + 1]] for i in range(len(record.moves))
    ]


def _corrupt(record: Record, **changes: object) -> Record:
    data = record.to_json()
    data.update(changes)
    return Record.from_json(json.loads(json.dumps(data)))


def test_illegal_move_is_named() -> None:
    record, _ = random_record("potlatch", seed=5, limit=6)
    data = record.to_json()
    # Replace move 3 by an action the engine rejects in that position.
    state = list(record.states())[2]
    bad = next(a for a in range(12) if a not in state.legal_actions())
    data["actions"][2] = bad
    data["moves"][2] = state.action_to_string(bad)
    with pytest.raises(RecordError, match=r"^move 3 .* is illegal"):
        Record.from_json(data).replay()


def test_notation_that_disagrees_with_the_id_is_named() -> None:
    record, _ = random_record("potlatch", seed=5, limit=6)
    data = record.to_json()
    data["moves"][1] = "C-E" if data["moves"][1] != "C-E" else "C-W"
    with pytest.raises(RecordError, match=r"^move 2 .*the engine writes that action as"):
        Record.from_json(data).replay()


def test_wrong_seat_is_named() -> None:
    record, _ = random_record("potlatch", seed=5, limit=6)
    data = record.to_json()
    data["seats"][0] = 1
    with pytest.raises(RecordError, match=r"^move 1 .*recorded for seat 1 but seat 0"):
        Record.from_json(data).replay()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess-pgn"}, "field 'format'"),
        ({"version": 99}, "field 'version'"),
        ({"game": 7}, "field 'game'"),
        ({"options": []}, "field 'options'"),
        ({"actions": [0]}, "same length"),
        ({"players": "x"}, "field 'players'"),
    ],
)
def test_structural_problems_name_the_field(change: dict[str, object], message: str) -> None:
    record, _ = random_record("potlatch", seed=1, limit=4)
    with pytest.raises(RecordError, match=message):
        _corrupt(record, **change)


def test_unknown_game_or_option_in_a_record() -> None:
    record, _ = random_record("potlatch", seed=1, limit=4)
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        _corrupt(record, game="chess").replay()
    with pytest.raises(RecordError, match="option 'actions'"):
        _corrupt(record, options={"actions": 7}).replay()


def test_not_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.loads("{nope")
    with pytest.raises(RecordError, match="must be a JSON object"):
        Record.loads("[]")


def test_start_position_is_replayed_from() -> None:
    game = boardplay.load("potlatch")
    position = {
        "tiles": {"0,0": "", "1,0": "", "2,0": "", "5,5": ""},
        "stock": 0,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    state = game.state_from_json(position)
    record = Record.begin(game, start_position=position)
    record.play(state, state.string_to_action("P-E"))
    record.play(state, state.string_to_action("P-E"))
    record.finish(state)
    final = Record.loads(record.dumps()).replay()
    assert final.is_terminal()
    assert final.returns() == [1.0, 0.0]
    bad = record.to_json()
    bad["start_position"] = {"tiles": {}, "stock": -1}
    with pytest.raises(RecordError, match="start position is invalid"):
        Record.from_json(bad).replay()


def test_jsonl_corpus_round_trip(tmp_path: Path) -> None:
    records = [random_record("potlatch", seed=s, limit=20)[0] for s in range(3)]
    path = tmp_path / "corpus.jsonl"
    assert write_jsonl(path, records) == 3
    loaded = list(read_jsonl(path))
    assert [r.to_json() for r in loaded] == [r.to_json() for r in records]
    path.write_text(path.read_text() + "{broken\n")
    with pytest.raises(RecordError, match="line 4: not valid JSON"):
        list(read_jsonl(path))
