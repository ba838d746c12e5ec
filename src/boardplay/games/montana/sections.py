"""Montana's position sections read into a draft of the kernel's fields (``Draft``): the
landscape, each player, the worker board, the contractors, the turn and the stage, each field
type- and range-checked by the shared reader (``core.fields``) with its path in every error.
``position.load_position`` reads the top level, calls these in order and checks the whole
(spec §12.2, §15)."""

from __future__ import annotations

from typing import Any

from boardplay.core.fields import Field
from boardplay.games.montana import fields
from boardplay.games.montana import layout as L
from boardplay.games.montana.board import AXIS_NAMES
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES
from boardplay.games.montana.layout import CHANCE_STAGES, HOME, STAGE_NAMES, TRADE_STAGES, TURN_END
from boardplay.games.montana.state import EMPTY, OVER, MontanaState


def counts(field: Field, codes: tuple[str, ...]) -> list[int]:
    """``{"Cu": 2, ...}`` with exactly the keys ``codes``: the counts in that order."""
    field.exact_keys(codes)
    return [field.member(c).integer(0) for c in codes]


def multiset(field: Field) -> tuple[int, ...]:
    """A worker text such as ``"Cu+St"`` (``""``: none) as counts per colour."""
    value = field.value
    if not isinstance(value, str):
        raise field.expected("a worker text such as 'Cu+St' or ''")
    if value == "":
        return EMPTY
    counts = [0, 0, 0, 0]
    for part in value.split("+"):
        if part not in COLOUR_CODES:
            raise field.error(f"has an unknown worker colour {part!r} (use Cu, St, Gr, Pu)")
        counts[COLOUR_CODES.index(part)] += 1
    return tuple(counts)


def hex_index(field: Field, index: dict[tuple[int, int], int]) -> int:
    """A landscape hex ``[q, r]`` as its local hex index."""
    q, r = (part.integer(-100, 100) for part in field.items(2))
    field.require((q, r) in index, f"names hex {q},{r}, which is not on the landscape")
    return index[(q, r)]


