"""Puzzles on the site (issue 64): the shipped sets in the database, attempts checked move by move
on the server, each player's puzzle rating per game (apart from game ratings), the next puzzle
near that rating, the daily puzzle and the streak.

An attempt is the solver's moves at one puzzle. The solver plays the mover's side; each move is
judged by the puzzles' own rule (``boardplay.puzzles.Solving``): right (the solution's turn is
still within reach), wrong (the attempt has failed; the answer is shown) or solved (the other
side's reply from the puzzle's line is played and shown). The solution, the line and the themes
never leave the server before the attempt has ended.

Ratings: Glicko-2, the same update as the game ratings (``ratings.glicko2``), each rated attempt
one rating period for the player against the puzzle's rating and one for the puzzle against the
player's, both as they were before it. A signed-in player's first attempt at a puzzle is rated;
later tries, a guest's and a streak's are practice. Starting an attempt at a puzzle that this
visitor is already solving goes on with that one, so a reload neither loses a rated attempt nor
gives a second.

The daily puzzle is the same for everybody on a UTC day: a digest of the day picks among every
stored puzzle. A streak asks puzzles of rising difficulty (the game's ladder, easiest first, cut
into ``STREAK_BANDS`` bands, the n-th puzzle from the n-th band), unrated, and ends at the first
mistake; each visitor's best streak per game is kept.

Ceiling (``config.Limits``): attempts and streaks started per minute per visitor (account or
browser) and per address (``puzzle_attempts_per_minute``, counted in the database before each)."""

from __future__ import annotations

import datetime
import hashlib
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from boardplay.core.game import Game, State
from boardplay.puzzles import RIGHT, SOLVED, Puzzle, Solving
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError, bad_request, forbidden, not_found
from boardplay.web.puzzles.sets import shipped
from boardplay.web.puzzles.store import PuzzleStore
from boardplay.web.puzzles.tables import (
    FAILED,
    PLAYING,
    AttemptRow,
    PuzzleRow,
    Settled,
    StreakRow,
    Triple,
)
from boardplay.web.ratings import (
    NEW_DEVIATION,
    NEW_RATING,
    NEW_VOLATILITY,
    PROVISIONAL_DEVIATION,
    Rating,
    glicko2,
)
from boardplay.web.table import hints_for
from boardplay.web.throttles import Throttles, VisitorCeiling
from boardplay.web.words import legal_said, parse_move, said

MINUTE = 60.0
ID_BYTES = 9
"""Random bytes of an attempt's or a streak's id: 12 characters nobody can guess."""
NEWCOMER: Triple = (NEW_RATING, NEW_DEVIATION, NEW_VOLATILITY)
"""A new puzzle's rating and a player's first puzzle rating: the game ratings' newcomer."""
STREAK_BANDS = 20
"""A streak climbs the game's ladder in this many steps; past the last it stays at the top."""


@dataclass(frozen=True)
class Solver:
    """Who asks: the owner of what they start (``account:<id>`` or ``device:<hash>``; None for a
    browser without a device cookie and no session), their account, and their address's hash
    (the ceiling's key)."""

    owner: str | None
    account: int | None
    address: str


def rate(player: Triple, puzzle: Triple, solved: bool) -> tuple[Triple, Triple]:
    """One rated attempt: a Glicko-2 period for the player against the puzzle (scoring 1 when
    solved) and one for the puzzle against the player (the other way round), each against the
    other's rating before the attempt."""
    me, it = Rating(*player), Rating(*puzzle)
    after_me = glicko2(me, [(it, 1.0 if solved else 0.0)])
    after_it = glicko2(it, [(me, 0.0 if solved else 1.0)])
    return _triple(after_me), _triple(after_it)


def _triple(r: Rating) -> Triple:
    return (r.rating, r.deviation, r.volatility)


def rating_json(triple: Triple, plays: int | None = None) -> dict[str, Any]:
    """A rating as the page shows it: rounded, with its deviation and whether it is provisional."""
    shown: dict[str, Any] = {
        "rating": round(triple[0]),
        "deviation": round(triple[1]),
        "provisional": triple[1] > PROVISIONAL_DEVIATION,
    }
    if plays is not None:
        shown["plays"] = plays
    return shown


