"""Montana's position JSON (rules spec §12.2; format in docs/formats/montana.md).

Export writes every field in a fixed order so that ``export(load(export(s))) == export(s)``.
Loading never trusts its input: each field is type- and range-checked and the conservation
invariants (spec §15 I1–I5, I8) are verified, and every failure raises ``PositionError`` naming
the field. The board is rebuilt from the seed (authoritative); the tile list in the JSON is
checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.core.errors import PositionError
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import AXIS_NAMES, make_board
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES
from boardplay.games.montana.state import (
    BOARD,
    BUILD_NEXT,
    CHANCE_STAGES,
    EMPTY,
    HOME,
    MAIN_ACTIONS,
    OVER,
    OVERFLOW,
    PLACE,
    PUSH,
    REWARD,
    RIGHT,
    SETUP_SPIN,
    SETUP_WILD,
    STAGE_NAMES,
    START,
    TRADE_STAGES,
    TURN_END,
    WILD_STAGE,
    MontanaGameBase,
    MontanaState,
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
    players = []
    for p in range(n):
        players.append(
            {
                "seat": p,
                "colour": state.game.seat_name(p),
                "silver": silver[p],
                "goods": _goods(goods[6 * p : 6 * p + 6]),
                "cattle": state.cattle[p],
                "canteens": state.canteens[p],
                "workers": _workers(workers[4 * p : 4 * p + 4]),
                "settlements_left": state.tiles[p],
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
        "decider": None if state.stage in CHANCE_STAGES or state.stage == OVER else state.decider,
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
        None if state.won is None else {"winners": list(state.won), "reason": state.ended_by}
    )
    return out


# ----------------------------------------------------------------------------------------------
# loading


def _fail(field: str, message: str) -> PositionError:
    return PositionError(f"position field {field!r} {message}")


def _obj(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(field, "must be an object")
    return value


def _get(obj: Mapping[str, Any], key: str, field: str) -> Any:
    if key not in obj:
        raise _fail(f"{field}.{key}" if field else key, "is missing")
    return obj[key]


def _int(value: Any, field: str, lo: int = 0, hi: int = 10**9) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _fail(field, f"must be an integer {lo}..{hi}, got {value!r}")
    return value


def _opt_int(value: Any, field: str, lo: int, hi: int) -> int:
    return -1 if value is None else _int(value, field, lo, hi)


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, f"must be true or false, got {value!r}")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of {length} entries"
        raise _fail(field, f"must be a list{size}")
    return value


def _counts(value: Any, field: str, codes: tuple[str, ...]) -> list[int]:
    obj = _obj(value, field)
    if set(obj) != set(codes):
        raise _fail(field, f"must have exactly the keys {', '.join(codes)}")
    return [_int(obj[c], f"{field}.{c}") for c in codes]


def _multiset(value: Any, field: str) -> tuple[int, ...]:
    if not isinstance(value, str):
        raise _fail(field, "must be a worker text such as 'Cu+St' or ''")
    if value == "":
        return EMPTY
    counts = [0, 0, 0, 0]
    for part in value.split("+"):
        if part not in COLOUR_CODES:
            raise _fail(field, f"has an unknown worker colour {part!r} (use Cu, St, Gr, Pu)")
        counts[COLOUR_CODES.index(part)] += 1
    return tuple(counts)


def _hex(value: Any, field: str, index: dict[tuple[int, int], int]) -> int:
    cell = _list(value, field, 2)
    q, r = (_int(v, field, -100, 100) for v in cell)
    if (q, r) not in index:
        raise _fail(field, f"names hex {q},{r}, which is not on the landscape")
    return index[(q, r)]


def load_position(game: MontanaGameBase, position: Mapping[str, Any]) -> MontanaState:
    pos = _obj(position, "(top level)")
    if pos.get("format") != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}")
    if pos.get("version") != VERSION:
        raise _fail("version", f"must be {VERSION}")
    data_ref = _obj(_get(pos, "data", ""), "data")
    if data_ref.get("id") != game.data.id or data_ref.get("digest") != game.data.digest:
        raise _fail(
            "data",
            f"names component data {data_ref.get('id')!r}/{data_ref.get('digest')!r}, but this "
            f"game uses {game.data.id!r}/{game.data.digest!r}",
        )
    options = _obj(_get(pos, "options", ""), "options")
    if dict(options) != dict(game.options):
        bad = sorted(set(options) ^ set(game.options)) or [
            k for k in game.options if options.get(k) != game.options[k]
        ]
        raise _fail(f"options.{bad[0]}", f"does not match the game's options {dict(game.options)}")
    # A fresh state has the right list sizes; every field is then overwritten from the JSON.
    state = MontanaState(game)
    n = state.n
    data = state.data

    stage_obj = _obj(_get(pos, "stage", ""), "stage")
    stage_name = _get(stage_obj, "name", "stage")
    if stage_name not in STAGE_NAMES:
        raise _fail("stage.name", f"must be one of {', '.join(STAGE_NAMES)}")
    stage = STAGE_NAMES.index(stage_name)

    board_raw = pos.get("board")
    if board_raw is None:
        if stage != BOARD:
            raise _fail("board", "is null, which is only possible at stage BOARD")
        if isinstance(game.options["board_seed"], int):
            raise _fail("board", "is null although the option board_seed fixes the board")
        index: dict[tuple[int, int], int] = {}
    else:
        if stage == BOARD:
            raise _fail("stage.name", "is BOARD although the board is already generated")
        b = _obj(board_raw, "board")
        seed = _int(_get(b, "seed", "board"), "board.seed", 0, 2**31 - 1)
        fixed = game.options["board_seed"]
        if isinstance(fixed, int) and fixed != seed:
            raise _fail("board.seed", f"is {seed} but the option board_seed is {fixed}")
        if fixed == "random" and seed >= A.BOARD_OUTCOMES:
            raise _fail("board.seed", f"must be below {A.BOARD_OUTCOMES} with board_seed=random")
        board = make_board(data, n, seed)
        if "tiles" in b:
            expect = [{"position": list(p), "tile": t, "rotation": r} for p, t, r in board.placed]
            if b["tiles"] != expect:
                raise _fail("board.tiles", f"do not match the board generated from seed {seed}")
        state.deal_board(seed)
        index = {h: i for i, h in enumerate(board.coords)}
        land = _obj(_get(pos, "landscape", ""), "landscape")
        for i, entry in enumerate(
            _list(_get(land, "settlements", "landscape"), "landscape.settlements")
        ):
            f = f"landscape.settlements[{i}]"
            e = _obj(entry, f)
            h = _hex(_get(e, "hex", f), f"{f}.hex", index)
            if board.specs[h].kind != "plain" or h == board.start:
                raise _fail(f"{f}.hex", "is not a plain that can hold a settlement")
            if state.hex_owner[h] >= 0:
                raise _fail(f"{f}.hex", "is listed twice")
            state.hex_owner[h] = _int(_get(e, "owner", f), f"{f}.owner", 0, n - 1)
            state.hex_tiles[h] = _int(_get(e, "tiles", f), f"{f}.tiles", 1, 3)
        for i, cell in enumerate(_list(_get(land, "cattle", "landscape"), "landscape.cattle")):
            h = _hex(cell, f"landscape.cattle[{i}]", index)
            if h not in board.cattle_hexes or state.hex_owner[h] >= 0:
                raise _fail(f"landscape.cattle[{i}]", "is not an empty cattle (K) hex")
            state.hex_cattle[h] = 1
        for h in board.cattle_hexes:
            if state.hex_owner[h] < 0 and not state.hex_cattle[h]:
                raise _fail(
                    "landscape.cattle", f"lacks the cattle of empty K hex {board.coords[h]}"
                )
        for i, cell in enumerate(_list(_get(land, "canteens", "landscape"), "landscape.canteens")):
            h = _hex(cell, f"landscape.canteens[{i}]", index)
            if h not in board.canteen_lakes:
                raise _fail(f"landscape.canteens[{i}]", "is not a canteen lake")
            state.lake_canteen[h] = 1
        for h in board.canteen_lakes:
            settled = any(state.hex_owner[x] >= 0 for x in board.neighbours[h])
            if settled == bool(state.lake_canteen[h]):
                raise _fail(
                    "landscape.canteens",
                    f"lake {board.coords[h]} must hold its canteen exactly when no settlement "
                    "is next to it",
                )

    supply = _obj(_get(pos, "supply", ""), "supply")
    state.supply_workers = _counts(
        _get(supply, "workers", "supply"), "supply.workers", COLOUR_CODES
    )
    state.supply_goods = _counts(_get(supply, "goods", "supply"), "supply.goods", GOOD_CODES)
    state.supply_cattle = _int(_get(supply, "cattle", "supply"), "supply.cattle")
    state.aside_goods = _counts(_get(supply, "set_aside", "supply"), "supply.set_aside", GOOD_CODES)
    state.canteens_used = _int(_get(supply, "canteens_used", "supply"), "supply.canteens_used")
    state.canteens_box = _int(_get(supply, "canteens_in_box", "supply"), "supply.canteens_in_box")

    players = _list(_get(pos, "players", ""), "players", n)
    for p, raw in enumerate(players):
        f = f"players[{p}]"
        e = _obj(raw, f)
        if _get(e, "seat", f) != p:
            raise _fail(f"{f}.seat", f"must be {p}")
        state.silver[p] = _int(_get(e, "silver", f), f"{f}.silver")
        state.goods[6 * p : 6 * p + 6] = _counts(_get(e, "goods", f), f"{f}.goods", GOOD_CODES)
        state.cattle[p] = _int(_get(e, "cattle", f), f"{f}.cattle")
        state.canteens[p] = _int(_get(e, "canteens", f), f"{f}.canteens")
        state.workers[4 * p : 4 * p + 4] = _counts(
            _get(e, "workers", f), f"{f}.workers", COLOUR_CODES
        )
        state.tiles[p] = _int(
            _get(e, "settlements_left", f), f"{f}.settlements_left", 0, data.settlements[n]
        )
        lines = []
        for i, line in enumerate(_list(_get(e, "lines", f), f"{f}.lines")):
            lf = f"{f}.lines[{i}]"
            lo = _obj(line, lf)
            axis = _get(lo, "axis", lf)
            if axis not in AXIS_NAMES:
                raise _fail(f"{lf}.axis", f"must be one of {', '.join(AXIS_NAMES)}")
            hexes = tuple(
                sorted(
                    _hex(c, f"{lf}.hexes[{j}]", index)
                    for j, c in enumerate(_list(_get(lo, "hexes", lf), f"{lf}.hexes"))
                )
            )
            if len(hexes) < data.line_length or any(state.hex_owner[h] != p for h in hexes):
                raise _fail(f"{lf}.hexes", f"must be >= {data.line_length} of the player's hexes")
            lines.append((AXIS_NAMES.index(axis), hexes))
        problem = state.set_lines(p, lines)
        if problem:
            raise _fail(f"{f}.lines", problem)

    wb = _obj(_get(pos, "worker_board", ""), "worker_board")
    bank = _obj(_get(wb, "bank", "worker_board"), "worker_board.bank")
    production = _obj(_get(wb, "production", "worker_board"), "worker_board.production")
    names = {s.name for s in data.bank}
    if set(bank) != names:
        raise _fail("worker_board.bank", f"must name exactly the spaces {', '.join(sorted(names))}")
    for slot, bspace in enumerate(data.bank):
        f = f"worker_board.bank.{bspace.name}"
        ms = _multiset(bank[bspace.name], f)
        if ms != EMPTY and sum(ms) != bspace.workers:
            raise _fail(f, f"must hold exactly {bspace.workers} workers or none")
        state.slots[slot] = ms
    prod_names = {s.name for area in data.areas for s in area.spaces}
    if set(production) != prod_names:
        raise _fail("worker_board.production", "must name exactly the production spaces")
    for a, area in enumerate(data.areas):
        base = game.area_slot[a]
        for s, pspace in enumerate(area.spaces):
            f = f"worker_board.production.{pspace.name}"
            part_obj = _obj(production[pspace.name], f)
            for part, offset in (("left", 0), ("right", 1)):
                ms = _multiset(_get(part_obj, part, f), f"{f}.{part}")
                if ms != EMPTY and not (sum(ms) == 2 or (sum(ms) == 1 and ms[area.colour] == 1)):
                    raise _fail(f"{f}.{part}", "must hold 1 area-colour worker or 2 workers")
                state.slots[base + 2 * s + offset] = ms
            if state.slots[base + 2 * s] == EMPTY and state.slots[base + 2 * s + 1] != EMPTY:
                raise _fail(f"{f}.right", "is occupied although its left part is empty")

    contractors = _list(_get(pos, "contractors", ""), "contractors", n)
    cols = len(data.column_cost)
    rows_used: set[int] = set()
    for p, spot in enumerate(contractors):
        f = f"contractors[{p}]"
        if spot == "home":
            state.contractor[p] = HOME
            continue
        rows = [r.name for r in data.rows]
        if (
            not isinstance(spot, str)
            or len(spot) < 2
            or spot[0] not in rows
            or not spot[1:].isdigit()
            or not 1 <= int(spot[1:]) <= cols
        ):
            raise _fail(f, "must be 'home' or a store spot such as 'A3'")
        row = rows.index(spot[0])
        if row in rows_used:
            raise _fail(f, "shares its row with another contractor")
        rows_used.add(row)
        state.contractor[p] = row * cols + int(spot[1:]) - 1

    turn = _obj(_get(pos, "turn", ""), "turn")
    state.start_player = _opt_int(_get(turn, "start_player", "turn"), "turn.start_player", 0, n - 1)
    state.active = _opt_int(_get(turn, "active", "turn"), "turn.active", 0, n - 1)
    state.turn_number = _int(_get(turn, "number", "turn"), "turn.number", 0, game.max_turns)
    state.regular_turns = [
        _int(v, f"turn.regular_turns[{i}]")
        for i, v in enumerate(_list(_get(turn, "regular_turns", "turn"), "turn.regular_turns", n))
    ]
    state.extra_turn = _bool(_get(turn, "extra_turn", "turn"), "turn.extra_turn")
    state.trigger_by = _opt_int(_get(turn, "trigger_by", "turn"), "turn.trigger_by", 0, n - 1)
    state.final_pending = _bool(_get(turn, "final_pending", "turn"), "turn.final_pending")
    if state.trigger_by >= 0 and state.tiles[state.trigger_by] != 0:
        raise _fail("turn.trigger_by", "names a player who still has settlement tiles")
    if state.trigger_by < 0 and any(t == 0 for t in state.tiles):
        raise _fail("turn.trigger_by", "is null although a player has placed all settlements")

    state.stage = stage
    decider = stage_obj.get("decider")
    if stage in CHANCE_STAGES or stage == OVER:
        if decider is not None:
            raise _fail("stage.decider", f"must be null at stage {stage_name}")
        state.decider = -1 if stage != OVER else -4
    else:
        state.decider = _int(decider, "stage.decider", 0, n - 1)
        if stage not in (SETUP_WILD,) and state.active < 0:
            raise _fail("turn.active", "is null during a turn")
        if stage in TRADE_STAGES and stage not in (PLACE, REWARD) and state.decider != state.active:
            raise _fail("stage.decider", "must be the active player at this stage")
    in_setup = stage in (BOARD, SETUP_SPIN, SETUP_WILD, START)
    if in_setup != (state.active < 0) or in_setup != (state.start_player < 0):
        raise _fail(
            "turn.active" if in_setup != (state.active < 0) else "turn.start_player",
            "must be null exactly during setup (stages BOARD, SETUP_SPIN, SETUP_WILD, START)",
        )
    main = _get(stage_obj, "main", "stage")
    if main not in MAIN_ACTIONS:
        raise _fail("stage.main", f"must be one of {', '.join(repr(m) for m in MAIN_ACTIONS)}")
    state.main = main
    setup = _obj(_get(stage_obj, "setup", "stage"), "stage.setup")
    state.setup_seat = _int(_get(setup, "seat", "stage.setup"), "stage.setup.seat", 0, n)
    state.setup_spin_no = _int(
        _get(setup, "spin", "stage.setup"), "stage.setup.spin", 0, max(0, data.setup_spins - 1)
    )
    if stage in (SETUP_SPIN, SETUP_WILD) and state.setup_seat >= n:
        raise _fail("stage.setup.seat", "must be a seat during the setup spins")
    if stage == SETUP_WILD and state.decider != state.setup_seat:
        raise _fail("stage.decider", "must be the seat taking its setup spin")
    wheel = len(data.wheel)
    spin = _opt_int(_get(stage_obj, "spin", "stage"), "stage.spin", 1, wheel)
    state.spin = spin - 1 if spin > 0 else -1
    state.push = _opt_int(_get(stage_obj, "push", "stage"), "stage.push", 0, data.max_arrow_push)
    state.received = _multiset(_get(stage_obj, "received", "stage"), "stage.received")
    state.wilds = _int(_get(stage_obj, "wilds", "stage"), "stage.wilds", 0, 4)
    state.excess = _int(_get(stage_obj, "excess", "stage"), "stage.excess", 0, 4)
    after = _get(stage_obj, "after_overflow", "stage")
    if after == "turn_end":
        state.after_overflow = TURN_END
    elif after in STAGE_NAMES and STAGE_NAMES.index(after) in TRADE_STAGES:
        state.after_overflow = STAGE_NAMES.index(after)
    else:
        raise _fail("stage.after_overflow", "must be 'turn_end' or a trade-window stage name")
    space_name = _get(stage_obj, "production_space", "stage")
    state.prod_area = state.prod_space = -1
    if space_name is not None:
        for a, area in enumerate(data.areas):
            for s, pspace in enumerate(area.spaces):
                if pspace.name == space_name:
                    state.prod_area, state.prod_space = a, s
        if state.prod_area < 0:
            raise _fail("stage.production_space", f"names no production space: {space_name!r}")
    state.builds_paid = _int(
        _get(stage_obj, "builds_paid", "stage"), "stage.builds_paid", 0, data.max_builds_per_action
    )
    auction = _obj(_get(stage_obj, "auction", "stage"), "stage.auction")
    state.opp = _int(
        _get(auction, "opportunity", "stage.auction"), "stage.auction.opportunity", 0, n
    )
    state.chain = _bool(_get(auction, "chain", "stage.auction"), "stage.auction.chain")
    state.out = [
        _bool(v, f"stage.auction.out[{i}]")
        for i, v in enumerate(_list(_get(auction, "out", "stage.auction"), "stage.auction.out", n))
    ]
    state.cursor = _int(_get(auction, "cursor", "stage.auction"), "stage.auction.cursor", 0, n)
    _check_stage(state)

    result = pos.get("result")
    if stage == OVER:
        r = _obj(result, "result")
        winners = _list(_get(r, "winners", "result"), "result.winners")
        state.won = [_int(w, f"result.winners[{i}]", 0, n - 1) for i, w in enumerate(winners)]
        reason = _get(r, "reason", "result")
        if reason not in ("trigger", "max_turns"):
            raise _fail("result.reason", "must be 'trigger' or 'max_turns'")
        state.ended_by = reason
        if state.won != state.compute_winners():
            raise _fail("result.winners", f"must be {state.compute_winners()} for this position")
    elif result is not None:
        raise _fail("result", "must be null while the game is in progress")
    _check_conservation(state, board_raw is not None)
    state._history = []
    if stage != OVER and not state.legal_actions():
        raise _fail("stage", f"{stage_name} leaves the deciding player no legal action")
    return state


def _check_stage(state: MontanaState) -> None:
    """Stage data that the transitions rely on."""
    stage = state.stage
    name = STAGE_NAMES[stage]
    if stage in (PUSH, WILD_STAGE) and state.spin < 0:
        raise _fail("stage.spin", f"is needed at stage {name}")
    if stage in (WILD_STAGE, SETUP_WILD) and not 1 <= state.wilds <= 4:
        raise _fail("stage.wilds", f"must be 1..4 at stage {name}")
    if (
        stage == OVERFLOW
        and state.excess != state.worker_count(state.decider) - state.data.worker_cap
    ):
        raise _fail("stage.excess", "must be the number of workers above the cap at OVERFLOW")
    needs_main = {PUSH: "recruit", WILD_STAGE: "recruit", RIGHT: "production", PLACE: "city"}
    needs_main.update({REWARD: "city", BUILD_NEXT: "build"})
    if stage in needs_main and state.main != needs_main[stage]:
        raise _fail("stage.main", f"must be {needs_main[stage]!r} at stage {name}")
    if stage == BUILD_NEXT and state.builds_paid < 1:
        raise _fail("stage.builds_paid", "must be at least 1 at stage BUILD_NEXT")
    n = state.n
    if stage == PLACE and not state.chain and state.decider != (state.active + state.opp) % n:
        raise _fail("stage.decider", "must be the player whose auction opportunity it is")
    if stage == PLACE:
        for seat, spot in enumerate(state.contractor):
            offset = (seat - state.active) % n
            placed = offset < state.opp or (state.chain and offset == state.opp)
            if spot != HOME and (not placed or state.out[seat]):
                raise _fail(f"contractors[{seat}]", "is in the store before its opportunity")
    if stage == REWARD and state.decider != (state.active + state.cursor) % n:
        raise _fail("stage.decider", "must be the player at the auction's resolution cursor")
    if stage == RIGHT and state.prod_area < 0:
        raise _fail("stage.production_space", "is needed at stage RIGHT")
    if stage == REWARD and state.contractor[state.decider] == HOME:
        raise _fail("contractors", "the player declaring a reward must hold a store spot")
    if (
        stage not in (PLACE, REWARD)
        and any(c != HOME for c in state.contractor)
        and not (stage == OVERFLOW and state.after_overflow in (PLACE, REWARD))
    ):
        raise _fail("contractors", "must all be home outside the city auction")


def _check_conservation(state: MontanaState, has_board: bool) -> None:
    """Spec §15 I1–I5 and I7 for the loaded numbers."""
    data = state.data
    n = state.n
    for c in range(4):
        total = (
            state.supply_workers[c]
            + sum(state.workers[4 * p + c] for p in range(n))
            + sum(s[c] for s in state.slots)
        )
        if total != data.workers_per_colour:
            raise _fail(
                f"supply.workers.{COLOUR_CODES[c]}",
                f"with the players' and the worker board's workers must total "
                f"{data.workers_per_colour}, not {total}",
            )
    for p in range(n):
        if state.worker_count(p) > data.worker_cap and not (
            state.stage == OVERFLOW and p == state.decider
        ):
            raise _fail(f"players[{p}].workers", f"exceed the cap of {data.worker_cap}")
    if not has_board:
        return
    board = state.board
    assert board is not None
    for k in range(6):
        total = state.supply_goods[k] + sum(state.goods[6 * p + k] for p in range(n))
        want = data.goods_supply[n][k] + n * data.start_goods[k]
        if total != want:
            raise _fail(
                f"supply.goods.{GOOD_CODES[k]}",
                f"with the players' goods must total {want}, not {total}",
            )
        aside = data.goods_box[k] - want
        if state.aside_goods[k] != aside:
            raise _fail(f"supply.set_aside.{GOOD_CODES[k]}", f"must be {aside}")
    cattle = state.supply_cattle + sum(state.cattle) + sum(state.hex_cattle)
    if cattle != data.cattle_total:
        raise _fail(
            "supply.cattle", f"with players' and board cattle must total {data.cattle_total}"
        )
    box = data.canteens_total - len(board.canteen_lakes)
    if state.canteens_box != box:
        raise _fail("supply.canteens_in_box", f"must be {box}")
    canteens = sum(state.lake_canteen) + sum(state.canteens) + state.canteens_used + box
    if canteens != data.canteens_total:
        raise _fail("supply.canteens_used", f"with all canteens must total {data.canteens_total}")
    for p in range(n):
        placed = sum(t for h, t in enumerate(state.hex_tiles) if state.hex_owner[h] == p)
        if placed + state.tiles[p] != data.settlements[n]:
            raise _fail(
                f"players[{p}].settlements_left",
                f"plus the {placed} tiles on the landscape must be {data.settlements[n]}",
            )
