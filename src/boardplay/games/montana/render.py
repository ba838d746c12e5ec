"""Text picture of a Montana position (``State.render``): the landscape as a hex map with
coordinates, costs, icons and settlements; the worker board and the store; each player board;
the supplies; and whose decision it is. Plain text for an 80-column terminal."""

from __future__ import annotations

from collections.abc import Sequence

from boardplay.games.montana import notation as A
from boardplay.games.montana.board import AXIS_NAMES, Board
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES
from boardplay.games.montana.layout import CHANCE_STAGES, HOME, STAGE_NAMES
from boardplay.games.montana.state import OVER, MontanaState

CELL = 6


class _Hexes:
    """The per-hex fields one picture reads, each read from the kernel once (every property
    builds the whole list: read per hex, they cost the picture most of its time)."""

    def __init__(self, state: MontanaState) -> None:
        self.seat_name = state.game.seat_name
        self.owner = state.hex_owner
        self.tiles = state.hex_tiles
        self.cattle = state.hex_cattle
        self.canteen = state.lake_canteen


def _hex_lines(board: Board, hexes: _Hexes, h: int) -> tuple[str, str, str]:
    q, r = board.coords[h]
    spec = board.specs[h]
    coord = f"{q},{r}"
    if h == board.start:
        return coord, "START", "*"
    if spec.kind == "mountain":
        return coord, "^^^", "mtn"
    if spec.kind == "lake":
        return coord, "~~~", "CANT" if hexes.canteen[h] else "lake"
    cost = "".join(GOOD_CODES[k] * spec.cost[k] for k in range(6))
    owner = hexes.owner[h]
    if owner >= 0:
        status = f"{hexes.seat_name(owner)[0]}x{hexes.tiles[h]}"
    else:
        flags = []
        if spec.double:
            flags.append("D")
        if spec.cattle:
            flags.append("K" if hexes.cattle[h] else "k")
        status = " ".join(flags) or "."
    return coord, cost, status


def render_map(state: MontanaState) -> list[str]:
    board = state.board
    if board is None:
        return ["(the landscape is not generated yet)"]
    xs = {h: 2 * q + r for h, (q, r) in enumerate(board.coords)}
    lo = min(xs.values())
    rows: dict[int, list[int]] = {}
    for h, (_, r) in enumerate(board.coords):
        rows.setdefault(r, []).append(h)
    hexes = _Hexes(state)
    width = (max(xs.values()) - lo) * 3 + CELL + 1
    lines: list[str] = []
    for r in sorted(rows):
        grid = [[" "] * width for _ in range(3)]
        for h in rows[r]:
            col = (xs[h] - lo) * 3
            for i, text in enumerate(_hex_lines(board, hexes, h)):
                grid[i][col : col + CELL] = text[:CELL].center(CELL)
        lines.extend("".join(g).rstrip() for g in grid)
    return lines


def _goods(values: Sequence[int]) -> str:
    return " ".join(f"{GOOD_CODES[k]}{values[k]}" for k in range(6))


def _workers(values: Sequence[int]) -> str:
    return " ".join(f"{COLOUR_CODES[c]}{values[c]}" for c in range(4))


