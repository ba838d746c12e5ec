"""Engine speed for ``make bench``: whole random games inside the compiled kernel, the same
games through the Python contract, and the native yardstick in ``../shared/limit`` run in the
same process, so every figure is read as a ratio taken on one machine at one moment.

The yardstick is a measuring tool only: it is run as a separate program when it is present
(``BOARDPLAY_YARDSTICK`` names its folder; by default ``shared/limit`` beside the checkout)
and its one JSON line is read. Nothing of it is imported or shipped. Montana has none there; its
yardstick is the project's own C program, ``tools/native/montana.c``, built on demand into
``build/native`` of the checkout (``native_program``; docs/performance.md). It is no part of the
package either: an installed wheel has no ``tools`` and so no Montana column.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
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

_YARDSTICK_GAMES = {
    "potlatch": 1_000_000,
    "proteus": 500_000,
    "passtally": 300_000,
    "montana": 25_000,
}
"""Games for about one second of the yardstick on an idle machine (its README; Montana's
measured with ``make bench``)."""

NATIVE_FLAGS = ("-O3", "-march=native", "-std=c99")
"""How ``native_program`` compiles a native program (the Makefile's ``native`` target too)."""


def checkout() -> Path | None:
    """The source checkout this package runs from (the folder holding ``tools/native``),
    found from the working directory or from this package's source; None for a wheel."""
    here = Path(__file__).resolve()
    for root in (Path.cwd(), *here.parents):
        if (root / "tools" / "native").is_dir():
            return root
    return None


def native_program(name: str) -> Path | None:
    """The project's own native program ``tools/native/<name>.c`` compiled into
    ``build/native/<name>`` of the checkout (again whenever the source is newer), or None
    without a checkout, a source or a C compiler (``$CC``, else ``cc``). The build goes to a
    temporary name first and is renamed into place, so two processes may ask at once."""
    root = checkout()
    if root is None:
        return None
    source = root / "tools" / "native" / f"{name}.c"
    target = root / "build" / "native" / name
    if not source.is_file():
        return None
    if target.is_file() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    compiler = shutil.which(os.environ.get("CC") or "cc")
    if compiler is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(prefix=f".{name}-", dir=target.parent)
    os.close(handle)
    try:
        done = subprocess.run(
            [compiler, *NATIVE_FLAGS, "-o", partial, str(source)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(f"building {source} failed:\n{done.stderr}")
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target


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
    elif game.name in ("passtally", "montana"):
        others.pop("players", None)
        if not others:
            return [str(options["players"])]
    return None


def yardstick_speed(game: Game, seconds: float) -> Speed | None:
    """The native yardstick's games for about ``seconds`` on these options, or None when it
    is absent or does not cover them; per CPU second (its ``cpu_seconds``; its wall time when
    it reports no CPU time). Montana's is ``native_program("montana")``, built if need be."""
    arguments = yardstick_arguments(game)
    if arguments is None:
        return None
    if game.name == "montana":
        program = native_program("montana")
    else:
        folder = yardstick_folder()
        program = folder / game.name if folder else None
    if program is None or not os.access(program, os.X_OK):
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
