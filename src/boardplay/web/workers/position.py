"""A position as a job carries it to a worker process, written once for every search run there
(an AI move, ``ai_worker.choose_action``; a position judged, ``judging.judge_position``): only
plain data crosses the process boundary (where the catalogue is, the game, its options and start
position, the actions that lead to the position), and the worker rebuilds the game and its state
from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardplay.core.game import Game, State
from boardplay.web.catalogue import WebCatalogue, resolve


@dataclass(frozen=True)
class Position:
    """The position after ``actions`` in a game of ``game`` with ``options``, from
    ``start_position`` (None: the game's initial state), its catalogue found at ``catalogue``
    (``module:attribute``) with ``data_dir``."""

    catalogue: str
    data_dir: str | None
    game: str
    options: dict[str, Any]
    start_position: dict[str, Any] | None
    actions: list[int]

    def rebuild(self) -> tuple[Game, State]:
        """The game and its state at this position (in the worker process)."""
        game = WebCatalogue(resolve(self.catalogue), self.data_dir).load(self.game, self.options)
        start = self.start_position
        state = game.new_initial_state() if start is None else game.state_from_json(start)
        for action in self.actions:
            state.apply_action(action)
        return game, state
