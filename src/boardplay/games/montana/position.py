"""Montana's position JSON (rules spec §12.2; format in docs/formats/montana.md).

Export writes every field in a fixed order so that ``export(load(export(s))) == export(s)``.
Loading never trusts its input: each field is type- and range-checked by the shared reader
(``core.fields``), the cross-field rules and conservation invariants (spec §15) are verified by
``invariants``, and every failure raises ``PositionError`` naming the field's path. Each section
is read by ``sections.py``; this reads the top level and checks the whole. The board is
rebuilt from the seed (authoritative); the tile list in the JSON is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.core.fields import read
from boardplay.games.montana import fields
from boardplay.games.montana import layout as L
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import AXIS_NAMES, make_board
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES
from boardplay.games.montana.invariants import check_conservation, check_stage
from boardplay.games.montana.layout import CHANCE_STAGES, HOME, STAGE_NAMES, TURN_END
from boardplay.games.montana.sections import (
    Draft,
    counts,
    load_contractors,
    load_landscape,
    load_player,
    load_stage,
    load_turn,
    load_worker_board,
)
from boardplay.games.montana.state import (
    BOARD,
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
    edit = Draft(state)
    if board_field.value is not None:
        load_landscape(edit, top.member("landscape"), index)

    supply = top.member("supply")
    edit.supply_workers = counts(supply.member("workers"), COLOUR_CODES)
    edit.supply_goods = counts(supply.member("goods"), GOOD_CODES)
    edit.supply_cattle = supply.member("cattle").integer(0)
    edit.aside_goods = counts(supply.member("set_aside"), GOOD_CODES)
    edit.canteens_used = supply.member("canteens_used").integer(0)
    edit.canteens_box = supply.member("canteens_in_box").integer(0)

    for p, player in enumerate(top.member("players").items(n)):
        load_player(edit, p, player, index)
    load_worker_board(edit, top.member("worker_board"))
    load_contractors(edit, top.member("contractors"))
    load_turn(edit, top.member("turn"))
    load_stage(edit, stage, stage_obj)
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
