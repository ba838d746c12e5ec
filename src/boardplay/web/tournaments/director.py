"""The tournaments' director: the step every process takes on every tournament that has work
(``advance``): copy the results of its games that ended, start it at its start time, pair its
next round or arena wave, finish it, and make the games of its tables.

Why it works as it does:

- **No process owns a tournament.** Every process's periodic ``tick`` advances every tournament
  that has work, and a step is one transaction that holds the tournament's row
  (``store.TournamentStore.step``): two processes pairing one round at once are one after the
  other, and the second finds the round paired (its stored round counter moved: ``StepLost``,
  or a round with unfinished games). A process that dies at any point leaves either nothing of
  a step or all of it, and the next process's tick carries on from there.
- **The pairing is computed outside the row.** A round of hundreds of players takes a tenth of
  a second or more to pair, and every join and step of the tournament on every process waits
  for its row. So a step is planned on a snapshot read without a lock, and under the row it is
  stored only if it still holds on what the row shows (``steps.still_holds``: no other step
  came between, and what the pairing read is unchanged); else it is planned again on that, up
  to ``ATTEMPTS`` times, and then planned under the row, so that a tournament always moves on.
- **A pairing is never lost or made twice.** Each table's game id is drawn when it is paired and
  stored with it; the game is made afterwards under that id (the table's ``GameMaker.seat``,
  through the tournament's door of the admission rule), so a crash between pairing and making
  only delays the game to the next tick. A process claims a table before making its game
  (``TournamentStore.claim``, for ``HOLD`` seconds), so two processes never both make one.
  The players hear of their games from the lobby, which hears ``TournamentPaired``.
- **Results come from the games.** A tournament game is an ordinary game of the table domain,
  on the tournament's clock, rated or casual; when it ends, the next step copies each seat's
  place (the ratings' reading of its result) into the tournament's table, once. The ratings
  settle a rated tournament game as they settle any rated game, once (``ratings.Settlement``):
  the tournament does not rate. ``GameFinished`` is the fast path for a process that sees games
  end: it carries how the game ended, so that process copies its places with no read of the
  tournament's games in play; the tick is what guarantees it, and copies every other end."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence

import sqlalchemy as sa

from boardplay.web.admission import Door
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError
from boardplay.web.events import Bus, GameFinished, TournamentPaired
from boardplay.web.metrics import Metrics
from boardplay.web.table import GameMaker, Games, control_of
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.tokens import new_game_id
from boardplay.web.tournaments.model import Board, Ended, Snapshot, StepLost
from boardplay.web.tournaments.plans import options_for
from boardplay.web.tournaments.rows import set_tournament_status, store_round
from boardplay.web.tournaments.steps import Step, plan, still_holds
from boardplay.web.tournaments.store import TournamentStore, claim, mark_made

log = logging.getLogger("boardplay.web")

TICK = 2.0
"""Seconds between a process's looks at the tournaments that have work."""
ATTEMPTS = 3
"""Plans of one step made outside the row before the step is planned under it
(``Director.advance``)."""
MAKING = 4
"""Games of one wave or round one step makes at once (within the storage's threads)."""
UNDER_ROW = 64
"""Entrants an arena has at most for its step after a game's end to be taken at once under its
row, the game's result recorded in the same transaction (``Director.advance``): such a field is
paired in a millisecond or so, less than the read without a lock and the second transaction it
saves (a bots' arena: 9 statements of each game's end). A larger field is planned outside."""
HOLD = 30.0
"""Seconds a process's claim on a table holds while it makes the table's game
(``TournamentStore.claim``). Making a game takes 10-15 ms, and a second or so when a wave of
hundreds waits behind ``MAKING`` on a loaded machine: 30 s is long enough that a live process
never loses its claim to another mid-game, and short enough that the tables of a process that
died holding claims are made by the first tick after they expire."""


def making_order(boards: Sequence[Board], rng: random.Random) -> list[Board]:
    """``boards`` from one drawn at random, round to the one before it. Every process ticking a
    tournament whose games are not all made makes them (a wave of 500 takes seconds), each
    table once it claims it (``_make_game``): in one order the second process would follow the
    first, its every claim refused, until the first was done; from two random places each
    makes the games where it is, and they share the wave."""
    if not boards:
        return []
    first = rng.randrange(len(boards))
    return [*boards[first:], *boards[:first]]


