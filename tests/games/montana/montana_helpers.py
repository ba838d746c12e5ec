"""Helpers for the Montana tests: set up positions by moving pieces between the supply and the
player boards (so every invariant keeps holding), find hexes with given properties, and check
the invariants of spec §15 on any state."""

from __future__ import annotations

from typing import Any

import boardplay
from boardplay.games.montana import fields
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import DIRS
from boardplay.games.montana.layout import HOME
from boardplay.games.montana.state import MAIN, OVER, OVERFLOW, PLACE, REWARD, MontanaState

COLOURS = {"Cu": 0, "St": 1, "Gr": 2, "Pu": 3}
GOODS = {"c": 0, "C": 1, "s": 2, "S": 3, "g": 4, "p": 5}


def game(**options: Any) -> Any:
    opts: dict[str, Any] = {"board_seed": 0, "start_player": 0}
    opts.update(options)
    return boardplay.load("montana", **opts)


def fresh(**options: Any) -> MontanaState:
    """A state at the start player's first MAIN, after setup spins with no wild symbols chosen
    badly: every setup spin is segment 1 (Cu+St)."""
    state = game(**options).new_initial_state()
    while state.current_player() < 0 and state.stage != MAIN:
        state.apply_action(A.CHANCE_SPIN + 0)
    assert state.stage == MAIN
    return state


class _Values(list[Any]):
    """One field's values; setting an entry loads the field back into the kernel."""

    def __init__(self, state: MontanaState, name: str, values: list[Any]) -> None:
        super().__init__(values)
        self._state, self._name = state, name

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        _write(self._state, self._name, list(self))


class edit:
    """For tests that build a position: ``edit(state).silver[p] = 2``, ``edit(state).stage =
    3``, ``edit(state).won = [0]`` write the field into the kernel through ``fields.load``, the
    position loader's one path (the facade's fields are read-only). It checks sizes and
    ranges, not the rules: what a test writes must be a position the rules could reach."""

    def __init__(self, state: MontanaState) -> None:
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str) -> Any:
        value = fields.snapshot(self._state.kernel)[name]
        return _Values(self._state, name, value) if isinstance(value, list) else value

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "won":  # the winners as the kernel's bit set; None: nobody has won
            name, value = "won_mask", -1 if value is None else sum(1 << seat for seat in value)
        _write(self._state, name, value)


def _write(state: MontanaState, name: str, value: Any) -> None:
    """Change one field: the whole position loaded again (``fields.load`` takes it whole)."""
    values = fields.snapshot(state.kernel)
    if name not in values:
        raise AttributeError(f"{name} is not a field of a Montana position")
    fields.load(state.kernel, {**values, name: value})


def set_workers(state: MontanaState, player: int, **counts: int) -> None:
    """Give ``player`` exactly these workers (others 0), to and from the supply."""
    for code, c in COLOURS.items():
        want = counts.get(code, 0)
        have = state.workers[4 * player + c]
        edit(state).supply_workers[c] += have - want
        edit(state).workers[4 * player + c] = want
        assert state.supply_workers[c] >= 0
    state._legal = None


def set_goods(state: MontanaState, player: int, **counts: int) -> None:
    for code, k in GOODS.items():
        want = counts.get(code, 0)
        have = state.goods[6 * player + k]
        edit(state).supply_goods[k] += have - want
        edit(state).goods[6 * player + k] = want
        assert state.supply_goods[k] >= 0, code
    state._legal = None


def set_cattle(state: MontanaState, player: int, count: int) -> None:
    edit(state).supply_cattle += state.cattle[player] - count
    edit(state).cattle[player] = count
    assert state.supply_cattle >= 0
    state._legal = None


def set_silver(state: MontanaState, player: int, silver: int) -> None:
    edit(state).silver[player] = silver
    state._legal = None


def clear_player(state: MontanaState, player: int) -> None:
    set_workers(state, player)
    set_goods(state, player)
    set_cattle(state, player, 0)
    set_silver(state, player, 0)


def hex_of(state: MontanaState, q: int, r: int) -> int:
    assert state.board is not None
    return state.board.coords.index((q, r))


def settle(state: MontanaState, player: int, h: int, tiles: int = 1) -> None:
    """Put ``tiles`` of ``player``'s settlement tiles on hex ``h`` (no effects, as a position
    set-up): takes the K cattle to the supply and removes canteens of adjacent lakes to 'used'
    so that the invariants hold."""
    board = state.board
    assert board is not None
    assert state.hex_owner[h] == -1 and board.specs[h].kind == "plain" and h != board.start
    edit(state).hex_owner[h] = player
    edit(state).hex_tiles[h] = tiles
    edit(state).tiles[player] -= tiles
    if state.hex_cattle[h]:
        edit(state).hex_cattle[h] = 0
        edit(state).supply_cattle += 1
    for lake in board.lakes_next_to[h]:
        if state.lake_canteen[lake]:
            edit(state).lake_canteen[lake] = 0
            edit(state).canteens_used += 1
    state._legal = None


def step(h: tuple[int, int], d: int, k: int = 1) -> tuple[int, int]:
    return (h[0] + k * DIRS[d][0], h[1] + k * DIRS[d][1])


def play(state: MontanaState, *moves: str) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move))


