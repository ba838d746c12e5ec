"""Proteus's placement traps (issue 67, item 5): the solver, the guard, the book and its
symmetries (``boardplay.ai.placement``, ``boardplay.ai.placement_book``)."""

from __future__ import annotations

import random

import pytest

import boardplay
from boardplay.ai import make_agent
from boardplay.ai.placement import PlacementSolver
from boardplay.ai.placement_book import (
    INVERSES,
    SYMMETRIES,
    PlacementGuard,
    canonical,
    map_move,
    placements_left,
    position_of,
    position_text,
    reply_keys,
    shipped_book,
)
from boardplay.core.errors import OptionError
from boardplay.core.game import State
from boardplay.core.kernel import Kernel

KADON = boardplay.load("proteus", rules="kadon", repetition="forbid")

# Boardspace's robot against the expert (research review ai-2026-11d): the placements of four
# lost games up to the losing placement, the last move of each line (Black's fourth placement,
# ply 6, or its fifth, ply 8). Each was decided there: the solver proves it loses while
# another placement did not.
LOST = [
    "Yc@a3 Bc@a1 Ys@c3 Rt@b1 Rs@c1 t@a1 Yt@c2 s@a3 s@c3",
    "Yc@a3 Rt@a1 Bc@c1 c@a1 Ys@c3 t@c1 s@c3",
    "Bc@a3 t@a3 Ys@c3 Rc@b1 Yc@c2 s@c2 Bt@b2",
    "Bc@a3 Bs@a1 Ys@c3 t@a3 Rs@c1 Rt@c2 Yt@a2",
    "Yc@c2 Ys@a3 Bc@c1 Rc@b3 Bt@a1 t@c1 s@c2",
]


def kernel(state: State) -> Kernel:
    assert state.kernel is not None
    return state.kernel


def replay(game: boardplay.Game, moves: list[str]) -> State:
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(state.parse_action(move))
    return state


@pytest.mark.parametrize("line", LOST)
def test_the_evidence_placement_lost_and_the_guard_avoids_it(line: str) -> None:
    *before, played = line.split()
    state = replay(KADON, before)
    solver = PlacementSolver()
    assert solver.loses(kernel(state), state.parse_action(played))
    guarded = PlacementGuard(make_agent("mcts(iterations=30)", KADON, seed=1), KADON, None)
    choice = guarded.step(state)
    assert not solver.loses(kernel(state), choice), state.action_to_string(choice)


# Two more lost games: by Black's fourth placement (ply 6) every placement already lost, so the
# trap was set earlier, off the book's line, which opens differently.
LOST_EARLIER = [
    "Yc@c2 Ys@a3 Yt@b2 Bc@a1 s@b2 t@c2",
    "Bc@a3 Bs@a1 Rt@b2 Rc@c1 t@b2 Bt@c3",
]


@pytest.mark.parametrize("line", LOST_EARLIER)
def test_some_traps_are_set_before_ply_6(line: str) -> None:
    state = replay(KADON, line.split())
    assert PlacementSolver().safe_moves(kernel(state)) == []
    assert BOOK is not None
    first = BOOK.entries[canonical(KADON.export_position(KADON.new_initial_state()))[0]]
    assert first["proven"] and first["moves"] != [line.split()[0]]


def test_the_expert_and_hard_are_guarded_and_the_lower_levels_are_not() -> None:
    for level in ("hard", "expert"):
        assert isinstance(make_agent(level, KADON, seed=1), PlacementGuard)
    assert not isinstance(make_agent("medium", KADON, seed=1), PlacementGuard)
    assert not isinstance(make_agent("expert", boardplay.load("potlatch"), seed=1), PlacementGuard)


def test_a_level_given_another_budget_searches_and_is_guarded_as_the_level() -> None:
    """``expert(time=0.01)`` is the expert on a machine that gives it a tenth of its time (the
    ladder judged across budgets, docs/ai.md): the same search options and the same guard, only
    its budget changed."""
    hard = make_agent("hard(time=0.01)", KADON, seed=1)
    assert isinstance(hard, PlacementGuard) and hard.name == "hard(time=0.01)"
    assert (hard.time_limit, hard.iterations, hard.contempt) == (0.01, 3000, 0.15)
    expert = make_agent("expert(time=0.0333,iterations=5000)", KADON, seed=1)
    assert isinstance(expert, PlacementGuard)
    assert (expert.time_limit, expert.iterations, expert.contempt) == (0.0333, 5000, 0.3)
    assert not isinstance(make_agent("medium(iterations=30)", KADON, seed=1), PlacementGuard)
    with pytest.raises(OptionError, match="only a budget"):
        make_agent("expert(contempt=0)", KADON, seed=1)


def test_a_placement_that_hands_over_an_immediate_win_loses() -> None:
    # The last placement of lost game 2: whatever Black places, White wins by trading.
    state = replay(KADON, f"{LOST[2]} c@b1 s@c3 Rt@b3 t@b2 Rs@a2 c@b3 Bs@a1".split())
    (only,) = state.legal_actions()
    assert PlacementSolver().loses(kernel(state), only)
    assert PlacementSolver().safe_moves(kernel(state)) == []


