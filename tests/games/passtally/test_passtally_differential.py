"""The compiled engine against the engine it replaces (``games._legacy.passtally``), side by side.

Both play the same random game (the same choice from the same legal list, chance sampled from
the reference's probabilities). At every step the two must agree on the seat to act, the legal
actions, the chance outcomes with their probabilities, the returns, the position JSON, every
seat's observation tensor, the evaluation's values, and the sentence that rejects a random illegal
action; and the new engine must load the reference's position JSON back to an equal position.
Game counts: ``games(default, soak)`` per option set (the soak plays 10,000 per set). The soak
checks the cheap items (seat, legal actions, chance outcomes, returns) at every step and the
costly ones (position JSON, tensors, round trip, evaluation, illegal probe) at every 16th step and
at the end, so that 10,000 games per option set fit in a soak run.
"""

from __future__ import annotations

import math
import random
import time
from itertools import product
from typing import Any

import pytest

import boardplay
from boardplay.ai.evaluation import softmax
from boardplay.ai.evaluation.passtally import evaluate
from boardplay.core.errors import IllegalActionError
from boardplay.core.game import sample_chance
from boardplay.games._legacy.passtally.game import PasstallyGame as LegacyGame
from boardplay.games._legacy.passtally.state import PasstallyState as LegacyState
from boardplay.games.passtally.observation import SIZE, observe_into
from boardplay.games.passtally.state import PasstallyState
from support import SOAK, games

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
] + [
    {"players": 2, "max_turns": 7},
    {"players": 3, "max_turns": 11, "jump_counts_as_step": True},
    {"players": 2, "turn_time_limit_s": 60},
]
"""Every combination of the three rule variants for 2 and 3 players (the first two are the bench's
option sets), the ``max_turns`` guard, and the stored-only turn clock."""


def legacy_evaluate(state: LegacyState) -> list[float]:
    """The evaluation as it was before the kernel (position JSON plus ``turn_score``), kept
    here as the reference the feature-based evaluation must equal."""
    if state.is_terminal():
        return state.returns()
    position = state.to_json()
    left = min(int(p["hidden"]) + (1 if p["face_up"] else 0) for p in position["piles"])
    turns = max(1.0, 2.0 * left / len(position["scores"]))
    pays = min(2.0, turns)
    strengths = [
        float(score) + pays * state.turn_score(seat)
        for seat, score in enumerate(position["scores"])
    ]
    return softmax(strengths, 1.0 + 2.5 * turns**0.5)


def legacy_message(state: LegacyState, action: int) -> str | None:
    try:
        state.apply_action(action)  # raises before any change when illegal
    except IllegalActionError as exc:
        return str(exc)
    return None


FULL_CHECK_EVERY = 16 if SOAK else 1
"""Steps between two comparisons of the costly items."""


def compare_step(old: LegacyState, new: PasstallyState, rng: random.Random, full: bool) -> None:
    player = old.current_player()
    assert new.current_player() == player
    legal = old.legal_actions()
    assert new.legal_actions() == legal
    assert new.chance_outcomes() == old.chance_outcomes()
    assert new.returns() == old.returns()
    if not full:
        return
    position = old.to_json()
    assert new.to_json() == position
    n = old.num_players
    for seat in range(n):
        assert new.observation_tensor(seat) == old.observation_tensor(seat)
    assert new.game.state_from_json(position).to_json() == position
    assert evaluate(new) == legacy_evaluate(old)
    assert new.end_reason() == old.end_reason()
    # One illegal action id (or a stray value) must be rejected in the same words.
    probe = rng.randrange(-2, 560)
    if probe not in legal:
        expected = legacy_message(old, probe)
        assert expected is not None
        with pytest.raises(IllegalActionError) as caught:
            new.apply_action(probe)
        assert str(caught.value) == expected


def play_side_by_side(options: dict[str, Any], seed: int) -> int:
    """One random game on both engines; returns the number of actions compared."""
    old = LegacyGame(options).new_initial_state()
    new = boardplay.load("passtally", **options).new_initial_state()
    assert isinstance(new, PasstallyState)
    rng = random.Random(seed)
    steps = 0
    while True:
        compare_step(old, new, rng, steps % FULL_CHECK_EVERY == 0 or old.is_terminal())
        if old.is_terminal():
            break
        if old.is_chance_node():
            action = sample_chance(old, rng)
        else:
            legal = old.legal_actions()
            action = legal[rng.randrange(len(legal))]
        old.apply_action(action)
        new.apply_action(action)
        steps += 1
        assert steps < 5000, "a random game should end long before this"
    assert new.history() == old.history()
    return steps


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_new_engine_matches_the_reference(options: dict[str, Any]) -> None:
    count = games(3, 10_000)
    began = time.perf_counter()
    actions = sum(play_side_by_side(options, 7919 * g + 1) for g in range(count))
    seconds = time.perf_counter() - began
    print(f"\n{options}: {count} games, {actions} actions compared, {seconds:.1f} s")
    assert actions > count * 20


def test_clone_is_independent_and_equal() -> None:
    state = boardplay.load("passtally", players=3).new_initial_state()
    rng = random.Random(4)
    for _ in range(60):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    copy = state.clone()
    assert copy == state and copy.history() == state.history()
    before = state.to_json()
    legal = copy.legal_actions()
    copy.apply_action(legal[0])
    assert state.to_json() == before and copy.to_json() != before


def test_kernel_sizes_match_the_game() -> None:
    game = boardplay.load("passtally", players=3)
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    assert kernel.action_space == game.num_distinct_actions
    assert kernel.chance_space == game.max_chance_outcomes
    assert (kernel.observation_size,) == game.observation_shape()
    assert kernel.num_players == 3 and kernel.feature_size == 10
    assert math.isclose(sum(p for _, p in kernel.chance_outcomes()), 1.0)


def test_observation_into_a_float32_row_equals_the_list() -> None:
    np = pytest.importorskip("numpy")
    state = boardplay.load("passtally", players=3).new_initial_state()
    rng = random.Random(9)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    rows = np.zeros((3, SIZE), dtype=np.float32)
    for seat in range(3):
        observe_into(state, seat, rows[seat])
        assert rows[seat].tolist() == state.observation_tensor(seat)
    with pytest.raises(ValueError, match="player must be a seat"):
        observe_into(state, 3, rows[0])
