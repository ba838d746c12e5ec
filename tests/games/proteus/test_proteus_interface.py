"""The contract around the rules: game attributes, render, observation tensor, rules text."""

from __future__ import annotations

import random
from pathlib import Path

from proteus_helpers import load

import boardplay
from boardplay.core.playout import random_playout
from boardplay.games.proteus.game import ProteusGame
from boardplay.games.proteus.state import ProteusState

ROOT = Path(__file__).resolve().parents[3]

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


def test_game_attributes() -> None:
    game = boardplay.load("proteus")
    assert isinstance(game, ProteusGame)
    assert (game.name, game.title, game.num_players) == ("proteus", "Proteus", 2)
    assert game.seat_names == ("Black", "White")
    assert game.num_distinct_actions == 217
    assert {o["rules"] for o in game.bench_option_sets} == {"seed", "kadon"}
    for options in game.bench_option_sets:
        boardplay.load("proteus", **options)  # each bench option set is valid
    assert str(boardplay.load("proteus", rules="kadon")) == "proteus(rules=kadon)"
    assert isinstance(game.new_initial_state(), ProteusState)


def test_every_action_id_has_distinct_notation() -> None:
    state = boardplay.load("proteus").new_initial_state()
    names = [state.action_to_string(a) for a in range(217)]
    assert len(set(names)) == 217
    assert names[0] == "Rc@a1" and names[81] == "c@a1" and names[216] == "pass"
    assert names[108] == "a1-a2" and names[180] == "a1~a2" and names[215] == "c2~c3"


def test_render_shows_tiles_rules_pieces_hands_and_turn() -> None:
    state = load(P0)
    text = state.render()
    assert text.splitlines()[0] == "Proteus (rules=seed) - movement phase, turn 0"
    assert all(len(line) <= 76 for line in text.splitlines())  # fits a bordered 80-col panel
    for needle in (
        "Rc red circle",
        "*KING*",
        "*POLARITY*",
        "*SHAPE goal*",
        "Black circle",
        "White triangle",
        "face down",
        "MOVE: KING (Rc at a1)",
        "TRADE: POLARITY (Bc at b1)",
        "GOAL: SHAPE goal (Yt at c1)",
        "Black (X) hand: empty",
        "Black to move",
        "movement phase",
    ):
        assert needle in text, needle
    assert str(state) == text
    assert "Legal: b2-a3" in state.render(detail=True)
    # Row 3 is drawn above row 1.
    assert text.index("Rs red square") < text.index("Rc red circle")


def test_render_in_placement_and_after_the_end() -> None:
    state = load({"a1": "Rc", "b2": "BsXc"}, to_move=1)
    text = state.render()
    assert "(empty)" in text and "Pool: Rs Rt Bc Bt Yc Ys Yt" in text
    detail = state.render(detail=True)
    assert all(len(line) <= 76 for line in detail.splitlines())
    assert "Bc@a2" in detail and "t@a1" in detail  # the wrapped legal list is complete
    assert "MOVE: none (red missing)" in text
    assert "White (O) hand: circle, square, triangle" in text
    assert "Black (X) hand: square, triangle" in text
    state = load(P0, max_turns=1)
    state.apply_move("b2-a3")
    assert "Result: draw" in state.render()


def test_observation_tensor_layout() -> None:
    game = boardplay.load("proteus")
    state = load(P0)
    assert game.observation_shape() == (165,)
    black = state.observation_tensor(0)
    white = state.observation_tensor(1)
    assert len(black) == len(white) == 165
    assert black[0 * 9 + 0] == 1.0  # Rc on a1
    assert sum(black[:81]) == 9 and sum(black[81:90]) == 3
    assert black[81 + 0] == 1.0 and black[81 + 2] == 0.0  # a1 active, a3 not
    assert black[90 + 0 * 9 + 0] == 1.0  # own circle on a1 (Black's view)
    assert white[117 + 0 * 9 + 0] == 1.0  # opponent's circle on a1 (White's view)
    assert sum(black[144:159]) == 0  # pool and hands empty
    assert black[159:162] == [0.0, 0.0, 0.0]
    assert black[162] == 1.0 and black[163] == 1.0 and white[163] == 0.0
    start = game.new_initial_state().observation_tensor(0)
    assert sum(start[144:153]) == 9 and sum(start[153:159]) == 6
    assert start[159:162] == [1.0, 1.0, 1.0] and start[162] == 0.0


def test_observation_tensor_along_random_games() -> None:
    game = boardplay.load("proteus", rules="kadon", max_turns=200)
    for seed in range(20):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            for player in (0, 1):
                obs = state.observation_tensor(player)
                # every tile is on the board or in the pool, every piece on the board or in hand
                assert sum(obs[0:81]) + sum(obs[144:153]) == 9
                assert sum(obs[90:144]) + sum(obs[153:159]) == 6
            state.apply_action(rng.choice(state.legal_actions()))


def test_rules_text_and_docs_symlink() -> None:
    text = boardplay.load("proteus").rules_text()
    for needle in ("KING", "BISHOP/KNIGHT", "POLARITY", "3-IN-LINE", "Boardspace-sourced"):
        assert needle in text
    assert "`rules=seed` (default)" in text and "`rules=kadon`" in text
    link = ROOT / "docs" / "rules" / "proteus.md"
    assert link.is_symlink()
    assert str(link.readlink()) == "../../src/boardplay/games/proteus/rules.md"
    assert link.read_text(encoding="utf-8") == text
    formats = (ROOT / "docs" / "formats" / "proteus.md").read_text(encoding="utf-8")
    assert "## Observation tensor" in formats and "## Position JSON" in formats


def test_max_game_length_is_the_turn_cap() -> None:
    game = boardplay.load("proteus", max_turns=40)
    assert game.max_game_length == 40
    state = game.new_initial_state()
    assert random_playout(state, random.Random(3)) <= 40


def test_end_reason_names_how_the_game_ended() -> None:
    reasons = set()
    for spec in ("proteus", "proteus(rules=kadon)", "proteus(max_turns=3)"):
        game = boardplay.load(spec)
        for seed in range(40):
            state = game.new_initial_state()
            assert state.end_reason() is None
            random_playout(state, random.Random(seed))
            reason = state.end_reason()
            assert reason is not None
            if state.winners():
                assert reason == "goal met by one player only"
            reasons.add(reason)
    assert {"goal met by one player only", "turn limit (max_turns)"} <= reasons
