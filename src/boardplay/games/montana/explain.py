"""Why a Montana action is illegal, in a sentence that names the rule (cold code).

``MontanaState.explain_illegal`` reaches this module through the game, so the checked
``apply_action`` keeps the engine's rule-naming messages while legality itself is the kernel's.
"""

from __future__ import annotations

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import State
from boardplay.games.montana import layout as L
from boardplay.games.montana import notation as A
from boardplay.games.montana.data import MAX_AREA_SPACES
from boardplay.games.montana.layout import STAGE_NAMES
from boardplay.games.montana.state import (
    BUILD_NEXT,
    CHANCE_STAGES,
    EMPTY,
    MAIN,
    OVER,
    PLACE,
    TRADE_STAGES,
    MontanaState,
)


def explain_illegal(state: MontanaState, action: object) -> str:
    if isinstance(action, bool) or not isinstance(action, int):
        return State.explain_illegal(state, action)
    try:
        text = repr(state.action_to_string(action))
    except IllegalActionError:
        text = f"action id {action}"
    stage_id = state.stage
    if stage_id == OVER:
        return f"{text} is not possible: the game is over"
    stage = STAGE_NAMES[stage_id]
    chance = stage_id in CHANCE_STAGES
    who = "chance" if chance else state.game.seat_name(state.to_move)
    reason = ""
    if L.TRADE <= action < L.WILD and not chance:
        if state.to_move != state.active or stage_id not in TRADE_STAGES:
            reason = "cattle trades are only possible in the active player's trade windows"
        elif state.cattle[state.to_move] < 1:
            reason = "the player holds no cattle"
    elif L.BUILD <= action < L.NUM_ACTIONS and stage_id in (MAIN, BUILD_NEXT):
        reason = _why_not_build(state, action - L.BUILD)
    elif L.WORK_BANK <= action < L.BUILD and stage_id == MAIN:
        reason = _why_not_work(state, action)
    elif stage_id == PLACE and L.PLACE <= action < L.REWARD_UP:
        reason = "the spot is not right of the row's contractor or costs more pumpkins than held"
    elif stage_id == PLACE and action == L.PASS:
        reason = "the active player must place the first contractor"
    if not reason:
        reason = f"it is not one of the legal actions of {who} at stage {stage}"
    return f"{text} is not legal here: {reason}"


def _single(colour: int) -> tuple[int, ...]:
    return tuple(1 if c == colour else 0 for c in range(4))


def _why_not_work(state: MontanaState, action: int) -> str:
    p = state.to_move
    data = state.data
    if action < L.WORK_PROD:
        space, index = divmod(action - L.WORK_BANK, len(A.WORKER_SETS))
        ms = A.WORKER_SETS[index]
        bank = data.bank[space]
        if state.slots[space] != EMPTY:
            return f"bank space {bank.name} is taken"
        if sum(ms) != bank.workers:
            return f"{bank.name} takes exactly {bank.workers} worker(s)"
    else:
        cell, index = divmod(action - L.WORK_PROD, len(A.PART_SETS))
        area_index, space = divmod(cell, MAX_AREA_SPACES)
        ms = A.WORKER_SETS[index]
        area = data.areas[area_index]
        prod = area.spaces[space]
        if state.slots[state.game.area_slot[area_index] + 2 * space] != EMPTY:
            return f"the left part of {prod.name} is taken"
        if sum(ms) == 1 and ms[area.colour] != 1:
            return f"one worker on {prod.name} must be {A.workers_text(_single(area.colour))}"
        silver = state.silver[p]
        if silver < prod.cost:
            return f"{prod.name} costs {prod.cost} silver and the player has {silver}"
    held = state.workers[4 * p : 4 * p + 4]
    if any(have < need for have, need in zip(held, ms, strict=True)):
        return f"the player does not hold the workers {A.workers_text(ms)}"
    return "that work is not possible now"


def _why_not_build(state: MontanaState, cell: int) -> str:
    board = state.board
    assert board is not None
    h = board.local_of_grid.get(cell, -1)
    p = state.to_move
    if h < 0:
        return "that hex is not on the landscape"
    spec = board.specs[h]
    if h == board.start:
        return "nothing can be built on the start tile"
    if spec.kind != "plain":
        return f"a {spec.kind} is never buildable"
    if state.hex_owner[h] != -1:
        return "the hex already holds a settlement"
    if not state.buildable(p, h):
        return "the hex touches neither the start tile nor one of the player's settlements"
    if not state.can_afford(p, board.costs[h]):
        return f"the player cannot pay its cost {A.goods_text(board.costs[h])}"
    return "no further build is possible now"
