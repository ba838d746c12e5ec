"""The compiled engine against the reference: the pure-Python engine as it was before issue 14
(``games/_legacy/potlatch``), side by side over random games.

At every step of every game both engines must agree on the current player, the legal actions,
the chance outcomes, the returns and the position JSON (key order included). At every step in
the regular run, and at sampled steps and the end under the soak (``EVERY``), they must also
agree on both observation tensors (the legacy floats rounded to float32, the kernel's buffer
type), the new engine must load the old engine's JSON back to the same position and legal
actions, the evaluation the AI uses must agree (the old one read the position JSON, the new one
reads the kernel's features), and so must the text picture and the message for every illegal
action id. Clones and reloads continue the game now and then. ``BOARDPLAY_SOAK=1`` plays
10,000 games per option set.
"""

from __future__ import annotations

import json
import math
import random
import struct
import time
from array import array
from typing import Any

import pytest

from boardplay.ai.evaluation import softmax
from boardplay.ai.evaluation.potlatch import HEURISTICS, TEMPERATURE
from boardplay.core.errors import IllegalActionError
from boardplay.games._legacy.potlatch.game import PotlatchGame as LegacyGame
from boardplay.games._legacy.potlatch.state import PotlatchState as LegacyState
from boardplay.games.potlatch.game import PotlatchGame
from boardplay.games.potlatch.observation import OBSERVATION_SHAPE
from boardplay.games.potlatch.state import PotlatchState
from support import SOAK, games

BASE: list[dict[str, Any]] = [
    {"actions": actions, "layout": layout} for actions in (2, 3) for layout in ("L3", "L4")
]
"""The bench's option sets (the yardstick plays actions 2 and 3 on L3)."""
FLIPPED: dict[str, Any] = {
    "first_player": 1,
    "blank_entry_ignores_height": True,
    "repetition_compares_full_state": True,
    "filter_dead_ends": True,
    "turn_limit": 30,
}
"""Every rule option away from its default (each guards its own rule branch). Full-state
repetition rarely fires, so most of these games would run to the default guard of 1,000 turns;
30 keeps them short and makes the guard's end (condition 4) common."""
OPTION_SETS = BASE + [{**base, **FLIPPED} for base in BASE]
"""Every value of every option: the bench's sets, and the same with every rule option
flipped."""
BUFFER = array("f", bytes(4 * math.prod(OBSERVATION_SHAPE)))
EVERY = (
    {"observation": 4, "reload": 8, "messages": 24}
    if SOAK
    else {"observation": 1, "reload": 1, "messages": 3}
)
"""Steps between the costlier checks: both observation tensors; loading the JSON back and the
evaluation; the picture and the illegal-action messages. The regular run checks nearly all at
every step; the soak's 10,000 games per option set samples them (the legacy engine's tensor
alone costs more than the rest of a step)."""
FLOAT32 = struct.Struct(f"{math.prod(OBSERVATION_SHAPE)}f")


def legacy_strengths(position: dict[str, Any]) -> list[float]:
    """The evaluation's strengths as they were computed from the position JSON before the
    kernel had features (``ai/evaluation/potlatch.py`` at the start of issue 14)."""
    tiles = {tuple(map(int, k.split(","))): str(v) for k, v in position["tiles"].items()}
    out: list[float] = []
    for seat, colour in enumerate(("R", "B")):
        other = ("R", "B")[1 - seat]
        own = sum(1 for chips in tiles.values() if len(chips) == 3 and chips[2] == colour)
        q, r = map(int, position["pawns"][seat].split(","))
        height = len(tiles.get((q, r), ""))
        crowns = breaks = 0
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            chips = tiles.get((q + dq, r + dr))
            if chips is None:
                continue
            if len(chips) == 2 and height >= 1:
                crowns += 1
            if len(chips) == 3 and chips[2] == other and height >= 2:
                breaks += 1
        value = own + 0.35 * min(crowns, 2) + 0.25 * min(breaks, 1)
        if position.get("to_move") == seat:
            value += 0.25
        elif own >= 3:
            value += 0.8
        out.append(value)
    return out


def error_text(state: Any, action: object) -> str:
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(action)
    return str(caught.value)


def same_observation(expected: list[float], new: PotlatchState, player: int) -> None:
    """The kernel's float32 tensor equals the legacy float list rounded to float32 (packed
    with ``struct`` and compared as bytes: the cheapest exact comparison)."""
    new.kernel.observe(player, BUFFER)
    assert BUFFER.tobytes() == FLOAT32.pack(*expected)


def compare(old: LegacyState, new: PotlatchState, game: PotlatchGame, step: int) -> None:
    """The cheap checks at every step, the costlier ones every ``EVERY[...]`` steps and at the
    end of the game."""
    assert new.current_player() == old.current_player()
    assert new.is_terminal() == old.is_terminal()
    legal = old.legal_actions()
    assert new.legal_actions() == legal
    assert new.chance_outcomes() == old.chance_outcomes()
    assert new.returns() == old.returns()
    position = old.to_json()
    exported = new.to_json()
    assert exported == position
    assert list(exported["tiles"]) == list(position["tiles"])  # the board order too
    end = old.is_terminal()
    if step % EVERY["observation"] == 0 or end:
        for player in (0, 1):
            same_observation(old.observation_tensor(player), new, player)
    if step % EVERY["reload"] == 0 or end:
        loaded = game.state_from_json(position)
        assert loaded.to_json() == position
        assert loaded.legal_actions() == legal
        assert loaded.current_player() == old.current_player()
        if end:
            assert HEURISTICS.evaluate(new) == old.returns()
        else:
            assert HEURISTICS.evaluate(new) == softmax(legacy_strengths(position), TEMPERATURE)
    if step % EVERY["messages"] == 0 or end:
        assert new.render(detail=True) == old.render(detail=True)
        assert new.end_reason() == old.end_reason()
        for action in (a for a in range(12) if a not in legal):
            assert error_text(new, action) == error_text(old, action)


