"""The test scenarios of the Montana spec (§16), one test each (variants as extra tests)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from montana_helpers import (
    check_invariants,
    clear_player,
    edit,
    fresh,
    play,
    set_cattle,
    set_goods,
    set_silver,
    set_workers,
    settle,
    step,
)

from boardplay.core.errors import PositionError
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import make_board
from boardplay.games.montana.data import load_components
from boardplay.games.montana.state import (
    BUILD_NEXT,
    END,
    MAIN,
    OVER,
    OVERFLOW,
    PLACE,
    PUSH,
    REWARD,
    RIGHT,
    WILD_STAGE,
    MontanaState,
)


def legal_with_prefix(state: MontanaState, prefix: str) -> list[str]:
    return [m for m in state.legal_moves() if m.startswith(prefix)]


def finish_turn(state: MontanaState) -> None:
    """End the active player's turn if it waits at END."""
    if state.stage == END:
        play(state, "end")


def pass_turn(state: MontanaState) -> None:
    """The active player recruits (spin 1: Cu+St, no push) and ends the turn."""
    assert state.stage == MAIN
    play(state, "recruit")
    state.apply_action(A.CHANCE_SPIN + 0)
    play(state, "push:0")
    while state.stage == OVERFLOW:
        state.apply_action(state.legal_actions()[0])
    finish_turn(state)


def find_seed(players: int, accept: Callable[[Any], Any]) -> tuple[int, Any]:
    data = load_components()
    for seed in range(500):
        found = accept(make_board(data, players, seed))
        if found is not None:
            return seed, found
    raise AssertionError("no board with the wanted hexes")


def quiet(board: Any, h: int) -> bool:
    """A plain with no D, no K and no canteen lake next to it."""
    spec = board.specs[h]
    return (
        spec.kind == "plain"
        and h != board.start
        and not spec.double
        and not spec.cattle
        and not board.lakes_next_to[h]
    )


# ----------------------------------------------------------------------------------------------


def test_s1_bank_payout() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Cu=1, St=1, Gr=2)
    set_silver(state, p, 3)
    assert legal_with_prefix(state, "work:B3:") == [
        "work:B3:Cu+St",
        "work:B3:Cu+Gr",
        "work:B3:St+Gr",
        "work:B3:Gr+Gr",
    ]
    play(state, "work:B3:Cu+St")
    assert state.silver[p] == 11
    assert state.workers[4 * p : 4 * p + 4] == [0, 0, 2, 0]
    assert state.slots[2] == (1, 1, 0, 0)
    assert [sum(state.slots[b]) for b in (0, 1, 3)] == [0, 0, 0]
    finish_turn(state)
    assert state.slots[2] == (1, 1, 0, 0)  # no cleanup: the bank is not full
    check_invariants(state)


def test_s2_grain_field() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Gr=1, St=1, Pu=1)
    set_silver(state, p, 6)
    set_goods(state, p)
    play(state, "work:G3:Gr")
    assert state.stage == RIGHT
    assert state.legal_moves() == ["right:none", "right:St+Pu"]
    play(state, "right:St+Pu")
    assert state.silver[p] == 0
    assert state.goods[6 * p + 4] == 5
    assert state.worker_count(p) == 0
    grain = state.game.area_slot[2]
    assert state.slots[grain + 4] == (0, 0, 1, 0)
    assert state.slots[grain + 5] == (0, 1, 0, 1)
    assert sum(state.slots[grain]) == 0 and sum(state.slots[grain + 2]) == 0
    check_invariants(state)


def test_s3_money_precondition_with_cattle_trade() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Cu=1)
    set_silver(state, p, 2)
    set_cattle(state, p, 1)
    moves = state.legal_moves()
    assert "work:M1:Cu" in moves
    assert "work:M2:Cu" not in moves and "work:M3:Cu" not in moves
    supply_cattle = state.supply_cattle
    copper = state.goods[6 * p]
    play(state, "trade:cattle>silver")
    assert state.silver[p] == 5 and state.cattle[p] == 0
    assert state.supply_cattle == supply_cattle + 1
    assert state.stage == MAIN
    play(state, "work:M2:Cu")
    assert state.silver[p] == 2
    assert state.goods[6 * p] == copper + 2
    assert state.worker_count(p) == 0 and state.cattle[p] == 0
    assert state.stage != RIGHT  # no RIGHT stage: no workers left
    assert state.active != p  # no cattle, no canteen: the turn passed
    check_invariants(state)