def daily_pick(ids: list[str], day: datetime.date) -> str | None:
    """The day's puzzle among ``ids`` (sorted): the same for every visitor and every process."""
    if not ids:
        return None
    digest = hashlib.sha256(f"boardplay/puzzles/daily/{day.isoformat()}".encode()).hexdigest()
    return ids[int(digest, 16) % len(ids)]


def streak_pick(ladder: list[str], used: set[str], step: int, seed: int) -> str | None:
    """The streak's puzzle number ``step`` (from 0) from ``ladder`` (easiest first): a puzzle of
    band ``step`` not asked yet (the nearest band with one left when it is used up), drawn
    from the streak's seed; None when every puzzle has been asked."""
    if not ladder:
        return None
    bands = min(STREAK_BANDS, len(ladder))
    band = min(step, bands - 1)

    def members(b: int) -> list[str]:
        low, high = b * len(ladder) // bands, (b + 1) * len(ladder) // bands
        return [p for p in ladder[low:high] if p not in used]

    order = sorted(range(bands), key=lambda b: (abs(b - band), -b))
    for b in order:
        left = members(b)
        if left:
            return random.Random(f"{seed}/{step}").choice(left)
    return None


class Puzzles:
    """One process's puzzles."""

    def __init__(
        self,
        engine: Engine,
        db: StorageThreads,
        limits: Limits,
        throttles: Throttles,
        catalogue: WebCatalogue,
    ) -> None:
        self.store = PuzzleStore(engine, NEWCOMER)
        self.db = db
        self.limits = limits
        self.throttles = throttles
        self.catalogue = catalogue
        self._games: dict[tuple[str, str], Game] = {}
        self.today: Callable[[], datetime.date] = lambda: datetime.datetime.now(datetime.UTC).date()
        """The server's UTC day (tests move it)."""

    async def load_sets(self) -> int:
        """Load the shipped sets of the games this server offers (idempotent, by puzzle id);
        the number of puzzles added."""
        found = shipped(self.catalogue.names())
        added: int = await self.db(self.store.add_missing, found)
        return added

    def _game(self, name: str, options: Mapping[str, Any]) -> Game:
        key = (name, repr(sorted(options.items())))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = self.catalogue.build(name, options)
        return game

    # ----- what the page reads --------------------------------------------------------------
    async def overview(self, who: Solver) -> dict[str, Any]:
        """The games with puzzles, each with the visitor's puzzle rating and best streak, and
        today's puzzle."""
        counts = await self.db(self.store.counts)
        mine = await self.db(self.store.player, who.account) if who.account is not None else {}
        best = await self.db(self.store.best_streaks, who.owner) if who.owner else {}
        games = []
        for game in self.catalogue.names():
            if not counts.get(game):
                continue
            held = mine.get(game)
            games.append(
                {
                    "game": game,
                    "count": counts[game],
                    "rating": rating_json(*held) if held else None,
                    "best_streak": best.get(game, 0),
                }
            )
        return {"games": games, "daily": await self.daily(), "signed_in": who.account is not None}

    async def daily(self) -> dict[str, Any] | None:
        day = self.today()
        chosen = daily_pick(await self.db(self.store.ids), day)
        if chosen is None:
            return None
        return {"id": chosen, "game": chosen.rsplit("-", 1)[0], "day": day.isoformat()}

    # ----- attempts -------------------------------------------------------------------------
    async def next_for(self, game: str, who: Solver) -> dict[str, Any]:
        """An attempt at the game's puzzle nearest the visitor's puzzle rating that they have not
        finished (a guest: nearest a newcomer's)."""
        if game not in (await self.db(self.store.counts)):
            raise not_found(f"no puzzles of {game!r} on this server")
        owner = self._owner(who)
        rating = NEWCOMER[0]
        if who.account is not None:
            held = (await self.db(self.store.player, who.account)).get(game)
            rating = held[0][0] if held else rating
        chosen = await self.db(self.store.nearest, game, rating, owner)
        if chosen is None:
            raise ApiError(
                404, "puzzles_done", f"you have tried every {game} puzzle on this server"
            )
        return await self.start(chosen, who)

    async def start(
        self, puzzle_id: str, who: Solver, streak: StreakRow | None = None
    ) -> dict[str, Any]:
        """The visitor's attempt at the puzzle: the one they are solving, else a new one (rated
        for a signed-in player's first at it, outside a streak)."""
        owner = self._owner(who)
        row = await self.db(self.store.puzzle, puzzle_id)
        streak_id = streak.id if streak else None
        attempt = await self.db(self.store.open_attempt, owner, puzzle_id, streak_id)
        if attempt is None:
            await self._count(who, owner)
            attempt = await self.db(
                self.store.create_attempt,
                secrets.token_urlsafe(ID_BYTES),
                puzzle_id,
                owner,
                who.account,
                streak_id,
                streak is None,
            )
        return await self._view(attempt, row, streak)

    async def read(self, attempt_id: str, who: Solver) -> dict[str, Any]:
        attempt = await self._mine(attempt_id, who)
        row = await self.db(self.store.puzzle, attempt.puzzle_id)
        return await self._view(attempt, row, await self._streak_of(attempt))

    async def move(self, attempt_id: str, move: str | int, who: Solver) -> dict[str, Any]:
        """Judge the solver's move; a wrong one ends the attempt as failed, the last right one
        as solved, and a rated attempt's end moves both ratings."""
        attempt = await self._mine(attempt_id, who)
        if attempt.status != PLAYING:
            raise ApiError(409, "attempt_over", "this attempt is over; start another")
        row = await self.db(self.store.puzzle, attempt.puzzle_id)
        solving = self._solving(row)
        state, _ = solving.replay(attempt.actions)
        action = parse_move(state, move)
        step = solving.step(state, action)
        actions = [*attempt.actions, action]
        status = PLAYING if step.verdict == RIGHT else SOLVED if step.verdict == SOLVED else FAILED
        if attempt.rated and status != PLAYING:
            await self.db(self.store.settle, attempt, actions, status, row.game, rate)
        else:
            await self.db(self.store.record_move, attempt, actions, status)
        streak = await self._streak_of(attempt)
        if streak is not None and status == SOLVED:
            used = await self.db(self.store.streak_puzzles, streak.id)
            ladder = [p for p, _, _ in await self.db(self.store.ladder, streak.game)]
            following = streak_pick(ladder, used, streak.solved, streak.seed)
            await self.db(self.store.set_current, streak.id, following)
            streak = await self.db(self.store.streak, streak.id)
        done = await self.db(self.store.attempt, attempt.id)
        return await self._view(done, await self.db(self.store.puzzle, row.id), streak)

    # ----- streaks --------------------------------------------------------------------------
    async def new_streak(self, game: str, who: Solver) -> dict[str, Any]:
        """A new streak of the game's puzzles and an attempt at its first."""
        owner = self._owner(who)
        ladder = [p for p, _, _ in await self.db(self.store.ladder, game)]
        if not ladder:
            raise not_found(f"no puzzles of {game!r} on this server")
        seed = secrets.randbits(31)
        first = streak_pick(ladder, set(), 0, seed)
        assert first is not None
        await self._count(who, owner)
        streak_id = secrets.token_urlsafe(ID_BYTES)
        await self.db(self.store.create_streak, streak_id, owner, game, seed, first)
        return await self.streak_attempt(streak_id, who)

    async def streak_attempt(self, streak_id: str, who: Solver) -> dict[str, Any]:
        """The attempt at the streak's current puzzle (the last one, once it is over)."""
        streak = await self.db(self.store.streak, streak_id)
        if who.owner is None or who.owner != streak.owner:
            raise forbidden("not_yours", "this streak is another visitor's")
        if streak.current is None:
            raise ApiError(409, "streak_over", "this streak is over; start a new one")
        return await self.start(streak.current, who, streak)

    # ----- helpers --------------------------------------------------------------------------
    def _owner(self, who: Solver) -> str:
        if who.owner is None:
            raise bad_request("solving a puzzle needs a browser cookie or a session")
        return who.owner

    async def _count(self, who: Solver, owner: str) -> None:
        most = self.limits.puzzle_attempts_per_minute
        puzzles = VisitorCeiling(
            "puzzles",
            most,
            MINUTE,
            "puzzles_rate",
            f"you have started {most} puzzles this minute, the most this server allows "
            "(BOARDPLAY_WEB_PUZZLE_ATTEMPTS_PER_MINUTE); try again in a moment",
        )
        await self.throttles.take_for(puzzles, owner, who.address, self.db)

    async def _mine(self, attempt_id: str, who: Solver) -> AttemptRow:
        attempt: AttemptRow = await self.db(self.store.attempt, attempt_id)
        if who.owner is None or who.owner != attempt.owner:
            raise forbidden("not_yours", "this puzzle attempt is another visitor's")
        return attempt

    async def _streak_of(self, attempt: AttemptRow) -> StreakRow | None:
        if attempt.streak_id is None:
            return None
        streak: StreakRow = await self.db(self.store.streak, attempt.streak_id)
        return streak

    def _solving(self, row: PuzzleRow) -> Solving:
        puzzle = Puzzle.from_json(row.data)
        return Solving(puzzle, self._game(puzzle.game, puzzle.options))

    async def _view(
        self, attempt: AttemptRow, row: PuzzleRow, streak: StreakRow | None
    ) -> dict[str, Any]:
        settled = None
        if attempt.rated and attempt.status != PLAYING:
            settled = await self.db(self.store.result, attempt.id)
        best = 0
        if streak is not None:
            best = (await self.db(self.store.best_streaks, streak.owner)).get(streak.game, 0)
        return attempt_json(self._solving(row), attempt, row, settled, streak, best)


