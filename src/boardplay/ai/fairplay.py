"""Fair-play evidence: how often a seat played the engine's move, and how much win chance its
moves gave away — lichess's accuracy and chess's average centipawn loss, in win-chance terms.

Every decision of a finished game is judged by the game's own ``expert`` level at a fixed
iteration budget (its time limit dropped, so a judgement repeats exactly on any machine): the
engine a player would consult is the strongest one the site serves. A seat's move *agrees*
when it is the judge's best move; its *loss* is the win probability it gave away, judged as a
review judges it (boardplay.ai.review: the played move's own value when the search visited it
``MIN_VISITS`` times, else the position after it).

*Forced* decisions are left out, as chess's tools leave out book and forced moves: a decision
with one legal move is never judged, and one whose best move is ahead of every other move the
search weighed (visited ``MIN_VISITS`` times) by at least ``FORCED_MARGIN`` counts for nobody —
any player finds a move that much better, so agreeing there says nothing about an engine. A
game's first random decisions (an arena's opening) are not the player's and are left out too.

The flag (``FlagRule``): an account's agreement over its judged moves in one game's pool, taken
as the lower end of its 95% Wilson interval, at or above the pool's threshold, with at least
``min_moves`` judged moves. The thresholds are measured (``tools/fairplay.py``;
docs/analysis.md, "Fair play"): above what the ``hard`` level reaches, below what the expert
does. A game without a measured threshold is never flagged. Where the site has enough
established players of an account's rating, the flag also fires at its rating band's norm
(``norms_of``: what those players agree) plus the pool's measured margin, so that a low-rated
account playing far above its peers is caught before it reaches the ladder's ceiling.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardplay.ai.review import MIN_VISITS, Judgement, assemble, judge, plies_to_judge
from boardplay.ai.specs import with_budget
from boardplay.ai.stats import wilson_interval
from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State
from boardplay.core.records import Record

JUDGE_ITERATIONS = 20_000
"""The judge's search budget per decision, unless the game names another (``JUDGE_BUDGETS``):
about what the experts of Potlatch and Proteus reach in their think time on one core
(docs/analysis.md has the cost per game)."""
JUDGE_BUDGETS: dict[str, int] = {"montana": 100_000}
"""Games whose judge searches more than ``JUDGE_ITERATIONS``. A judge no stronger than a level
the site serves measures how much a player plays like that level: Montana's ``hard`` searches
20,000 iterations on the site, so Montana is judged at its expert's 100,000. A game's flag rules
(``RULES``) are measured at its budget, and hold for evidence judged at it."""


JUDGE_AGENTS: dict[str, str] = {"montana": "search-expert"}
"""Games judged by one of their named agents (``Game.agents``) instead of their ``expert``
level. Two-player Montana's expert is a learned search since 29 November; its flag rule was
measured with the search expert as the judge and holds for evidence judged by it. The learned
expert agrees with that judge less than ``hard`` (0.674 against 0.693 over 30 games), so a
copy of it is not flagged until the pool is judged by it and calibrated again
(docs/analysis.md, "Two-player Montana's learned expert")."""


def judge_iterations(game_name: str) -> int:
    """The judge's budget per decision in ``game_name`` (``JUDGE_BUDGETS``)."""
    return JUDGE_BUDGETS.get(game_name, JUDGE_ITERATIONS)


FORCED_MARGIN = 0.20
"""A best move ahead of every other weighed move by this much win probability is forced."""
SEAT_POSITIONS = 200
"""Positions judged for one seat of one game at most, its first ones: normal games give far
fewer (Montana 45-130 judged decisions a seat, the other games 17-30). A Montana game that both
sides cycled to its 400-turn cap gave ``hard`` 608, agreeing 97% (one cycle repeated with a cow
more each time, so no position met again), and alone lifted a ten-game window over the flag.
It also bounds what judging one game costs."""


def judge_spec(
    game: Game, iterations: int = JUDGE_ITERATIONS, time_limit: float | None = None
) -> str:
    """The game's judge (its expert, or its agent named in ``JUDGE_AGENTS``) with
    ``iterations`` simulations and no time limit of its own (``time_limit`` is a ceiling's,
    which a judgement at this budget does not reach)."""
    if iterations < 1:
        raise OptionError(f"iterations per position must be at least 1, got {iterations}")
    judge = JUDGE_AGENTS.get(game.name, "expert")
    return with_budget(judge, game, time=time_limit, iterations=iterations)


