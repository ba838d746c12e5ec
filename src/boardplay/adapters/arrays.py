"""What every adapter reads of a state, as NumPy arrays: the observation tensor and the legal
mask, and the game a name or game string stands for, and where an episode is cut. NumPy and the
core only: the Gymnasium
adapter (which the wheel's start-up hook imports while a program, PettingZoo among others, is
still importing ``gymnasium``) takes these from here, never from the PettingZoo adapter, so
importing PettingZoo before Gymnasium cannot meet a half-imported ``pettingzoo``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State
from boardplay.core.registry import load


def resolve_game(game: str | Game, options: dict[str, Any]) -> Game:
    """A boardplay Game from a name / game string plus options, or a Game as it is."""
    if isinstance(game, Game):
        if options:
            raise TypeError("give options either in the Game or as keywords, not both")
        return game
    return load(game, **options)


def episode_limit(game: Game, max_actions: int | None) -> int:
    """The action count at which an adapter cuts an episode: ``max_actions``, by default the
    game's ``Game.episode_limit``; anything but a positive integer is an ``OptionError``."""
    limit = game.episode_limit if max_actions is None else max_actions
    if not isinstance(limit, int) or limit < 1:
        raise OptionError(f"max_actions must be a positive integer, not {max_actions!r}")
    return limit


def observe_tensor(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """``seat``'s observation as a float32 array: written by the compiled kernel straight into
    the array when the game has one (no Python list of thousands of floats in between)."""
    shape = state.game.observation_shape()
    kernel = state.kernel
    if kernel is not None and kernel.observation_size:
        out = np.empty(kernel.observation_size, dtype=np.float32)
        kernel.observe(seat, out)
        return out.reshape(shape)
    return np.asarray(state.observation_tensor(seat), dtype=np.float32).reshape(shape)


def action_mask(state: State, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
    """0/1 int8 mask over the game's action space; zeros unless ``seat`` is to act."""
    mask = np.zeros(state.game.num_distinct_actions, dtype=np.int8)
    if state.current_player() == seat:
        mask[state.legal_actions()] = 1
    return mask


__all__ = ["action_mask", "episode_limit", "observe_tensor", "resolve_game"]
