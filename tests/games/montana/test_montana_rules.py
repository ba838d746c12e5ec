"""One test per rule of the Montana spec (§3–§11), beyond the scenarios of §16."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from montana_helpers import (
    check_invariants,
    clear_player,
    edit,
    fresh,
    game,
    play,
    set_cattle,
    set_goods,
    set_silver,
    set_workers,
    settle,
)

from boardplay.games.montana import notation as A
from boardplay.games.montana.state import (
    BUILD_NEXT,
    END,
    MAIN,
    OVER,
    OVERFLOW,
    PUSH,
    REWARD,
    RIGHT,
    SETUP_WILD,
    START,
    WILD_STAGE,
    MontanaState,
)


def trades(state: MontanaState) -> list[str]:
    return [m for m in state.legal_moves() if m.startswith("trade:")]


def recruit(state: MontanaState, segment: int) -> None:
    play(state, "recruit", f"spin:{segment}")


def to_next_turn(state: MontanaState) -> None:
    if state.stage == END:
        play(state, "end")


# ----- setup (spec §3) ------------------------------------------------------------------------


def test_setup_supplies_goods_and_cattle() -> None:
    state = fresh()
    data = state.data
    assert state.supply_goods == list(data.goods_supply[2])
    assert state.aside_goods == [22 - 12 - 2, 14 - 8, 22 - 12 - 2, 14 - 8, 24 - 12 - 2, 24 - 12 - 2]
    for p in range(2):
        assert state.goods[6 * p : 6 * p + 6] == [1, 0, 1, 0, 1, 1]
        assert state.cattle[p] == 1
    assert state.supply_cattle == 16  # 24 - 6 K hexes - 2 players
    assert sum(state.lake_canteen) == 3 and state.canteens_box == 3
    check_invariants(state)


@pytest.mark.parametrize(("players", "start", "silver"), [(3, 1, [5, 3, 4]), (4, 2, [5, 6, 3, 4])])
def test_start_silver_by_seat_from_start_player(
    players: int, start: int, silver: list[int]
) -> None:
    state = fresh(players=players, start_player=start)
    assert state.silver == silver
    assert state.active == start and state.stage == MAIN


def test_setup_spins_give_four_workers_with_wild_choice() -> None:
    state = game(start_player="random").new_initial_state()
    state.apply_move("spin:2")  # W + GRAIN
    assert state.stage == SETUP_WILD and state.to_move == 0
    assert state.legal_moves() == ["wild:Cu", "wild:St", "wild:Gr", "wild:Pu"]
    play(state, "wild:Pu")
    state.apply_move("spin:1")
    assert state.workers[0:4] == [1, 1, 1, 1]
    state.apply_move("spin:3")
    state.apply_move("spin:3")
    assert state.workers[4:8] == [0, 0, 2, 2]
    assert state.stage == START
    assert state.chance_outcomes() == [(A.CHANCE_START, 0.5), (A.CHANCE_START + 1, 0.5)]
    state.apply_move("start:1")
    assert state.active == 1 and state.silver == [4, 3]


def test_board_chance_node_lists_4096_seeds() -> None:
    state = game(board_seed="random").new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == A.BOARD_OUTCOMES
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    state.apply_move("board:4095")
    assert state.board_seed == 4095 and state.to_json()["board"]["seed"] == 4095


# ----- recruit (spec §4.2) --------------------------------------------------------------------


def test_push_is_limited_by_grain_and_seven() -> None:
    state = fresh()
    set_goods(state, state.active, g=12)
    set_cattle(state, state.active, 0)
    recruit(state, 1)
    assert state.legal_moves() == [f"push:{n}" for n in range(8)]


def test_push_wraps_around_the_wheel() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p)
    set_goods(state, p, g=1)
    recruit(state, 8)
    play(state, "push:1")  # segment 8 -> 1: Cu + St
    assert state.workers[4 * p : 4 * p + 4] == [1, 1, 0, 0]


def test_wild_choices_one_and_two_symbols() -> None:
    state = fresh()
    set_workers(state, state.active)
    recruit(state, 2)
    play(state, "push:0")
    assert state.stage == WILD_STAGE and len(state.legal_actions()) == 4
    state = fresh(recruit_grain="additional")
    set_workers(state, state.active)
    set_goods(state, state.active, g=2)
    recruit(state, 2)
    play(state, "push:2")  # segments 2 (W+Gr) and 4 (W+Cu)
    assert state.stage == WILD_STAGE and len(state.legal_actions()) == 10
    play(state, "wild:St+Pu")
    assert state.workers[4 * state.active : 4 * state.active + 4] == [1, 1, 1, 1]


def test_replace_mode_discards_first_segment() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p)
    set_goods(state, p, g=1)
    recruit(state, 2)  # W + GRAIN, discarded
    play(state, "push:1")  # segment 3: GRAIN + PUMPKIN
    assert state.workers[4 * p : 4 * p + 4] == [0, 0, 1, 1]


def test_trade_for_worker_at_cap_overflows_and_returns_to_stage() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Cu=8)
    set_cattle(state, p, 1)
    play(state, "trade:cattle>worker:St")
    assert state.stage == OVERFLOW and state.excess == 1
    assert state.legal_moves() == ["return:Cu", "return:St"]
    play(state, "return:Cu")
    assert state.stage == MAIN and state.workers[4 * p : 4 * p + 4] == [7, 1, 0, 0]
    assert state.cattle[p] == 0
    check_invariants(state)


# ----- work (spec §4.3) -----------------------------------------------------------------------


def test_bank_space_taken_is_not_offered() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Cu=3)
    play(state, "work:B1:Cu")
    to_next_turn(state)
    other = state.active
    set_workers(state, other, St=3)
    moves = state.legal_moves()
    assert not any(m.startswith("work:B1") for m in moves)
    assert "work:B4:St+St+St" in moves


def test_production_left_part_rule() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Cu=1, St=1)
    set_silver(state, p, 10)
    moves = state.legal_moves()
    assert "work:M1:Cu" in moves and "work:M1:Cu+St" in moves
    assert "work:Q1:Cu" not in moves and "work:Q1:St" in moves  # 1 worker must be the colour
    set_silver(state, p, 0)
    assert not any(m.startswith("work:M") for m in state.legal_moves())


def test_right_part_only_with_enough_workers() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, St=1, Cu=1)
    set_silver(state, p, 1)
    play(state, "work:Q1:St")
    assert state.stage != RIGHT  # 1 copper worker left: neither a stone worker nor 2 workers
    state = fresh()
    p = state.active
    set_workers(state, p, St=2)
    set_silver(state, p, 1)
    play(state, "work:Q1:St")
    assert state.stage == RIGHT and state.legal_moves() == ["right:none", "right:St"]


def test_occupied_left_part_blocks_the_space() -> None:
    state = fresh()
    p = state.active
    set_workers(state, p, Pu=2)
    set_silver(state, p, 1)
    play(state, "work:F1:Pu", "right:none")
    to_next_turn(state)
    set_workers(state, state.active, Pu=3)
    set_silver(state, state.active, 10)
    moves = state.legal_moves()
    assert not any(m.startswith("work:F1") for m in moves)
    assert "work:F2:Pu" in moves


def test_cleanup_when_an_area_is_full() -> None:
    state = fresh()
    slots = state.game.area_slot[0]
    for space in range(3):
        p = state.active
        set_workers(state, p, Cu=2)
        set_silver(state, p, 6)
        play(state, f"work:M{space + 1}:Cu", "right:Cu")
        if space < 2:
            assert sum(state.slots[slots + 2 * space + 1]) == 1
            to_next_turn(state)
    assert all(sum(state.slots[slots + k]) == 0 for k in range(6))
    assert state.supply_workers[0] + sum(state.workers[0::4]) == 18
    check_invariants(state)


def test_bank_cleanup_when_full() -> None:
    state = fresh()
    for space, need in (("B1", 1), ("B2", 1), ("B3", 2), ("B4", 3)):
        set_workers(state, state.active, Gr=need)
        play(state, f"work:{space}:{'+'.join(['Gr'] * need)}")
        if space != "B4":
            assert any(sum(s) for s in state.slots[:4])
            to_next_turn(state)
    assert all(sum(s) == 0 for s in state.slots[:4])


# ----- city (spec §4.3.3) ---------------------------------------------------------------------


def _city(players: int = 3) -> MontanaState:
    state = fresh(players=players)
    for seat in range(players):
        clear_player(state, seat)
    return state


def test_city_free_pumpkin_and_others_may_pass() -> None:
    state = _city()
    play(state, "work:city")
    assert state.goods[5] == 1 and state.legal_moves() == [
        "place:A1",
        "place:B1",
        "place:C1",
        "place:D1",
    ]
    play(state, "place:B1")
    assert state.to_move == 1 and state.legal_moves() == ["pass"]  # no pumpkins
    play(state, "pass")
    assert state.to_move == 2
    play(state, "pass")
    assert state.stage == REWARD and state.to_move == 0
    assert len(state.legal_moves()) == 10  # row B: 3 picks from c, s, g


def test_row_b_picks_ten_choices_and_shortage() -> None:
    state = _city()
    play(state, "work:city", "place:B1", "pass", "pass")
    moves = state.legal_moves()
    assert len(moves) == 10 and "reward:pick:c+s+g" in moves and "reward:pick:g+g+g" in moves
    play(state, "reward:pick:g+g+g")
    assert state.goods[4] == 3 and state.goods[5] == 0


def test_displacement_chain_is_depth_first() -> None:
    state = _city(4)
    set_goods(state, 1, p=2)
    set_goods(state, 2, p=3)
    play(state, "work:city", "place:A1")  # seat 0
    play(state, "place:A2")  # seat 1 displaces seat 0
    assert state.to_move == 0 and state.chain
    play(state, "place:B1")
    assert state.to_move == 2  # chain over: seat 2's opportunity
    play(state, "place:A3")  # displaces seat 1
    assert state.to_move == 1
    play(state, "place:B2")  # displaces seat 0 again
    assert state.to_move == 0
    play(state, "pass")
    assert state.to_move == 3 and state.out[0]
    play(state, "pass")
    assert state.stage == REWARD and state.to_move == 1  # clockwise from A: seat 0 is home


def test_reward_payment_skipped_when_pumpkins_gone() -> None:
    """D28: A's pumpkin trades during A's reward cause a shortage that takes B's last pumpkin;
    B then pays nothing and receives nothing."""
    state = _city()
    set_cattle(state, 0, 2)
    set_goods(state, 1, p=1)
    set_goods(state, 2, p=state.supply_goods[5] - 1)  # the supply keeps exactly 1 pumpkin
    play(state, "work:city", "place:A1", "place:B1", "pass")
    assert state.stage == REWARD and state.to_move == 0
    play(state, "trade:cattle>good:p", "trade:cattle>good:p")
    assert state.goods[6 + 5] == 0  # B returned its pumpkin in the shortage pass
    goods_b = state.goods[6:12]
    play(state, "reward:up:c0s0")
    assert state.stage != REWARD and state.goods[6:12] == goods_b
    assert state.contractor == [-1, -1, -1]
    check_invariants(state)


def test_upgrade_shortage_keeps_the_small_piece(tmp_path: Path) -> None:
    raw = json.loads(
        resources.files("boardplay.games.montana").joinpath("data/components.json").read_text()
    )
    raw["goods_supply"]["2"]["COPPER_L"] = 2
    path = tmp_path / "short.json"
    path.write_text(json.dumps(raw))
    state = fresh(data=str(path))
    for seat in range(2):
        clear_player(state, seat)
    set_goods(state, 0, c=3)
    play(state, "work:city", "place:A1", "pass", "reward:up:c3s0")
    assert state.goods[0:2] == [1, 2]  # 2 upgrades made, 1 small copper kept
    assert state.supply_goods[1] == 0
    check_invariants(state)


def test_trades_only_for_active_player_in_auction() -> None:
    state = _city()
    set_cattle(state, 0, 1)
    set_cattle(state, 1, 1)
    set_goods(state, 1, p=2)
    play(state, "work:city")
    assert trades(state)
    play(state, "place:A1")
    assert state.to_move == 1 and not trades(state)
    play(state, "place:A2")
    assert state.to_move == 0 and trades(state)


# ----- build (spec §4.4) ----------------------------------------------------------------------


def _build_state(**options: Any) -> tuple[MontanaState, int]:
    state = fresh(**options)
    p = state.active
    set_goods(state, p, c=6, C=6, s=6, S=6, g=6, p=6)
    set_cattle(state, p, 0)
    return state, p


def _coords(state: MontanaState, h: int) -> str:
    assert state.board is not None
    q, r = state.board.coords[h]
    return f"build:{q},{r}"


def test_build_limit_three_and_settlements_earlier_count() -> None:
    state, p = _build_state()
    board = state.board
    assert board is not None
    first = next(h for h in board.neighbours[board.start] if state.buildable(p, h))
    play(state, _coords(state, first))
    assert state.stage == BUILD_NEXT
    beyond = [h for h in board.neighbours[first] if h not in board.neighbours[board.start]]
    beyond = [h for h in beyond if state.buildable(p, h)]
    if beyond:
        assert _coords(state, beyond[0]) in state.legal_moves()
    for _ in range(2):
        options = [m for m in state.legal_moves() if m.startswith("build:")]
        play(state, options[0])
    assert state.stage != BUILD_NEXT and state.builds_paid == 0


def test_build_takes_cattle_and_canteen() -> None:
    seed = 0
    while True:
        state, p = _build_state(board_seed=seed)
        board = state.board
        assert board is not None
        both = [
            h
            for h in board.neighbours[board.start]
            if board.specs[h].kind == "plain" and board.specs[h].cattle and board.lakes_next_to[h]
        ]
        if both:
            break
        seed += 1
    h = both[0]
    cattle, canteens = state.cattle[p], state.canteens[p]
    play(state, _coords(state, h))
    assert state.cattle[p] == cattle + 1 and state.hex_cattle[h] == 0
    assert state.canteens[p] == canteens + len(board.lakes_next_to[h])
    check_invariants(state)


def test_double_hex_gets_two_tiles() -> None:
    seed = 0
    while True:
        state, p = _build_state(board_seed=seed)
        board = state.board
        assert board is not None
        doubles = [h for h in board.neighbours[board.start] if board.specs[h].double]
        if doubles:
            break
        seed += 1
    tiles = state.tiles[p]
    play(state, _coords(state, doubles[0]))
    assert state.hex_tiles[doubles[0]] == 2 and state.tiles[p] == tiles - 2


def test_compensation_when_tiles_run_out() -> None:
    state, p = _build_state()
    board = state.board
    assert board is not None
    h = next(
        x
        for x in board.neighbours[board.start]
        if state.buildable(p, x) and not board.specs[x].double
    )
    edit(state).tiles[p] = 1
    silver = state.silver[p]
    play(state, _coords(state, h))
    assert state.silver[p] == silver + 2  # 2nd and 3rd builds not made (D30)
    assert state.trigger_by == p


def test_line_bonus_once_per_hex_on_two_axes() -> None:
    """A hex completing lines on two axes gets one extra tile; both runs are recorded."""
    for seed in range(300):
        state, p = _build_state(board_seed=seed)
        board = state.board
        assert board is not None
        for h in board.plains:
            if board.specs[h].double:
                continue
            arms = []
            for d in (0, 1):  # E and NE arms of 3 plains each
                cells, cur = [], h
                for _ in range(3):
                    cur = board.step[cur][d]
                    if cur < 0 or cur == board.start or board.specs[cur].kind != "plain":
                        break
                    cells.append(cur)
                arms.append(cells)
            if all(len(a) == 3 for a in arms):
                for cell in arms[0] + arms[1]:
                    settle(state, p, cell)
                before = state.tiles[p]
                assert state.buildable(p, h)
                play(state, _coords(state, h))
                assert state.hex_tiles[h] == 2 and state.tiles[p] == before - 2
                assert {axis for axis, _ in state.lines[p]} == {0, 1}
                return
    pytest.fail("no board with two 3-hex arms")


def test_line_joining_two_short_runs_counts() -> None:
    for seed in range(300):
        state, p = _build_state(board_seed=seed)
        board = state.board
        assert board is not None
        for h in board.plains:
            if board.specs[h].double:
                continue
            west = [
                board.step[h][3],
                board.step[board.step[h][3]][3] if board.step[h][3] >= 0 else -1,
            ]
            east = board.step[h][0]
            cells = [*west, east]
            if all(c >= 0 and c != board.start and board.specs[c].kind == "plain" for c in cells):
                for cell in cells:
                    settle(state, p, cell)
                play(state, _coords(state, h))
                assert state.hex_tiles[h] == 2
                assert state.lines[p][0][0] == 0 and len(state.lines[p][0][1]) == 4
                return
    pytest.fail("no suitable board")


# ----- trades, shortage, canteen, end -----------------------------------------------------------


def test_trade_windows() -> None:
    state = fresh()
    p = state.active
    set_cattle(state, p, 3)
    set_workers(state, p, Cu=1, St=1)
    set_goods(state, p, g=2)
    assert len(trades(state)) == 9
    play(state, "recruit", "spin:2")
    assert state.stage == PUSH and trades(state)
    play(state, "push:0")
    assert state.stage == WILD_STAGE and not trades(state)
    play(state, "wild:Cu")
    assert state.stage == END and trades(state)
    play(state, "trade:cattle>good:p")
    assert state.stage == END and state.goods[6 * p + 5] == 1 and state.cattle[p] == 2


def test_goods_shortage_every_holder_returns_one() -> None:
    state = fresh(players=3)
    p = state.active
    supply = state.supply_goods[4]
    set_goods(state, 1, g=supply + 1)  # seat 1 takes the whole grain supply (and its own)
    assert state.supply_goods[4] == 0
    set_workers(state, p, Gr=1)
    set_silver(state, p, 1)
    # G1 yields 2 grain: pass 1 returns 1 from seats 0, 1, 2 (each holds grain) -> 3 >= 2
    before = [state.goods[6 * s + 4] for s in range(3)]
    play(state, "work:G1:Gr")
    after = [state.goods[6 * s + 4] for s in range(3)]
    assert after[1] == before[1] - 1 and after[2] == before[2] - 1
    assert after[p] == before[p] - 1 + 2
    assert state.supply_goods[4] == 1
    check_invariants(state)


def test_canteen_gives_extra_turn_after_cleanup() -> None:
    state = fresh()
    p = state.active
    edit(state).canteens[p] = 1
    edit(state).canteens_box -= 1
    set_cattle(state, p, 0)
    set_workers(state, p, Cu=1)
    turns = state.turn_number
    play(state, "work:B1:Cu")
    assert state.stage == END and state.legal_moves() == ["canteen", "end"]
    play(state, "canteen")
    assert state.active == p and state.extra_turn and state.stage == MAIN
    assert state.turn_number == turns + 1 and state.regular_turns[p] == 1
    assert state.canteens_used == 1 and state.canteens[p] == 0


def test_no_end_stage_without_cattle_or_canteen() -> None:
    state = fresh()
    p = state.active
    set_cattle(state, p, 0)
    set_workers(state, p, Cu=1)
    play(state, "work:B1:Cu")
    assert state.active == 1 - p and state.stage == MAIN


def test_turn_cap_draw_when_nobody_finished() -> None:
    state = fresh(max_turns=3)
    for move in ("work:B1:Cu", "work:B2:Cu", "work:B3:Cu+St"):
        set_cattle(state, state.active, 0)
        set_workers(state, state.active, Cu=1, St=1, Gr=1)
        play(state, move)
    assert state.stage == OVER and state.ended_by == "max_turns"
    assert state.won == [] and state.returns() == [0.5, 0.5]
    assert state.result_text().startswith("draw")


def test_only_finished_players_win_and_full_tie_is_shared() -> None:
    state = fresh(players=3)
    edit(state).tiles = [0, 0, 4]
    for p in range(3):
        clear_player(state, p)
    assert state.compute_winners() == [0, 1]
    set_cattle(state, 1, 1)
    assert state.compute_winners() == [1]
    set_cattle(state, 2, 5)
    assert state.compute_winners() == [1]


def test_decided_by_names_each_step_of_the_winner_rule() -> None:
    state = fresh(players=3)
    assert state.decided_by() is None  # the game is still running
    for p in range(3):
        clear_player(state, p)

    def decided(tiles: list[int]) -> str | None:
        edit(state).tiles = tiles
        edit(state).won = state.compute_winners()
        return state.decided_by()

    assert decided([4, 4, 4]) == "nobody"
    assert decided([0, 4, 4]) == "alone"
    assert decided([0, 0, 4]) == "shared" and state.won == [0, 1]
    set_cattle(state, 2, 5)  # the leader on cattle has not placed every settlement
    assert decided([0, 0, 4]) == "shared"
    set_cattle(state, 1, 1)
    assert decided([0, 0, 4]) == "cattle" and state.won == [1]
    set_cattle(state, 0, 1)
    set_silver(state, 0, 2)
    assert decided([0, 0, 4]) == "money" and state.won == [0]


def test_last_seat_triggers_game_over_immediately() -> None:
    state = fresh()
    p = state.active
    assert state.last_seat() == 1
    set_cattle(state, p, 0)
    set_workers(state, p, Cu=1)
    play(state, "work:B1:Cu")
    last = state.active
    assert last == 1
    board = state.board
    assert board is not None
    h = next(x for x in board.neighbours[board.start] if state.buildable(last, x))
    edit(state).tiles[last] = 1
    set_goods(state, last, **dict(zip("cCsSgp", board.costs[h], strict=True)))
    play(state, _coords(state, h))
    assert state.stage == OVER and state.ended_by == "trigger" and state.won == [last]


def test_turn_cap_beats_canteen_after_final() -> None:
    """The last seat's canteen (canteen_after_final) never runs past max_turns."""
    state = fresh(canteen_after_final=True, max_turns=2)
    set_cattle(state, state.active, 0)
    set_workers(state, state.active, Cu=1)
    play(state, "work:B1:Cu")
    last = state.active
    board = state.board
    assert board is not None
    h = next(x for x in board.neighbours[board.start] if state.buildable(last, x))
    edit(state).tiles[last] = 1
    edit(state).canteens[last] = 1
    set_goods(state, last, **dict(zip("cCsSgp", board.costs[h], strict=True)))
    play(state, _coords(state, h))
    assert state.stage == OVER and state.ended_by == "trigger" and state.canteens[last] == 1