def forced(judged: Judgement) -> bool:
    """Whether the judge's best move was clearly the only good one (see the module docstring)."""
    best = next((c for c in judged.candidates if c.get("move") == judged.move), None)
    if best is None:
        return False
    others = [
        float(c["value"])
        for c in judged.candidates
        if c.get("move") != judged.move and int(c.get("visits", 0)) >= MIN_VISITS
    ]
    return not others or float(best["value"]) - max(others) >= FORCED_MARGIN - 1e-9


class Rates:
    """Agreement and mean loss over the judged moves: what one seat's evidence and a tally of
    many both report."""

    judged: int
    agreed: int
    loss: float

    @property
    def agreement(self) -> float | None:
        return self.agreed / self.judged if self.judged else None

    @property
    def mean_loss(self) -> float | None:
        return self.loss / self.judged if self.judged else None


@dataclass(frozen=True)
class SeatEvidence(Rates):
    """One seat's evidence from one game: its decisions that were judged, how many were forced,
    how many of the judged ones agreed with the judge, and their summed loss."""

    seat: int
    judged: int
    agreed: int
    forced: int
    loss: float
    """The summed loss of win probability over the judged (unforced) moves."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "judged": self.judged,
            "agreed": self.agreed,
            "forced": self.forced,
            "loss": round(self.loss, 4),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatEvidence:
        return cls(
            seat=int(data["seat"]),
            judged=int(data["judged"]),
            agreed=int(data["agreed"]),
            forced=int(data["forced"]),
            loss=float(data["loss"]),
        )


def decision_plies(record: Record, skip: int = 0) -> list[int]:
    """The plies of the record's decisions after its first ``skip`` ones (chance excluded)."""
    plies = [ply for ply, move in enumerate(record.moves) if move.player >= 0]
    return plies[skip:]


def plies_of_evidence(game: Game, states: Sequence[State]) -> list[int]:
    """The positions a game's evidence judges: every seat's real decisions (with three or more
    players each seat's own, so all of them), each position once. A position met again (the
    same player to move seeing the same position) is judged at its first ply only: playing the same
    move in it again says nothing new, and a game that goes round in a loop to its length
    limit would otherwise count one decision hundreds of times (a Potlatch game of 2,000 plies
    had 672 judged moves, 98% "agreeing", from a loop both sides repeated). A seat's positions
    after its first ``SEAT_POSITIONS`` are left out (a cycle that changes the position a little
    each time is not met again)."""
    wanted = {
        ply
        for seat in range(game.num_players)
        for ply in plies_to_judge(states, seat, game.num_players)
    }
    seen: set[tuple[int, tuple[float, ...]]] = set()
    per_seat: dict[int, int] = {}
    plies = []
    for ply in sorted(wanted):
        # What the mover sees: a position's JSON also carries counters (turns played, the
        # positions before) that differ at every ply of a loop.
        mover = states[ply].current_player()
        position = (mover, tuple(states[ply].observation_tensor(mover)))
        if position not in seen and per_seat.get(mover, 0) < SEAT_POSITIONS:
            seen.add(position)
            per_seat[mover] = per_seat.get(mover, 0) + 1
            plies.append(ply)
    return plies


def evidence_of(
    game: Game,
    states: Sequence[State],
    record: Record,
    judgements: Mapping[int, Judgement],
    skip: int = 0,
) -> list[SeatEvidence]:
    """Every seat's evidence from the judgements of ``plies_of_evidence``'s positions; the
    first ``skip`` decisions are left out."""
    own = set(decision_plies(record, skip))
    actions = [m.action for m in record.moves]
    evidence = []
    for seat in range(game.num_players):
        review = assemble(game, states, actions, seat, judgements, 0)
        judged = agreed = skipped = 0
        loss = 0.0
        for move in review["moves"]:
            ply = move["ply"]
            if ply not in own:
                continue
            if forced(judgements[ply]):
                skipped += 1
                continue
            judged += 1
            agreed += move["best"] is None
            loss += move["loss"]
        evidence.append(SeatEvidence(seat, judged, agreed, skipped, loss))
    return evidence


