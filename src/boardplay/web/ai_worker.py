"""AI moves, computed away from the event loop.

A search may think for seconds; the server must keep answering other players meanwhile. The
server sends a worker process everything needed to rebuild the position (catalogue, game,
options, start position, action list) and the agent spec; the worker replays, asks the agent
and returns one action id. Only plain data crosses the process boundary."""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from boardplay.ai.specs import make_agent
from boardplay.web.catalogue import resolve


def choose_action(
    catalogue: str,
    game_name: str,
    options: dict[str, Any],
    start_position: dict[str, Any] | None,
    actions: Sequence[int],
    spec: str,
    seed: int,
) -> int:
    """Rebuild the position after ``actions`` and return the agent's choice there."""
    game = resolve(catalogue).load(game_name, options)
    state = (
        game.new_initial_state() if start_position is None else game.state_from_json(start_position)
    )
    for action in actions:
        state.apply_action(action)
    agent = make_agent(spec, game, seed)
    return int(agent.step(state))


def make_executor(workers: int) -> Executor:
    """A process pool (spawned, so no state is shared with the server's threads); ``0`` means a
    single background thread, still off the event loop."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="boardplay-ai")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
