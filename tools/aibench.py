"""``make bench-web``'s AI row (``.venv/bin/python tools/aibench.py``): does a level keep its
strength when the server runs many AI games at once (issue 67)? ``--games`` games at once, each
with one AI seat at ``--level`` and one player who answers at random at once, for ``--seconds``;
every AI move goes through what the server uses: the fair queue of the pool's slots
(``web.workers.FairQueue``, each game its own visitor) and the pool of ``--workers`` spawned
worker processes (``web.workers.make_executor``), where the move is the site's agent for the
level (``web.workers.think``: its simulations with a time cap, ``ai.budgets``). It prints:

- **queue wait**: from asking for a slot to getting one, p50/p99 (how long a move waits behind
  the other games' AI);
- **think**: seconds in the worker, p50/p99, and the moves that reached the time cap;
- **simulations a move**: p50 and p1 against the level's site simulations: steady strength means
  the p1 stays at the count until the load passes the time cap's factor.

``--rates`` prints instead, for every game and level that thinks by time, the simulations a CPU
second of its search (``ai.bench.spec_speed``) and what its time buys at that rate: how
``Game.level_simulations`` is chosen, on an idle machine. Numbers, not pass/fail."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field

import boardplay
from boardplay.ai.bench import spec_speed
from boardplay.ai.budgets import site_simulations, site_spec
from boardplay.ai.specs import LEVEL_NAMES, level_spec, make_agent
from boardplay.core.game import Game, sample_chance
from boardplay.web.catalogue import WebCatalogue, resolve
from boardplay.web.config import DEFAULT_CATALOGUE
from boardplay.web.workers import FairQueue, Position, make_executor, think

GAMES = ("potlatch", "proteus", "passtally", "montana")


@dataclass
class Tally:
    waits: list[float] = field(default_factory=list)
    thinks: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)
    games: int = 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def play(
    index: int,
    game_name: str,
    level: str,
    queue: FairQueue,
    executor: Executor,
    until: float,
    max_time: float,
    tally: Tally,
) -> None:
    """One game after another until ``until``: the AI's moves through the queue and the pool,
    the other seat's at random here."""
    loop = asyncio.get_running_loop()
    rng = random.Random(index)
    catalogue = WebCatalogue(resolve(DEFAULT_CATALOGUE), None)
    game = catalogue.load(game_name, {})
    ai_seat = index % 2
    while time.monotonic() < until:
        state, actions = game.new_initial_state(), list[int]()
        while not state.is_terminal() and time.monotonic() < until:
            if state.is_chance_node():
                action = sample_chance(state, rng)
            elif state.current_player() == ai_seat:
                position = Position(DEFAULT_CATALOGUE, None, game_name, {}, None, list(actions))
                asked = time.monotonic()
                async with queue.slot(f"visitor-{index}"):
                    tally.waits.append(time.monotonic() - asked)
                    action, simulations, took = await loop.run_in_executor(
                        executor,
                        think,
                        position,
                        level,
                        rng.randrange(2**31),
                        max_time,
                    )
                tally.thinks.append(took)
                if len(state.legal_actions()) > 1:
                    tally.simulations.append(simulations)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(action)
        tally.games += state.is_terminal()


async def bench(args: argparse.Namespace) -> Tally:
    executor = make_executor(args.workers, DEFAULT_CATALOGUE, None)
    queue = FairQueue(args.workers)
    tally = Tally()
    await asyncio.sleep(1.0)  # the pool's warm-up jobs
    until = time.monotonic() + args.seconds
    try:
        await asyncio.gather(
            *(
                play(i, args.game, args.level, queue, executor, until, args.max_time, tally)
                for i in range(args.games)
            )
        )
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    return tally


def rates() -> None:
    """What each time-bound level's time buys at its search's CPU rate on this machine."""
    print("| game | level | spec | simulations a CPU second | in its time | site simulations |")
    print("|---|---|---|---|---|---|")
    for name in GAMES:
        game = boardplay.load(name)
        for level in LEVEL_NAMES:
            spec = level_spec(level, game)
            seconds = getattr(make_agent(spec, game, 0), "time_limit", None)
            if seconds is None:
                continue
            rate = spec_speed(game, spec)
            print(
                f"| {name} | {level} | `{spec}` | {rate:,.0f} | {rate * seconds:,.0f} "
                f"| {site_simulations(level, game) or '—'} |",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="potlatch", help="the game (potlatch)")
    parser.add_argument("--level", default="expert", help="the AI seats' level (expert)")
    parser.add_argument("--games", type=int, default=10, help="games at once (10)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long (30)")
    parser.add_argument("--max-time", type=float, default=5.0, help="the operator's ceiling (5)")
    parser.add_argument("--rates", action="store_true", help="the levels' simulation rates")
    args = parser.parse_args(argv)
    if args.rates:
        rates()
        return 0
    game = boardplay.load(args.game)
    load_before = os.getloadavg()[0]
    tally = asyncio.run(bench(args))
    count = site_simulations(args.level, game)
    sims = [float(s) for s in tally.simulations]
    capped = sum(1 for t in tally.thinks if t >= 0.95 * min(args.max_time, _cap(args, game)))
    print(
        f"{args.games} {args.game} games at once, {args.level} "
        f"(`{site_spec(args.level, game)}`), {args.workers} workers, {args.seconds:g} s, load "
        f"{load_before:.1f}–{os.getloadavg()[0]:.1f}: {len(tally.thinks)} AI moves, "
        f"{tally.games} games ended\n"
        f"queue wait p50 {percentile(tally.waits, 0.5):.3f} s, p99 "
        f"{percentile(tally.waits, 0.99):.3f} s; think p50 {percentile(tally.thinks, 0.5):.3f} s, "
        f"p99 {percentile(tally.thinks, 0.99):.3f} s, {capped} at the time cap\n"
        f"simulations a move p50 {percentile(sims, 0.5):,.0f}, p1 {percentile(sims, 0.01):,.0f}, "
        f"mean {statistics.fmean(sims) if sims else 0:,.0f} (site count {count or '—'})"
    )
    return 0


def _cap(args: argparse.Namespace, game: Game) -> float:
    """The site agent's time cap for the level (infinite for a level without a time)."""
    agent = make_agent(site_spec(args.level, game), game, 0)
    return getattr(agent, "time_limit", None) or float("inf")


if __name__ == "__main__":
    sys.exit(main())
