"""The compiled games are the same inside (docs/contributing.md, the module table): same-named
modules hold the same names, every facade is made as ``XState(game, kernel)`` from its
package's ``new_kernel(game)``, and every kernel as ``XKernel(num_players, options...)``."""

from __future__ import annotations

import importlib
import inspect

import pytest

import boardplay
from boardplay.core.face import Face
from option_sets import KERNEL_GAMES

GAMES = KERNEL_GAMES
"""Every game that runs on a compiled kernel (its modules are in the one shape)."""

NAMES = {
    "state": ("new_kernel",),
    "fields": ("FACE",),
    "position": ("load_position", "export_position"),
    "render": ("render_state",),
    "observation": ("observe", "observe_into"),
    "explain": ("explain_illegal",),
    "notation": ("action_to_string",),
}
"""Module -> the names every game's module of that name defines."""


@pytest.mark.parametrize("name", GAMES)
def test_same_named_modules_hold_the_same_names(name: str) -> None:
    for module, names in NAMES.items():
        loaded = importlib.import_module(f"boardplay.games.{name}.{module}")
        for attribute in names:
            assert hasattr(loaded, attribute), f"{name}.{module} lacks {attribute}"
    fields = importlib.import_module(f"boardplay.games.{name}.fields")
    assert isinstance(fields.FACE, Face)
    mixin = getattr(fields, f"{name.capitalize()}Fields")
    state = boardplay.load(name).new_initial_state()
    assert isinstance(state, mixin)


@pytest.mark.parametrize("name", GAMES)
def test_one_constructor_contract(name: str) -> None:
    game = boardplay.load(name)
    state_module = importlib.import_module(f"boardplay.games.{name}.state")
    kernel = state_module.new_kernel(game)
    assert kernel.num_players == game.num_players
    state = type(game.new_initial_state())(game, kernel)
    assert state.kernel is kernel and state.game is game
    # The seat count comes first, and is checked (Montana's component tables follow it).
    rest = (game.tables,) if name == "montana" else ()
    with pytest.raises(ValueError, match="players"):
        type(kernel)(game.num_players + 10, *rest)


@pytest.mark.parametrize("name", GAMES)
def test_explain_illegal_takes_the_facade_and_the_action(name: str) -> None:
    """One signature across the games: ``explain_illegal(state, action)``, the facade giving
    the kernel and, once over, the result (the refusal texts are frozen by the golden digests,
    ``tests/games/test_golden.py``)."""
    explain = importlib.import_module(f"boardplay.games.{name}.explain").explain_illegal
    assert list(inspect.signature(explain).parameters) == ["state", "action"]
    state = boardplay.load(name).new_initial_state()
    assert explain(state, -1) == state.explain_illegal(-1)
