"""``make ladder`` (``.venv/bin/python tools/ladder.py``): does each level still beat the one
below it on a slower or busier machine (issue 67)?

Each step of docs/ai.md's ladder (easy → medium, medium → hard, hard → expert), for each game
row, at the levels' nominal budgets B and at B/3 and B/10: every level that thinks for a time
is given a third or a tenth of it (``expert(time=0.01)``: the same search, options and guard,
for less long), and a level with only a simulation budget keeps it, as it would on any machine.
A step neither of whose levels has a time plays the same at every budget and is played once.
``--games`` games a step, seats rotated; the bar is the higher level winning 60% of the games
(a draw is not a win). B replays the table's own runs (seed 1); B/3 and B/10 use seeds 67030
and 67100, which no tuning run used. Printed as a Markdown table row by row as each ends."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boardplay
from boardplay.ai import level_spec
from boardplay.ai.arena import run_arena
from boardplay.ai.stats import wilson_interval
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

BAR = 0.60
"""The share of games the higher level of a step must win."""


@dataclass(frozen=True)
class Row:
    name: str
    game: str


ROWS = (
    Row("potlatch", "potlatch"),
    Row("proteus", "proteus(max_turns=300)"),
    Row("passtally", "passtally"),
    Row("montana", "montana"),
    Row("montana-3", "montana(players=3)"),
)
STEPS = (("easy", "medium"), ("medium", "hard"), ("hard", "expert"))
BUDGETS = (("B", 1, 1), ("B/3", 3, 67030), ("B/10", 10, 67100))
"""Each budget's label, the factor dividing every level's time, and the arena's seed."""


def level_time(level: str, game: Game) -> float | None:
    """The seconds a move ``level`` thinks for in ``game`` (None: a simulation budget only)."""
    _, params = parse_game_string(level_spec(level, game))
    return float(params["time"]) if "time" in params else None


def at_budget(level: str, game: Game, factor: int) -> str:
    """``level`` on a machine giving it 1/``factor`` of its time: ``expert(time=0.01)``."""
    seconds = level_time(level, game)
    if factor == 1 or seconds is None:
        return level
    return f"{level}(time={seconds / factor:.3g})"


def measure(
    row: Row,
    step: tuple[str, str],
    budget: tuple[str, int, int],
    games: int,
    workers: int,
    records: Path | None,
) -> dict[str, Any]:
    game = boardplay.load(row.game)
    label, factor, seed = budget
    lower, higher = (at_budget(level, game, factor) for level in step)
    started = time.monotonic()
    result = run_arena(
        game,
        [lower, higher],
        games,
        seed=seed,
        workers=workers,
        records=records,
        resume=records is not None,
    )
    summary = result.to_json()
    pairing = summary["pairings"][0]  # the lower level's view
    wins, n = pairing["losses"], pairing["games"]
    low, high = wilson_interval(wins, n)
    return {
        "row": row.name,
        "game": str(game),
        "step": f"{step[0]} → {step[1]}",
        "budget": label,
        "lower": lower,
        "higher": higher,
        "games": n,
        "seed": seed,
        "wins": wins,
        "draws": pairing["draws"],
        "losses": pairing["wins"],
        "win_rate": round(wins / n, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "holds": wins / n >= BAR,
        "seconds_per_move": [a["thinking"]["seconds_per_move"] for a in summary["agents"]],
        "wall_seconds": round(time.monotonic() - started, 1),
    }


def table_row(m: dict[str, Any]) -> str:
    lower_s, higher_s = m["seconds_per_move"]
    return (
        f"| {m['game']} | {m['step']} | {m['budget']} | `{m['lower']}` → `{m['higher']}` "
        f"| {m['games']}, {m['seed']} | {m['wins']}–{m['draws']}–{m['losses']} "
        f"| **{100 * m['win_rate']:.1f}%** ({100 * m['ci95'][0]:.1f}–{100 * m['ci95'][1]:.1f}%) "
        f"| {'holds' if m['holds'] else 'FAILS'} | {lower_s:.4f} / {higher_s:.4f} |"
    )


HEADER = (
    "| game | step | budget | specs | games, seed | higher's W–D–L | higher's wins (95% CI) "
    "| 60% | s/move lower / higher |\n|---|---|---|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games a step (default 200)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--only", nargs="*", default=None, help=f"rows ({', '.join(r.name for r in ROWS)})"
    )
    parser.add_argument(
        "--steps", nargs="*", default=None, help="steps by their higher level (medium hard expert)"
    )
    parser.add_argument("--budgets", nargs="*", default=None, help="budgets to play (B, B/3, B/10)")
    parser.add_argument("--json", type=Path, help="write every row's numbers here")
    parser.add_argument(
        "--records", type=Path, help="keep each arena's games in DIR and resume from them"
    )
    args = parser.parse_args(argv)
    print(
        f"The ladder at B, B/3 and B/10: {args.games} games a step, seats rotated; the higher "
        f"level must win {BAR:.0%} (a draw is not a win).\n"
    )
    print(HEADER, flush=True)
    measured: list[dict[str, Any]] = []
    for row in ROWS:
        if args.only is not None and row.name not in args.only:
            continue
        game = boardplay.load(row.game)
        for step in STEPS:
            if args.steps is not None and step[1] not in args.steps:
                continue
            timed = any(level_time(level, game) is not None for level in step)
            for budget in BUDGETS if timed else BUDGETS[:1]:
                if args.budgets is not None and budget[0] not in args.budgets:
                    continue
                records = None
                if args.records:
                    args.records.mkdir(parents=True, exist_ok=True)
                    records = args.records / (
                        f"{row.name}-{step[0]}-{step[1]}-{budget[0].replace('/', '')}.jsonl"
                    )
                m = measure(row, step, budget, args.games, args.workers, records)
                measured.append(m)
                print(table_row(m), flush=True)
                if args.json:
                    args.json.write_text(json.dumps(measured, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