def random_placement(seed: int, plies: int) -> State:
    rng = random.Random(seed)
    state = KADON.new_initial_state()
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_symmetries_are_the_eight_of_the_square() -> None:
    images = {tuple(s[c] for c in sorted(s)) for s in SYMMETRIES}
    assert len(images) == 8
    rows = ["a1 b1 c1", "a2 b2 c2", "a3 b3 c3", "a1 a2 a3", "b1 b2 b3", "c1 c2 c3"]
    lines = {frozenset(line.split()) for line in [*rows, "a1 b2 c3", "a3 b2 c1"]}

    def distance(x: str, y: str) -> tuple[int, int]:  # KING steps 1, ROOK moves along 0
        dc, dr = abs(ord(x[0]) - ord(y[0])), abs(int(x[1]) - int(y[1]))
        return max(dc, dr), min(dc, dr)

    for s in SYMMETRIES:  # 3-IN-LINE's lines and every MOVE rule's geometry are kept
        assert {frozenset(s[c] for c in line) for line in lines} == lines
        assert all(distance(x, y) == distance(s[x], s[y]) for x in s for y in s)
    for i, s in enumerate(SYMMETRIES):
        assert all(SYMMETRIES[INVERSES[i]][s[c]] == c for c in s)


@pytest.mark.parametrize("seed", range(6))
def test_canonical_keys_and_moves_round_trip(seed: int) -> None:
    state = random_placement(seed, 2 + seed)
    position = KADON.export_position(state)
    key, symmetry = canonical(position)
    assert position_text(position, symmetry) == key
    assert position_of(key) == {
        "board": {SYMMETRIES[symmetry][c]: v for c, v in position["board"].items()},
        "to_move": position["to_move"],
    }
    for i in range(8):  # every image of the position has the same key
        image = {
            "board": {SYMMETRIES[i][c]: v for c, v in position["board"].items()},
            "to_move": position["to_move"],
        }
        assert canonical(image)[0] == key
    image_state = KADON.state_from_json(position_of(key))
    for action in state.legal_actions():
        move = state.action_to_string(action)
        mapped = map_move(move, symmetry)
        assert map_move(mapped, INVERSES[symmetry]) == move
        assert image_state.parse_action(mapped) in image_state.legal_actions()


BOOK = shipped_book(KADON)


def book_state(key: str) -> State:
    return KADON.state_from_json(position_of(key))


@pytest.mark.skipif(BOOK is None, reason="no placement book is shipped")
def test_every_book_move_is_legal_and_proven_moves_are_non_losing_on_a_sample() -> None:
    assert BOOK is not None
    proven = []
    for key, entry in BOOK.entries.items():
        state = book_state(key)
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        assert set(entry["moves"]) <= legal, key
        assert entry["proven"] or len(entry["moves"]) == 1
        if entry["proven"] and entry["moves"]:
            proven.append(key)
    assert proven
    # An independent check of a sample, small and fast: after the book's move, White's
    # likeliest replies each leave Black a placement the solver proves safe.
    solver = PlacementSolver(BOOK.horizon)
    for key in random.Random(1).sample(proven, min(2, len(proven))):
        state = book_state(key)
        state.apply_action(state.parse_action(BOOK.entries[key]["moves"][0]))
        for reply in state.legal_actions()[:2]:
            after = state.clone()
            after.apply_action(reply)
            assert solver.safe_moves(kernel(after), limit=1), (key, after.action_to_string(reply))


@pytest.mark.skipif(BOOK is None, reason="no placement book is shipped")
def test_the_opening_line_is_proven_only_by_proven_replies() -> None:
    """An opening-line move counts as proven only when every reply's position is in the book
    with a proven move; and no line move meets a reply whose position is lost."""
    assert BOOK is not None
    for key, entry in BOOK.entries.items():
        state = book_state(key)
        if placements_left(position_of(key)) <= 11:
            continue  # Black's third placement: proven by the solver (the sample above)
        below = [BOOK.entries.get(k) for k in reply_keys(KADON, state, entry["moves"][0])]
        assert not any(e is not None and e["proven"] and not e["moves"] for e in below), key
        if entry["proven"]:
            assert all(e is not None and e["proven"] and e["moves"] for e in below), key


@pytest.mark.skipif(BOOK is None, reason="no placement book is shipped")
def test_the_book_is_read_in_any_frame() -> None:
    assert BOOK is not None
    key = next(k for k, e in BOOK.entries.items() if e["proven"] and e["moves"])
    moves = BOOK.entries[key]["moves"]
    for i in range(8):
        position = position_of(key)
        image = {
            "board": {SYMMETRIES[i][c]: v for c, v in position["board"].items()},
            "to_move": position["to_move"],
        }
        found = BOOK.lookup(KADON, KADON.state_from_json(image))
        assert found is not None
        assert found == ([map_move(m, i) for m in moves], True)


@pytest.mark.soak
@pytest.mark.skipif(BOOK is None, reason="no placement book is shipped")
def test_every_proven_book_move_is_non_losing() -> None:
    """The full check (minutes): the solver proves every stored move again, and that every
    placement of a position stored without moves loses."""
    assert BOOK is not None
    solver = PlacementSolver(BOOK.horizon)
    for key, entry in BOOK.entries.items():
        if not entry["proven"]:
            continue
        state = book_state(key)
        if entry["moves"]:
            for move in entry["moves"]:
                assert not solver.loses(kernel(state), state.parse_action(move)), key
        else:
            assert solver.safe_moves(kernel(state)) == [], key


@pytest.mark.skipif(BOOK is None, reason="no placement book is shipped")
def test_the_guard_plays_a_book_move_where_the_book_holds_the_position() -> None:
    assert BOOK is not None
    guarded = PlacementGuard(make_agent("mcts(iterations=30)", KADON, seed=1), KADON, BOOK)
    for key in [k for k, e in BOOK.entries.items() if e["moves"]][:5]:
        state = book_state(key)
        guarded.reset()  # a new game for the inner search
        assert state.action_to_string(guarded.step(state)) in BOOK.entries[key]["moves"]


def test_the_book_fits_only_its_rules_and_games_long_enough() -> None:
    assert shipped_book(boardplay.load("proteus", rules="seed")) is None
    assert shipped_book(boardplay.load("proteus", rules="kadon", max_turns=20)) is None
