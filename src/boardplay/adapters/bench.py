"""Adapter throughput: uniformly random play through each adapter, for each game, beside
PettingZoo's own ``connect_four_v3`` measured by the same loop in the same run, so the numbers
say what the adapter layer costs on this machine.

>>> from boardplay.adapters.bench import adapter_throughput, format_table
>>> print(format_table(adapter_throughput(["proteus"], seconds=0.5)))  # doctest: +SKIP

A *step* is one call that advances the game by one decision:

- ``engine``: ``State.apply_action`` on the engine itself (chance outcomes included), the
  reference the adapters are compared with;
- ``openspiel``: ``pyspiel.State.apply_action`` (chance outcomes included);
- ``pettingzoo``: ``AECEnv.step`` of the acting agent (chance is resolved inside the env; the
  final steps that retire finished agents are counted as PettingZoo counts them);
- ``gymnasium``: ``Env.step`` of the learner, whose opponents are ``random`` agents (their moves
  and chance happen inside the step and are not counted separately).
- ``vector``: ``BoardplayVectorEnv.step`` over 1,024 games at once (each game's step counts, as
  for ``gymnasium``); the learner's actions are uniformly random legal ones drawn by the
  compiled rules (``sample_actions``, as Pgx's row draws them inside its jitted step; until
  2026-11-26 with NumPy from the masks, which cost more than the step in Montana and
  Passtally), observations written in full, masks too;
- ``compact``: the same with ``compact=True`` (every game's kernel has a compact observation,
  docs/adapters.md): each observation is the kernel's compact bytes, which expand exactly to
  the tensor;
- ``pgx``: Pgx's ``connect_four`` at the same batch on CPU (JAX), random legal actions and
  Pgx's own ``auto_reset`` in one jitted call, run by the Python ``BOARDPLAY_PGX_PYTHON`` names
  (a throwaway venv with ``pgx`` and ``jax[cpu]``): ``adapters.pgxbench.pgx_row``, which
  ``boardplay bench --adapters`` prints after these rows.

Each row says steps per wall second and per CPU second (``time.process_time``, every thread of
the process: JAX's included), the fair figure on a shared machine.

Every loop picks legal actions uniformly with one seeded ``random.Random``; observations and
masks are built exactly as a learner would receive them (``last()`` / ``step`` results).
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.playout import random_playout
from boardplay.core.registry import available, load

ADAPTERS = ("engine", "openspiel", "pettingzoo", "gymnasium", "vector", "compact")
VECTOR_ENVS = 1024
"""Games stepped together by the ``vector`` row (the issue's yardstick for batched stepping)."""
REFERENCE = "connect_four_v3"


@dataclass(frozen=True)
class BenchRow:
    """One measurement: ``steps`` steps in ``seconds`` (``note`` explains a skipped row)."""

    adapter: str
    game: str
    steps: int
    seconds: float
    games: int
    note: str = ""
    cpu_seconds: float = 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_cpu_second(self) -> float:
        return self.steps / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "adapter": self.adapter,
            "game": self.game,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
            "games": self.games,
            "steps_per_second": round(self.steps_per_second, 1),
            "cpu_seconds": round(self.cpu_seconds, 4),
            "steps_per_cpu_second": round(self.steps_per_cpu_second, 1),
            "note": self.note,
        }


Loop = Callable[[random.Random, float], tuple[int, int]]
"""Plays whole games until the deadline (a ``time.perf_counter`` value); returns
(steps, games finished)."""


def _timed(adapter: str, game: str, loop: Loop, seconds: float, seed: int) -> BenchRow:
    rng = random.Random(seed)
    cpu, start = time.process_time(), time.perf_counter()
    steps, games = loop(rng, start + seconds)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return BenchRow(adapter, game, steps, wall, games, cpu_seconds=cpu)


def _engine_loop(game: Game) -> Loop:
    def loop(rng: random.Random, deadline: float) -> tuple[int, int]:
        steps = games = 0
        while time.perf_counter() < deadline:
            steps += random_playout(game.new_initial_state(), rng)
            games += 1
        return steps, games

    return loop


def _openspiel_loop(game: Game) -> Loop:
    from boardplay.adapters import openspiel

    spiel = openspiel.load(str(game))

    def loop(rng: random.Random, deadline: float) -> tuple[int, int]:
        steps = games = 0
        while time.perf_counter() < deadline:
            state = spiel.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    point, total, pick = rng.random(), 0.0, outcomes[-1][0]
                    for outcome, probability in outcomes:
                        total += probability
                        if point < total:
                            pick = outcome
                            break
                    state.apply_action(pick)
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
            games += 1
        return steps, games

    return loop


