"""The puzzles' tables: ``puzzles`` (each puzzle of the shipped sets, its whole JSON and its
Glicko-2 rating), ``puzzle_players`` (each account's puzzle rating per game, apart from its game
ratings), ``puzzle_attempts`` (one row per attempt: whose, which puzzle, the solver's actions so
far, how it ended), ``puzzle_results`` (the rated attempts' rating changes, in the order they were
settled) and ``puzzle_streaks``.

One rated attempt per player and puzzle is a unique key, ``(puzzle_id, rated_for)``: an attempt
is rated when its row is the one that takes it (``rated_for`` is the account; NULLs never clash).
Settling a rated attempt is one transaction that first ends the attempt (exactly once: only a row
still ``playing`` changes), then locks the puzzle's row and the player's by updating them (always
in that order, so two settlements never wait on each other in a ring) and inserts the result: its
``seq`` orders the results of one puzzle or one player as their locks did, which is what lets a
recomputation replay them (``tests/web/puzzles``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from boardplay.web.database import by_id
from boardplay.web.errors import conflict
from boardplay.web.puzzles.tables import (
    PLAYING,
    SOLVED,
    AttemptRow,
    PuzzleRow,
    Rate,
    Settled,
    StreakRow,
    Triple,
    attempts_table,
    players_table,
    puzzles_table,
    results_table,
    streaks_table,
)


def _upsert(conn: sa.Connection) -> type[postgresql.Insert] | type[sqlite.Insert]:
    return postgresql.Insert if conn.dialect.name == "postgresql" else sqlite.Insert


def _triple(row: Any) -> Triple:
    return (float(row.rating), float(row.deviation), float(row.volatility))


def _puzzle(row: Any) -> PuzzleRow:
    return PuzzleRow(
        row.id, row.game, row.kind, row.choices, dict(row.data), _triple(row), int(row.plays)
    )


def _attempt(row: Any) -> AttemptRow:
    return AttemptRow(
        row.id,
        row.puzzle_id,
        row.owner,
        row.account_id,
        row.rated_for is not None,
        row.mode,
        row.streak_id,
        [int(a) for a in row.actions],
        row.status,
    )


def _streak(row: Any) -> StreakRow:
    return StreakRow(
        row.id, row.owner, row.game, row.seed, row.solved, row.current, bool(row.alive)
    )


class PuzzleStore:
    """The puzzle tables of the process's database (synchronous: run off the event loop)."""

    def __init__(self, engine: Engine, start: Triple) -> None:
        self.engine = engine
        self.start = start
        """A new puzzle's rating and a new player's (the service's choice)."""

    # ----- the sets -----------------------------------------------------------------------
    def add_missing(self, puzzles: Sequence[dict[str, Any]]) -> int:
        """Insert the puzzles whose id is not stored yet, each rated ``start``; a stored one
        keeps its rating (a restart, or another process loading the same set, changes
        nothing). The number inserted."""
        if not puzzles:
            return 0
        with self.engine.connect() as conn:
            stored = set(conn.execute(sa.select(puzzles_table.c.id)).scalars())
        puzzles = [p for p in puzzles if p["id"] not in stored]
        if not puzzles:  # every start but the first: nothing to serialise or send
            return 0
        now = time.time()
        rows = [
            {
                "id": p["id"],
                "game": p["game"],
                "kind": p["kind"],
                "choices": int(p["choices"]),
                "data": p,
                "rating": self.start[0],
                "deviation": self.start[1],
                "volatility": self.start[2],
                "plays": 0,
                "added": now,
            }
            for p in puzzles
        ]
        with self.engine.begin() as conn:
            before = conn.execute(sa.select(sa.func.count()).select_from(puzzles_table)).scalar()
            insert = _upsert(conn)(puzzles_table).on_conflict_do_nothing(index_elements=["id"])
            conn.execute(insert, rows)
            after = conn.execute(sa.select(sa.func.count()).select_from(puzzles_table)).scalar()
        return int(after or 0) - int(before or 0)

    def puzzle(self, puzzle_id: str) -> PuzzleRow:
        with self.engine.connect() as conn:
            return _puzzle(by_id(conn, puzzles_table, puzzle_id, "puzzle"))

    def counts(self) -> dict[str, int]:
        """Puzzles stored per game."""
        c = puzzles_table.c
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(c.game, sa.func.count()).group_by(c.game)).all()
        return {str(game): int(n) for game, n in rows}

    def ids(self) -> list[str]:
        """Every puzzle's id, sorted."""
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(puzzles_table.c.id).order_by(puzzles_table.c.id))
            return [str(i) for i in found.scalars()]

    def ladder(self, game: str) -> list[tuple[str, float, int]]:
        """The game's puzzles as (id, rating, choices), easiest first: by rating, then fewer
        turns to choose between."""
        c = puzzles_table.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(c.id, c.rating, c.choices)
                .where(c.game == game)
                .order_by(c.rating, c.choices, c.id)
            ).all()
        return [(str(r.id), float(r.rating), int(r.choices)) for r in rows]

    def nearest(self, game: str, rating: float, owner: str) -> str | None:
        """The game's puzzle rated nearest ``rating`` that ``owner`` has not finished an attempt
        at (ties: the lower id), or None when they have finished them all."""
        c, a = puzzles_table.c, attempts_table.c
        finished = sa.select(a.puzzle_id).where(a.owner == owner, a.status != PLAYING)
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(c.id)
                .where(c.game == game, c.id.not_in(finished))
                .order_by(sa.func.abs(c.rating - rating), c.id)
                .limit(1)
            ).scalar()
        return None if found is None else str(found)

    # ----- players --------------------------------------------------------------------------
    def player(self, account_id: int) -> dict[str, tuple[Triple, int]]:
        """The account's puzzle ratings by game, each with its rated attempts."""
        c = players_table.c
        with self.engine.connect() as conn:
            rows = conn.execute(players_table.select().where(c.account_id == account_id)).all()
        return {str(r.game): (_triple(r), int(r.plays)) for r in rows}

    def best_streaks(self, owner: str) -> dict[str, int]:
        """The owner's longest streak by game."""
        c = streaks_table.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(c.game, sa.func.max(c.solved)).where(c.owner == owner).group_by(c.game)
            ).all()
        return {str(game): int(best or 0) for game, best in rows}

    # ----- attempts -------------------------------------------------------------------------
    def open_attempt(self, owner: str, puzzle_id: str, streak_id: str | None) -> AttemptRow | None:
        """The owner's attempt at the puzzle still being played (in that streak, or outside any),
        if there is one: a page reloaded mid-attempt goes on with it."""
        a = attempts_table.c
        with self.engine.connect() as conn:
            row = conn.execute(
                attempts_table.select()
                .where(
                    a.owner == owner,
                    a.puzzle_id == puzzle_id,
                    a.status == PLAYING,
                    a.streak_id.is_(None) if streak_id is None else a.streak_id == streak_id,
                )
                .limit(1)
            ).one_or_none()
        return None if row is None else _attempt(row)

    def create_attempt(
        self,
        attempt_id: str,
        puzzle_id: str,
        owner: str,
        account_id: int | None,
        streak_id: str | None,
        rated: bool,
    ) -> AttemptRow:
        """A new attempt; asked ``rated``, it is rated only if this account has no rated attempt
        at the puzzle yet (the unique key decides, whatever else runs at the same moment)."""
        values: dict[str, Any] = {
            "id": attempt_id,
            "puzzle_id": puzzle_id,
            "owner": owner,
            "account_id": account_id,
            "streak_id": streak_id,
            "actions": [],
            "moves": 0,
            "status": PLAYING,
            "started": time.time(),
        }
        if rated and account_id is not None:
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        attempts_table.insert().values(**values, rated_for=account_id, mode="rated")
                    )
                return self.attempt(attempt_id)
            except sa.exc.IntegrityError:
                pass  # rated before: this try is practice
        mode = "streak" if streak_id is not None else "practice"
        with self.engine.begin() as conn:
            conn.execute(attempts_table.insert().values(**values, rated_for=None, mode=mode))
        return self.attempt(attempt_id)

    def attempt(self, attempt_id: str) -> AttemptRow:
        with self.engine.connect() as conn:
            return _attempt(by_id(conn, attempts_table, attempt_id, "puzzle attempt"))

    def record_move(self, attempt: AttemptRow, actions: list[int], status: str) -> None:
        """Store the attempt's actions after a move and, when it ended, how; only if it is still
        as the caller read it (two moves sent at once: one is stored, the other is a 409)."""
        with self.engine.begin() as conn:
            self._advance(conn, attempt, actions, status)
            if status != PLAYING and attempt.streak_id is not None:
                self._streak_step(conn, attempt.streak_id, status == SOLVED)

    def settle(
        self, attempt: AttemptRow, actions: list[int], status: str, game: str, rate: Rate
    ) -> Settled:
        """End a rated attempt and move both ratings, in one transaction (module docstring)."""
        assert attempt.account_id is not None and status != PLAYING
        now = time.time()
        with self.engine.begin() as conn:
            self._advance(conn, attempt, actions, status)
            p = puzzles_table.c
            puzzle = conn.execute(
                puzzles_table.update()
                .where(p.id == attempt.puzzle_id)
                .values(plays=p.plays + 1)
                .returning(p.rating, p.deviation, p.volatility)
            ).one()
            q = players_table.c
            conn.execute(  # a newcomer's row; a stored player keeps theirs
                _upsert(conn)(players_table)
                .values(
                    account_id=attempt.account_id,
                    game=game,
                    rating=self.start[0],
                    deviation=self.start[1],
                    volatility=self.start[2],
                    plays=0,
                    updated=now,
                )
                .on_conflict_do_nothing(index_elements=["account_id", "game"])
            )
            player = conn.execute(
                players_table.update()
                .where(q.account_id == attempt.account_id, q.game == game)
                .values(plays=q.plays + 1, updated=now)
                .returning(q.rating, q.deviation, q.volatility)
            ).one()
            before_player, before_puzzle = _triple(player), _triple(puzzle)
            after_player, after_puzzle = rate(before_player, before_puzzle, status == SOLVED)
            conn.execute(
                players_table.update()
                .where(q.account_id == attempt.account_id, q.game == game)
                .values(
                    rating=after_player[0], deviation=after_player[1], volatility=after_player[2]
                )
            )
            conn.execute(
                puzzles_table.update()
                .where(p.id == attempt.puzzle_id)
                .values(
                    rating=after_puzzle[0], deviation=after_puzzle[1], volatility=after_puzzle[2]
                )
            )
            conn.execute(
                results_table.insert().values(
                    attempt_id=attempt.id,
                    puzzle_id=attempt.puzzle_id,
                    account_id=attempt.account_id,
                    game=game,
                    solved=status == SOLVED,
                    player_before=list(before_player),
                    player_after=list(after_player),
                    puzzle_before=list(before_puzzle),
                    puzzle_after=list(after_puzzle),
                    settled=now,
                )
            )
        return Settled(before_player, after_player, before_puzzle, after_puzzle)

    def _advance(
        self, conn: sa.Connection, attempt: AttemptRow, actions: list[int], status: str
    ) -> None:
        a = attempts_table.c
        done = conn.execute(
            attempts_table.update()
            .where(a.id == attempt.id, a.status == PLAYING, a.moves == len(attempt.actions))
            .values(
                actions=actions,
                moves=len(actions),
                status=status,
                finished=None if status == PLAYING else time.time(),
            )
        )
        if done.rowcount != 1:
            raise conflict(
                "attempt_moved",
                "this attempt has moved on meanwhile (another tab or a second click); "
                "load it again to see where it stands",
            )

    def result(self, attempt_id: str) -> Settled | None:
        """The rating changes a rated attempt settled, if it has."""
        r = results_table.c
        with self.engine.connect() as conn:
            row = conn.execute(
                results_table.select().where(r.attempt_id == attempt_id)
            ).one_or_none()
        if row is None:
            return None
        return Settled(
            tuple(row.player_before),
            tuple(row.player_after),
            tuple(row.puzzle_before),
            tuple(row.puzzle_after),
        )

    # ----- streaks --------------------------------------------------------------------------
    def create_streak(self, streak_id: str, owner: str, game: str, seed: int, first: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                streaks_table.insert().values(
                    id=streak_id,
                    owner=owner,
                    game=game,
                    seed=seed,
                    solved=0,
                    current=first,
                    alive=True,
                    started=time.time(),
                )
            )

    def streak(self, streak_id: str) -> StreakRow:
        with self.engine.connect() as conn:
            return _streak(by_id(conn, streaks_table, streak_id, "puzzle streak"))

    def streak_puzzles(self, streak_id: str) -> set[str]:
        """The puzzles a streak has asked so far."""
        a = attempts_table.c
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(a.puzzle_id).where(a.streak_id == streak_id))
            return {str(p) for p in found.scalars()}

    def set_current(self, streak_id: str, puzzle_id: str | None) -> None:
        """The streak's next puzzle (None: none left, the streak is complete)."""
        values: dict[str, Any] = {"current": puzzle_id}
        if puzzle_id is None:
            values["alive"] = False
        with self.engine.begin() as conn:
            conn.execute(
                streaks_table.update().where(streaks_table.c.id == streak_id).values(**values)
            )

    def _streak_step(self, conn: sa.Connection, streak_id: str, solved: bool) -> None:
        c = streaks_table.c
        conn.execute(
            streaks_table.update()
            .where(c.id == streak_id, c.alive.is_(True))
            .values(solved=c.solved + 1)
            if solved
            else streaks_table.update().where(c.id == streak_id).values(alive=False, current=None)
        )

    # ----- for recomputation and the profile ------------------------------------------------
    def results(self) -> list[dict[str, Any]]:
        """Every settled result, in the order settled."""
        with self.engine.connect() as conn:
            rows = conn.execute(results_table.select().order_by(results_table.c.seq)).all()
        return [dict(r._mapping) for r in rows]

    def ratings(self) -> tuple[dict[str, Triple], dict[tuple[int, str], Triple]]:
        """Every puzzle's rating and every player's, by puzzle id and by (account, game)."""
        with self.engine.connect() as conn:
            puzzles = conn.execute(puzzles_table.select()).all()
            players = conn.execute(players_table.select()).all()
        return (
            {str(p.id): _triple(p) for p in puzzles},
            {(int(p.account_id), str(p.game)): _triple(p) for p in players},
        )
