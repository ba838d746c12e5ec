"""Compact observations (docs/adapters.md, "Compact observations"): in every kernel option set,
every seat's compact row over random games equals a plain Python encoding of the float tensor of
the same state, and expands back to that tensor exactly; the batched env's compact mode gives
the same rows, of a fixed shape and dtype, as the tensors it stands for."""

from __future__ import annotations

import importlib
import random

import numpy as np
import numpy.typing as npt
import pytest

import boardplay
from boardplay.adapters.vector import BoardplayVectorEnv
from boardplay.core.game import Game, sample_chance
from option_sets import KERNEL_GAMES, KERNEL_SETS, at_most_players
from support import games

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

SIZES = {"montana": 2094, "passtally": 99, "potlatch": 537, "proteus": 22}
"""Bytes per compact row, the same in every option set (docs/adapters.md's table)."""


def _tables(game: Game) -> tuple[list[int], list[float]]:
    """Each tensor entry's kind (0 bit, 1 byte, 2 two bytes) and denominator (core/compact.pxd);
    Montana's for the tail of its tensor (``_montana``)."""
    module = importlib.import_module(f"boardplay.games.{game.name}.kernel")
    if game.name == "montana":
        kind, denom, _dynamic, size = module.compact_tables()
        denom = list(denom)  # the turn number counts towards max_turns
        denom[module.TURN_ENTRY - module.TAIL_ENTRY] = game.max_turns  # type: ignore[attr-defined]
    else:
        kind, denom, size = module.compact_tables()
    assert size == SIZES[game.name]
    return list(kind), list(denom)


def _bits_and_numerators(tensor: F32, kind: list[int], denom: list[float]) -> U8:
    """The plain encoding: every bit entry's value as a bit, then each count's numerator."""
    bits = np.zeros(len(tensor), dtype=np.uint8)
    numerators = bytearray()
    for i, value in enumerate(tensor.tolist()):
        if kind[i] == 0:
            assert value in (0.0, 1.0), (i, value)
            bits[i] = int(value)
            continue
        numerator = round(value * denom[i])
        assert np.float32(numerator / denom[i]) == np.float32(value), (i, value)
        numerators += numerator.to_bytes(kind[i], "little")  # a numerator too big raises
    return np.frombuffer(np.packbits(bits, bitorder="little").tobytes() + numerators, np.uint8)


def _montana(tensor: F32, kind: list[int], denom: list[float]) -> U8:
    """Montana's layout (``games/montana/compact.pxi``): eight 256-bit planes over the 225
    grid cells (owner seen from the viewer 0-3, tiles' low and high bit, cattle, canteen), the
    worker board's 224 counts as nibbles, the tensor's tail after the hexes as bits and
    numerators (the worker board's bits 0), then a byte per cell (kind, start hex 4, double 8)
    and six costs per cell."""
    hexes = tensor[: 225 * 18].reshape(225, 18).astype(np.float64)
    tiles = np.round(hexes[:, 4] * 3).astype(np.int64)
    planes = [*(hexes[:, j] for j in range(4)), tiles & 1, tiles >> 1, hexes[:, 10], hexes[:, 11]]
    padded = np.zeros((8, 256), dtype=np.uint8)
    for j, plane in enumerate(planes):
        padded[j, :225] = plane
    slots = np.round(tensor[225 * 18 + 64 : 225 * 18 + 64 + 224].astype(np.float64) * 2)
    nibbles = (slots[0::2] + 16 * slots[1::2]).astype(np.uint8)
    tail = tensor[225 * 18 :].copy()
    tail[64 : 64 + 224] = 0
    cells = (hexes[:, 5:8] @ np.array([1.0, 2.0, 3.0]) + 4 * hexes[:, 8] + 8 * hexes[:, 9]).astype(
        np.uint8
    )
    costs = np.round(hexes[:, 12:18] * 2).astype(np.uint8).reshape(-1)
    return np.concatenate(
        [
            np.packbits(padded, axis=1, bitorder="little").reshape(-1),
            nibbles,
            _bits_and_numerators(tail, kind, denom),
            cells,
            costs,
        ]
    )


