"""``make judge`` (``.venv/bin/python tools/judge.py``): is a new level stronger than the one it
would replace on a slower or busier machine too (issue 67)? Challenger against incumbent at equal
time at the nominal budget B, B/3 and B/10 seconds a move, and at equal simulations, ``--games``
games a setting, seats rotated, on run seeds 67000-67003 (``boardplay.ai.judge``: disjoint from
the tuning runs' and the reviews'), printed as a Markdown table row by row as each ends, then the
verdict by the rule: 60% at B and 55% at B/3 and B/10, a draw counting half.

A case is a game with its two specs and its budget: ``--case proteus-expert``, ``--case
potlatch-expert`` and ``--case montana-expert`` judge the learned experts against the search
experts they replaced (all by default; Montana's with two players, B the 0.04 s its search
expert spends a move); ``--game G --challenger SPEC --incumbent SPEC --time B [--simulations S]``
judges any pair. The equal-simulation setting runs at ``--simulations`` (a case's default: the
site's simulations for its expert level, ``boardplay.ai.budgets``), with ``OPENING`` random
first decisions a game. Each row also gives both sides' mean simulations a search and the
one-minute load average at its start and end: on a busy machine B buys fewer simulations, which
is the point of the smaller budgets. ``--records DIR`` keeps each setting's games and resumes an
interrupted run. Both sides play in one process, turn about, so a match is at equal time even
when the machine is loaded."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import boardplay
from boardplay.ai.budgets import site_simulations
from boardplay.ai.judge import SEED_BASE, Outcome, play_setting, settings, verdict


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    challenger: str
    incumbent: str
    time: float
    level: str = "expert"
    """The level whose site simulations are the equal-simulation setting's budget."""


CASES = (
    Case(
        "proteus-expert",
        "proteus(max_turns=200)",
        "az(weights=proteus,time=0.1,iterations=200000,repetition=true,contempt=0.3,c=1.0)",
        "mcts(time=0.1,iterations=200000,contempt=0.3,cutoff=8,opening_cutoff=16,decisive=true,"
        "repetition=true,c=0.7,early=false)",
        0.1,
    ),
    Case(
        "potlatch-expert",
        "potlatch",
        "az(weights=potlatch-value,time=0.03,iterations=100000,contempt=0.3,mix=0.8,"
        "finish_turn=true,uniform=true)",
        "mcts(time=0.03,iterations=100000,contempt=0.3,finish_turn=true)",
        0.03,
    ),
    Case(
        "montana-expert",
        "montana(players=2)",
        "expert",
        "mcts(time=0.04,iterations=100000)",
        0.04,
    ),
)

HEADER = (
    "| case | setting | games | challenger W–D–L | score (95% CI) | bar "
    "| simulations a search (challenger / incumbent) | s/move | load (start–end) |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def table_row(case: str, o: Outcome) -> str:
    low, high = o.ci95
    bar = f"{100 * o.setting.bar:.0f}%" if o.setting.bar is not None else "—"
    budget = (
        f"{o.setting.label}, {o.setting.time:.3g} s"
        if o.setting.time is not None
        else f"{o.setting.label}, {o.setting.iterations}"
    )
    return (
        f"| {case} | {budget} | {o.games} | {o.wins}–{o.draws}–{o.losses} "
        f"| **{100 * o.score:.1f}%** ({100 * low:.1f}–{100 * high:.1f}%) | {bar} "
        f"| {o.simulations[0]:,.0f} / {o.simulations[1]:,.0f} "
        f"| {o.seconds[0]:.4f} / {o.seconds[1]:.4f} | {o.load[0]:g}–{o.load[1]:g} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games a setting (default 200)")
    parser.add_argument(
        "--case", nargs="*", help=f"cases to judge ({', '.join(c.name for c in CASES)})"
    )
    parser.add_argument("--game", help="judge a pair of your own: the game string")
    parser.add_argument("--challenger", help="the new spec")
    parser.add_argument("--incumbent", help="the spec it would replace")
    parser.add_argument("--time", type=float, help="the nominal seconds a move, B")
    parser.add_argument("--simulations", type=int, help="the equal-simulation setting's budget")
    parser.add_argument(
        "--only", nargs="*", help="settings to play (B, B/3, B/10, 'equal simulations')"
    )
    parser.add_argument("--json", type=Path, help="write every row's numbers here")
    parser.add_argument(
        "--records", type=Path, help="keep each setting's games in DIR and resume from them"
    )
    args = parser.parse_args(argv)
    if args.game:
        if not (args.challenger and args.incumbent and args.time):
            parser.error("--game needs --challenger, --incumbent and --time")
        cases = [Case("custom", args.game, args.challenger, args.incumbent, args.time)]
    else:
        names = args.case or [c.name for c in CASES]
        unknown = sorted(set(names) - {c.name for c in CASES})
        if unknown:
            parser.error(f"unknown case {unknown[0]!r}; known: {', '.join(c.name for c in CASES)}")
        cases = [c for c in CASES if c.name in names]
    print(
        f"Challenger against incumbent, {args.games} games a setting, seats rotated, run seeds "
        f"{SEED_BASE}+; a draw counts half.\n"
    )
    print(HEADER, flush=True)
    measured: list[dict[str, object]] = []
    for case in cases:
        game = boardplay.load(case.game)
        simulations = args.simulations
        if simulations is None and case.name != "custom":
            simulations = site_simulations(case.level, game)
        outcomes = []
        for index, setting in enumerate(settings(case.time, simulations)):
            if args.only is not None and setting.label not in args.only:
                continue
            records = None
            if args.records:
                args.records.mkdir(parents=True, exist_ok=True)
                slug = setting.label.replace("/", "-").replace(" ", "-")
                records = args.records / f"{case.name}-{slug}.jsonl"
            outcome = play_setting(
                game,
                case.challenger,
                case.incumbent,
                setting,
                args.games,
                SEED_BASE + index,
                records,
            )
            outcomes.append(outcome)
            print(table_row(case.name, outcome), flush=True)
            measured.append({"case": case.name, **outcome.to_json()})
            if args.json:
                args.json.write_text(json.dumps(measured, indent=1) + "\n")
        if any(o.setting.bar is not None for o in outcomes):
            print(f"\n{case.name}: {verdict(outcomes).sentence()}\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