def play_on(old: LegacyState, new: PotlatchState, game: PotlatchGame, rng: random.Random) -> int:
    """Continue both engines with the same random actions to the end, comparing after every
    action; returns the number of actions."""
    step = 0
    while not old.is_terminal():
        legal = old.legal_actions()
        action = legal[rng.randrange(len(legal))]
        old.apply_action(action)
        new.apply_action(action)
        step += 1
        compare(old, new, game, step)
        if rng.random() < 0.02:  # clones and reloads must continue identically
            new = new.clone() if rng.random() < 0.5 else game.state_from_json(new.to_json())
    return step


def play_pair(options: dict[str, Any], rng: random.Random) -> int:
    """One random game in both engines, compared at every step; returns its length."""
    old_game, game = LegacyGame(options), PotlatchGame(options)
    old, new = old_game.new_initial_state(), game.new_initial_state()
    compare(old, new, game, 0)
    return play_on(old, new, game, rng)


def odd_snapshot(snapshot: dict[str, Any], full: bool, rng: random.Random) -> dict[str, Any]:
    """``snapshot`` with a far hex added that the board may never reach (and, full-state, now
    and then a pawn that stands on none of its tiles)."""
    far = f"{rng.randrange(6, 9)},{rng.randrange(-9, -6)}"
    if not full:
        return {**snapshot, far: rng.choice(["N", "NN", "NNR"])}
    pawns = list(snapshot["pawns"])
    if rng.random() < 0.3:
        pawns[rng.randrange(2)] = "9,9"
    return {"tiles": {**snapshot["tiles"], far: rng.choice(["", "N"])}, "pawns": pawns}


@pytest.mark.parametrize("full", [False, True], ids=["stacks", "full_state"])
def test_loaded_snapshots_of_boards_not_behind_the_position(full: bool) -> None:
    """A hand-made position may carry snapshots of boards it never came from: hexes that are
    blank now but may still get a tile before the comparison (the kernel's phantom slots), or
    more of them than the stock can fill, or pawns off the snapshot's tiles (snapshots that can
    never match, which the facade still exports as loaded). Positions are a random game's turn
    starts; the opponent's snapshot is the board at the *next* turn start, and the game is
    replayed, so the new tile gets its chips and condition 3 fires on a phantom slot; or the
    snapshots come from later turns, sometimes with a far hex added, and play goes on at random.
    Both engines must continue alike."""
    options = {"repetition_compares_full_state": full, "actions": 3}
    old_game, game = LegacyGame(options), PotlatchGame(options)
    rng = random.Random(f"snapshots {full}")
    repetitions = 0
    for _ in range(games(40, 2_000)):
        state = old_game.new_initial_state()
        starts: list[tuple[dict[str, Any], dict[str, Any], int]] = []
        while not state.is_terminal():
            if state.done == 0:
                starts.append((state.to_json(), state.stack_snapshot(), len(state.history())))
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        if len(starts) < 3:
            continue
        i = rng.randrange(len(starts) - 2)
        position, _, at = starts[i]
        position = dict(position)
        replay = rng.random() < 0.5
        if replay:
            snapshots: list[dict[str, Any] | None] = [None, None]
            snapshots[1 - position["to_move"]] = starts[i + 1][1]
        else:
            later = [snap for _, snap, _ in starts[i + 1 :]]
            snapshots = [
                odd_snapshot(snap, full, rng) if rng.random() < 0.4 else snap
                for snap in (rng.choice(later) for _ in range(2))
            ]
        position["snapshots"] = snapshots
        old, new = old_game.state_from_json(position), game.state_from_json(position)
        compare(old, new, game, 0)
        if not replay:
            play_on(old, new, game, rng)
            continue
        for step, action in enumerate(state.history()[at:], 1):
            if old.is_terminal():
                break
            old.apply_action(action)
            new.apply_action(action)
            compare(old, new, game, step)
        repetitions += old.end_condition == 3
    assert repetitions >= games(5, 200)


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=[",".join(f"{k}={v}" for k, v in o.items()) for o in OPTION_SETS]
)
def test_new_engine_matches_the_legacy_engine(options: dict[str, Any]) -> None:
    count = games(16, 10_000)
    rng = random.Random(json.dumps(options, sort_keys=True))
    began = time.perf_counter()
    actions = 0
    for played in range(1, count + 1):
        actions += play_pair(options, rng)
        if SOAK and (played % 1000 == 0 or played == count):  # progress of a long soak
            seconds = time.perf_counter() - began
            print(f"\n{options}: {played} games, {actions} actions compared, {seconds:.1f} s")
    assert actions > count  # every game took at least one action on average
