"""The compiled Montana kernel on its own (the contract every game keeps, clones among it, is
``tests/core/test_contract.py``): the kernel deals the same boards as the reference board
generator (``board.make_board``). The kernel's agreement with the old engine it replaced is
frozen in ``golden.json`` (``tests/games/test_golden.py``)."""

from __future__ import annotations

import pytest
from montana_helpers import edit

import boardplay
from boardplay.games.montana import fields
from boardplay.games.montana.board import make_board
from support import games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_deals_the_boards_of_the_reference_generator(players: int) -> None:
    game = boardplay.load("montana", players=players)
    kernel = game.new_initial_state().kernel
    kinds = {"plain": 1, "mountain": 2, "lake": 3}
    for seed in [*range(0, 4096, games(61, 1)), 2**31 - 1]:
        assert fields.load_board(kernel, seed)
        board = make_board(game.data, players, seed)
        assert fields.landscape(kernel) == [
            (q, r, kinds[spec.kind], spec.cost, spec.double, spec.cattle, spec.canteen)
            for (q, r), spec in zip(board.coords, board.specs, strict=True)
        ]
        placed, attempts = fields.placement(kernel)
        assert attempts == board.attempts
        assert [(game.data.tile_ids[t], r) for t, r in placed] == [
            (tile, rotation) for _, tile, rotation in board.placed
        ]


def test_the_facade_reads_the_position_and_never_writes_it() -> None:
    """Play changes a position only through apply_action: the typed fields are read-only, and
    a loader or a test writes through ``fields.load`` (the test helper ``edit(state)``)."""
    state = boardplay.load("montana").new_initial_state()
    before = state.to_json()
    with pytest.raises(TypeError):
        state.silver[0] = 9  # type: ignore[index]
    with pytest.raises(AttributeError, match="read-only"):
        state.stage = 3
    with pytest.raises(AttributeError, match="read-only"):
        state.silver = [9, 9]
    assert state.to_json() == before
    edit(state).silver[0] = 9
    assert state.silver[0] == 9