def _s4_position(**options: Any) -> tuple[MontanaState, int]:
    state = fresh(**options)
    p = state.active
    set_workers(state, p, Cu=1, St=2, Pu=2)
    set_goods(state, p, g=3)
    set_cattle(state, p, 0)
    play(state, "recruit")
    state.apply_action(state.string_to_action("spin:3"))
    return state, p


def test_s4_recruit_with_grain_replace() -> None:
    state, p = _s4_position()
    assert state.stage == PUSH
    assert state.legal_moves() == ["push:0", "push:1", "push:2", "push:3"]
    play(state, "push:2")
    assert state.workers[4 * p : 4 * p + 4] == [2, 2, 1, 2]
    assert state.goods[6 * p + 4] == 1
    assert state.stage not in (WILD_STAGE, OVERFLOW)
    assert state.active != p
    check_invariants(state)


def test_s4_recruit_without_push() -> None:
    state, p = _s4_position()
    play(state, "push:0")
    assert state.workers[4 * p : 4 * p + 4] == [1, 2, 1, 3]
    assert state.worker_count(p) == 7 and state.goods[6 * p + 4] == 3


def test_s4_recruit_additional_overflows() -> None:
    state, p = _s4_position(recruit_grain="additional")
    play(state, "push:2")
    assert state.workers[4 * p : 4 * p + 4] == [2, 2, 2, 3]
    assert state.stage == OVERFLOW and state.excess == 1
    assert state.legal_moves() == ["return:Cu", "return:St", "return:Gr", "return:Pu"]
    play(state, "return:Pu")
    assert state.worker_count(p) == 8 and state.goods[6 * p + 4] == 1
    check_invariants(state)


def test_s5_city_auction_with_displacement() -> None:
    state = fresh(players=3)
    a, b, c = 0, 1, 2
    assert state.active == a
    for seat in (a, b, c):
        clear_player(state, seat)
    set_goods(state, a, c=1)
    set_silver(state, a, 5)
    set_goods(state, b, s=2, p=3)
    set_silver(state, c, 6)
    set_goods(state, c, p=1)
    before = list(state.supply_goods)
    cattle_before = state.supply_cattle
    play(state, "work:city")
    assert state.goods[6 * a + 5] == 1
    assert "pass" not in state.legal_moves()
    play(state, "place:A1")
    assert state.stage == PLACE and state.to_move == b
    play(state, "place:A3")
    assert state.to_move == a
    assert state.legal_moves() == ["pass", "place:B1", "place:C1", "place:D1"]
    play(state, "place:C1")
    assert state.to_move == c
    assert state.legal_moves() == ["pass", "place:B1", "place:D1"]
    play(state, "place:D1")
    # resolution clockwise from A
    assert state.stage == REWARD and state.to_move == a
    assert state.legal_moves() == ["reward:up:c0s0", "reward:up:c1s0"]
    play(state, "reward:up:c1s0")
    assert state.to_move == b
    assert state.legal_moves() == ["reward:up:c0s0", "reward:up:c0s1", "reward:up:c0s2"]
    play(state, "reward:up:c0s2")
    assert state.to_move == c
    assert state.legal_moves() == ["reward:up:c0s0"]
    play(state, "reward:up:c0s0")
    assert state.contractor == [-1, -1, -1]
    assert state.goods[6 * a : 6 * a + 6] == [0, 1, 0, 0, 0, 0]
    assert state.goods[6 * b : 6 * b + 6] == [0, 0, 0, 2, 0, 0]
    assert state.cattle[b] == 1
    assert state.goods[6 * c + 5] == 0 and state.silver[c] == 8
    delta = [state.supply_goods[k] - before[k] for k in range(6)]
    assert delta == [1, -1, 2, -2, 0, 4]
    assert state.supply_cattle == cattle_before - 1
    check_invariants(state)