def _said(game: Game, state: State, action: int, seat: int, by: str) -> dict[str, Any]:
    """One move as the page lists it: id, notation, struct and words, who played it."""
    return {
        "id": action,
        "move": state.action_to_string(action),
        "seat": seat,
        "by": by,
        **said(game, state, action),
    }


def attempt_json(
    solving: Solving,
    attempt: AttemptRow,
    row: PuzzleRow,
    settled: Settled | None,
    streak: StreakRow | None,
    best_streak: int,
) -> dict[str, Any]:
    """What the page reads of an attempt. While it is being played: the position, the legal
    moves, the moves played so far. Once it is over: the solution in words, the position it
    leaves, the themes, the puzzle's rating and (rated) the player's change. Never the solution,
    the line or the themes before."""
    game, puzzle = solving.game, solving.puzzle
    walker = solving.start.clone()
    played: list[dict[str, Any]] = []
    _, steps = solving.replay(attempt.actions)
    for action, step in zip(attempt.actions, steps, strict=True):
        played.append(_said(game, walker, action, solving.mover, "you"))
        walker.apply_action(action)
        for reply, seat in step.replies:
            played.append(_said(game, walker, reply, seat, "reply"))
            walker.apply_action(reply)
    over = attempt.status != PLAYING
    view: dict[str, Any] = {
        "id": attempt.id,
        "mode": attempt.mode,
        "rated": attempt.rated,
        "status": attempt.status,
        "puzzle": {
            "id": row.id,
            "game": row.game,
            "kind": row.kind,
            "to_move": puzzle.to_move,
            "options": puzzle.options,
        },
        "position": walker.to_json(),
        "text": walker.render(),
        "current_player": walker.current_player(),
        "legal": [] if over else legal_said(game, walker, walker.legal_actions()),
        "hints": hints_for(game, walker),
        "played": played,
        "solution": None,
        "answers": None,
        "themes": None,
        "puzzle_rating": None,
        "rating": None,
        "streak": None,
    }
    if over:
        answer = solving.start.clone()
        solution = []
        for action in solving.solution_actions():
            solution.append(_said(game, answer, action, solving.mover, "answer"))
            answer.apply_action(action)
        view.update(
            solution=solution,
            answers=len(puzzle.answer_turns()),
            answer_position=answer.to_json(),
            themes=[t for t in puzzle.themes if t not in ("win", "save")],
            puzzle_rating=rating_json(row.rating, row.plays),
        )
    if settled is not None:
        view["rating"] = {
            "before": rating_json(settled.player_before),
            "after": rating_json(settled.player_after),
            "change": round(settled.player_after[0]) - round(settled.player_before[0]),
        }
    if streak is not None:
        view["streak"] = {
            "id": streak.id,
            "game": streak.game,
            "solved": streak.solved,
            "alive": streak.alive,
            "best": max(best_streak, streak.solved),
        }
    return view