def game_evidence(
    record: Record, iterations: int = JUDGE_ITERATIONS, seed: int = 0, skip: int | None = None
) -> list[SeatEvidence]:
    """Every seat's evidence from ``record`` (each move verified by replaying it first).
    ``skip`` leaves out the first decisions; by default an arena record's random opening."""
    game = record.load_game()
    spec = judge_spec(game, iterations)
    if skip is None:
        skip = int(record.meta.get("arena", {}).get("opening", 0))
    states = list(record.states())
    judgements = {
        ply: judge(game, states[ply], ply, seed=seed, spec=spec)
        for ply in plies_of_evidence(game, states)
    }
    return evidence_of(game, states, record, judgements, skip)


@dataclass(frozen=True)
class Tally(Rates):
    """Evidence summed over games (an account's in one pool, or a level's in a calibration)."""

    games: int = 0
    judged: int = 0
    agreed: int = 0
    loss: float = 0.0

    def add(self, evidence: SeatEvidence) -> Tally:
        return Tally(
            self.games + 1,
            self.judged + evidence.judged,
            self.agreed + evidence.agreed,
            self.loss + evidence.loss,
        )

    @classmethod
    def of(cls, evidence: Iterable[SeatEvidence]) -> Tally:
        tally = cls()
        for one in evidence:
            tally = tally.add(one)
        return tally

    def lower_bound(self) -> float:
        """The lower end of the agreement's 95% Wilson interval (0 with no judged moves)."""
        return wilson_interval(self.agreed, self.judged)[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "judged": self.judged,
            "agreed": self.agreed,
            "agreement": None if self.agreement is None else round(self.agreement, 4),
            "mean_loss": None if self.mean_loss is None else round(self.mean_loss, 4),
            "lower_bound": round(self.lower_bound(), 4),
        }


@dataclass(frozen=True)
class Norm:
    """What the established players of one rating band agree with the judge: the median of
    their accounts' agreements, which the few who consult an engine barely move (a pooled
    rate would follow the accounts that play most)."""

    band: int
    """The band's lowest rating (``band_of``)."""
    accounts: int
    agreement: float

    def to_json(self) -> dict[str, Any]:
        return {
            "band": [self.band, self.band + BAND],
            "accounts": self.accounts,
            "agreement": round(self.agreement, 4),
        }


@dataclass(frozen=True)
class FlagRule:
    """Flag an account whose agreement's lower bound reaches ``threshold`` over at least
    ``min_moves`` judged moves, or, when its band has a norm (``norms_of``), reaches that
    norm plus ``margin``: an engine user whose rating is low is caught further below the
    pool's threshold, which stays the ceiling (a band whose honest norm is high never raises
    it)."""

    threshold: float
    min_moves: int
    margin: float | None = None
    """How far above its band's norm an account may agree before the flag fires: the spread
    between the weakest and the strongest honest level's agreement over all their games
    (``tools/fairplay.py``), so that a player whose rating lags the whole ladder behind their
    play is still not flagged. None: the pool's threshold alone."""

    def threshold_for(self, norm: Norm | None) -> float:
        """The threshold an account of ``norm``'s band meets (the pool's without a norm)."""
        if norm is None or self.margin is None:
            return self.threshold
        return min(self.threshold, norm.agreement + self.margin)

    def fires(self, tally: Tally, norm: Norm | None = None) -> bool:
        return tally.judged >= self.min_moves and tally.lower_bound() >= self.threshold_for(norm)


MIN_MOVES = 20
"""Judged moves an account needs before the flag can fire: fewer say too little."""
MONTANA_CROWD_MOVES = 100
"""The same for three- and four-player Montana, where ``hard`` and the expert agree with the
judge within a few points and one game's moves cannot tell them apart (docs/analysis.md)."""
BAND = 200
"""Rating points of one band of norms: about the gap between neighbouring levels of the
ladder, so a band holds players of one strength."""
NORM_ACCOUNTS = 20
"""Established accounts, each with ``MIN_MOVES`` judged moves, a band needs before its norm
counts: fewer make a median that one account can move."""