class Draft:
    """The position being loaded: the kernel's fields (``fields.snapshot``) as Python values
    that the loader fills and reads back, written into the kernel by ``fields.load`` (``write``)
    before anything reads the kernel itself. Other attributes are the state's (``n``, ``data``,
    ``board``, ``game``)."""

    def __init__(self, state: MontanaState) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_values", fields.snapshot(state.kernel))

    def __getattr__(self, name: str) -> Any:
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        return getattr(object.__getattribute__(self, "_state"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._values:
            raise AttributeError(f"{name} is not a field of a Montana position")
        self._values[name] = value

    def write(self) -> None:
        fields.load(self._state.kernel, self._values)


def load_landscape(state: Draft, land: Field, index: dict[tuple[int, int], int]) -> None:
    """Settlements, cattle and canteens on a dealt board (spec §12.2 ``landscape``)."""
    board = state.board
    assert board is not None
    n = state.n
    for entry in land.member("settlements").items():
        hex_field = entry.member("hex")
        h = hex_index(hex_field, index)
        hex_field.require(
            board.specs[h].kind == "plain" and h != board.start,
            "is not a plain that can hold a settlement",
        )
        hex_field.require(state.hex_owner[h] < 0, "is listed twice")
        state.hex_owner[h] = entry.member("owner").integer(0, n - 1)
        state.hex_tiles[h] = entry.member("tiles").integer(1, 3)
    cattle = land.member("cattle")
    for cell in cattle.items():
        h = hex_index(cell, index)
        cell.require(
            h in board.cattle_hexes and state.hex_owner[h] < 0, "is not an empty cattle (K) hex"
        )
        state.hex_cattle[h] = 1
    for h in board.cattle_hexes:
        cattle.require(
            state.hex_owner[h] >= 0 or bool(state.hex_cattle[h]),
            f"lacks the cattle of empty K hex {board.coords[h]}",
        )
    canteens = land.member("canteens")
    for cell in canteens.items():
        h = hex_index(cell, index)
        cell.require(h in board.canteen_lakes, "is not a canteen lake")
        state.lake_canteen[h] = 1
    for h in board.canteen_lakes:
        settled = any(state.hex_owner[x] >= 0 for x in board.neighbours[h])
        canteens.require(
            settled != bool(state.lake_canteen[h]),
            f"lake {board.coords[h]} must hold its canteen exactly when no settlement is next "
            "to it",
        )


def load_player(state: Draft, p: int, player: Field, index: dict[tuple[int, int], int]) -> None:
    data = state.data
    player.member("seat").choice((p,))
    player.member("colour").choice((state.game.seat_name(p),))
    state.silver[p] = player.member("silver").integer(0)
    state.goods[6 * p : 6 * p + 6] = counts(player.member("goods"), GOOD_CODES)
    state.cattle[p] = player.member("cattle").integer(0)
    state.canteens[p] = player.member("canteens").integer(0)
    state.workers[4 * p : 4 * p + 4] = counts(player.member("workers"), COLOUR_CODES)
    state.tiles[p] = player.member("settlements_left").integer(0, data.settlements[state.n])
    lines = []
    lines_field = player.member("lines")
    for line in lines_field.items():
        axis = line.member("axis").index(AXIS_NAMES)
        hexes_field = line.member("hexes")
        hexes = tuple(sorted(hex_index(c, index) for c in hexes_field.items()))
        hexes_field.require(
            len(hexes) >= data.line_length and all(state.hex_owner[h] == p for h in hexes),
            f"must be >= {data.line_length} of the player's hexes",
        )
        lines.append((axis, hexes))
    state.write()  # the lines are checked against the settlements written so far
    problem = fields.set_lines(state.kernel, p, lines)
    lines_field.require(not problem, problem)
    state.lines[p] = lines  # the draft's next writes carry them


def load_worker_board(state: Draft, wb: Field) -> None:
    data = state.data
    bank = wb.member("bank")
    bank.exact_keys([s.name for s in data.bank])
    for slot, bspace in enumerate(data.bank):
        f = bank.member(bspace.name)
        ms = multiset(f)
        f.require(
            ms == EMPTY or sum(ms) == bspace.workers,
            f"must hold exactly {bspace.workers} workers or none",
        )
        state.slots[slot] = ms
    production = wb.member("production")
    production.exact_keys([s.name for area in data.areas for s in area.spaces])
    for a, area in enumerate(data.areas):
        base = state.game.area_slot[a]
        for s, pspace in enumerate(area.spaces):
            space = production.member(pspace.name)
            for part, offset in (("left", 0), ("right", 1)):
                f = space.member(part)
                ms = multiset(f)
                f.require(
                    ms == EMPTY or sum(ms) == 2 or (sum(ms) == 1 and ms[area.colour] == 1),
                    "must hold 1 area-colour worker or 2 workers",
                )
                state.slots[base + 2 * s + offset] = ms
            space.member("right").require(
                state.slots[base + 2 * s] != EMPTY or state.slots[base + 2 * s + 1] == EMPTY,
                "is occupied although its left part is empty",
            )


def load_contractors(state: Draft, field: Field) -> None:
    data = state.data
    cols = len(data.column_cost)
    rows = [r.name for r in data.rows]
    rows_used: set[int] = set()
    for p, spot_field in enumerate(field.items(state.n)):
        spot = spot_field.value
        if spot == "home":
            state.contractor[p] = HOME
            continue
        if (
            not isinstance(spot, str)
            or len(spot) < 2
            or spot[0] not in rows
            or not spot[1:].isdigit()
            or not 1 <= int(spot[1:]) <= cols
        ):
            raise spot_field.expected("'home' or a store spot such as 'A3'")
        row = rows.index(spot[0])
        spot_field.require(row not in rows_used, "shares its row with another contractor")
        rows_used.add(row)
        state.contractor[p] = row * cols + int(spot[1:]) - 1


def _seat(value: int | None) -> int:
    return -1 if value is None else value


def load_turn(state: Draft, turn: Field) -> None:
    n = state.n
    state.start_player = _seat(turn.member("start_player").optional_integer(0, n - 1))
    state.active = _seat(turn.member("active").optional_integer(0, n - 1))
    state.turn_number = turn.member("number").integer(0, state.game.max_turns)
    state.regular_turns = [v.integer(0) for v in turn.member("regular_turns").items(n)]
    state.extra_turn = turn.member("extra_turn").boolean()
    trigger = turn.member("trigger_by")
    state.trigger_by = _seat(trigger.optional_integer(0, n - 1))
    state.final_pending = turn.member("final_pending").boolean()
    if state.trigger_by >= 0:
        trigger.require(
            state.tiles[state.trigger_by] == 0, "names a player who still has settlement tiles"
        )
    else:
        trigger.require(
            all(t != 0 for t in state.tiles),
            "is null although a player has placed all settlements",
        )


def load_stage(state: Draft, stage: int, stage_obj: Field) -> None:
    """The ``stage`` object: who decides, the pending spin, push, wilds, auction … ."""
    n = state.n
    data = state.data
    stage_name = STAGE_NAMES[stage]
    state.stage = stage
    decider = stage_obj.optional("decider", None)
    if stage in CHANCE_STAGES or stage == OVER:
        decider.require(decider.value is None, f"must be null at stage {stage_name}")
        # Once over: the seat whose turn it was (the active player's; the JSON writes null).
        state.to_move = state.active if stage == OVER else -1
    else:
        state.to_move = decider.integer(0, n - 1)
    state.main = stage_obj.member("main").choice(L.MAIN_ACTIONS)
    setup = stage_obj.member("setup")
    state.setup_seat = setup.member("seat").integer(0, n)
    state.setup_spin_no = setup.member("spin").integer(0, max(0, data.setup_spins - 1))
    spin = stage_obj.member("spin").optional_integer(1, len(data.wheel))
    state.spin = -1 if spin is None else spin - 1
    state.push = _seat(stage_obj.member("push").optional_integer(0, data.max_arrow_push))
    state.received = multiset(stage_obj.member("received"))
    state.wilds = stage_obj.member("wilds").integer(0, 4)
    state.excess = stage_obj.member("excess").integer(0, 4)
    trade_windows = ["turn_end", *(STAGE_NAMES[s] for s in sorted(TRADE_STAGES))]
    after = stage_obj.member("after_overflow").choice(
        trade_windows, "'turn_end' or a trade-window stage name"
    )
    state.after_overflow = TURN_END if after == "turn_end" else STAGE_NAMES.index(after)
    spaces = [s.name for area in data.areas for s in area.spaces]
    space_name = stage_obj.member("production_space").choice([None, *spaces])
    state.prod_area = state.prod_space = -1
    for a, area in enumerate(data.areas):
        for s, pspace in enumerate(area.spaces):
            if pspace.name == space_name:
                state.prod_area, state.prod_space = a, s
    state.builds_paid = stage_obj.member("builds_paid").integer(0, data.max_builds_per_action)
    auction = stage_obj.member("auction")
    state.opp = auction.member("opportunity").integer(0, n)
    state.chain = auction.member("chain").boolean()
    state.out = [v.boolean() for v in auction.member("out").items(n)]
    state.cursor = auction.member("cursor").integer(0, n)