def test_worker_shortage_on_recruit() -> None:
    """Workers on the worker board do not count; holders return 1 each until enough."""
    state = fresh()
    p, other = state.active, 1 - state.active
    set_workers(state, p)
    set_workers(state, other, Cu=8)
    mine = state.game.area_slot[0]
    for slot, count in ((2, 2), (3, 3), (mine, 1), (mine + 2, 2)):
        edit(state).slots[slot] = (count, 0, 0, 0)
        edit(state).supply_workers[0] -= count
    edit(state).slots[state.game.area_slot[1]] = (2, 0, 0, 0)
    edit(state).supply_workers[0] -= 2
    assert state.supply_workers[0] == 0
    set_goods(state, p)
    play(state, "recruit", "spin:1", "push:0")  # Cu + St
    assert state.workers[4 * p : 4 * p + 4] == [1, 1, 0, 0]
    assert state.workers[4 * other] == 7 and state.supply_workers[0] == 0


def test_cattle_shortage_on_row_a() -> None:
    """D34: the shortage rule covers cattle taken from the supply."""
    state = _city(2)
    set_goods(state, 0, p=0)
    set_cattle(state, 1, state.supply_cattle)
    assert state.supply_cattle == 0
    held = state.cattle[1]
    play(state, "work:city", "place:A1", "pass", "reward:up:c0s0")
    assert state.cattle[0] == 1 and state.cattle[1] == held - 1
    check_invariants(state)


@pytest.mark.parametrize("adjacent_any", [False, True])
def test_build_sites_are_the_buildable_plains(adjacent_any: bool) -> None:
    """build_sites (one pass for every player, used by the AI) agrees with buildable()."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        state = game(build_adjacent_any=adjacent_any, board_seed=seed).new_initial_state()
        while not state.is_terminal() and checked < 400 * (seed + 1):
            if state.board is not None:
                sites = state.build_sites()
                for p in range(state.n):
                    expected = [
                        state.board.costs[h]
                        for h in state.board.plains
                        if state.tiles[p] > 0 and state.buildable(p, h)
                    ]
                    assert sorted(sites[p]) == sorted(expected)
                checked += 1
            legal = state.legal_actions() or [o for o, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(legal))
    assert checked > 1000
