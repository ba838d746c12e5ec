"""Engine speed for ``make bench``: whole random games inside the compiled kernel, the same
games through the Python contract, and the native yardstick in ``../shared/limit`` run in the
same process, so every figure is read as a ratio taken on one machine at one moment.

The yardstick is a measuring tool only: it is run as a separate program when it is present
(``BOARDPLAY_YARDSTICK`` names its folder; by default ``shared/limit`` beside the checkout)
and its one JSON line is read. Nothing of it is imported or shipped.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from pathlib import Path
from typing import Any

from boardplay.core.game import Game
from boardplay.core.playout import Speed, random_playout, random_playouts


def kernel_speed(game: Game, seconds: float, seed: int = 0) -> Speed:
    """Random games in compiled code (``random_playouts``) for about ``seconds``; batches grow
    until one takes a tenth of the budget, so timer reads cost nothing measurable. The rate is
    per CPU second of this thread, as the yardstick's is (its ``cpu_seconds``): on a shared
    machine a run that met more load got a smaller share of a core, which per wall second
    would read as a slower kernel (docs/performance.md)."""
    games = actions = 0
    batch = 16
    began = time.perf_counter()
    cpu_began = time.thread_time()
    elapsed = 0.0
    while elapsed < seconds:
        stats = random_playouts(game, batch, seed + games, game.max_game_length)
        games += stats.games
        actions += stats.actions
        elapsed = time.perf_counter() - began
        if stats.seconds < seconds / 10:
            batch *= 2
    return Speed(games, actions, time.thread_time() - cpu_began)


def contract_speed(game: Game, seconds: float, seed: int = 0) -> Speed:
    """The loop a researcher writes in Python: ``legal_actions()`` then ``apply_action()`` of
    a uniformly random one (chance sampled by its probabilities), whole games, for about
    ``seconds``; per CPU second of this thread, as ``kernel_speed``."""
    rng = random.Random(seed)
    games = actions = 0
    cap = game.max_game_length
    began = time.perf_counter()
    cpu_began = time.thread_time()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        actions += random_playout(game.new_initial_state(), rng, cap)
        games += 1
        elapsed = time.perf_counter() - began
    return Speed(games, actions, time.thread_time() - cpu_began)


# ----- the yardstick ---------------------------------------------------------------------------

_YARDSTICK_GAMES = {"potlatch": 1_000_000, "proteus": 500_000, "passtally": 300_000}
"""Games for about one second of the yardstick on an idle machine (its README)."""


def yardstick_folder() -> Path | None:
    """``$BOARDPLAY_YARDSTICK``, else ``shared/limit`` beside the checkout (found from the
    working directory or from this package's source), else None."""
    named = os.environ.get("BOARDPLAY_YARDSTICK")
    if named:
        return Path(named) if Path(named).is_dir() else None
    here = Path(__file__).resolve()
    for root in (Path.cwd(), *here.parents):
        candidate = root.parent / "shared" / "limit"
        if candidate.is_dir():
            return candidate
    return None


def yardstick_arguments(game: Game) -> list[str] | None:
    """The yardstick's ``bench`` arguments (without the game count) for exactly these options,
    or None when it does not cover them (its README lists what each program plays)."""
    options = game.options
    defaults = game.option_set.defaults()
    others = {k: v for k, v in options.items() if v != defaults.get(k)}
    if game.name == "potlatch":
        others.pop("actions", None)
        if options["layout"] == "L3" and not others:
            return [str(options["actions"])]
    elif game.name == "proteus":
        others.pop("rules", None)
        if options["max_turns"] == 200 and options["repetition"] == "none":
            others.pop("max_turns", None)
            if not others:
                return [str(options["rules"])]
    elif game.name == "passtally":
        others.pop("players", None)
        if not others:
            return [str(options["players"])]
    return None


def yardstick_speed(game: Game, seconds: float) -> Speed | None:
    """The native yardstick's games for about ``seconds`` on these options, or None when it
    is absent or does not cover them; per CPU second (its ``cpu_seconds``; its wall time when
    it reports no CPU time)."""
    folder = yardstick_folder()
    arguments = yardstick_arguments(game)
    program = folder / game.name if folder else None
    if program is None or arguments is None or not os.access(program, os.X_OK):
        return None
    count = max(1000, int(_YARDSTICK_GAMES[game.name] * seconds))
    done = subprocess.run(
        [str(program), "bench", *arguments, str(count)],
        capture_output=True,
        text=True,
        timeout=60 + 20 * seconds,
        check=True,
    )
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    spent = report.get("cpu_seconds", report["wall_seconds"])
    return Speed(int(report["games"]), int(report["actions"]), float(spent))
