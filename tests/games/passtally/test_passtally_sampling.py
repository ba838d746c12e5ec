"""The kernel's shortcuts against the plain way: ``sample_legal`` (the r-th legal action found
without listing) against ``legal_actions()[r]`` for every r, the compiled random playouts
against the same games replayed in Python through the legal list, the kept footprints and
known lines against a kernel that derives them afresh, and the playout policy against the
passes it should maximise."""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

import boardplay
from boardplay.core.kernel import random_playouts
from boardplay.games.passtally import fields
from boardplay.games.passtally.kernel import PasstallyKernel
from boardplay.games.passtally.layout import MOVE_BASE, NUM_SLOTS
from boardplay.games.passtally.state import PasstallyState
from support import SplitMix, games, replayed_playouts

OPTION_SETS: list[dict[str, Any]] = [
    {
        "players": players,
        "jump_counts_as_step": jump,
        "ring_corners_continuous": continuous,
        "finish_turn_on_immediate_end": finish,
    }
    for players, jump, continuous, finish in product(
        (2, 3), (False, True), (True, False), (True, False)
    )
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) for o in OPTION_SETS]


def new_state(options: dict[str, Any]) -> PasstallyState:
    state = boardplay.load("passtally", **options).new_initial_state()
    assert isinstance(state, PasstallyState)
    return state


def fresh_copy(kernel: PasstallyKernel, players: int, options: dict[str, Any]) -> PasstallyKernel:
    """A kernel restored from ``kernel``'s snapshot: its derived fields computed from scratch."""
    other = PasstallyKernel(
        players,
        options.get("jump_counts_as_step", False),
        options.get("ring_corners_continuous", True),
        options.get("finish_turn_on_immediate_end", True),
    )
    fields.load(other, fields.snapshot(kernel))
    return other


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_every_draw_picks_the_listed_action(options: dict[str, Any]) -> None:
    rng = random.Random(17)
    decisions = 0
    for _ in range(games(4, 200)):
        state = new_state(options)
        kernel = state.kernel
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node() or fields.FACE.snapshot(kernel)["setup"]:
                with pytest.raises(ValueError):
                    fields.legal_at(kernel, 0)
            else:
                assert [fields.legal_at(kernel, r) for r in range(len(legal))] == legal
                with pytest.raises(ValueError):
                    fields.legal_at(kernel, len(legal))
                decisions += 1
            state.apply_action(legal[rng.randrange(len(legal))])
    assert decisions > 100


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_kept_footprints_and_lines_equal_fresh_ones(options: dict[str, Any]) -> None:
    rng = random.Random(23)
    players = options["players"]
    for _ in range(games(3, 100)):
        state = new_state(options)
        kernel = state.kernel
        while not state.is_terminal():
            if rng.random() < 0.3:
                fresh = fresh_copy(kernel, players, options)
                assert fresh.legal_actions() == state.legal_actions()
                assert fields.placement_possible(fresh) == fields.placement_possible(kernel)
                for seat in range(players):
                    assert fields.score_now(kernel, seat) == fields.score_now(fresh, seat)
                for slot in range(NUM_SLOTS):
                    end, passes = fields.line(kernel, slot)
                    assert fields.line(kernel, end) == (slot, passes)  # one line, read both ways
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("options", OPTION_SETS[:2] + OPTION_SETS[8:10], ids=IDS[:2] + IDS[8:10])
def test_compiled_playouts_play_the_listed_games(options: dict[str, Any]) -> None:
    """``random_playouts`` (through ``sample_legal``) plays the very games a Python loop over
    ``legal_actions()`` plays with the same generator: the same actions and winners."""
    start = new_state(options).kernel
    count, seed = games(6, 60), 20261122
    actions, wins, draws, unfinished = random_playouts(start, count, seed)
    replayed = replayed_playouts(start, count, seed)
    assert (actions, wins, draws, unfinished) == replayed
    assert replayed[2] == 0  # a Passtally game always has a winner


def _paired_passes(kernel: PasstallyKernel, mask: set[int]) -> int:
    """The passes of the lines with both ends in ``mask``, traced afresh from each slot."""
    total = 0
    for slot in mask:
        end, passes = fields.line(kernel, slot)
        if slot < end and end in mask:
            total += passes
    return total


@pytest.mark.parametrize("options", OPTION_SETS[:4] + OPTION_SETS[8:10], ids=IDS[:4] + IDS[8:10])
def test_playout_policy_scores_the_last_action_of_a_turn(options: dict[str, Any]) -> None:
    """The playout policy (``playout_action``) draws ``sample_legal``'s action, except for a
    turn's last action: when a marker move makes the seat's lines sum more passes it plays a
    move that sums the most; otherwise, when the seat has lines that score, it plays one of
    ``sample_legal``'s first four draws (it redraws one that would break such a line), and
    never a move that takes a marker off a scoring line while a later draw was taken."""
    rng = random.Random(29)
    scored = kept = uniform = 0
    for _ in range(games(6, 60)):
        state = new_state(options)
        kernel = state.kernel
        while not state.is_terminal():
            legal = state.legal_actions()
            if not (state.is_chance_node() or fields.FACE.snapshot(kernel)["setup"]):
                seed = rng.getrandbits(64)
                chosen = fields.playout_action(kernel, seed)
                assert chosen in legal
                seat = state.current_player()
                ring = fields.snapshot(kernel)["ring"]
                mine = {slot for slot in range(NUM_SLOTS) if ring[slot] == seat}
                after: dict[int, int] = {}
                if fields.FACE.snapshot(kernel)["actions_left"] == 1:
                    for action in legal:
                        if action >= MOVE_BASE:
                            slot, j = divmod(action - MOVE_BASE, 4)
                            moved = mine - {slot} | {fields.marker_destination(kernel, slot, j)}
                            after[action] = _paired_passes(kernel, moved)
                now = _paired_passes(kernel, mine)
                draws = SplitMix(seed)
                first = [fields.legal_at(kernel, draws.below(len(legal))) for _ in range(4)]
                if after and max(after.values()) > now:
                    assert after[chosen] == max(after.values())
                    scored += 1
                elif after and now > 0:
                    assert chosen in first
                    for drawn in first[: first.index(chosen)]:
                        assert drawn < MOVE_BASE or after[drawn] <= now  # redrawn: it broke a line
                    kept += 1
                else:
                    assert chosen == first[0]
                    uniform += 1
            state.apply_action(legal[rng.randrange(len(legal))])
    assert scored > 5 and kept > 0 and uniform > 50
