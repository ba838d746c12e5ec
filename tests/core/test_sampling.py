"""A kernel's uniform draw (``sample_legal``; Passtally's, Proteus's and Potlatch's find or keep
the action without writing the list) against the plain way, in every kernel option set: the
compiled random playouts play the very games a Python loop over ``legal_actions()`` and
``chance_outcomes()`` plays with the same generator, so a seed gives the same games whichever
way a driver draws (``Kernel.sample_legal``'s contract, core/kernel.pxd)."""

from __future__ import annotations

import pytest

from boardplay.core.game import Game
from boardplay.core.kernel import random_playouts
from option_sets import KERNEL_SETS
from support import games, replayed_playouts

KERNEL_CASES = [pytest.param(game, id=name) for name, game in KERNEL_SETS.items()]


@pytest.mark.parametrize("game", KERNEL_CASES)
def test_compiled_playouts_play_the_listed_games(game: Game) -> None:
    start = game.new_initial_state().kernel
    assert start is not None
    count = games(2 if game.name == "montana" else 8, 40)
    seed = 20261126
    actions, wins, draws, unfinished = random_playouts(start, count, seed)
    assert (actions, wins, draws, unfinished) == replayed_playouts(start, count, seed)