def _s6_state(builds: int) -> tuple[MontanaState, int, list[int]]:
    def accept(board: Any) -> list[int] | None:
        hexes = [h for h in board.neighbours[board.start] if quiet(board, h)]
        first = [h for h in hexes if board.specs[h].cost == (0, 0, 1, 0, 1, 0)]
        if first and len(hexes) >= 3:
            return [first[0], *[h for h in hexes if h != first[0]][:2]]
        return None

    seed, targets = find_seed(2, accept)
    state = fresh(board_seed=seed)
    p = state.active
    board = state.board
    assert board is not None
    # 4 of P's tiles elsewhere, on plains not next to H
    spots = [
        h
        for h in board.plains
        if h not in targets and targets[0] not in board.neighbours[h] and state.hex_owner[h] < 0
    ]
    settle(state, p, spots[0], 2)
    settle(state, p, spots[1], 2)
    assert state.tiles[p] == 8
    cost = [0] * 6
    for h in targets[:builds]:
        for k in range(6):
            cost[k] += board.costs[h][k]
    set_goods(state, p, **{code: cost[k] for k, code in enumerate("cCsSgp")})
    set_silver(state, p, 0)
    set_cattle(state, p, 0)
    return state, p, targets


def test_s6_single_build_with_compensation() -> None:
    state, p, targets = _s6_state(1)
    board = state.board
    assert board is not None
    h = targets[0]
    q, r = board.coords[h]
    play(state, f"build:{q},{r}")
    assert state.stage == BUILD_NEXT
    play(state, "stop")
    assert state.hex_owner[h] == p and state.hex_tiles[h] == 1
    assert state.tiles[p] == 7
    assert state.silver[p] == 2
    assert sum(state.goods[6 * p : 6 * p + 6]) == 0
    check_invariants(state, connectivity=False)


@pytest.mark.parametrize(("builds", "silver"), [(2, 1), (3, 0)])
def test_s6_compensation_for_two_and_three_builds(builds: int, silver: int) -> None:
    state, p, targets = _s6_state(builds)
    board = state.board
    assert board is not None
    for h in targets[:builds]:
        q, r = board.coords[h]
        play(state, f"build:{q},{r}")
    if state.stage == BUILD_NEXT:
        play(state, "stop")
    assert state.builds_paid == 0 and state.silver[p] == silver


def _s7_board(board: Any) -> tuple[int, ...] | None:
    coords = board.coords
    index = {h: i for i, h in enumerate(coords)}
    for y in range(len(coords)):
        if not (quiet_but_double(board, y) and board.specs[y].double):
            continue
        x = step(coords[y], 0, -3)
        run = [index.get(step(x, 0, k), -1) for k in range(5)]
        if -1 in run:
            continue
        if not all(board.specs[h].kind == "plain" and h != board.start for h in run[:3]):
            continue
        if quiet(board, run[4]):
            return tuple(run)
    return None


def quiet_but_double(board: Any, h: int) -> bool:
    spec = board.specs[h]
    return (
        spec.kind == "plain" and h != board.start and not spec.cattle and not board.lakes_next_to[h]
    )


def _s7_state(tiles_left: int | None = None) -> tuple[MontanaState, int, tuple[int, ...]]:
    seed, run = find_seed(2, _s7_board)
    state = fresh(board_seed=seed)
    p = state.active
    for h in run[:3]:
        settle(state, p, h)
    if tiles_left is not None:
        edit(state).tiles[p] = tiles_left
    board = state.board
    assert board is not None
    cost = [board.costs[run[3]][k] + board.costs[run[4]][k] for k in range(6)]
    set_goods(state, p, **{code: cost[k] for k, code in enumerate("cCsSgp")})
    set_cattle(state, p, 0)
    return state, p, run


def test_s7_straight_line_and_double_give_three_tiles() -> None:
    state, p, run = _s7_state()
    board = state.board
    assert board is not None
    q, r = board.coords[run[3]]
    play(state, f"build:{q},{r}", "stop")
    assert state.hex_tiles[run[3]] == 3
    assert state.lines[p] == ((0, tuple(sorted(run[:4]))),)
    # a later turn: the other player passes, then P extends the line
    pass_turn(state)
    assert state.active == p
    q, r = board.coords[run[4]]
    play(state, f"build:{q},{r}", "stop")
    assert state.hex_tiles[run[4]] == 1
    assert state.lines[p] == ((0, tuple(sorted(run[:4]))),)