def _potlatch(tensor: F32) -> U8:
    """Potlatch's own layout (``observe.pxi``): a byte per window cell, then eight integers."""
    planes = tensor.reshape(17, -1)
    cells = (
        planes[0]
        + 2 * (planes[1] + planes[2] + planes[3])
        + sum((1 << bit) * planes[bit + 1] for bit in range(3, 8))
    )
    actions = 3 if planes[12, 0] else 2
    scalars = [
        planes[9, 0],
        planes[10, 0] * actions,
        actions,
        planes[11, 0],
        planes[13, 0] * 12,
        planes[14, 0] * 3,
        planes[15, 0] * 3,
        planes[16, 0] * 36,
    ]
    row = np.concatenate([cells, np.round(np.array(scalars, dtype=np.float64))])
    return row.astype(np.uint8)


def _states(game: Game, seed: int, limit: int) -> list[boardplay.State]:
    """Every state of a random game of up to ``limit`` actions (chance by its probabilities)."""
    state, rng, seen = game.new_initial_state(), random.Random(seed), []
    while not state.is_terminal() and len(seen) < limit:
        seen.append(state.clone())
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seen.append(state)
    return seen


@pytest.mark.parametrize("name", list(KERNEL_SETS))
def test_compact_rows_are_the_plain_encoding_of_the_tensor(name: str) -> None:
    game = KERNEL_SETS[name]
    kernel = game.new_initial_state().kernel
    assert kernel is not None and kernel.compact_size == SIZES[game.name]
    tables = None if game.name == "potlatch" else _tables(game)
    tensor = np.zeros(kernel.observation_size, dtype=np.float32)
    row = np.zeros(kernel.compact_size, dtype=np.uint8)
    expanded = np.zeros_like(tensor)
    checked = 0
    # Montana's tensor is 18,192 floats a seat, encoded here in Python: one game in make test.
    for seed in range(games(1 if game.name == "montana" else 3, 30)):
        for state in _states(game, seed, 150 if game.name == "montana" else 400):
            k = state.kernel
            assert k is not None
            for seat in range(game.num_players):
                k.observe(seat, tensor)
                k.observe_compact(seat, row)
                if tables is None:
                    plain = _potlatch(tensor)
                elif game.name == "montana":
                    plain = _montana(tensor, *tables)
                else:
                    plain = _bits_and_numerators(tensor, *tables)
                assert np.array_equal(row, plain), (seed, seat)
                k.expand_compact(row, expanded)
                assert np.array_equal(expanded, tensor), (seed, seat)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("spec", [at_most_players(name) for name in KERNEL_GAMES])
def test_vector_compact_mode_expands_to_the_tensor_mode(spec: str) -> None:
    """Two batches on the same seed play the same games, one writing tensors, one compact rows
    (fixed shape, uint8), the finished games' last observations included."""
    tensors = BoardplayVectorEnv(spec, num_envs=6, seat="random")
    compact = BoardplayVectorEnv(spec, num_envs=6, seat="random", compact=True)
    size = SIZES[compact.game.name]
    assert compact.single_observation_space.shape == (size,)
    assert compact.single_observation_space.dtype == np.uint8
    full, infos = tensors.reset(seed=5)
    small, _ = compact.reset(seed=5)
    assert small.shape == (6, size) and small.dtype == np.uint8
    assert compact.observation_space.contains(small)
    assert np.array_equal(compact.expand(small), full)
    rng = np.random.default_rng(2)
    for _ in range(60):
        actions = np.argmax(rng.random(infos["action_mask"].shape) * infos["action_mask"], axis=1)
        full, _r, _te, _tr, infos = tensors.step(actions)
        small, _r2, _te2, _tr2, small_infos = compact.step(actions)
        assert np.array_equal(compact.expand(small), full)
        if "final_obs" in infos:
            done = infos["_final_obs"]
            assert np.array_equal(
                compact.expand(small_infos["final_obs"][done]), infos["final_obs"][done]
            )
