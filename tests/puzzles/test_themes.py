"""Each theme of boardplay.puzzles.themes on a scene where it holds and one where it does not."""

from __future__ import annotations

import copy
import random
from typing import Any

import boardplay
from boardplay.core.game import State, sample_chance
from boardplay.puzzles.themes import THEMES, Scene, themes_of
from boardplay.puzzles.turns import turn_choices

from .test_puzzles import POTLATCH_THIRD_STACK, PROTEUS_ONE_WIN


def scene(game: str, before: dict[str, Any], after: dict[str, Any], *moves: str) -> Scene:
    """``game`` is a game string: ``montana(board_seed=1,start_player=0)``."""
    loaded = boardplay.load(game if game != "proteus" else "proteus(rules=kadon)")
    start, end = loaded.state_from_json(before), loaded.state_from_json(after)
    return Scene(start, end, moves, start.current_player())


def played(game: str, position: dict[str, Any], *moves: str) -> Scene:
    loaded = boardplay.load(game, **({"rules": "kadon"} if game == "proteus" else {}))
    start = loaded.state_from_json(position)
    end = start.clone()
    for move in moves:
        end.apply_move(move)
    return Scene(start, end, moves, start.current_player())


def holds(game: str, theme: str, where: Scene) -> bool:
    return THEMES[game][theme](where)


def test_proteus_themes() -> None:
    win = played("proteus", PROTEUS_ONE_WIN, "b3-a3")
    assert holds("proteus", "rule_change", win)  # the triangle turns the red triangle up
    assert holds("proteus", "goal_reached", win)
    assert not holds("proteus", "goal_change", win)
    assert not holds("proteus", "trade", win)
    quiet = played("proteus", PROTEUS_ONE_WIN, "a1-b1")
    assert not holds("proteus", "rule_change", quiet) and not holds(
        "proteus", "goal_reached", quiet
    )
    board = {**PROTEUS_ONE_WIN["board"], "b1": "Yc", "c3": "Yt*"}  # type: ignore[dict-item]
    new_goal = {"board": board, "to_move": 1}
    changed = scene("proteus", PROTEUS_ONE_WIN, new_goal, "b1~c3")
    assert holds("proteus", "goal_change", changed) and holds("proteus", "trade", changed)
    assert themes_of("proteus", win, "win") == ["win", "rule_change", "goal_reached"]


def test_potlatch_themes() -> None:
    third = played("potlatch", POTLATCH_THIRD_STACK, "P-NE", "P-SE")
    assert holds("potlatch", "third_stack", third)
    assert not holds("potlatch", "break_up", third) and not holds("potlatch", "new_tile", third)
    # Red stands on Blue's stack at 1,1: a Chip Move from its top sends the blue chip home.
    breaking = {**POTLATCH_THIRD_STACK, "pawns": ["1,1", "0,1"]}
    assert holds("potlatch", "break_up", played("potlatch", breaking, "C-NW"))
    # Red steps next to Blue, whose pawn on one chip is ringed by 3-high stacks: Blue keeps
    # its Chip Moves but no Pawn Move, unless Red's chip lands under it (2 high: a step up).
    cornered = {
        "tiles": {
            "-2,0": "",
            "-1,0": "",
            "0,0": "N",
            "1,0": "NNN",
            "1,-1": "NNN",
            "0,-1": "NNN",
            "-1,1": "NNN",
            "0,1": "NNN",
        },
        "stock": 0,
        "pawns": ["-2,0", "0,0"],
        "to_move": 0,
        "actions": 2,
    }
    assert holds("potlatch", "stuck_pawn", played("potlatch", cornered, "P-E", "C-W"))
    assert not holds("potlatch", "stuck_pawn", played("potlatch", cornered, "P-E", "C-E"))
    opening = boardplay.load("potlatch").new_initial_state().to_json()
    laid = played("potlatch", opening, "P-NE", "P-E")
    assert holds("potlatch", "new_tile", laid)


def mid_game(seed: int) -> State:
    state = boardplay.load("passtally").new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or state.to_json().get("setup") or len(state.history()) < 40:
        legal = state.legal_actions()
        state.apply_action(
            sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
        )
    return state


def test_passtally_themes() -> None:
    state = mid_game(3)
    choices = turn_choices(state, limit=100_000)
    scenes = [Scene(state, c.after, c.moves, state.current_player()) for c in choices]
    markers = [s for s in scenes if holds("passtally", "marker_moves", s)]
    assert markers and all(all(m.startswith("m") for m in s.moves) for s in markers)
    assert len(markers) < len(scenes)
    other = 1 - state.current_player()
    cuts = [s for s in scenes if holds("passtally", "cut_line", s)]
    for where in scenes:
        assert holds("passtally", "cut_line", where) == (
            where.after.turn_score(other) < state.turn_score(other)  # type: ignore[attr-defined]
        )
    assert state.turn_score(other) == 0 or cuts  # type: ignore[attr-defined]
    assert not any(holds("passtally", "final_turn", s) for s in scenes)


def test_montana_themes() -> None:
    name = "montana(board_seed=1,start_player=0)"
    game = boardplay.load(name)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or state.current_player() != 0 or state.turn()[1] < 1:
        legal = state.legal_actions()
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else legal[0])
    position = state.to_json()
    built = copy.deepcopy(position)
    built["players"][0]["settlements_left"] = 0

    class Built(Scene):
        """The position after the last build, only as far as the theme reads it (a whole
        legal one would need a landscape of twelve settlements)."""

        @property
        def end(self) -> dict[str, Any]:
            return built

    last = Built(state, state, ("build:0,1",), 0)
    assert holds("montana", "last_settlement", last)
    assert not holds("montana", "last_settlement", scene(name, position, position, "recruit"))
    moves = ("trade:cattle>silver", "work:city", "place:A3", "end", "canteen")
    busy = scene(name, position, position, *moves)
    assert all(holds("montana", name, busy) for name in ("cattle_trade", "city", "canteen"))
    plain = scene(name, position, position, "recruit")
    assert not any(holds("montana", name, plain) for name in ("cattle_trade", "city", "canteen"))
