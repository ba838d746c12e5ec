"""Batched games (``adapters.vector``): the compiled batch agrees with the engine it wraps, and
the Gymnasium ``VectorEnv`` keeps Gymnasium's conventions (shapes, masks, same-step autoreset).
Speed is measured by ``make bench``, never asserted here."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import boardplay
from boardplay.adapters import IllegalActionWarning, utilities
from boardplay.adapters.leaguevector import BoardplayLeagueVectorEnv
from boardplay.adapters.vector import BatchedGames, BoardplayVectorEnv
from option_sets import KERNEL_GAMES, at_most_players

GAMES = [at_most_players(name) for name in KERNEL_GAMES]
"""Every game that runs on a compiled kernel (batching is the kernel's), at its largest table."""


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``mask``."""
    noise = rng.random(mask.shape) * mask
    return np.argmax(noise, axis=1).astype(np.int64)


@pytest.mark.parametrize("spec", GAMES)
def test_batch_observations_and_masks_are_the_engines(spec: str) -> None:
    game = boardplay.load(spec)
    games = BatchedGames(game, 4)
    obs, mask, to_move = games.reset(seed=7)
    rng = np.random.default_rng(1)
    for _ in range(60):
        for i in range(games.size):
            kernel = games.batch.game(i)
            seat = int(to_move[i])
            assert seat == kernel.current_player()
            legal = np.flatnonzero(mask[i])
            assert legal.tolist() == kernel.legal_actions()
            row = np.zeros(kernel.observation_size, dtype=np.float32)
            kernel.observe(seat, row)
            assert np.array_equal(obs[i], row)
        obs, mask, to_move, _rewards, _done = games.step(_pick(mask, rng))


def test_potlatch_batch_replays_exactly_through_the_contract() -> None:
    """Potlatch has no chance, so the facade can follow each batched game move by move: every
    observation, mask and terminal reward must be the engine's own."""
    game = boardplay.load("potlatch")
    games = BatchedGames(game, 8)
    obs, mask, to_move = games.reset(seed=3)
    states = [game.new_initial_state() for _ in range(games.size)]
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(400):
        actions = _pick(mask, rng)
        obs, mask, to_move, rewards, done = games.step(actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            if state.is_terminal():
                assert done[i]
                assert rewards[i].tolist() == pytest.approx(utilities(state))
                finished += 1
                states[i] = state = game.new_initial_state()
            else:
                assert not done[i]
                assert not rewards[i].any()
            assert int(to_move[i]) == state.current_player()
            assert np.flatnonzero(mask[i]).tolist() == state.legal_actions()
            expected = np.asarray(state.observation_tensor(state.current_player()), np.float32)
            assert np.array_equal(obs[i], expected)
    assert finished > 5


def test_an_action_outside_the_mask_loses_that_game_only() -> None:
    games = BatchedGames("potlatch", 2)
    _obs, mask, to_move = games.reset(seed=1)
    actions = _pick(mask, np.random.default_rng(0))
    bad = int(np.flatnonzero(mask[0] == 0)[0])
    actions[0] = bad
    seat = int(to_move[0])
    _obs, _mask, _to_move, rewards, done = games.step(actions)
    assert done.tolist() == [True, False]
    assert rewards[0, seat] == -1.0 and rewards[0, 1 - seat] == 1.0
    assert not rewards[1].any()


@pytest.mark.parametrize("spec", GAMES)
def test_vector_env_steps_with_same_step_autoreset(spec: str) -> None:
    envs = BoardplayVectorEnv(spec, num_envs=16, seat=0)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=5)
    assert obs.shape == (16, *envs.game.observation_shape())
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(300):
        actions = _pick(infos["action_mask"], rng)
        assert envs.action_space.contains(actions)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert obs.dtype == np.float32 and rewards.shape == (16,)
        assert not truncated.any() and not infos["illegal_action"].any()
        assert (infos["action_mask"].sum(axis=1) > 0).all()  # the learner always has a move
        assert not rewards[~terminated].any()
        if terminated.any():
            ended += int(terminated.sum())
            assert infos["_final_obs"].tolist() == terminated.tolist()
            assert ((rewards >= -1.0) & (rewards <= 1.0)).all()
    assert ended > 0


def test_vector_env_refuses_a_seat_the_game_does_not_have() -> None:
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        BoardplayVectorEnv("potlatch", num_envs=2, seat=2)


def test_same_seed_same_games() -> None:
    first, second = BoardplayVectorEnv("passtally", 4), BoardplayVectorEnv("passtally", 4)
    a, _ = first.reset(seed=11)
    b, _ = second.reset(seed=11)
    assert np.array_equal(a, b)
    rng1, rng2 = np.random.default_rng(0), np.random.default_rng(0)
    for _ in range(50):
        a, ra, *_rest = first.step(_pick(first._buffers.mask, rng1))
        b, rb, *_rest2 = second.step(_pick(second._buffers.mask, rng2))
        assert np.array_equal(a, b) and np.array_equal(ra, rb)


def test_compact_potlatch_observations_expand_to_the_tensors() -> None:
    """Two batches on the same seed play the same games; one writes tensors, the other compact
    bytes. Expanding the bytes must give the tensors exactly, for every game, every step, the
    finished games' last observations included."""
    tensors = BoardplayVectorEnv("potlatch", num_envs=8, seat=1)
    compact = BoardplayVectorEnv("potlatch", num_envs=8, seat=1, compact=True)
    assert compact.single_observation_space.shape == (23 * 23 + 8,)
    assert compact.single_observation_space.dtype == np.uint8
    full, _ = tensors.reset(seed=9)
    small, infos = compact.reset(seed=9)
    assert compact.observation_space.contains(small)
    assert np.array_equal(compact.expand(small), full)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        actions = _pick(infos["action_mask"], rng)
        full, rewards, terminated, _t, full_infos = tensors.step(actions)
        small, small_rewards, small_terminated, _t2, infos = compact.step(actions)
        assert np.array_equal(compact.expand(small), full)
        assert np.array_equal(rewards, small_rewards)
        assert np.array_equal(terminated, small_terminated)
        if terminated.any():
            ended += int(terminated.sum())
            done = np.flatnonzero(terminated)
            assert np.array_equal(
                compact.expand(infos["final_obs"][done]), full_infos["final_obs"][done]
            )
    assert ended > 0


def test_compact_expansion_covers_every_plane() -> None:
    """The random positions above rarely reach tall stacks or spent stock; the kernel's own
    expander is checked on every state of long random games, plane by plane."""
    game = boardplay.load("potlatch", actions=3)
    rng = np.random.default_rng(5)
    seen = np.zeros(game.observation_shape()[0], dtype=bool)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            kernel = state.kernel
            for seat in (0, 1):
                tensor = np.zeros(kernel.observation_size, dtype=np.float32)
                packed = np.zeros(kernel.compact_size, dtype=np.uint8)
                kernel.observe(seat, tensor)
                kernel.observe_compact(seat, packed)
                expanded = np.zeros_like(tensor)
                kernel.expand_compact(packed, expanded)
                assert np.array_equal(expanded, tensor)
                seen |= tensor.reshape(game.observation_shape()).any(axis=(1, 2))
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert seen.all(), np.flatnonzero(~seen)


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_every_kernel_game_has_a_compact_observation(name: str) -> None:
    """Every game batches with ``compact=True`` (test_compact.py checks the rows); a kernel
    without one is refused by name (``_kernel_game``)."""
    kernel = boardplay.load(name).new_initial_state().kernel
    assert kernel is not None and kernel.compact_size > 0


@pytest.mark.parametrize("kind", [BoardplayVectorEnv, BoardplayLeagueVectorEnv])
def test_the_batched_envs_warn_once_at_the_first_illegal_action(kind: type) -> None:
    """As the single-game env (research review 2026-11d, N4): an unmasked learner is told."""
    envs = kind("potlatch", 4)
    _, infos = envs.reset(seed=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        *_, infos = envs.step(_pick(infos["action_mask"], np.random.default_rng(0)))
        assert not caught
        illegal = np.argmin(infos["action_mask"], axis=1)  # outside every game's mask
        for _ in range(2):
            _, _, terminated, _, infos = envs.step(illegal)
            assert terminated.all()
            illegal = np.argmin(infos["action_mask"], axis=1)
    assert [w.category for w in caught] == [IllegalActionWarning]
    assert "MaskablePPO" in str(caught[0].message)
