"""Passtally in the compiled batch: the mask it writes straight from the anchors' orientation
masks (``mask_into``) and the compact rows it writes from the boards it keeps (``note_tile``)
are the legal list and the tensor, in every rule variant and over whole games."""

from __future__ import annotations

import numpy as np
import pytest

import boardplay
from boardplay.adapters.vector import BatchedGames
from boardplay.games.passtally import fields

VARIANTS = [
    "passtally",
    "passtally(players=3)",
    "passtally(jump_counts_as_step=true)",
    "passtally(ring_corners_continuous=false,players=3)",
    "passtally(finish_turn_on_immediate_end=false)",
]


@pytest.mark.parametrize("spec", VARIANTS)
def test_batch_masks_and_compact_rows_are_the_kernels(spec: str) -> None:
    games = BatchedGames(boardplay.load(spec), 6, compact=True)
    obs, mask, to_move = games.reset(seed=11)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(250):
        for i in range(games.size):
            kernel = games.batch.game(i)
            seat = int(to_move[i])
            assert np.flatnonzero(mask[i]).tolist() == kernel.legal_actions()
            row = np.zeros(kernel.compact_size, dtype=np.uint8)
            kernel.observe_compact(seat, row)
            assert np.array_equal(obs[i], row)
            tensor = np.zeros(kernel.observation_size, dtype=np.float32)
            expanded = np.zeros(kernel.observation_size, dtype=np.float32)
            kernel.observe(seat, tensor)
            kernel.expand_compact(row, expanded)
            assert np.array_equal(tensor, expanded)
        noise = rng.random(mask.shape) * mask
        obs, mask, to_move, _rewards, done = games.step(np.argmax(noise, axis=1).astype(np.int64))
        finished += int(np.sum(done))
    assert finished > 0  # whole games, their ends and restarts included


def test_compact_rows_survive_a_position_reload() -> None:
    """A loaded position rebuilds the boards the compact writer reads (``derive_planes``)."""
    game = boardplay.load("passtally")
    games = BatchedGames(game, 1, compact=True)
    obs, mask, to_move = games.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        obs, mask, to_move, _rewards, _done = games.step(
            np.array([rng.choice(np.flatnonzero(mask[0]))], dtype=np.int64)
        )
    kernel = games.batch.game(0)
    fresh = game.new_initial_state().kernel
    fields.load(fresh, fields.snapshot(kernel))
    seat = int(to_move[0])
    before = np.zeros(kernel.compact_size, dtype=np.uint8)
    after = np.zeros(kernel.compact_size, dtype=np.uint8)
    kernel.observe_compact(seat, before)
    fresh.observe_compact(seat, after)
    assert np.array_equal(before, after)
    assert np.array_equal(obs[0], after)
