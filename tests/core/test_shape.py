"""Every game package has the same shape: the same modules, each with the same public names
(docs/contributing.md), so a reader who knows one game finds their way in the other three."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from option_sets import KERNEL_GAMES

GAMES = KERNEL_GAMES
"""Every game that runs on a compiled kernel: its folder is in the one shape."""

SHAPE = {
    "notation": ("action_to_string",),
    "position": ("export_position", "load_position"),
    "render": ("render_state",),
    "explain": ("explain_illegal",),
    "describe": ("describe",),
    "observation": (),
    "state": (),
    "game": (),
    "kernel": (),
    "tables": (),
}
"""Module → the functions every game's module of that name defines."""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("module", sorted(SHAPE))
def test_every_game_package_has_the_module_and_its_names(game: str, module: str) -> None:
    loaded = importlib.import_module(f"boardplay.games.{game}.{module}")
    for name in SHAPE[module]:
        assert callable(getattr(loaded, name, None)), f"{game}/{module} lacks {name}()"


def test_the_game_hooks_call_the_modules_by_their_shared_names() -> None:
    """The wiring in each ``game.py`` reads the same: the game's hooks are the modules' names."""
    root = Path(importlib.import_module("boardplay.games").__file__ or "").parent
    for game in GAMES:
        text = (root / game / "game.py").read_text("utf-8")
        for name in ("export_position", "load_position", "render_state"):
            assert f"{name}(" in text, f"{game}/game.py does not call {name}"
