"""One position judged by a search, in a worker process: the unit of work of hints, reviews and
fair-play evidence.

Like an AI move (``ai_worker.choose_action``), a judgement gets only plain data: the position
(``position.Position``) and the budget. It rebuilds the position, searches it and returns the
``Judgement`` as JSON. A review is many such jobs, one per position, so a long review never holds
a worker for longer than one position and the AI moves of other games are served in between."""

from __future__ import annotations

from typing import Any

from boardplay.ai.fairplay import judge_spec
from boardplay.ai.review import judge
from boardplay.web.workers.position import Position


def judge_position(
    position: Position, iterations: int, seed: int, max_time: float
) -> dict[str, Any]:
    """Judge ``position`` with at most ``iterations`` search iterations and ``max_time``
    seconds."""
    game, state = position.rebuild()
    return judge(game, state, len(position.actions), iterations, seed, max_time).to_json()


def judge_fairly(position: Position, iterations: int, seed: int, max_time: float) -> dict[str, Any]:
    """Judge ``position`` as the fair-play evidence does (boardplay.ai.fairplay): by the game's
    expert search at ``iterations``, stopped at ``max_time`` seconds."""
    game, state = position.rebuild()
    spec = judge_spec(game, iterations, max_time)
    return judge(game, state, len(position.actions), seed=seed, spec=spec).to_json()
