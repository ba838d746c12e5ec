"""AI moves, computed away from the event loop, in worker processes that never outlive the server.

A search may think for seconds; the server must keep answering other players meanwhile. The
server sends a worker process everything needed to rebuild the position (``position.Position``:
catalogue, game, options, start position, action list) and the agent spec; the worker replays,
asks the agent and returns one action id. Only plain data crosses the process boundary.

Why processes, not threads: a search holds the GIL, so in a thread it would slow every answer of
the server; in its own process it runs on another core.

Workers are forked from a fork server (``multiprocessing``'s ``forkserver``), started once per
server process with the game engines imported: a fresh interpreter per worker (``spawn``)
imported them again in each, 0.37 s of CPU a worker, four at every start of a server. The fork
server is a clean process of its own, so a worker shares nothing with the server's threads and
event loop, as with ``spawn``.

Processes have to be told when the server is gone, however it ends (kill -9 included). A
worker's parent is the fork server, and the fork server lives as long as any of its workers, so
neither can wait for the other: each worker watches the server process itself, from a thread
blocked on a pidfd of it (Linux; elsewhere it looks at the pid twice a second), and ends when
it does; the fork server then finds no worker left and ends too.

Fairness: each AI turn is one job; ``ai_workers`` jobs run at once, each in its own process, and
every search stops at the think-time ceiling whatever its iteration budget, so one game's long
think never holds up another game's AI unless more games than workers are thinking at once.

Steadiness: a level named by think time plays here as the simulations that time buys on an idle
core, with a time cap (``ai.budgets``), so a busy server slows a level's moves before it weakens
them."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from boardplay.ai.agents import Agent, agent_analysis
from boardplay.ai.budgets import site_spec
from boardplay.ai.placement_book import PlacementGuard
from boardplay.ai.specs import as_level, make_agent
from boardplay.core.game import Game
from boardplay.web.catalogue import WebCatalogue, resolve
from boardplay.web.workers.position import Position

PRELOAD = [__name__, "boardplay.web.workers.engines", "boardplay.cli.main"]
"""Imported once by the fork server, so that every worker forked from it starts with them: this
module (the searches, the catalogue), every game's engine, and the command line's module (a
worker first runs the server's main script again, multiprocessing's rule, and ``boardplay
serve``'s imports it: 0.08 s of CPU in each worker when the fork server had not)."""
WATCH_INTERVAL = 0.5
"""Seconds between a worker's checks that its server is still alive, where it has no pidfd."""


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
    cap when it has none. A guarded level (``expert(time=…)``, a level given its own budget) is
    capped in the search it guards."""
    search = agent.inner if isinstance(agent, PlacementGuard) else agent
    if hasattr(search, "time_limit"):
        limit = search.time_limit
        search.time_limit = max_time if limit is None else min(limit, max_time)


def warm_up(catalogue: str, data_dir: str | None) -> int:
    """A job that loads the catalogue's games and returns: submitting one per worker at start-up
    starts every process, so the first AI move of a game never waits for one to start."""
    WebCatalogue(resolve(catalogue), data_dir).names()
    time.sleep(0.2)
    return os.getpid()


def watch_server(server: int) -> None:
    """Worker initializer: end this process when the server process ``server`` ends."""
    try:
        handle: int | None = os.pidfd_open(server)
    except ProcessLookupError:  # the server ended before this worker started
        os._exit(1)
    except (OSError, AttributeError):  # no pidfd here: look at the pid now and then
        handle = None

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])  # readable once the process has ended
            os._exit(1)
        while True:
            time.sleep(WATCH_INTERVAL)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(1)

    threading.Thread(target=watch, name="boardplay-server-watch", daemon=True).start()


R = TypeVar("R")


def run_job(executor: Executor, jobs: set[Future[Any]], job: Callable[[], R]) -> asyncio.Future[R]:
    """``job`` run in ``executor`` (as ``loop.run_in_executor``), kept in ``jobs`` until its
    worker is done with it (a cancelled wait does not stop a job already running)."""
    future = executor.submit(job)
    jobs.add(future)
    future.add_done_callback(jobs.discard)
    return asyncio.wrap_future(future)


def stop_executor(executor: Executor, jobs: set[Future[Any]]) -> None:
    """Stop a pool of ``make_executor``'s without waiting for the ``jobs`` running in it; an
    idle one is waited for, its workers ending at once. That wait is what releases the
    semaphores of the pool's queues: uvicorn ends the server by raising SIGTERM again once it
    has shut down, so the exit handlers that would release them never run, and
    multiprocessing's resource tracker warned of "leaked semaphore objects" at every stop."""
    executor.shutdown(wait=not jobs, cancel_futures=True)


def make_executor(workers: int, catalogue: str, data_dir: str | None) -> Executor:
    """A pool of ``workers`` processes forked from the fork server (no state shared with the
    server's threads), all started at once; ``0`` means a single background thread, still off
    the event loop."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="boardplay-ai")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=watch_server, initargs=(os.getpid(),)
    )
    for _ in range(workers):
        pool.submit(warm_up, catalogue, data_dir)
    return pool