def check_invariants(state: MontanaState, connectivity: bool = True) -> None:
    """Spec §15 I1–I12 (and I13's 'no dead stage'). Scenario positions that place settlements
    by hand skip I9 (``connectivity=False``)."""
    # read every field once (the facade's fields read the kernel on each access)
    hex_owner = list(state.hex_owner)
    hex_tiles = list(state.hex_tiles)
    hex_cattle = list(state.hex_cattle)
    lake_canteen = list(state.lake_canteen)
    workers = list(state.workers)
    goods = list(state.goods)
    slots = list(state.slots)
    supply_workers = list(state.supply_workers)
    supply_goods = list(state.supply_goods)
    aside_goods = list(state.aside_goods)
    silver = list(state.silver)
    cattle = list(state.cattle)
    canteens = list(state.canteens)
    tiles = list(state.tiles)
    contractor = list(state.contractor)

    data = state.data
    n = state.n
    # I1 workers
    for c in range(4):
        total = (
            supply_workers[c] + sum(workers[4 * p + c] for p in range(n)) + sum(s[c] for s in slots)
        )
        assert total == data.workers_per_colour, ("I1", c, total)
    # I6 non-negativity
    for values in (
        supply_workers,
        supply_goods,
        silver,
        goods,
        cattle,
        canteens,
        workers,
        tiles,
    ):
        assert min(values) >= 0, "I6"
    assert state.supply_cattle >= 0
    # I7 cap
    for p in range(n):
        if not (state.stage == OVERFLOW and state.to_move == p):
            assert state.worker_count(p) <= data.worker_cap, "I7"
    board = state.board
    if board is None:
        return
    # I2 goods
    for k in range(6):
        total = supply_goods[k] + sum(goods[6 * p + k] for p in range(n))
        assert total == data.goods_supply[n][k] + n * data.start_goods[k], ("I2", k)
        assert total + aside_goods[k] == data.goods_box[k]
    # I3 cattle
    assert state.supply_cattle + sum(cattle) + sum(hex_cattle) == data.cattle_total
    # I4 canteens
    box = data.canteens_total - len(board.canteen_lakes)
    assert state.canteens_box == box
    assert sum(lake_canteen) + sum(canteens) + state.canteens_used + box == data.canteens_total, (
        "I4"
    )
    # I5 settlements
    for p in range(n):
        placed = sum(t for h, t in enumerate(hex_tiles) if hex_owner[h] == p)
        assert placed + tiles[p] == data.settlements[n], "I5"
    # I8 hexes
    for h, spec in enumerate(board.specs):
        if hex_owner[h] >= 0:
            assert spec.kind == "plain" and h != board.start
            assert 1 <= hex_tiles[h] <= 3
        else:
            assert hex_tiles[h] == 0
        if spec.kind == "plain" and spec.cattle:
            assert hex_cattle[h] == (1 if hex_owner[h] < 0 else 0), "I8 cattle"
    for lake in board.canteen_lakes:
        settled = any(hex_owner[x] >= 0 for x in board.neighbours[lake])
        assert lake_canteen[lake] == (0 if settled else 1), "I8 canteen"
    # I9 connectivity
    groups = (
        []
        if not connectivity
        else (
            [{h for h in range(len(board.coords)) if hex_owner[h] >= 0}]
            if state.game.adjacent_any
            else [{h for h in range(len(board.coords)) if hex_owner[h] == p} for p in range(n)]
        )
    )
    for group in groups:
        seen = {board.start}
        stack = [board.start]
        while stack:
            h = stack.pop()
            for nb in board.neighbours[h]:
                if nb in group and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        assert group <= seen, "I9"
    # I10 worker board parts
    for b, space in enumerate(data.bank):
        assert sum(slots[b]) in (0, space.workers)
    for a, area in enumerate(data.areas):
        base = state.game.area_slot[a]
        for s in range(len(area.spaces)):
            left, right = slots[base + 2 * s], slots[base + 2 * s + 1]
            if sum(right):
                assert sum(left), "I10 right without left"
            for part in (left, right):
                assert sum(part) in (0, 2) or part[area.colour] == 1, "I10 part"
    # I11 contractors
    if state.stage not in (PLACE, REWARD) and not (
        state.stage == OVERFLOW and state.after_overflow in (PLACE, REWARD)
    ):
        assert all(c == HOME for c in contractor), "I11"
    rows = [c // len(data.column_cost) for c in contractor if c != HOME]
    assert len(rows) == len(set(rows)), "I11 one per row"
    # I12 lines
    for p in range(n):
        per_axis: dict[int, set[int]] = {}
        for axis, hexes in state.lines[p]:
            assert len(hexes) >= data.line_length and board.start not in hexes
            seen_axis = per_axis.setdefault(axis, set())
            assert not (seen_axis & set(hexes)), "I12"
            seen_axis |= set(hexes)
    # I13 no dead stage
    if state.stage != OVER:
        assert state.legal_actions(), "I13"


def start_of_turn_checks(state: MontanaState) -> None:
    """I10: at the start of every turn no bank or production area is full."""
    data = state.data
    assert any(sum(state.slots[b]) == 0 for b in range(len(data.bank)))
    for a, area in enumerate(data.areas):
        base = state.game.area_slot[a]
        assert any(sum(state.slots[base + 2 * s]) == 0 for s in range(len(area.spaces)))