def test_s7_variant_tiles_run_out() -> None:
    state, p, run = _s7_state(tiles_left=2)
    board = state.board
    assert board is not None
    q, r = board.coords[run[3]]
    play(state, f"build:{q},{r}")
    assert state.hex_tiles[run[3]] == 2
    assert state.tiles[p] == 0
    assert state.trigger_by == p
    assert state.stage != BUILD_NEXT  # the build action stopped: no tiles left


def _s8_state(**options: Any) -> tuple[MontanaState, int, int]:
    def accept(board: Any) -> tuple[int, int, int] | None:
        start = board.start
        around = set(board.neighbours[start])
        for q_hex in board.neighbours[start]:
            if board.specs[q_hex].kind != "plain":
                continue
            for h in board.neighbours[q_hex]:
                if h == start or h in around or board.specs[h].kind != "plain":
                    continue
                far = [
                    x
                    for x in board.neighbours[start]
                    if board.specs[x].kind == "plain"
                    and x != q_hex
                    and h not in board.neighbours[x]
                ]
                if far:
                    return q_hex, h, far[0]
        return None

    seed, (q_hex, h, far) = find_seed(2, accept)
    state = fresh(board_seed=seed, **options)
    p = state.active
    other = 1 - p
    settle(state, other, q_hex)
    settle(state, p, far)
    board = state.board
    assert board is not None
    cost = board.costs[h]
    set_goods(state, p, **{code: cost[k] for k, code in enumerate("cCsSgp")})
    return state, p, h


def test_s8_adjacency_own_settlements_only() -> None:
    state, _p, h = _s8_state()
    board = state.board
    assert board is not None
    q, r = board.coords[h]
    assert f"build:{q},{r}" not in state.legal_moves()


def test_s8_adjacency_any_option() -> None:
    state, _p, h = _s8_state(build_adjacent_any=True)
    board = state.board
    assert board is not None
    q, r = board.coords[h]
    assert f"build:{q},{r}" in state.legal_moves()


@pytest.mark.parametrize("adjacent_any", [False, True])
def test_s8_terrain_never_buildable(adjacent_any: bool) -> None:
    state, p, _h = _s8_state(build_adjacent_any=adjacent_any)
    board = state.board
    assert board is not None
    set_goods(state, p, c=5, C=5, s=5, S=5, g=5, p=5)
    legal = set(state.legal_actions())
    for x in range(len(board.coords)):
        if board.specs[x].kind != "plain" or x == board.start or state.hex_owner[x] >= 0:
            assert A.BUILD + board.grid_of[x] not in legal


def _s9_state(cost: tuple[int, ...]) -> tuple[MontanaState, int, int]:
    def accept(board: Any) -> tuple[int, int] | None:
        for h in board.plains:
            if board.costs[h] == cost:
                for nb in board.neighbours[h]:
                    if nb in board.plains:
                        return h, nb
        return None

    seed, (h, nb) = find_seed(2, accept)
    state = fresh(board_seed=seed)
    p = state.active
    settle(state, p, nb)
    return state, p, h


def test_s9_small_and_large_never_substitute() -> None:
    state, p, h = _s9_state((0, 0, 0, 1, 1, 0))  # S+g
    assert state.buildable(p, h)
    set_goods(state, p, s=2, g=1)
    set_cattle(state, p, 1)
    action = A.BUILD + state.board.grid_of[h]  # type: ignore[union-attr]
    assert action not in state.legal_actions()
    for trade in [a for a in state.legal_actions() if A.TRADE <= a < A.WILD]:
        after = state.clone()
        after.apply_action(trade)
        while after.stage == OVERFLOW:
            after.apply_action(after.legal_actions()[0])
        assert action not in after.legal_actions()


def test_s9_reverse_large_does_not_pay_small() -> None:
    state, p, h = _s9_state((0, 0, 1, 0, 1, 0))  # s+g
    set_goods(state, p, S=1, g=1)
    set_cattle(state, p, 0)
    assert A.BUILD + state.board.grid_of[h] not in state.legal_actions()  # type: ignore[union-attr]


