"""Notation (spec §12.1), position JSON (§12.2), illegal actions and the text render."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from montana_helpers import edit, fresh, play, set_cattle, set_workers

import boardplay
from boardplay.core.errors import IllegalActionError, PositionError
from boardplay.core.game import sample_chance
from boardplay.games.montana import notation as A
from boardplay.games.montana.data import load_components
from boardplay.games.montana.state import MontanaState


def all_texts() -> dict[str, int]:
    data = load_components()
    out: dict[str, int] = {}
    for action in range(A.NUM_ACTIONS):
        try:
            text = A.action_to_string(data, action)
        except ValueError:
            continue
        assert text not in out, f"{text!r} names two actions"
        out[text] = action
    return out


def test_every_action_string_is_unique() -> None:
    texts = all_texts()
    assert len(texts) >= 900  # every id the default data uses has exactly one string


def test_spec_example_strings_exist() -> None:
    texts = all_texts()
    for example in (
        "recruit",
        "push:2",
        "wild:St",
        "wild:Cu+St",
        "return:Cu+Gr",
        "work:B3:Cu+St",
        "work:G3:Gr",
        "right:St+Pu",
        "right:none",
        "work:city",
        "place:A3",
        "pass",
        "reward:up:c1s0",
        "reward:pick:s+s+g",
        "build:1,-2",
        "stop",
        "trade:cattle>silver",
        "trade:cattle>good:c",
        "trade:cattle>worker:St",
        "canteen",
        "end",
    ):
        assert example in texts, example


def test_chance_strings_round_trip() -> None:
    seen = set()
    for outcome in range(A.NUM_CHANCE):
        text = A.chance_to_string(outcome)
        assert A.string_to_chance(text) == outcome
        seen.add(text)
    assert len(seen) == A.NUM_CHANCE
    assert {"board:123", "spin:5", "start:1"} <= seen
    assert A.string_to_chance("spin:05") is None and A.string_to_chance("board:x") is None


def test_equivalent_worker_choices_are_one_action() -> None:
    state = fresh()
    set_workers(state, state.active, Cu=1, St=1)
    b3 = [m for m in state.legal_moves() if m.startswith("work:B3")]
    assert b3 == ["work:B3:Cu+St"]
    assert state.string_to_action("work:B3:St+Cu") == state.string_to_action("work:B3:Cu+St")


def test_chance_outcome_strings_parse_at_chance_nodes() -> None:
    state = boardplay.load("montana").new_initial_state()
    assert state.is_chance_node()
    assert state.string_to_action("board:4095") == A.CHANCE_BOARD + 4095
    with pytest.raises(IllegalActionError):
        state.string_to_action("board:4096")
    state.apply_move("board:7")
    assert state.board_seed == 7
    assert state.string_to_action("spin:8") == A.CHANCE_SPIN + 7


# ----- illegal actions ------------------------------------------------------------------------


def assert_rejected(state: MontanaState, action: int, *words: str) -> None:
    before = state.to_json()
    history = state.history()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert state.to_json() == before
    assert state.history() == history


def test_illegal_build_on_mountain_names_the_reason() -> None:
    state = fresh()
    board = state.board
    assert board is not None
    mountain = next(h for h, s in enumerate(board.specs) if s.kind == "mountain")
    assert_rejected(state, A.BUILD + board.grid_of[mountain], "mountain is never buildable")


def test_illegal_build_off_the_board() -> None:
    state = fresh()
    assert_rejected(state, A.build_action(7, 7), "not on the landscape")


def test_illegal_pass_for_first_placement() -> None:
    state = fresh()
    play(state, "work:city")
    assert_rejected(state, A.PASS, "must place the first contractor")


def test_illegal_trade_without_cattle() -> None:
    state = fresh()
    set_cattle(state, state.active, 0)
    assert_rejected(state, A.TRADE + A.TRADE_SILVER, "holds no cattle")


def test_illegal_action_at_wrong_stage_and_unknown_id() -> None:
    state = fresh()
    assert_rejected(state, A.PUSH + 1, "'push:1'", "stage MAIN")
    assert_rejected(state, 10**6, "action id 1000000")
    with pytest.raises(IllegalActionError, match="not a legal move"):
        state.string_to_action("fly:away")


def test_no_action_after_the_end() -> None:
    state = fresh()
    rng = random.Random(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
    assert state.legal_actions() == []
    assert_rejected(state, A.RECRUIT, "game is over")


# ----- position JSON --------------------------------------------------------------------------


def midgame(players: int = 3, actions: int = 300) -> MontanaState:
    state = boardplay.load("montana", players=players).new_initial_state()
    rng = random.Random(players)
    for _ in range(actions):
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
    assert isinstance(state, MontanaState)
    return state


def test_position_round_trip_and_fields() -> None:
    state = midgame()
    position = state.to_json()
    for key in (
        "format",
        "version",
        "data",
        "options",
        "board",
        "landscape",
        "supply",
        "players",
        "worker_board",
        "contractors",
        "turn",
        "stage",
        "result",
    ):
        assert key in position
    assert position["board"]["seed"] == state.board_seed
    loaded = state.game.state_from_json(position)
    assert loaded.to_json() == position
    assert loaded.legal_actions() == state.legal_actions()


def test_position_before_the_board() -> None:
    state = boardplay.load("montana").new_initial_state()
    position = state.to_json()
    assert position["board"] is None and position["stage"]["name"] == "BOARD"
    assert state.game.state_from_json(position).to_json() == position


def _mutate(position: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(position)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (["format"], "chess", "format"),
        (["version"], 9, "version"),
        (["options", "players"], 4, "options.players"),
        (["data", "digest"], "0", "data"),
        (["board", "seed"], 5000, "board.seed"),
        (["board", "tiles", 0, "rotation"], 9, "board.tiles"),
        (["supply", "workers", "Cu"], 0, "supply.workers.Cu"),
        (["supply", "goods", "g"], KeyError, "supply.goods"),
        (["supply", "cattle"], 99, "supply.cattle"),
        (["supply", "set_aside", "c"], 0, "supply.set_aside.c"),
        (["players", 0, "silver"], -3, "players[0].silver"),
        (["players", 1, "seat"], 0, "players[1].seat"),
        (["players", 0, "settlements_left"], 3, "players[0].settlements_left"),
        (["worker_board", "bank", "B4"], "Cu", "worker_board.bank.B4"),
        (["worker_board", "production", "M1", "left"], "Xx", "worker_board.production.M1.left"),
        (["contractors", 0], "Z9", "contractors[0]"),
        (["turn", "number"], "ten", "turn.number"),
        (["stage", "name"], "DANCE", "stage.name"),
        (["stage", "decider"], 7, "stage.decider"),
        (["result"], {"winners": [0], "reason": "trigger"}, "result"),
        (["landscape", "settlements"], [{"hex": [0, 0], "owner": 0, "tiles": 1}], "landscape"),
    ],
)
def test_bad_position_names_the_field(path: list[Any], value: Any, field: str) -> None:
    state = midgame()
    bad = _mutate(state.to_json(), path, value)
    with pytest.raises(PositionError) as info:
        state.game.state_from_json(bad)
    assert field in str(info.value), str(info.value)


def test_bad_position_not_an_object() -> None:
    with pytest.raises(PositionError, match=r"^position: expected an object"):
        boardplay.load("montana").state_from_json([])  # type: ignore[arg-type]


# ----- render ---------------------------------------------------------------------------------


def test_render_shows_map_board_players_and_decider() -> None:
    state = midgame(players=4, actions=200)
    text = state.render()
    assert "START" in text and "0,0" in text
    assert "Bank:" in text and "City" in text and "G3(6$>4g)" in text
    for name in ("Blue", "Yellow", "Green", "Red"):
        assert name in text
    assert "to decide" in text
    assert "Supply:" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Legal:" in state.render(detail=True)


def test_bad_stage_data_names_the_field() -> None:
    state = fresh()
    play(state, "work:city")
    good = state.to_json()
    assert state.game.state_from_json(good).to_json() == good
    for path, value, field in (
        (["stage", "main"], "build", "stage.main"),
        (["stage", "decider"], 1, "stage.decider"),
        (["stage", "name"], "OVERFLOW", "stage.excess"),
        (["contractors", 1], "B2", "contractors[1]"),
    ):
        with pytest.raises(PositionError) as info:
            state.game.state_from_json(_mutate(good, path, value))
        assert field in str(info.value), str(info.value)


def test_illegal_work_messages() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Cu=1, St=1)
    edit(state).silver[p] = 2
    state._legal = None
    assert_rejected(state, state_action(state, "work:M3:Cu"), "M3 costs 6 silver")
    assert_rejected(state, state_action(state, "work:Q1:Cu"), "must be St")
    assert_rejected(state, state_action(state, "work:B3:Cu+Cu"), "does not hold the workers Cu+Cu")
    assert_rejected(state, state_action(state, "work:B4:Cu+St"), "B4 takes exactly 3")


def state_action(state: MontanaState, text: str) -> int:
    """The id of a notation string whether or not it is legal here."""
    return next(a for a in range(A.NUM_ACTIONS) if _text_or_none(state, a) == text)


def _text_or_none(state: MontanaState, action: int) -> str | None:
    try:
        return A.action_to_string(state.data, action)
    except ValueError:
        return None


def _leaves(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*path, i))]
    return [path]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_garbage_in_any_field_is_a_position_error_or_playable(players: int) -> None:
    """Fuzz: one field of an exported position replaced by junk either loads into a state that
    plays on, or raises PositionError — never another exception."""
    rng = random.Random(players)
    state = boardplay.load("montana", players=players).new_initial_state()
    positions = []
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
        if len(state.history()) < 8 or rng.random() < 0.01:
            positions.append(state.to_json())
    positions.append(state.to_json())
    junk: list[Any] = [None, -1, 0, 1, 2, 99, "x", "", [], {}, True, "Cu", "A1", "home", [0, 0]]
    for position in positions:
        paths = _leaves(position)
        for _ in range(60):
            path = rng.choice(paths)
            bad = _mutate(position, list(path), rng.choice(junk))
            try:
                loaded = state.game.state_from_json(bad)
            except PositionError:
                continue
            for _ in range(20):
                if loaded.is_terminal():
                    break
                legal = loaded.legal_actions()
                loaded.apply_action(
                    sample_chance(loaded, rng) if loaded.is_chance_node() else rng.choice(legal)
                )
