"""Montana's compact row (docs/adapters.md, "Compact observations"): the changing part the
batch rewrites every step (hex planes and worker-board nibbles kept in the position, then the
tail) and the part the deal fixes, written once a game, carry the float tensor's information:
over random positions, whole games and restarts inside a batch, from every seat's view."""

from __future__ import annotations

import numpy as np
import pytest

import boardplay
from boardplay.adapters.vector import BatchedGames, BoardplayVectorEnv
from boardplay.core.batch import KernelBatch
from boardplay.games.montana import fields
from boardplay.games.montana import kernel as montana_kernel
from support import games

SPECS = ["montana", "montana(players=3)", "montana(players=4)"]


def test_the_row_splits_into_a_changing_and_a_fixed_part() -> None:
    _kinds, _denominators, dynamic, size = montana_kernel.compact_tables()
    kernel = boardplay.load("montana").new_initial_state().kernel
    assert kernel is not None
    assert (kernel.compact_dynamic, kernel.compact_size) == (dynamic, size) == (519, 2094)
    assert size - dynamic == 7 * 225  # a byte per grid cell, then six costs per cell
    assert montana_kernel.HEX_BYTES == 256 and montana_kernel.TAIL_AT == 256 + 112


@pytest.mark.parametrize("spec", SPECS)
def test_learner_rows_expand_to_the_tensors_across_restarts(spec: str) -> None:
    """Two envs on the same seed, one writing tensors, one compact rows; games cut after 40
    actions, so most games of the batch restart several times while the others go on."""
    tensors = BoardplayVectorEnv(spec, num_envs=8, seat="random", max_actions=40)
    compact = BoardplayVectorEnv(spec, num_envs=8, seat="random", max_actions=40, compact=True)
    full, infos = tensors.reset(seed=3)
    small, _ = compact.reset(seed=3)
    assert small.shape == (8, 2094) and small.dtype == np.uint8
    assert np.array_equal(compact.expand(small), full)
    rng = np.random.default_rng(4)
    restarts = 0
    for _ in range(games(150, 600)):
        actions = np.argmax(rng.random(infos["action_mask"].shape) * infos["action_mask"], axis=1)
        full, _r, terminated, truncated, infos = tensors.step(actions)
        small, _r2, _te, _tr, small_infos = compact.step(actions)
        assert np.array_equal(compact.expand(small), full)
        ended = terminated | truncated
        restarts += int(ended.sum())
        if ended.any():
            assert np.array_equal(
                compact.expand(small_infos["final_obs"][ended]), infos["final_obs"][ended]
            )
    assert restarts >= 16


@pytest.mark.parametrize("spec", SPECS)
def test_self_play_rows_are_the_kernels_whole_rows(spec: str) -> None:
    """Self-play: the viewer changes every step, and the batch's rows (only their changing
    part rewritten) equal each kernel's whole row for the seat to move, and expand to its
    tensor; whole games end and restart."""
    batch = BatchedGames(boardplay.load(spec), 4, compact=True, max_actions=120)
    obs, mask, to_move = batch.reset(seed=7)
    rng = np.random.default_rng(8)
    kernel = batch.batch.game(0)
    row = np.zeros(kernel.compact_size, dtype=np.uint8)
    tensor = np.zeros(kernel.observation_size, dtype=np.float32)
    expanded = np.zeros_like(tensor)
    ended = 0
    for _ in range(games(300, 1200)):
        for i in range(batch.size):
            kernel = batch.batch.game(i)
            kernel.observe_compact(int(to_move[i]), row)
            assert np.array_equal(obs[i], row)
            kernel.observe(int(to_move[i]), tensor)
            kernel.expand_compact(row, expanded)
            assert np.array_equal(expanded, tensor)
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int64)
        obs, mask, to_move, _rewards, done = batch.step(actions)
        ended += int(done.sum()) + int(batch.truncated.sum())
    assert ended > 0


def test_a_new_buffer_and_waiting_games_get_whole_rows() -> None:
    """The batch writes only the changing part into the buffer it wrote before; a buffer it
    has not written gets whole rows, the waiting games' too."""
    game = boardplay.load("montana", players=3)
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    batch = KernelBatch(kernel, 5, -1, 0, True, 0)
    size, width = 5, kernel.compact_size
    obs = np.zeros((size, width), np.uint8)
    mask = np.zeros((size, batch.action_space), np.int8)
    to_move = np.zeros(size, np.int32)
    rewards = np.zeros((size, 3), np.float32)
    flags = [np.zeros(size, np.uint8) for _ in range(3)]
    batch.reset(2, obs, mask, to_move)
    picks = np.zeros(size, np.int64)
    for step in range(20):
        batch.sample(picks)
        if step % 5 == 4:  # a new buffer, with games 0 and 3 waiting
            obs = np.full((size, width), 0xAB, np.uint8)
            picks[[0, 3]] = -1
        batch.step(
            picks,
            obs,
            mask,
            to_move,
            rewards,
            flags[0],
            flags[1],
            np.zeros((size, 0), np.uint8),
            flags[2],
        )
        row = np.zeros(width, np.uint8)
        for i in range(size):
            batch.game(i).observe_compact(int(to_move[i]), row)
            assert np.array_equal(obs[i], row), (step, i)


@pytest.mark.parametrize("spec", SPECS)
def test_kept_planes_are_the_hexes(spec: str) -> None:
    """The planes and nibbles the position keeps in play are those a load derives from the
    hexes and the worker board (``hex_planes``), at every step of whole random games."""
    game = boardplay.load(spec)
    batch = BatchedGames(game, 3, compact=True)
    obs, mask, to_move = batch.reset(seed=9)
    rng = np.random.default_rng(10)
    fresh = game.new_initial_state().kernel
    assert fresh is not None
    row = np.zeros(fresh.compact_size, dtype=np.uint8)
    done_games = 0
    for _ in range(games(1500, 6000)):
        for i in range(batch.size):
            fields.load(fresh, fields.snapshot(batch.batch.game(i)))
            fresh.observe_compact(int(to_move[i]), row)
            assert np.array_equal(obs[i], row)
        obs, mask, to_move, _rewards, done = batch.step(
            np.argmax(rng.random(mask.shape) * mask, axis=1).astype(np.int64)
        )
        done_games += int(done.sum())
    assert done_games > 0