def _s10_state(**options: Any) -> tuple[MontanaState, int, int]:
    def accept(board: Any) -> tuple[int, int] | None:
        hexes = [h for h in board.neighbours[board.start] if quiet(board, h)]
        return (hexes[0], hexes[1]) if len(hexes) >= 2 else None

    seed, (hb, hc) = find_seed(3, accept)
    state = fresh(players=3, board_seed=seed, **options)
    board = state.board
    assert board is not None
    a, b, c = 0, 1, 2
    assert state.active == a and state.last_seat() == c
    pass_turn(state)  # A's turn
    assert state.active == b
    # B: 1 settlement tile left, 2 cattle, 3 workers; 5$ before the build (+2$ after it)
    edit(state).tiles[b] = 1
    set_workers(state, b, Cu=3)
    set_cattle(state, b, 2)
    set_silver(state, b, 5)
    cost_b = board.costs[hb]
    set_goods(
        state, b, **{code: cost_b[k] + (2 if code == "p" else 0) for k, code in enumerate("cCsSgp")}
    )
    # C: 1 tile left, 1 cattle, 1 canteen, 1 worker, 8$ (10$ after the build), no goods left
    edit(state).tiles[c] = 1
    set_workers(state, c, St=1)
    set_cattle(state, c, 1)
    edit(state).canteens[c] = 1
    edit(state).canteens_box -= 1  # take the canteen from the box so the position stays consistent
    set_silver(state, c, 8)
    cost_c = board.costs[hc]
    set_goods(state, c, **{code: cost_c[k] for k, code in enumerate("cCsSgp")})
    q, r = board.coords[hb]
    play(state, f"build:{q},{r}")
    assert state.trigger_by == b
    assert state.stage == END
    play(state, "end")
    assert state.active == c
    q, r = board.coords[hc]
    play(state, f"build:{q},{r}")
    return state, b, c


def test_s10_end_of_game_and_tie_breaks() -> None:
    state, b, c = _s10_state()
    assert state.stage == OVER and state.is_terminal()
    assert state.regular_turns == [1, 1, 1]
    assert state.canteens[c] == 1  # C could not use the canteen
    assert state.cattle[b] + state.canteens[b] == 2 == state.cattle[c] + state.canteens[c]
    assert state.tiebreak_two(b) == 12 and state.tiebreak_two(c) == 11
    assert state.won == [b]
    assert state.returns() == [0.0, 1.0, 0.0]


def test_s10_tie_break_coins() -> None:
    state, b, c = _s10_state(tiebreak_money="coins")
    assert state.tiebreak_two(b) == 8 and state.tiebreak_two(c) == 3
    assert state.won == [b]


def test_s10_result_names_the_tie_break_that_decided() -> None:
    """B and C both placed every settlement and tie on cattle + canteens, so the second
    tie-break chose: the result says so in the position and in the record's text."""
    state, b, _c = _s10_state()
    assert state.decided_by() == "money"
    assert state.result_text().endswith(
        "(final round played out), tie broken by silver, workers and goods"
    )
    assert state.to_json()["result"] == {
        "winners": [b],
        "reason": "trigger",
        "decided_by": "money",
    }


def test_a_loaded_result_must_name_the_tie_break_of_its_position() -> None:
    state = fresh()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    position = state.to_json()
    decided = position["result"]["decided_by"]
    assert decided == state.decided_by() in ("alone", "cattle", "money", "shared", "nobody")
    assert state.game.state_from_json(position).to_json()["result"] == position["result"]
    position["result"]["decided_by"] = "shared" if decided != "shared" else "alone"
    with pytest.raises(PositionError, match=f"result.decided_by: must be '{decided}'"):
        state.game.state_from_json(position)
    del position["result"]["decided_by"]  # older positions leave it out
    assert state.game.state_from_json(position).decided_by() == decided


def test_s10_canteen_after_final_option() -> None:
    state, _b, c = _s10_state(canteen_after_final=True)
    assert state.stage == END and state.to_move == c
    assert "canteen" in state.legal_moves()
    play(state, "canteen")
    assert state.active == c and state.extra_turn and state.stage == MAIN
    assert state.regular_turns == [1, 1, 1]
