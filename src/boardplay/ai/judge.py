"""Judging a level change across budgets (issue 67): a challenger replaces an incumbent only
when it is stronger at equal time on a slower or busier machine too, not just on the idle core
it was tuned on.

The rule: a match of the two at equal time at the nominal budget ``B`` seconds a move, at
``B/3`` and at ``B/10`` (what a machine three and ten times slower, or that busy, gives each
side), and at equal simulations; the challenger's score (a draw counting half) must reach 60% at
``B`` and 55% at ``B/3`` and ``B/10``, over 200 games a setting with seats rotated. The equal-
simulation match is reported beside them (it tells a better search from a faster one) but does
not decide. A setting *clearly fails* when its 95% Wilson interval lies wholly below its bar: more
games would not rescue it, so the incumbent stays whatever the game count.

Seeds: the settings' arenas use run seeds ``SEED_BASE`` + the setting's index (67000 to 67003).
The tuning runs and the ladder used run seeds 1-52 and the independent re-measurement
(reviews/ai-2026-11d) 1234, 4242, 5678 and 9012; an arena's game seeds are hashed from its run
seed (``arena.schedule``), so these games are none of those.

``tools/judge.py`` (``make judge``) plays the matches and prints the table; this module holds
the settings, one match and the verdict, so the rule is stated once."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardplay.ai.arena import run_arena
from boardplay.ai.specs import resolve_spec, with_budget
from boardplay.ai.stats import wilson_interval
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

SEED_BASE = 67_000
"""First run seed of a judging run; the settings take ``SEED_BASE`` + 0, 1, 2, 3."""
REQUIRED_GAMES = 200
"""Games a setting needs before its verdict stands; fewer make it provisional."""
OPENING = 4
"""Random first decisions of each equal-simulation game: two searches on an iteration budget
are deterministic, so without them every game of a seat assignment would be the same game."""


@dataclass(frozen=True)
class Setting:
    """One match of a judging run: equal ``time`` a move (``divisor`` of the nominal budget) or
    equal ``iterations``, and the challenger's bar (None: reported, not judged)."""

    label: str
    time: float | None
    iterations: int | None
    bar: float | None
    divisor: int = 1


def settings(nominal: float, simulations: int | None) -> list[Setting]:
    """The rule's settings for a nominal budget of ``nominal`` seconds a move, and the equal-
    simulation match at ``simulations`` a move when given."""
    rows = [
        Setting("B", nominal, None, 0.60, 1),
        Setting("B/3", nominal / 3, None, 0.55, 3),
        Setting("B/10", nominal / 10, None, 0.55, 10),
    ]
    if simulations is not None:
        rows.append(Setting("equal simulations", None, simulations, None))
    return rows


@dataclass(frozen=True)
class Outcome:
    """The challenger's results in one setting."""

    setting: Setting
    games: int
    wins: int
    draws: int
    losses: int
    simulations: tuple[float, float]
    """Mean simulations a search, challenger and incumbent."""
    seconds: tuple[float, float]
    """Mean seconds a move, challenger and incumbent."""
    load: tuple[float, float]
    """The machine's one-minute load average when the match began and ended."""

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    @property
    def passes(self) -> bool | None:
        bar = self.setting.bar
        return None if bar is None else self.score >= bar

    @property
    def clearly_fails(self) -> bool:
        bar = self.setting.bar
        return bar is not None and self.ci95[1] < bar

    def to_json(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "setting": self.setting.label,
            "time": self.setting.time,
            "iterations": self.setting.iterations,
            "bar": self.setting.bar,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "simulations": [round(s) for s in self.simulations],
            "seconds_per_move": list(self.seconds),
            "load": list(self.load),
        }


@dataclass(frozen=True)
class Verdict:
    """``replace``: every judged setting reached its bar; ``clear_fail``: some setting's whole
    interval is below its bar; ``provisional``: a setting has fewer than ``REQUIRED_GAMES``
    games, so a verdict that is not a clear fail may still turn."""

    replace: bool
    clear_fail: bool
    provisional: bool

    def sentence(self) -> str:
        if self.clear_fail:
            return "the incumbent stays: the challenger clearly fails a bar"
        word = "provisionally " if self.provisional else ""
        if self.replace:
            return f"the challenger {word}replaces the incumbent"
        return f"the incumbent {word}stays: the challenger misses a bar"


def verdict(outcomes: Sequence[Outcome], required: int = REQUIRED_GAMES) -> Verdict:
    """The rule applied to a judging run's outcomes (settings without a bar do not count)."""
    judged = [o for o in outcomes if o.setting.bar is not None]
    if not judged:
        raise ValueError("no judged setting: a verdict needs the equal-time matches")
    return Verdict(
        replace=all(o.passes for o in judged),
        clear_fail=any(o.clearly_fails for o in judged),
        provisional=any(o.games < required for o in judged),
    )


def play_setting(
    game: Game,
    challenger: str,
    incumbent: str,
    setting: Setting,
    games: int,
    seed: int,
    records: Path | None = None,
) -> Outcome:
    """One setting's match, seats rotated, both agents in this one process (they take turns, so
    both meet the same machine load); ``records`` keeps the games and resumes from them."""
    specs = [
        with_budget(
            spec,
            game,
            time=setting.time,
            iterations=setting.iterations
            if setting.iterations is not None
            else iteration_cap(spec, game),
        )
        for spec in (challenger, incumbent)
    ]
    started = os.getloadavg()[0]
    summary = run_arena(
        game,
        specs,
        games,
        seed=seed,
        opening=OPENING if setting.iterations is not None else 0,
        records=records,
        resume=records is not None,
    ).to_json()
    pairing = summary["pairings"][0]  # the challenger's view
    thinking = [agent["thinking"] for agent in summary["agents"]]
    return Outcome(
        setting,
        pairing["games"],
        pairing["wins"],
        pairing["draws"],
        pairing["losses"],
        (
            float(thinking[0].get("simulations_per_search", 0)),
            float(thinking[1].get("simulations_per_search", 0)),
        ),
        (thinking[0]["seconds_per_move"], thinking[1]["seconds_per_move"]),
        (round(started, 1), round(os.getloadavg()[0], 1)),
    )


def iteration_cap(spec: str, game: Game) -> int | None:
    """The iteration cap of ``spec`` (a level or agent name resolved for ``game``), kept at
    equal time so each side searches as it would at that time."""
    cap = parse_game_string(resolve_spec(spec, game))[1].get("iterations")
    return int(cap) if cap is not None else None