def band_of(rating: float) -> int:
    """The lowest rating of ``rating``'s band."""
    return int(rating // BAND) * BAND


def norms_of(
    accounts: Iterable[tuple[float, Tally]], min_moves: int = MIN_MOVES
) -> dict[int, Norm]:
    """Each band's norm from (established rating, tally) of its accounts in one pool; accounts
    with fewer than ``min_moves`` judged moves say too little and are left out, and so is a
    band with fewer than ``NORM_ACCOUNTS`` accounts."""
    bands: dict[int, list[float]] = {}
    for rating, tally in accounts:
        if tally.judged >= min_moves and tally.agreement is not None:
            bands.setdefault(band_of(rating), []).append(tally.agreement)
    return {
        band: Norm(band, len(rates), statistics.median(rates))
        for band, rates in sorted(bands.items())
        if len(rates) >= NORM_ACCOUNTS
    }


RULES: dict[str, FlagRule] = {
    # 200 games of each ladder step (docs/analysis.md, "Fair play"). Potlatch, its search
    # expert judged by the same search at 20,000 iterations: the honest levels' agreement over
    # all their games reaches at most 0.529; within 1% false alarms per game and none per
    # window of ten games in any honest level; every ten-game window of the expert flagged.
    # The margin: from easy's 0.354 to that 0.529.
    "potlatch": FlagRule(threshold=0.56, min_moves=MIN_MOVES, margin=0.18),
    # Proteus, its learned expert: the honest levels reach at most 0.163 (seed 1) and 0.187
    # (seed 2, repeated positions judged once), the expert 0.868 and 0.777 over its games; the
    # threshold sits in that gap, not at its lower edge (seed 2 alone would have put it at
    # 0.19). On seed 2 it flags none of 1,000 honest seat-games and every expert window. The
    # margin: from easy's 0.085 to that 0.187.
    "proteus": FlagRule(threshold=0.42, min_moves=MIN_MOVES, margin=0.11),
    # Passtally for two, its search expert: the honest levels reach at most 0.134 (seed 1) and
    # 0.136 (seed 2), the expert's lower bound over its games is 0.281 and 0.295; the
    # threshold sits in that gap (each seed alone would have put it at 0.15 and 0.18). The
    # margin: from easy's 0.042-0.055 to that 0.136.
    "passtally-2p": FlagRule(threshold=0.20, min_moves=MIN_MOVES, margin=0.10),
    # Passtally for three (two seats of one level and one of the other): the honest levels
    # reach at most 0.257 (seed 1) and 0.245 (seed 2; a third player lifts hard's agreement to
    # 0.21-0.24 from two-player 0.11), the expert's lower bound over its games is 0.470 and
    # 0.478. At 0.34 no honest seat-game of 1,500 or window of 148 is flagged on either seed,
    # every expert window is; 0.36, the middle of the gap, would miss 3 of 29 on seed 1. The
    # margin: from easy's 0.069 to that 0.257, raised from 0.19 to 0.21 so that no window of
    # hard's is flagged at easy's norm.
    "passtally-3p": FlagRule(threshold=0.34, min_moves=MIN_MOVES, margin=0.21),
    # Montana for two, its search expert, judged at 100,000 iterations (``JUDGE_BUDGETS``): the
    # honest levels reach at most 0.696 (seed 1) and 0.702 (seed 2), the expert's lower bound
    # over its games is 0.898 and 0.895; the threshold sits in the middle of that gap (the
    # tool's lowest on seed 1 was 0.75). It flags 1 of 1,000 and 2 of 600 honest seat-games,
    # no honest window, and 20 and 19 of 20 expert windows. The margin: from easy's 0.364 to
    # that 0.702.
    "montana-2p": FlagRule(threshold=0.80, min_moves=MIN_MOVES, margin=0.34),
    # Montana for three and four (seed 1; 200 and 100 games a step, about 300 and 200 seat-games
    # of each level): ``hard`` comes much nearer the expert than with two, so the gap is
    # narrow: the honest levels reach at most 0.814 and 0.806 over all their games, the
    # expert's lower bound is 0.859 and 0.836. One game (26-34 judged moves) cannot tell them
    # apart (hard's games reach 0.96-1.00 at the 99th percentile), so the flag needs
    # ``MONTANA_CROWD_MOVES`` judged moves, three or four games; then no honest seat-game or
    # window of ten is flagged and the expert is over its games (6 of 29 and 3 of 19 windows).
    # Each threshold near the middle of its gap; the margins from easy's 0.446 and 0.404.
    "montana-3p": FlagRule(threshold=0.84, min_moves=MONTANA_CROWD_MOVES, margin=0.38),
    "montana-4p": FlagRule(threshold=0.82, min_moves=MONTANA_CROWD_MOVES, margin=0.42),
}
"""The measured flag rule of each rating pool (boardplay.web.ratings.pool_of's name); a pool not
here is never flagged."""


def flag_rule(pool: str) -> FlagRule | None:
    """The pool's measured flag rule, or None when it has not been calibrated."""
    return RULES.get(pool)
