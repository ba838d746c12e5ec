"""Montana's position JSON (rules spec §12.2; format in docs/formats/montana.md).

Export writes every field in a fixed order so that ``export(load(export(s))) == export(s)``.
Loading never trusts its input: each field is type- and range-checked by the shared reader
(``core.fields``), the cross-field rules and conservation invariants (spec §15) are verified by
``invariants``, and every failure raises ``PositionError`` naming the field's path. The board is
rebuilt from the seed (authoritative); the tile list in the JSON is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.core.fields import Field, read
from boardplay.games.montana import fields
from boardplay.games.montana import layout as L
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import AXIS_NAMES, make_board
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES
from boardplay.games.montana.invariants import check_conservation, check_stage
from boardplay.games.montana.layout import CHANCE_STAGES, HOME, STAGE_NAMES, TRADE_STAGES, TURN_END
from boardplay.games.montana.state import (
    BOARD,
    EMPTY,
    OVER,
    MontanaGameBase,
    MontanaState,
    new_kernel,
)

FORMAT = "montana-position"
VERSION = 1


def _goods(values: Sequence[int]) -> dict[str, int]:
    return {GOOD_CODES[k]: values[k] for k in range(6)}


def _workers(values: Sequence[int]) -> dict[str, int]:
    return {COLOUR_CODES[c]: values[c] for c in range(4)}


def _spot(state: MontanaState, spot: int) -> str:
    if spot == HOME:
        return "home"
    cols = len(state.data.column_cost)
    return f"{state.data.rows[spot // cols].name}{spot % cols + 1}"


def export_position(state: MontanaState) -> dict[str, Any]:
    data = state.data
    board = state.board
    n = state.n
    owner, tiles = list(state.hex_owner), list(state.hex_tiles)
    silver, goods, workers = list(state.silver), list(state.goods), list(state.workers)
    slots = list(state.slots)
    lines = state.lines
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "data": {"id": data.id, "digest": data.digest},
        "options": dict(state.game.options),
    }
    cattle, canteens = list(state.hex_cattle), list(state.lake_canteen)
    if board is None:
        out["board"] = None
        out["landscape"] = None
    else:
        out["board"] = {
            "seed": state.board_seed,
            "tiles": [
                {"position": list(pos), "tile": tid, "rotation": rot}
                for pos, tid, rot in board.placed
            ],
        }
        out["landscape"] = {
            "settlements": [
                {
                    "hex": list(board.coords[h]),
                    "owner": owner[h],
                    "tiles": tiles[h],
                }
                for h in range(len(board.coords))
                if owner[h] >= 0
            ],
            "cattle": [list(board.coords[h]) for h in board.cattle_hexes if cattle[h]],
            "canteens": [list(board.coords[h]) for h in board.canteen_lakes if canteens[h]],
        }
    out["supply"] = {
        "workers": _workers(state.supply_workers),
        "goods": _goods(state.supply_goods),
        "cattle": state.supply_cattle,
        "set_aside": _goods(state.aside_goods),
        "canteens_used": state.canteens_used,
        "canteens_in_box": state.canteens_box,
    }
    cattle_of, canteens_of, tiles_left = state.cattle, state.canteens, state.tiles
    players = []
    for p in range(n):
        players.append(
            {
                "seat": p,
                "colour": state.game.seat_name(p),
                "silver": silver[p],
                "goods": _goods(goods[6 * p : 6 * p + 6]),
                "cattle": cattle_of[p],
                "canteens": canteens_of[p],
                "workers": _workers(workers[4 * p : 4 * p + 4]),
                "settlements_left": tiles_left[p],
                "lines": [
                    {
                        "axis": AXIS_NAMES[axis],
                        "hexes": [list(board.coords[h]) for h in hexes] if board else [],
                    }
                    for axis, hexes in lines[p]
                ],
            }
        )
    out["players"] = players
    bank = {space.name: A.workers_text(slots[b]) for b, space in enumerate(data.bank)}
    production: dict[str, dict[str, str]] = {}
    for a, area in enumerate(data.areas):
        base = state.game.area_slot[a]
        for s, pspace in enumerate(area.spaces):
            production[pspace.name] = {
                "left": A.workers_text(slots[base + 2 * s]),
                "right": A.workers_text(slots[base + 2 * s + 1]),
            }
    out["worker_board"] = {"bank": bank, "production": production}
    out["contractors"] = [_spot(state, c) for c in state.contractor]
    out["turn"] = {
        "start_player": None if state.start_player < 0 else state.start_player,
        "active": None if state.active < 0 else state.active,
        "number": state.turn_number,
        "regular_turns": list(state.regular_turns),
        "extra_turn": state.extra_turn,
        "trigger_by": None if state.trigger_by < 0 else state.trigger_by,
        "final_pending": state.final_pending,
    }
    prod_space = None
    if state.prod_area >= 0:
        prod_space = data.areas[state.prod_area].spaces[state.prod_space].name
    out["stage"] = {
        "name": STAGE_NAMES[state.stage],
        "decider": None if state.stage in CHANCE_STAGES or state.stage == OVER else state.to_move,
        "main": state.main,
        "setup": {"seat": state.setup_seat, "spin": state.setup_spin_no},
        "spin": None if state.spin < 0 else state.spin + 1,
        "push": None if state.push < 0 else state.push,
        "received": A.workers_text(state.received),
        "wilds": state.wilds,
        "excess": state.excess,
        "after_overflow": "turn_end"
        if state.after_overflow == TURN_END
        else STAGE_NAMES[state.after_overflow],
        "production_space": prod_space,
        "builds_paid": state.builds_paid,
        "auction": {
            "opportunity": state.opp,
            "chain": state.chain,
            "out": [bool(v) for v in state.out],
            "cursor": state.cursor,
        },
    }
    out["result"] = (
        None
        if state.won is None
        else {
            "winners": list(state.won),
            "reason": state.ended_by,
            "decided_by": state.decided_by(),
        }
    )
    return out


# ----------------------------------------------------------------------------------------------
# loading


def _counts(field: Field, codes: tuple[str, ...]) -> list[int]:
    """``{"Cu": 2, ...}`` with exactly the keys ``codes``: the counts in that order."""
    field.exact_keys(codes)
    return [field.member(c).integer(0) for c in codes]


def _multiset(field: Field) -> tuple[int, ...]:
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


def _hex(field: Field, index: dict[tuple[int, int], int]) -> int:
    """A landscape hex ``[q, r]`` as its local hex index."""
    q, r = (part.integer(-100, 100) for part in field.items(2))
    field.require((q, r) in index, f"names hex {q},{r}, which is not on the landscape")
    return index[(q, r)]


def load_position(game: MontanaGameBase, position: Mapping[str, Any]) -> MontanaState:
    top = read(position)
    top.member("format").choice((FORMAT,))
    top.member("version").choice((VERSION,))
    data_ref = top.member("data")
    data_ref.member("id").choice((game.data.id,), f"{game.data.id!r}, this game's component data")
    data_ref.member("digest").choice((game.data.digest,), "the digest of this game's data")
    options = top.member("options")
    for key, value in game.options.items():
        options.member(key).choice((value,), f"{value!r} (this game's option {key})")
    options.keys(game.options)
    # A fresh state has the right list sizes; every field is then overwritten from the JSON.
    state = MontanaState(game, new_kernel(game))
    n = state.n
    data = state.data

    stage_obj = top.member("stage")
    stage_field = stage_obj.member("name")
    stage = stage_field.index(STAGE_NAMES)
    stage_name = STAGE_NAMES[stage]

    board_field = top.optional("board", None)
    if board_field.value is None:
        board_field.require(stage == BOARD, "is null, which is only possible at stage BOARD")
        board_field.require(
            not isinstance(game.options["board_seed"], int),
            "is null although the option board_seed fixes the board",
        )
        index: dict[tuple[int, int], int] = {}
    else:
        stage_field.require(stage != BOARD, "is BOARD although the board is already generated")
        seed_field = board_field.member("seed")
        seed = seed_field.integer(0, L.BOARD_SEED_MAX)
        fixed = game.options["board_seed"]
        if isinstance(fixed, int):
            seed_field.require(fixed == seed, f"is {seed} but the option board_seed is {fixed}")
        if fixed == "random":
            seed_field.require(
                seed < L.BOARD_OUTCOMES, f"must be below {L.BOARD_OUTCOMES} with board_seed=random"
            )
        board = make_board(data, n, seed)
        if board_field.has("tiles"):
            expect = [{"position": list(p), "tile": t, "rotation": r} for p, t, r in board.placed]
            board_field.member("tiles").same_as(expect, f"the board generated from seed {seed}")
        fields.load_board(state.kernel, seed)
        index = {h: i for i, h in enumerate(board.coords)}
    edit = _Draft(state)
    if board_field.value is not None:
        _load_landscape(edit, top.member("landscape"), index)

    supply = top.member("supply")
    edit.supply_workers = _counts(supply.member("workers"), COLOUR_CODES)
    edit.supply_goods = _counts(supply.member("goods"), GOOD_CODES)
    edit.supply_cattle = supply.member("cattle").integer(0)
    edit.aside_goods = _counts(supply.member("set_aside"), GOOD_CODES)
    edit.canteens_used = supply.member("canteens_used").integer(0)
    edit.canteens_box = supply.member("canteens_in_box").integer(0)

    for p, player in enumerate(top.member("players").items(n)):
        _load_player(edit, p, player, index)
    _load_worker_board(edit, top.member("worker_board"))
    _load_contractors(edit, top.member("contractors"))
    _load_turn(edit, top.member("turn"))
    _load_stage(edit, stage, stage_obj)
    edit.write()
    check_stage(state, top)

    result = top.optional("result", None)
    if stage == OVER:
        winners = result.member("winners")
        won = [w.integer(0, n - 1) for w in winners.items()]
        edit.won_mask = sum(1 << w for w in won)
        edit.ended_by = result.member("reason").choice(L.END_REASONS[1:])
        edit.write()
        winners.require(
            won == state.compute_winners(),
            f"must be {state.compute_winners()} for this position",
        )
        decided = result.optional("decided_by", None)
        decided.require(
            decided.value in (None, state.decided_by()),
            f"must be {state.decided_by()!r} for this position (or left out)",
        )
    else:
        result.require(result.value is None, "must be null while the game is in progress")
    check_conservation(state, top, board_field.value is not None)
    state._history = []
    if stage != OVER:
        stage_obj.require(
            bool(state.legal_actions()), f"{stage_name} leaves the deciding player no legal action"
        )
    return state


class _Draft:
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


def _load_landscape(state: _Draft, land: Field, index: dict[tuple[int, int], int]) -> None:
    """Settlements, cattle and canteens on a dealt board (spec §12.2 ``landscape``)."""
    board = state.board
    assert board is not None
    n = state.n
    for entry in land.member("settlements").items():
        hex_field = entry.member("hex")
        h = _hex(hex_field, index)
        hex_field.require(
            board.specs[h].kind == "plain" and h != board.start,
            "is not a plain that can hold a settlement",
        )
        hex_field.require(state.hex_owner[h] < 0, "is listed twice")
        state.hex_owner[h] = entry.member("owner").integer(0, n - 1)
        state.hex_tiles[h] = entry.member("tiles").integer(1, 3)
    cattle = land.member("cattle")
    for cell in cattle.items():
        h = _hex(cell, index)
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
        h = _hex(cell, index)
        cell.require(h in board.canteen_lakes, "is not a canteen lake")
        state.lake_canteen[h] = 1
    for h in board.canteen_lakes:
        settled = any(state.hex_owner[x] >= 0 for x in board.neighbours[h])
        canteens.require(
            settled != bool(state.lake_canteen[h]),
            f"lake {board.coords[h]} must hold its canteen exactly when no settlement is next "
            "to it",
        )


def _load_player(state: _Draft, p: int, player: Field, index: dict[tuple[int, int], int]) -> None:
    data = state.data
    player.member("seat").choice((p,))
    player.member("colour").choice((state.game.seat_name(p),))
    state.silver[p] = player.member("silver").integer(0)
    state.goods[6 * p : 6 * p + 6] = _counts(player.member("goods"), GOOD_CODES)
    state.cattle[p] = player.member("cattle").integer(0)
    state.canteens[p] = player.member("canteens").integer(0)
    state.workers[4 * p : 4 * p + 4] = _counts(player.member("workers"), COLOUR_CODES)
    state.tiles[p] = player.member("settlements_left").integer(0, data.settlements[state.n])
    lines = []
    lines_field = player.member("lines")
    for line in lines_field.items():
        axis = line.member("axis").index(AXIS_NAMES)
        hexes_field = line.member("hexes")
        hexes = tuple(sorted(_hex(c, index) for c in hexes_field.items()))
        hexes_field.require(
            len(hexes) >= data.line_length and all(state.hex_owner[h] == p for h in hexes),
            f"must be >= {data.line_length} of the player's hexes",
        )
        lines.append((axis, hexes))
    state.write()  # the lines are checked against the settlements written so far
    problem = fields.set_lines(state.kernel, p, lines)
    lines_field.require(not problem, problem)
    state.lines[p] = lines  # the draft's next writes carry them


def _load_worker_board(state: _Draft, wb: Field) -> None:
    data = state.data
    bank = wb.member("bank")
    bank.exact_keys([s.name for s in data.bank])
    for slot, bspace in enumerate(data.bank):
        f = bank.member(bspace.name)
        ms = _multiset(f)
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
                ms = _multiset(f)
                f.require(
                    ms == EMPTY or sum(ms) == 2 or (sum(ms) == 1 and ms[area.colour] == 1),
                    "must hold 1 area-colour worker or 2 workers",
                )
                state.slots[base + 2 * s + offset] = ms
            space.member("right").require(
                state.slots[base + 2 * s] != EMPTY or state.slots[base + 2 * s + 1] == EMPTY,
                "is occupied although its left part is empty",
            )


def _load_contractors(state: _Draft, field: Field) -> None:
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


def _load_turn(state: _Draft, turn: Field) -> None:
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


def _load_stage(state: _Draft, stage: int, stage_obj: Field) -> None:
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
    state.received = _multiset(stage_obj.member("received"))
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