class Director:
    """Steps the tournaments of one process's store: on its tick, and when a game ends here."""

    def __init__(
        self,
        store: TournamentStore,
        db: StorageThreads,
        maker: GameMaker,
        games: Games,
        bus: Bus,
        now: Callable[[], float],
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        """The operator's series: how long each pairing took (``_plan``)."""
        self.db = db
        self.maker = maker
        self.games = games
        self.bus = bus
        self.now = now
        self._advancing: set[asyncio.Task[None]] = set()
        self._heard: dict[str, dict[str, Ended]] = {}
        """The tournaments being advanced after a game's end, each with the ends heard
        meanwhile (``_advance_after_ends``)."""
        self.stepped: Callable[[str], None] = lambda _tournament_id: None
        """Told a tournament's id when this process started, paired or finished it (the
        service forgets the list pages it cached: ``listing.py``)."""
        self.rng = random.Random()
        """Where this process starts making a round's games (``making_order``)."""
        bus.subscribe(GameFinished, self._game_finished)

    async def tick(self) -> None:
        """Advance every tournament that has work (each on its own: one's trouble is logged
        and the others go on)."""
        for tournament_id in await self.db(self.store.due, self.now()):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not advance; the next tick tries", tournament_id)

    async def _game_finished(self, event: GameFinished) -> None:
        """A game ended on this process: its tournament's next step (a next wave, the round's
        results) runs in a task of its own, so the request whose move ended the game does not
        wait for it. The tick is what guarantees the step; this is its fast path."""
        task = asyncio.get_running_loop().create_task(self._after_end(event))
        self._advancing.add(task)
        task.add_done_callback(self._advancing.discard)

    async def _after_end(self, event: GameFinished) -> None:
        game_id = event.game_id
        try:
            known = self.store.copies.known_tournament(game_id)
            ids = [known] if known else await self.db(self.store.tournaments_of, [game_id])
            for tournament_id in ids:
                await self._advance_after_ends(tournament_id, {game_id: event})
        except Exception:
            log.exception("the tournament of game %s could not advance; the tick tries", game_id)

    async def _advance_after_ends(self, tournament_id: str, ends: dict[str, Ended]) -> None:
        """``advance`` with ``ends``, unless this process is advancing the tournament after an
        earlier end: then that one advances once more when it is done, with every end heard
        meanwhile. An arena's games end several a second, and steps taken side by side read
        and planned on the same rows, all but one then planned again under the row (a bots'
        arena: 8% fewer snapshots and steps a game)."""
        if tournament_id in self._heard:
            self._heard[tournament_id].update(ends)
            return
        self._heard[tournament_id] = {}
        try:
            while ends:
                await self.advance(tournament_id, ends)
                ends, self._heard[tournament_id] = self._heard[tournament_id], {}
        finally:
            del self._heard[tournament_id]

    async def ends_told(self) -> None:
        """Wait until the steps set off by the games ended so far are done (tests)."""
        while self._advancing:
            await asyncio.gather(*list(self._advancing), return_exceptions=True)

    async def close(self) -> None:
        await cancel_and_wait(self._advancing)

    async def advance(self, tournament_id: str, ended: Mapping[str, Ended] | None = None) -> None:
        """One tournament's step: results in, then start, pair or finish (``steps.plan``; the
        row is taken only when there is something to do), then make the games not made. The
        results are those of every game of it that ended, or (``ended``) of these games, as
        their process told their ends (``GameFinished``): the others' are the tick's."""
        now = self.now()
        if ended and self._small_arena(tournament_id):
            await self._advance_under_row(tournament_id, ended, now)
            return
        if ended is None:
            playing = await self.db(self.store.playing, tournament_id)
            ended = await self.games.ended(playing) if playing else {}
        if ended:
            await self.db(self.store.record_results, tournament_id, ended, now)
        snap: Snapshot = await self.db(self.store.snapshot, tournament_id)
        # Outside the row, and in a thread: a round of a thousand players takes a tenth of a
        # second to pair, which the event loop spends serving other visitors meanwhile.
        step = await asyncio.to_thread(self._plan, snap, now)
        if not step.idle:
            locked: Snapshot | None = None
            with contextlib.suppress(StepLost):  # another process took this step first
                for _ in range(ATTEMPTS):
                    commit = functools.partial(self.commit, planned_on=snap, step=step, now=now)
                    stored, read = await self.db(self.store.step, tournament_id, commit)
                    locked = read
                    if stored:
                        break
                    snap, step = read, await asyncio.to_thread(self._plan, read, now)  # again
                    if step.idle:
                        break
                else:
                    locked = await self.db(
                        self.store.step, tournament_id, lambda c, s: self.step(c, s, now)
                    )
            self.stepped(tournament_id)
            # The games to make are those of the row as the step read it under the lock, with
            # the tables it stored (``store_round`` adds them): another process may have made
            # some since, and its claims tell. Only a step lost to another reads them again.
            if locked is None:
                locked = await self.db(self.store.unmade, tournament_id)
            snap = locked
        await self._make_games(snap)

    def _small_arena(self, tournament_id: str) -> bool:
        """Whether this process last read the tournament as an arena of ``UNDER_ROW`` entrants
        or fewer."""
        copy = self.store.copies.of(tournament_id)
        entrants = copy.entrants
        return copy.kind == "arena" and entrants is not None and len(entrants[1]) <= UNDER_ROW

    async def _advance_under_row(
        self, tournament_id: str, ended: Mapping[str, Ended], now: float
    ) -> None:
        """``advance`` of a small arena after its games ``ended``: their results, the plan and
        its storing in one transaction under the row, then the games made."""

        def work(conn: sa.Connection, snap: Snapshot) -> tuple[bool, Snapshot]:
            step = self._plan(snap, now)
            self._store(conn, snap, step, now)
            return not step.idle, snap

        stepped, snap = await self.db(self.store.step, tournament_id, work, ended, now)
        if stepped:
            self.stepped(tournament_id)
        await self._make_games(snap)

    def _plan(self, snap: Snapshot, now: float) -> Step:
        """``steps.plan``, timed for the operator when it pairs a round or a wave."""
        start = time.perf_counter()
        step = plan(snap, now)
        if step.tables is not None:
            self.metrics.paired(snap.tournament.kind, time.perf_counter() - start)
        return step

    def commit(
        self, conn: sa.Connection, locked: Snapshot, planned_on: Snapshot, step: Step, now: float
    ) -> tuple[bool, Snapshot]:
        """Store ``step``, planned on ``planned_on``, under the tournament's row if it still
        holds on ``locked``, read under it (``steps.still_holds``); else nothing is stored, to
        plan again on ``locked``. Whether it was stored, and ``locked`` (with the stored
        tables)."""
        if not still_holds(step, planned_on, locked):
            return False, locked
        self._store(conn, locked, step, now)
        return True, locked

    def step(self, conn: sa.Connection, snap: Snapshot, now: float) -> Snapshot:
        """The step planned and stored under the tournament's row, on what was read under it
        (``TournamentStore.step`` calls it): when the row keeps changing under the plans made
        outside it, and in tests that take a step at a chosen moment. ``snap`` with the
        stored tables."""
        self._store(conn, snap, plan(snap, now), now)
        return snap

    @staticmethod
    def _store(conn: sa.Connection, snap: Snapshot, step: Step, now: float) -> None:
        if step.status is not None:
            set_tournament_status(conn, snap.tournament, step.status, now)
        if step.tables is not None:
            store_round(conn, snap, step.tables, step.byes, new_game_id)

    async def _make_games(self, snap: Snapshot) -> None:
        """Make the games of the tables paired and not made yet, ``MAKING`` at once (a wave of
        32 pairs made one after another kept its last pair waiting 1.5 s on a busy machine),
        each told to its players as soon as it is made, from a board drawn at random
        (``making_order``), each only if this process claims its table (``_make_game``)."""
        boards = making_order([board for board in snap.boards if not board.made], self.rng)
        if not boards:
            return
        gate = asyncio.Semaphore(MAKING)

        async def make(board: Board) -> None:
            async with gate:
                await self._make_game(snap, board)

        outcomes = await asyncio.gather(*(make(b) for b in boards), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome

    async def _make_game(self, snap: Snapshot, board: Board) -> None:
        """Make one table's game if this process claims the table (else another is making it,
        or made it since ``snap`` was read, and this one leaves it: no insert tried twice)."""
        tournament = snap.tournament
        claimed = await claim(self.db, tournament.id, board.round, board.board, self.now(), HOLD)
        if not claimed:
            return
        if await self.games.still_playing([board.game_id]):
            # Made by a process that did not mark it made (its claim expired: it died, or took
            # longer than ``HOLD``): marked made here, as that process would have.
            await mark_made(self.db, tournament.id, board.round, board.board)
            return
        control = control_of(tournament.clock)
        assert control is not None
        players = list(board.table.players)
        options = options_for(tournament.options, len(players))
        try:
            _, tokens = await self.maker.seat(
                Door.TOURNAMENT,
                tournament.game,
                options,
                players,
                rated=tournament.rated,
                clock=control,
                game_id=board.game_id,
                bots=tournament.bots,
            )
        except ApiError as exc:  # the game cannot be made (its options no longer load)
            log.error("tournament %s: game %s not made: %s", tournament.id, board.game_id, exc)
            return
        await mark_made(self.db, tournament.id, board.round, board.board)
        if tokens:  # made by this process now: told from here, once
            paired = TournamentPaired(tournament.id, ((board.game_id, tuple(players)),))
            await self.bus.publish(paired)
