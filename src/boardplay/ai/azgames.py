"""The games an alphazero iteration learns from (``boardplay.ai.alphazero``): one game of the
network against itself, and the iteration's games played in worker processes or as Ray tasks
(``boardplay train --algo alphazero --workers N`` or ``--ray ADDRESS``).

Why workers: the games are nearly all of a run's cost (Montana's shipped network: 2,656 of
2,897 CPU seconds), and they are independent. Each game is a job with a seed of its own, drawn
by the run in order before any is played, so a run's games, and the network trained on them,
are the same with any number of workers and on a cluster: results come back in the jobs' order.
Without workers the games are played in the run's own process from its one random stream, as the
shipped networks were (their documented commands remake them exactly)."""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardplay.ai.az import build_network
from boardplay.ai.cluster import RETRIES, connected
from boardplay.ai.puct import Puct
from boardplay.ai.teacher import Row, teacher_game
from boardplay.core.game import Game
from boardplay.core.kernel import Kernel
from boardplay.core.registry import load


@dataclass(frozen=True)
class SelfPlay:
    """How the network plays itself: ``simulations`` a decision from a fresh tree whose root
    priors carry Dirichlet noise (``alpha``, ``epsilon``), the first ``temperature_moves``
    decisions drawn by visits (``AZConfig`` holds the run's values)."""

    simulations: int
    c: float
    alpha: float
    epsilon: float
    temperature_moves: int


Played = tuple[list[Row], list[float], int]
"""A game's decisions (``teacher.Row``), its returns and the simulations it spent."""


def network_input(kernel: Kernel, player: int, compact: bool, out: np.ndarray) -> None:
    """The network's input row for ``player`` (what ``Network.evaluate`` reads in C)."""
    if compact:
        raw = np.zeros(kernel.compact_size, dtype=np.uint8)
        kernel.observe_compact(player, raw)
        out[:] = raw / 16.0
    else:
        kernel.observe(player, out)


def self_play_game(
    game: Game,
    search: Puct,
    settings: SelfPlay,
    rng: np.random.Generator,
    compact: bool,
    inputs: int,
) -> Played:
    """One game of the network against itself: ``(input, visits, mover, root value)`` per
    decision (the root value: the search's mean return for the mover), the returns, and the
    simulations spent."""
    state = game.new_initial_state()
    kernel = state.kernel
    assert isinstance(kernel, Kernel)
    space = kernel.action_space
    rows: list[Row] = []
    simulations = 0
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = np.array([p for _, p in outcomes])
            state.apply_action(
                outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))][0]
            )
            continue
        player = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        search.reset(kernel)
        search.expand_root()
        search.noise(rng.dirichlet([settings.alpha] * len(legal)), settings.epsilon)
        done, _ = search.run(settings.simulations, 0.0)
        simulations += done
        visits = np.zeros(space, dtype=np.float32)
        total = search.visits_into(visits)
        x = np.zeros(inputs, dtype=np.float32)
        network_input(kernel, player, compact, x)
        rows.append((x, visits / max(total, 1), player, search.node_value(search.root)))
        if moves < settings.temperature_moves:
            action = int(rng.choice(space, p=visits / visits.sum()))
        else:
            best = np.flatnonzero(visits == visits.max())
            action = int(best[rng.integers(len(best))])
        state.apply_action(action)
        moves += 1
    return rows, list(state.returns()), simulations


@dataclass(frozen=True)
class GameJob:
    """One game of an iteration, played anywhere: by ``teacher`` (an mcts spec) when given,
    else by the network of ``arrays`` and ``meta`` against itself."""

    game: str
    seed: int
    compact: bool
    inputs: int
    settings: SelfPlay
    teacher: str | None = None
    arrays: dict[str, np.ndarray] | None = None
    meta: dict[str, Any] | None = None


@functools.lru_cache(maxsize=4)
def _game(name: str) -> Game:
    return load(name)


def play_job(job: GameJob) -> tuple[Played, float]:
    """``job``'s game, from its own seed, and the CPU seconds it took in the process that
    played it (the run's budget adds them up)."""
    began = time.process_time()
    game = _game(job.game)
    rng = np.random.default_rng(job.seed)

    def write_input(kernel: Kernel, player: int, out: np.ndarray) -> None:
        network_input(kernel, player, job.compact, out)

    if job.teacher is not None:
        played = teacher_game(
            game, job.teacher, rng, job.settings.temperature_moves, write_input, job.inputs
        )
    else:
        assert job.arrays is not None and job.meta is not None
        kernel = game.new_initial_state().kernel
        assert isinstance(kernel, Kernel)
        network = build_network(job.arrays, job.meta)
        search = Puct(kernel, network, c=job.settings.c, seed=int(rng.integers(1 << 62)))
        played = self_play_game(game, search, job.settings, rng, job.compact, job.inputs)
    return played, time.process_time() - began


@contextlib.contextmanager
def game_pool(workers: int, ray: str | None) -> Iterator[Executor | Any | None]:
    """Where a run's games are played: the Ray cluster at ``ray``, else ``workers`` spawned
    processes (spawned, not forked: the run's process holds torch's threads), else None (the
    run's own process)."""
    if ray is not None:
        with connected(ray) as module:
            yield module
    elif workers > 0:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            yield pool
    else:
        yield None


def play_jobs(jobs: Sequence[GameJob], pool: Executor | Any) -> Iterator[tuple[Played, float]]:
    """Each job's game in the jobs' order: on ``pool``, a process pool (``Executor``) or a
    connected ``ray`` module (``game_pool``)."""
    if isinstance(pool, Executor):
        yield from pool.map(play_job, jobs)
        return
    remote = pool.remote(num_cpus=1, max_retries=RETRIES)(play_job)
    refs = [remote.remote(job) for job in jobs]
    for ref in refs:
        yield pool.get(ref)
