"""The cross-field checks of a loaded Montana position: stage data the transitions rely on, and
the conservation invariants of spec §15 (I1–I5, I7).

``position.py`` reads every field on its own (type and range, through ``core.fields``); what is
left here are facts about several fields at once, so each failure names the field a person
would change, by its path in the position JSON.
"""

from __future__ import annotations

from boardplay.core.fields import Field
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES
from boardplay.games.montana.layout import HOME, STAGE_NAMES, TRADE_STAGES
from boardplay.games.montana.state import (
    BOARD,
    BUILD_NEXT,
    OVERFLOW,
    PLACE,
    PUSH,
    REWARD,
    RIGHT,
    SETUP_SPIN,
    SETUP_WILD,
    START,
    WILD_STAGE,
    MontanaState,
)

_SETUP_STAGES = (BOARD, SETUP_SPIN, SETUP_WILD, START)
_NEEDS_MAIN = {
    PUSH: "recruit",
    WILD_STAGE: "recruit",
    RIGHT: "production",
    PLACE: "city",
    REWARD: "city",
    BUILD_NEXT: "build",
}
"""Stages that only happen inside one main action."""


def check_turn(state: MontanaState, top: Field) -> None:
    """Who acts: the decider of a decision stage, and the turn fields that are null exactly
    during setup."""
    stage = state.stage
    n = state.n
    decider = top.at("stage", "decider")
    if state.to_move >= 0:
        if stage != SETUP_WILD:
            top.at("turn", "active").require(state.active >= 0, "is null during a turn")
        if stage in TRADE_STAGES and stage not in (PLACE, REWARD):
            decider.require(
                state.to_move == state.active, "must be the active player at this stage"
            )
    in_setup = stage in _SETUP_STAGES
    for name, value in (("active", state.active), ("start_player", state.start_player)):
        top.at("turn", name).require(
            in_setup == (value < 0),
            "must be null exactly during setup (stages BOARD, SETUP_SPIN, SETUP_WILD, START)",
        )
    if stage in (SETUP_SPIN, SETUP_WILD):
        top.at("stage", "setup", "seat").require(
            state.setup_seat < n, "must be a seat during the setup spins"
        )
    if stage == SETUP_WILD:
        decider.require(state.to_move == state.setup_seat, "must be the seat taking its setup spin")


def check_stage(state: MontanaState, top: Field) -> None:
    """Stage data that the transitions rely on."""
    check_turn(state, top)
    stage = state.stage
    name = STAGE_NAMES[stage]
    n = state.n
    if stage in (PUSH, WILD_STAGE):
        top.at("stage", "spin").require(state.spin >= 0, f"is needed at stage {name}")
    if stage in (WILD_STAGE, SETUP_WILD):
        top.at("stage", "wilds").require(1 <= state.wilds <= 4, f"must be 1..4 at stage {name}")
    if stage == OVERFLOW:
        top.at("stage", "excess").require(
            state.excess == state.worker_count(state.to_move) - state.data.worker_cap,
            "must be the number of workers above the cap at OVERFLOW",
        )
    if stage in _NEEDS_MAIN:
        top.at("stage", "main").require(
            state.main == _NEEDS_MAIN[stage], f"must be {_NEEDS_MAIN[stage]!r} at stage {name}"
        )
    if stage == BUILD_NEXT:
        top.at("stage", "builds_paid").require(
            state.builds_paid >= 1, "must be at least 1 at stage BUILD_NEXT"
        )
    decider = top.at("stage", "decider")
    if stage == PLACE and not state.chain:
        decider.require(
            state.to_move == (state.active + state.opp) % n,
            "must be the player whose auction opportunity it is",
        )
    contractors = top.member("contractors")
    if stage == PLACE:
        for seat, spot in enumerate(state.contractor):
            offset = (seat - state.active) % n
            placed = offset < state.opp or (state.chain and offset == state.opp)
            contractors.at(seat).require(
                spot == HOME or (placed and not state.out[seat]),
                "is in the store before its opportunity",
            )
    if stage == REWARD:
        decider.require(
            state.to_move == (state.active + state.cursor) % n,
            "must be the player at the auction's resolution cursor",
        )
        contractors.require(
            state.contractor[state.to_move] != HOME,
            "the player declaring a reward must hold a store spot",
        )
    if stage == RIGHT:
        top.at("stage", "production_space").require(
            state.prod_area >= 0, "is needed at stage RIGHT"
        )
    contractors.require(
        stage in (PLACE, REWARD)
        or all(c == HOME for c in state.contractor)
        or (stage == OVERFLOW and state.after_overflow in (PLACE, REWARD)),
        "must all be home outside the city auction",
    )


def check_conservation(state: MontanaState, top: Field, has_board: bool) -> None:
    """Spec §15 I1–I5 and I7 for the loaded numbers."""
    data = state.data
    n = state.n
    for c in range(4):
        total = (
            state.supply_workers[c]
            + sum(state.workers[4 * p + c] for p in range(n))
            + sum(s[c] for s in state.slots)
        )
        top.at("supply", "workers", COLOUR_CODES[c]).require(
            total == data.workers_per_colour,
            f"with the players' and the worker board's workers must total "
            f"{data.workers_per_colour}, not {total}",
        )
    for p in range(n):
        top.at("players", p, "workers").require(
            state.worker_count(p) <= data.worker_cap
            or (state.stage == OVERFLOW and p == state.to_move),
            f"exceed the cap of {data.worker_cap}",
        )
    if not has_board:
        return
    board = state.board
    assert board is not None
    for k in range(6):
        total = state.supply_goods[k] + sum(state.goods[6 * p + k] for p in range(n))
        want = data.goods_supply[n][k] + n * data.start_goods[k]
        top.at("supply", "goods", GOOD_CODES[k]).require(
            total == want, f"with the players' goods must total {want}, not {total}"
        )
        aside = data.goods_box[k] - want
        top.at("supply", "set_aside", GOOD_CODES[k]).require(
            state.aside_goods[k] == aside, f"must be {aside}"
        )
    cattle = state.supply_cattle + sum(state.cattle) + sum(state.hex_cattle)
    top.at("supply", "cattle").require(
        cattle == data.cattle_total,
        f"with players' and board cattle must total {data.cattle_total}",
    )
    box = data.canteens_total - len(board.canteen_lakes)
    top.at("supply", "canteens_in_box").require(state.canteens_box == box, f"must be {box}")
    canteens = sum(state.lake_canteen) + sum(state.canteens) + state.canteens_used + box
    top.at("supply", "canteens_used").require(
        canteens == data.canteens_total, f"with all canteens must total {data.canteens_total}"
    )
    for p in range(n):
        placed = sum(t for h, t in enumerate(state.hex_tiles) if state.hex_owner[h] == p)
        top.at("players", p, "settlements_left").require(
            placed + state.tiles[p] == data.settlements[n],
            f"plus the {placed} tiles on the landscape must be {data.settlements[n]}",
        )