def render_worker_board(state: MontanaState) -> list[str]:
    data = state.data
    slots = state.slots
    out = ["Worker board:"]
    bank = []
    for b, space in enumerate(data.bank):
        ms = A.workers_text(slots[b]) or "free"
        bank.append(f"{space.name}({space.workers}w>{space.silver}$) {ms}")
    out.append("  Bank: " + ", ".join(bank))
    for a, area in enumerate(data.areas):
        base = state.game.area_slot[a]
        cells = []
        for s, pspace in enumerate(area.spaces):
            left = A.workers_text(slots[base + 2 * s]) or "-"
            right = A.workers_text(slots[base + 2 * s + 1]) or "-"
            code = GOOD_CODES[area.good]
            cells.append(f"{pspace.name}({pspace.cost}$>{pspace.yield_}{code}) {left}|{right}")
        out.append(f"  {area.name.title()} ({COLOUR_CODES[area.colour]}): " + ", ".join(cells))
    cols = len(data.column_cost)
    out.append(
        "  City (General Store), columns cost " + "/".join(map(str, data.column_cost)) + "p:"
    )
    contractor = state.contractor
    for row_index, row in enumerate(data.rows):
        spots = ["."] * cols
        for p, spot in enumerate(contractor):
            if spot != HOME and spot // cols == row_index:
                spots[spot % cols] = state.game.seat_name(p)[0]
        reward = []
        if row.cattle:
            reward.append(f"{row.cattle} cattle")
        if row.silver:
            reward.append(f"{row.silver}$")
        if row.upgrades:
            reward.append(f"up to {row.upgrades} upgrades")
        if row.picks:
            picks = "/".join(GOOD_CODES[g] for g in row.pick_from)
            reward.append(f"{row.picks} picks of {picks}")
        out.append(f"    {row.name}: [{' '.join(spots)}] {', '.join(reward)}")
    home = [state.game.seat_name(p) for p in range(state.n) if contractor[p] == HOME]
    out.append("    home: " + (", ".join(home) or "-"))
    return out


def render_players(state: MontanaState) -> list[str]:
    out = []
    workers, silver, goods, lines_of = state.workers, state.silver, state.goods, state.lines
    for p in range(state.n):
        marks = ""
        if p == state.start_player:
            marks += " (start player)"
        if p == state.active:
            marks += " <- active"
        out.append(f"{state.game.seat_name(p)}{marks}")
        w = workers[4 * p : 4 * p + 4]
        out.append(
            f"  {silver[p]}$  goods {_goods(goods[6 * p : 6 * p + 6])}  "
            f"cattle {state.cattle[p]}  canteens {state.canteens[p]}"
        )
        lines = ", ".join(AXIS_NAMES[ax] for ax, _ in lines_of[p]) or "-"
        out.append(
            f"  workers {_workers(w)} ({sum(w)}/{state.data.worker_cap})  "
            f"settlements left {state.tiles[p]}  lines {lines}"
        )
    return out


def render_status(state: MontanaState) -> str:
    if state.stage == OVER:
        names = [state.game.seat_name(p) for p in state.winners()]
        how = "by the turn cap" if state.ended_by == "max_turns" else "after the final round"
        return f"Game over {how}: " + (" and ".join(names) + " win" if names else "draw")
    stage = STAGE_NAMES[state.stage]
    who = "chance" if state.stage in CHANCE_STAGES else state.game.seat_name(state.to_move)
    text = f"Turn {state.turn_number}: stage {stage}, {who} to decide"
    if state.spin >= 0:
        seg = state.data.wheel[state.spin]
        shown = "+".join("W" if s < 0 else COLOUR_CODES[s] for s in seg)
        text += f"; spin {state.spin + 1} ({shown})"
    if state.excess:
        text += f"; return {state.excess} worker(s)"
    if state.wilds:
        text += f"; choose {state.wilds} wild colour(s)"
    if state.builds_paid:
        text += f"; builds paid {state.builds_paid}"
    if state.trigger_by >= 0:
        text += f"; end triggered by {state.game.seat_name(state.trigger_by)}"
    return text


def render_state(state: MontanaState, detail: bool = False) -> str:
    lines = render_map(state)
    lines.append("Legend: cost letters c C s S g p; D double, K cattle (k taken), CANT canteen,")
    lines.append("        Bx2 = Blue's settlement with 2 tiles; build with build:q,r")
    lines.append("")
    lines.extend(render_worker_board(state))
    lines.append("")
    lines.extend(render_players(state))
    lines.append(
        f"Supply: workers {_workers(state.supply_workers)}  goods {_goods(state.supply_goods)}  "
        f"cattle {state.supply_cattle}"
    )
    lines.append(f"        canteens used {state.canteens_used}, in the box {state.canteens_box}")
    lines.append(render_status(state))
    if detail and state.stage != OVER:
        lines.append("Legal: " + ", ".join(state.legal_moves()[:60]))
    return "\n".join(lines)