def _aec_loop(env: Any) -> Loop:
    """The same loop for our AEC env and for PettingZoo's connect_four_v3."""

    def loop(rng: random.Random, deadline: float) -> tuple[int, int]:
        steps = games = 0
        while time.perf_counter() < deadline:
            env.reset(seed=rng.randrange(2**31))
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.randrange(len(legal))])
                env.step(action)
                steps += 1
            games += 1
        return steps, games

    return loop


def _gymnasium_loop(game: Game) -> Loop:
    from boardplay.adapters import gymnasium as bg

    env = bg.env(game, opponent="random")

    def loop(rng: random.Random, deadline: float) -> tuple[int, int]:
        steps = games = 0
        while time.perf_counter() < deadline:
            _obs, info = env.reset(seed=rng.randrange(2**31))
            done = env.game_state.is_terminal()
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                _obs, _r, done, _t, info = env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            games += 1
        return steps, games

    return loop


def _vector_loop(game: Game, compact: bool = False) -> Loop:
    from boardplay.adapters.vector import BoardplayVectorEnv

    envs = BoardplayVectorEnv(game, VECTOR_ENVS, compact=compact)

    def loop(rng: random.Random, deadline: float) -> tuple[int, int]:
        envs.reset(seed=rng.randrange(2**31))
        steps = games = 0
        while steps == 0 or time.perf_counter() < deadline:
            _obs, _rewards, terminated, _truncated, _infos = envs.step(envs.sample_actions())
            steps += VECTOR_ENVS
            games += int(terminated.sum())
        return steps, games

    return loop


def _pettingzoo_loop(game: Game) -> Loop:
    from boardplay.adapters import pettingzoo

    return _aec_loop(pettingzoo.env(game))


def _connect_four_loop() -> Loop:
    import pettingzoo

    return _aec_loop(pettingzoo.make("aec", "classic/connect_four-v3"))


_LOOPS: dict[str, Callable[[Game], Loop]] = {
    "engine": _engine_loop,
    "openspiel": _openspiel_loop,
    "pettingzoo": _pettingzoo_loop,
    "gymnasium": _gymnasium_loop,
    "vector": _vector_loop,
    "compact": functools.partial(_vector_loop, compact=True),
}


def adapter_throughput(
    games: Sequence[str] | None = None,
    seconds: float = 1.0,
    seed: int = 0,
    adapters: Sequence[str] = ADAPTERS,
) -> list[BenchRow]:
    """Random-play steps per second through each adapter for each game (``games``: names or
    game strings, default every available game with default options), then PettingZoo's
    ``connect_four_v3`` through the same AEC loop. Each row runs for about ``seconds``.
    A row that cannot run (a framework missing) has 0 steps and a ``note`` saying why."""
    unknown = [a for a in adapters if a not in ADAPTERS]
    if unknown:
        raise ValueError(f"unknown adapter {unknown[0]!r}; choose from {', '.join(ADAPTERS)}")
    rows: list[BenchRow] = []
    for spec in available() if games is None else games:
        game = load(spec)
        for adapter in adapters:
            make = functools.partial(_LOOPS[adapter], game)
            rows.append(_row(adapter, str(game), make, seconds, seed))
    if "pettingzoo" in adapters:
        rows.append(_row("pettingzoo", REFERENCE, _connect_four_loop, seconds, seed))
    return rows


def _row(adapter: str, game: str, make: Callable[[], Loop], seconds: float, seed: int) -> BenchRow:
    try:
        loop = make()
    except ImportError as exc:
        hint = "pip install 'boardplay[rl]'"
        if exc.name == "pygame":
            hint = "connect_four_v3 needs pygame: pip install 'pettingzoo[classic]'"
        return BenchRow(adapter, game, 0, 0.0, 0, note=f"skipped ({exc.name} missing; {hint})")
    except OptionError as exc:
        return BenchRow(adapter, game, 0, 0.0, 0, note=f"skipped ({exc})")
    return _timed(adapter, game, loop, seconds, seed)


def format_table(rows: Sequence[BenchRow]) -> str:
    """A plain-text table (80 columns) of the rows."""
    lines = [
        f"{'adapter':<10} {'game':<24} {'steps/s':>10} {'per CPU s':>10} {'steps':>9} {'games':>6}"
    ]
    for row in rows:
        if row.note:
            lines.append(f"{row.adapter:<10} {row.game:<24} {row.note}")
            continue
        lines.append(
            f"{row.adapter:<10} {row.game[:24]:<24} {row.steps_per_second:>10,.0f} "
            f"{row.steps_per_cpu_second:>10,.0f} {row.steps:>9} {row.games:>6}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m boardplay.adapters.bench [--seconds S] [game ...]``"""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game names or strings (default: all)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = adapter_throughput(args.games or None, seconds=args.seconds, seed=args.seed)
    print(format_table(rows))


if __name__ == "__main__":
    main()
