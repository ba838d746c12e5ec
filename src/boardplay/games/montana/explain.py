"""Why a Montana action is illegal, in a sentence that names the rule (cold code).

It runs only when an action is rejected, and reads the position through the facade's kernel
(``fields``: the field table, the hexes, the worker board, and the tables with the data file
the kernel was built from), so it sits below the facade: ``state.py`` imports it, and it
imports nothing above ``fields``. The checked ``apply_action`` keeps the engine's rule-naming
messages while legality itself is the kernel's.
"""

from __future__ import annotations

from typing import cast

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import State
from boardplay.games.montana import fields
from boardplay.games.montana import layout as L
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import make_board
from boardplay.games.montana.fields import FACE
from boardplay.games.montana.kernel import MontanaKernel
from boardplay.games.montana.layout import (
    CHANCE_STAGES,
    MAX_AREA_SPACES,
    STAGE_NAMES,
    TRADE_STAGES,
    Stage,
)


def explain_illegal(state: State, action: object) -> str:
    """The message of the ``IllegalActionError`` for ``action`` in ``state`` (a facade; the
    reasons read its kernel)."""
    if isinstance(action, bool) or not isinstance(action, int):
        return State.explain_illegal(state, action)
    kernel = cast(MontanaKernel, state.kernel)
    try:
        text = repr(state.action_to_string(action))
    except IllegalActionError:
        text = f"action id {action}"
    stage_id = FACE.get(kernel, "stage")
    if stage_id == Stage.OVER:
        return f"{text} is not possible: the game is over"
    stage = STAGE_NAMES[stage_id]
    chance = stage_id in CHANCE_STAGES
    to_move = FACE.get(kernel, "to_move")
    who = "chance" if chance else state.game.seat_name(to_move)
    reason = ""
    if L.TRADE <= action < L.WILD and not chance:
        if to_move != FACE.get(kernel, "active") or stage_id not in TRADE_STAGES:
            reason = "cattle trades are only possible in the active player's trade windows"
        elif FACE.get(kernel, "cattle")[to_move] < 1:
            reason = "the player holds no cattle"
    elif L.BUILD <= action < L.NUM_ACTIONS and stage_id in (Stage.MAIN, Stage.BUILD_NEXT):
        reason = _why_not_build(kernel, action - L.BUILD)
    elif L.WORK_BANK <= action < L.BUILD and stage_id == Stage.MAIN:
        reason = _why_not_work(kernel, action)
    elif stage_id == Stage.PLACE_STAGE and L.PLACE <= action < L.REWARD_UP:
        reason = "the spot is not right of the row's contractor or costs more pumpkins than held"
    elif stage_id == Stage.PLACE_STAGE and action == L.PASS:
        reason = "the active player must place the first contractor"
    if not reason:
        reason = f"it is not one of the legal actions of {who} at stage {stage}"
    return f"{text} is not legal here: {reason}"


def _single(colour: int) -> tuple[int, ...]:
    return tuple(1 if c == colour else 0 for c in range(4))


def _why_not_work(kernel: MontanaKernel, action: int) -> str:
    p = FACE.get(kernel, "to_move")
    tables = fields.tables(kernel)
    data = tables.data
    slots = fields.slots(kernel)
    if action < L.WORK_PROD:
        space, index = divmod(action - L.WORK_BANK, len(A.WORKER_SETS))
        ms = A.WORKER_SETS[index]
        bank = data.bank[space]
        if any(slots[space]):
            return f"bank space {bank.name} is taken"
        if sum(ms) != bank.workers:
            return f"{bank.name} takes exactly {bank.workers} worker(s)"
    else:
        cell, index = divmod(action - L.WORK_PROD, len(A.PART_SETS))
        area_index, space = divmod(cell, MAX_AREA_SPACES)
        ms = A.WORKER_SETS[index]
        area = data.areas[area_index]
        prod = area.spaces[space]
        if any(slots[tables.area_slots[area_index] + 2 * space]):
            return f"the left part of {prod.name} is taken"
        if sum(ms) == 1 and ms[area.colour] != 1:
            return f"one worker on {prod.name} must be {A.workers_text(_single(area.colour))}"
        silver = FACE.get(kernel, "silver")[p]
        if silver < prod.cost:
            return f"{prod.name} costs {prod.cost} silver and the player has {silver}"
    held = FACE.get(kernel, "workers")[4 * p : 4 * p + 4]
    if any(have < need for have, need in zip(held, ms, strict=True)):
        return f"the player does not hold the workers {A.workers_text(ms)}"
    return "that work is not possible now"


def _why_not_build(kernel: MontanaKernel, cell: int) -> str:
    seed = fields.board_seed(kernel)
    assert seed >= 0  # building comes after the Board chance node
    board = make_board(fields.tables(kernel).data, kernel.num_players, seed)
    h = board.local_of_grid.get(cell, -1)
    p = FACE.get(kernel, "to_move")
    if h < 0:
        return "that hex is not on the landscape"
    spec = board.specs[h]
    if h == board.start:
        return "nothing can be built on the start tile"
    if spec.kind != "plain":
        return f"a {spec.kind} is never buildable"
    if fields.hexes(kernel, "hex_owner")[h] != -1:
        return "the hex already holds a settlement"
    if not fields.buildable(kernel, p, h):
        return "the hex touches neither the start tile nor one of the player's settlements"
    held = FACE.get(kernel, "goods")[6 * p : 6 * p + 6]
    if any(have < need for have, need in zip(held, board.costs[h], strict=True)):
        return f"the player cannot pay its cost {A.goods_text(board.costs[h])}"
    return "no further build is possible now"
