"""AI moves, computed away from the event loop, in worker processes that never outlive the server.

A search may think for seconds; the server must keep answering other players meanwhile. The
server sends a worker process everything needed to rebuild the position (``position.Position``:
catalogue, game, options, start position, action list) and the agent spec; the worker replays,
asks the agent and returns one action id. Only plain data crosses the process boundary.

Why processes, not threads: a search holds the GIL, so in a thread it would slow every answer of
the server; in its own process it runs on another core. Processes have to be told when the
server is gone, however it ends (kill -9 included): each worker asks Linux to kill it when its
parent dies (``PR_SET_PDEATHSIG``) and, everywhere, watches its parent's pid from a thread.

Fairness: each AI turn is one job; ``ai_workers`` jobs run at once, each in its own process, and
every search stops at the think-time ceiling whatever its iteration budget, so one game's long
think never holds up another game's AI unless more games than workers are thinking at once.

Steadiness: a level named by think time plays here as the simulations that time buys on an idle
core, with a time cap (``ai.budgets``), so a busy server slows a level's moves before it weakens
them."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from boardplay.ai.agents import Agent, agent_analysis
from boardplay.ai.budgets import site_spec
from boardplay.ai.specs import as_level, make_agent
from boardplay.core.game import Game
from boardplay.web.catalogue import WebCatalogue, resolve
from boardplay.web.workers.position import Position

PR_SET_PDEATHSIG = 1
WATCH_INTERVAL = 0.5
"""Seconds between a worker's checks that its server is still alive."""


def choose_action(position: Position, spec: str, seed: int, max_time: float) -> int:
    """Rebuild ``position`` and return the site agent's choice there (``site_agent``)."""
    return think(position, spec, seed, max_time)[0]


def think(position: Position, spec: str, seed: int, max_time: float) -> tuple[int, int, float]:
    """Rebuild ``position`` and return the site agent's choice there, with the simulations it
    searched (0 for an agent that does not search) and the seconds it took: what the AI bench
    (``tools/aibench.py``) reports, a level's steadiness under load."""
    game, state = position.rebuild()
    agent = site_agent(spec, game, seed, max_time)
    began = time.monotonic()
    action = int(agent.step(state))
    took = time.monotonic() - began
    found = agent_analysis(agent)
    return action, found.iterations if found is not None else 0, took


def site_agent(spec: str, game: Game, seed: int, max_time: float) -> Agent:
    """The agent the site plays for ``spec``: a level with a think time as its simulations with
    a time cap (``ai.budgets.site_spec``), so its strength does not fall when the server is
    busy, and every search held to the operator's ``max_time`` seconds a move; a level guarded
    against placement traps (``as_level``) is guarded here too, around the capped search."""
    agent = make_agent(site_spec(spec, game), game, seed)
    cap_think_time(agent, max_time)
    return as_level(spec, agent, game)


def cap_think_time(agent: Agent, max_time: float) -> None:
    """Hold a searching agent to ``max_time`` seconds a move: its own limit if lower, else the
    cap when it has none."""
    if hasattr(agent, "time_limit"):
        limit = agent.time_limit
        agent.time_limit = max_time if limit is None else min(limit, max_time)


def warm_up(catalogue: str, data_dir: str | None) -> int:
    """A job that loads the catalogue's games and returns: submitting one per worker at start-up
    starts every process, so the first AI move of a game never waits for one to start."""
    WebCatalogue(resolve(catalogue), data_dir).names()
    time.sleep(0.2)
    return os.getpid()


def watch_parent(parent: int) -> None:
    """Worker initializer: end this process when the server process ``parent`` ends."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watching thread below still ends the worker
    if os.getppid() != parent:  # the server died before the request above took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH_INTERVAL)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="boardplay-parent-watch", daemon=True).start()


def make_executor(workers: int, catalogue: str, data_dir: str | None) -> Executor:
    """A pool of ``workers`` spawned processes (no state shared with the server's threads), all
    started at once; ``0`` means a single background thread, still off the event loop."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="boardplay-ai")
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )
    for _ in range(workers):
        pool.submit(warm_up, catalogue, data_dir)
    return pool
