"""Frozen trajectories: what the pre-kernel engines did, kept as digests after they were deleted.

Each game's compiled kernel ran side by side with its old pure-Python engine over at least
10,000 random games per option set (the soak; docs/performance.md) before the old engine was
removed. To keep a check that cannot drift with the new engine, the old engine's behaviour on a
sample of those games is frozen here as SHA-256 digests: ``tests/games/<game>/golden.json``
holds, per option set and seed, the number of actions and the digest of everything the contract
exposed at every step: the seat to act, the legal actions, the returns, the chance outcomes with
their probabilities; and every ``JSON_EVERY`` steps and at the end: the position JSON, each
seat's observation tensor (as float32 bytes), why the game ended, the detailed text picture and
the error message for the lowest illegal action id. Some cases start from a hand-made position
instead of the opening. The random choices come from ``random.Random(seed)``, so the engine
under test replays the same game, and any difference anywhere changes the digest.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import sample_chance

JSON_EVERY = 10
"""Steps between two digests of the position JSON and the tensors (and always at the end)."""
MAX_ACTIONS = 1500
"""A game longer than this is cut (Proteus without a turn limit can run for ever; a Montana game
is 700-1,000 actions)."""


def trajectory(state: Any, seed: int, players: int) -> tuple[int, str]:
    """Play ``state`` (any engine's initial state) with ``random.Random(seed)`` choices and
    return ``(actions played, digest)``."""
    rng = random.Random(seed)
    digest = hashlib.sha256()
    steps = 0
    while True:
        player = state.current_player()
        legal = state.legal_actions()
        digest.update(repr((player, legal, state.returns())).encode())
        chance = player < 0 and not state.is_terminal()
        if chance:
            digest.update(repr(state.chance_outcomes()).encode())
        end = state.is_terminal() or steps == MAX_ACTIONS
        if end or steps % JSON_EVERY == 0:
            digest.update(json.dumps(_as_frozen(state.to_json()), sort_keys=True).encode())
            for seat in range(players):
                tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
                digest.update(tensor.tobytes())
            digest.update(repr(state.end_reason()).encode())
            digest.update(state.render(detail=True).encode())
            digest.update(_refusal(state, legal).encode())
        if end:
            return steps, digest.hexdigest()
        action = sample_chance(state, rng) if chance else legal[rng.randrange(len(legal))]
        state.apply_action(action)
        steps += 1


ADDED_SINCE_FREEZE = ("decided_by",)
"""Members of a finished position's ``result`` added after the old engines were frozen
(Montana's ``decided_by``, which tie-break chose): derived from the rest of the position, so
leaving them out of the digest hides no difference in play."""


def _as_frozen(position: dict[str, Any]) -> dict[str, Any]:
    """``position`` as the frozen engines wrote it."""
    result = position.get("result")
    if isinstance(result, dict):
        position["result"] = {k: v for k, v in result.items() if k not in ADDED_SINCE_FREEZE}
    return position


def _refusal(state: Any, legal: list[int]) -> str:
    """The message for the lowest action id that is not legal here ("" if every id is)."""
    illegal = next((a for a in range(len(legal) + 1) if a not in legal), None)
    if illegal is None or state.is_terminal():
        return ""
    try:
        state.apply_action(illegal)
    except IllegalActionError as error:
        return str(error)
    raise AssertionError(f"illegal action {illegal} was accepted")


def start(game: Any, case: dict[str, Any]) -> Any:
    """The state a case starts from: its hand-made ``position`` or the opening."""
    position = case.get("position")
    return game.new_initial_state() if position is None else game.state_from_json(position)


def load_cases(path: Any) -> list[dict[str, Any]]:
    """The frozen cases of one game (``golden.json`` beside its tests)."""
    with open(path, encoding="utf-8") as file:
        cases: list[dict[str, Any]] = json.load(file)["cases"]
    return cases
