"""One position judged by a search, in a worker process: the unit of work of hints and reviews.

Like an AI move (``ai_worker.choose_action``), a judgement gets only plain data: where the
catalogue is, the game, its options and start position, the actions that lead to the position,
and the budget. It rebuilds the position, searches it and returns the ``Judgement`` as JSON. A
review is many such jobs, one per position, so a long review never holds a worker for longer
than one position and the AI moves of other games are served in between."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardplay.ai.review import judge
from boardplay.web.catalogue import WebCatalogue, resolve


def judge_position(
    catalogue: str,
    data_dir: str | None,
    game_name: str,
    options: dict[str, Any],
    start_position: dict[str, Any] | None,
    actions: Sequence[int],
    iterations: int,
    seed: int,
    max_time: float,
) -> dict[str, Any]:
    """Judge the position after ``actions`` with at most ``iterations`` search iterations and
    ``max_time`` seconds."""
    game = WebCatalogue(resolve(catalogue), data_dir).load(game_name, options)
    state = (
        game.new_initial_state() if start_position is None else game.state_from_json(start_position)
    )
    for action in actions:
        state.apply_action(action)
    return judge(game, state, len(actions), iterations, seed, max_time).to_json()
