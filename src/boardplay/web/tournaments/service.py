"""Running tournaments: creating one, entering, pausing and withdrawing, and the step every
process takes on every tournament that has work (``advance``): start it at its start time, copy
the results of its games that ended, pair its next round or arena wave, make the games of its
tables, and finish it.

Why it works as it does:

- **No process owns a tournament.** Every process's periodic ``tick`` advances every tournament
  that has work, and a step is one transaction that holds the tournament's row
  (``store.TournamentStore.step``): two processes pairing one round at once are one after the
  other, and the second finds the round paired (its stored round counter moved: ``StepLost``,
  or a round with unfinished games). A process that dies at any point leaves either nothing of
  a step or all of it, and the next process's tick carries on from there.
- **A pairing is never lost or made twice.** Each table's game id is drawn when it is paired and
  stored with it; the game is made afterwards under that id (the table's ``GameMaker.seat``,
  through the tournament's door of the admission rule), so a crash between pairing and making
  only delays the game to the next tick, and two processes making it at once make one game.
  The players hear of their games from the lobby, which hears ``TournamentPaired``.
- **Who may play.** Entering is the admission rule's tournament door (``admission/``): a bot
  in a people's tournament, or a second account of one person in a rated one, is refused. An
  account that becomes a bot or is deleted later is withdrawn from what it entered
  (``BecameBot``, ``AccountClosed``; a deleted one is shown as a deleted player) and never
  paired again.
- **Results come from the games.** A tournament game is an ordinary game of the table domain,
  on the tournament's clock, rated or casual; when it ends, the next step copies each seat's
  place (the ratings' reading of its result) into the tournament's table, once. The ratings
  settle a rated tournament game as they settle any rated game, once (``ratings.Settlement``):
  the tournament does not rate. ``GameFinished`` is the fast path for a process that sees games
  end; the tick is what guarantees it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.engine import Engine

from boardplay.web.accounts import DELETED_NAME, Account, Accounts
from boardplay.web.admission import Door, Seating
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.chat import Silenced
from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.errors import ApiError, bad_request, conflict, not_found
from boardplay.web.events import AccountClosed, BecameBot, Bus, GameFinished, TournamentPaired
from boardplay.web.ratings import NEW_RATING, Ratings, check_rated_clock, pool_of
from boardplay.web.table import ClockRequest, GameMaker, Games, TimeControl, control_of
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.text import tidy
from boardplay.web.tokens import new_game_id
from boardplay.web.tournaments import arena, pods
from boardplay.web.tournaments.model import (
    ACTIVE,
    CREATED,
    DONE,
    KINDS,
    PAUSED,
    STARTED,
    WITHDRAWN,
    Board,
    Entrant,
    Full,
    Snapshot,
    StepLost,
    Tournament,
)
from boardplay.web.tournaments.records import BYE_HALVES
from boardplay.web.tournaments.standings import standings
from boardplay.web.tournaments.steps import plan
from boardplay.web.tournaments.store import TournamentStore, set_tournament_status, store_round
from boardplay.web.tournaments.talk import Hidden, Talk

log = logging.getLogger("boardplay.web")

TICK = 2.0
"""Seconds between a process's looks at the tournaments that have work."""
MAKING = 4
"""Games of one wave or round one step makes at once (within the storage's threads)."""
DAY = 86400.0
FINISHED_LISTED = 10
"""Finished tournaments the list shows under the upcoming and running ones."""


@dataclass(frozen=True)
class Plan:
    """A tournament asked for (``api/tournaments.py`` reads it from the request)."""

    name: str
    kind: str
    game: str
    options: Mapping[str, Any]
    sizes: Sequence[int]
    clock: Mapping[str, Any]
    rated: bool
    starts: float
    minutes: int | None = None
    rounds: int | None = None
    bots: bool = False


class Tournaments:
    """The tournaments of one process (each call may run on any process)."""

    interval = TICK
    """Seconds between this process's ticks (the wiring's periodic task)."""

    def __init__(
        self,
        engine: Engine,
        db: Runner,
        maker: GameMaker,
        catalogue: WebCatalogue,
        bus: Bus,
        accounts: Accounts,
        games: Games,
        ratings: Ratings | None = None,
        now: Callable[[], float] = time.time,
        limits: Limits | None = None,
        silenced: Silenced | None = None,
        hidden: Hidden | None = None,
    ) -> None:
        self.store = TournamentStore(engine)
        self.limits = limits or Limits()
        """The operator's ceilings (``config.Limits``: ``tournaments_per_account``,
        ``tournament_players``, ``tournament_rounds``, ``tournament_minutes``,
        ``tournament_lead_days``)."""
        self.db = db
        self.maker = maker
        self.catalogue = catalogue
        self.bus = bus
        self.accounts = accounts
        self.games = games
        self.ratings = ratings
        self.now = now
        self.talk = Talk(engine, db, self.limits, lambda: self.now(), silenced, hidden)
        """The tournaments' chat (``talk.py``)."""
        self._winners: dict[str, str | None] = {}
        """The winners of the tournaments listed as finished (their standings no longer
        change), so that a list's poll does not read their standings each time."""
        self._advancing: set[asyncio.Task[None]] = set()
        bus.subscribe(GameFinished, self._game_finished)
        bus.subscribe(AccountClosed, self._account_closed)
        bus.subscribe(BecameBot, self._became_bot)

    # ----- what people ask for ------------------------------------------------------------
    async def create(self, creator: Account, plan: Plan) -> Tournament:
        """A new tournament, checked whole (400 naming the problem) before it is stored."""
        options, control = self._check(plan)
        tournament = Tournament(
            id=secrets.token_urlsafe(9),
            name=tidy(plan.name)[:80] or f"{plan.game} {plan.kind}",
            kind=plan.kind,
            game=plan.game,
            options=options,
            sizes=sorted(set(plan.sizes)),
            clock=control.to_json(),
            rated=plan.rated,
            starts=plan.starts,
            minutes=plan.minutes,
            rounds=plan.rounds,
            status=CREATED,
            round=0,
            creator=creator.id,
            created=self.now(),
            bots=plan.bots,
        )
        most = self.limits.tournaments_per_account
        try:
            await self.db(self.store.create, tournament, most)
        except Full:
            raise ApiError(
                429,
                "too_many_tournaments",
                f"you have {most} tournaments upcoming or running, the most one "
                "account may hold: let one finish first",
            ) from None
        return tournament

    def _check(self, plan: Plan) -> tuple[dict[str, Any], TimeControl]:
        if plan.kind not in KINDS:
            raise bad_request(f"kind must be one of {', '.join(KINDS)}")
        sizes = sorted(set(plan.sizes))
        if not sizes or any(not 2 <= s <= 4 for s in sizes):
            raise bad_request("sizes: the players at one table, each 2, 3 or 4")
        if plan.kind != "pods" and sizes != [2]:
            raise bad_request(f"an {plan.kind} is for games of two (sizes [2]); pods seat 3-4")
        options = dict(self.catalogue.build(plan.game, plan.options).options)
        for size in sizes:
            game = self.catalogue.build(plan.game, options_for(options, size))
            if game.num_players != size:
                raise bad_request(f"{plan.game} with these options is not a game of {size}")
        try:
            control = ClockRequest.model_validate(dict(plan.clock)).control()
        except ValidationError as exc:
            raise bad_request(f"clock: {exc.errors()[0]['msg']}") from None
        if control is None:
            raise bad_request("every tournament game is on the clock: give clock")
        if plan.rated:
            try:
                check_rated_clock(control)
            except ApiError as exc:  # its own code, so that the page can word it
                raise ApiError(400, "rated_clock_too_short", exc.message) from None
            if plan.bots:
                raise ApiError(
                    400,
                    "rated_with_bots",
                    "a tournament open to bots is casual: bots play rated games against people "
                    "through challenges only",
                )
        now, limits = self.now(), self.limits
        days = limits.tournament_lead_days
        if not now - 60 <= plan.starts <= now + days * DAY:
            raise ApiError(
                400,
                "bad_start",
                f"starts: a time from now to {days:g} days ahead (seconds since 1970)",
            )
        if plan.kind == "arena":
            minutes = limits.tournament_minutes
            if plan.minutes is None or not 1 <= plan.minutes <= minutes:
                raise ApiError(400, "bad_length", f"an arena lasts minutes: 1 to {minutes}")
        elif plan.rounds is None or not 1 <= plan.rounds <= limits.tournament_rounds:
            raise ApiError(
                400, "bad_length", f"a {plan.kind} has rounds: 1 to {limits.tournament_rounds}"
            )
        return options, control

    async def join(self, tournament_id: str, account: Account, visitor: str | None = None) -> None:
        """Enter (or come back: from a pause or a withdrawal); 409 once it is over. The
        admission rule's tournament door decides who may (``admission/``): the newcomer beside
        every player entered and not withdrawn."""
        tournament = await self._get(tournament_id)
        others = await self.db(self.store.entered, tournament_id)
        players = [account.id, *(p for p in others if p != account.id)]
        await self.maker.admit(
            Seating(
                Door.TOURNAMENT, players, tournament.rated, account.id, visitor, tournament.bots
            )
        )
        rating = await self._rating(account.id, tournament)
        entrant = Entrant(account.id, account.name, rating, self.now(), ACTIVE)
        most = self.limits.tournament_players
        try:
            await self.db(self.store.enter, tournament_id, entrant, most)
        except LookupError:
            raise conflict("tournament_over", "this tournament is over") from None
        except Full:
            raise conflict(
                "tournament_full", f"this tournament has {most} players, the most it takes"
            ) from None

    async def withdraw(self, tournament_id: str, account: Account) -> None:
        await self._set(tournament_id, account, WITHDRAWN)

    async def pause(self, tournament_id: str, account: Account) -> None:
        """An arena player takes a break: paired no more until they join again."""
        await self._set(tournament_id, account, PAUSED)

    async def _set(self, tournament_id: str, account: Account, status: str) -> None:
        await self._get(tournament_id)
        if not await self.db(self.store.set_status, tournament_id, account.id, status):
            raise conflict("not_entered", "you are not in this tournament")

    async def _get(self, tournament_id: str) -> Tournament:
        found: Tournament | None = await self.db(self.store.get, tournament_id)
        if found is None:
            raise not_found("tournament")
        return found

    async def _rating(self, account_id: int, tournament: Tournament) -> float:
        if self.ratings is None:
            return NEW_RATING
        size = max(tournament.sizes)
        pool = pool_of(tournament.game, options_for(tournament.options, size), size)
        return await self.ratings.rating(account_id, pool)

    async def for_pages(self, game: str | None = None) -> dict[str, Any]:
        """What the tournaments page lists: upcoming and running tournaments and (``finished``)
        the last ones finished, each with its ``players``; with ``game``, the tournament that
        game was paired in, whatever its state (the game page's link back to it)."""
        if game is not None:
            ids = await self.db(self.store.tournaments_of, [game])
            return {"tournaments": [(await self.view(tid))["tournament"] for tid in ids[:1]]}
        found = await self.listed()
        finished = await self.finished_lately()
        counts = await self.db(self.store.player_counts, [t["id"] for t in (*found, *finished)])
        for tournament in (*found, *finished):
            tournament["players"] = counts.get(tournament["id"], 0)
        return {"tournaments": found, "finished": finished}

    async def playing_in(self, account_ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """Each account's running tournament, if it plays in one: (its id, its name)."""
        found: dict[int, tuple[str, str]] = await self.db(self.store.running_entries, account_ids)
        return found

    async def view_with_bots(self, tournament_id: str) -> dict[str, Any]:
        """``view``, with ``bots``: the names of its bot players (as entered), and ``bot`` on
        each line of the standings."""
        snap: Snapshot = await self._snapshot(tournament_id)
        view = describe(snap)
        found = await self.accounts.by_ids([e.account_id for e in snap.entrants])
        bots = sorted(e.name for e in snap.entrants if (a := found.get(e.account_id)) and a.bot)
        for line in view["standings"]:
            line["bot"] = line["name"] in bots
        view["bots"] = bots
        return view

    async def _snapshot(self, tournament_id: str) -> Snapshot:
        try:
            snap: Snapshot = await self.db(self.store.snapshot, tournament_id)
        except LookupError:
            raise not_found("tournament") from None
        return snap

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """The tournament, its standings, players and rounds, as the page shows them."""
        return describe(await self._snapshot(tournament_id))

    async def listed(self) -> list[dict[str, Any]]:
        """Upcoming and running tournaments, soonest first (the lobby's list)."""
        found = await self.db(self.store.listed, [CREATED, STARTED])
        return [t.to_json() for t in found]

    async def finished_lately(self, most: int = FINISHED_LISTED) -> list[dict[str, Any]]:
        """The ``most`` tournaments finished last, latest first, each with its ``winner``
        (``describe``'s)."""
        found = await self.db(self.store.listed, [DONE], most, True)
        winners = {}
        for tournament in found:
            if tournament.id in self._winners:
                winners[tournament.id] = self._winners[tournament.id]
                continue
            winners[tournament.id] = (await self.view(tournament.id))["winner"]
        self._winners = winners  # only those still listed are kept
        return [{**t.to_json(), "winner": winners[t.id]} for t in found]

    # ----- the step every process takes ---------------------------------------------------
    async def tick(self) -> None:
        """Advance every tournament that has work (each on its own: one's trouble is logged
        and the others go on)."""
        for tournament_id in await self.db(self.store.due, self.now()):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not advance; the next tick tries", tournament_id)

    async def games_ended(self, game_ids: Sequence[str]) -> None:
        """Games ended: advance the tournaments they belong to now rather than at the next
        tick (any game id may be given; those of no tournament are ignored)."""
        for tournament_id in await self.db(self.store.tournaments_of, list(game_ids)):
            await self.advance(tournament_id)

    async def _game_finished(self, event: GameFinished) -> None:
        """A game ended on this process: its tournament's next step (a next wave, the round's
        results) runs in a task of its own, so the request whose move ended the game does not
        wait for it. The tick is what guarantees the step; this is its fast path."""
        task = asyncio.get_running_loop().create_task(self._after_end(event.game_id))
        self._advancing.add(task)
        task.add_done_callback(self._advancing.discard)

    async def _after_end(self, game_id: str) -> None:
        try:
            await self.games_ended([game_id])
        except Exception:
            log.exception("the tournament of game %s could not advance; the tick tries", game_id)

    async def ends_told(self) -> None:
        """Wait until the steps set off by the games ended so far are done (tests)."""
        while self._advancing:
            await asyncio.gather(*list(self._advancing), return_exceptions=True)

    async def _account_closed(self, event: AccountClosed) -> None:
        """A deleted account leaves every tournament not over, shown as a deleted player."""
        await self.db(self.store.withdraw_everywhere, event.account_id, DELETED_NAME, False)

    async def _became_bot(self, event: BecameBot) -> None:
        """A new bot leaves the people's tournaments it had entered (those open to bots keep
        it)."""
        await self.db(self.store.withdraw_everywhere, event.account_id, None, True)

    async def close(self) -> None:
        await cancel_and_wait(self._advancing)

    async def advance(self, tournament_id: str) -> None:
        """One tournament's step: results in, then start, pair or finish (``steps.plan``; the
        row is taken only when there is something to do), then make the games not made."""
        now = self.now()
        playing = await self.db(self.store.playing, tournament_id)
        if playing:
            ended = await self.games.ended(playing)
            await self.db(self.store.record_results, tournament_id, ended, now)
        snap: Snapshot = await self.db(self.store.snapshot, tournament_id)
        if not plan(snap, now).idle:
            with contextlib.suppress(StepLost):  # another process took this step first
                await self.db(self.store.step, tournament_id, lambda c, s: self._step(c, s, now))
            snap = await self.db(self.store.snapshot, tournament_id)
        await self._make_games(snap)

    def _step(self, conn: sa.Connection, snap: Snapshot, now: float) -> None:
        """The step, under the tournament's row, on what was read under it."""
        step = plan(snap, now)
        if step.status is not None:
            set_tournament_status(conn, snap.tournament, step.status, now)
        if step.tables is not None:
            store_round(conn, snap, step.tables, step.byes, new_game_id)

    async def _make_games(self, snap: Snapshot) -> None:
        """Make the games of the tables paired and not made yet, ``MAKING`` at once (a wave of
        32 pairs made one after another kept its last pair waiting 1.5 s on a busy machine),
        each told to its players as soon as it is made."""
        boards = [board for board in snap.boards if not board.made]
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
        tournament = snap.tournament
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
        await self.db(self.store.mark_made, tournament.id, board.round, board.board)
        if tokens:  # made by this process now: told from here, once
            paired = TournamentPaired(tournament.id, ((board.game_id, tuple(players)),))
            await self.bus.publish(paired)


def options_for(options: Mapping[str, Any], size: int) -> dict[str, Any]:
    """A game's (canonical) options at a table of ``size``: a game that counts its players in
    an option (Montana's and Passtally's ``players``) gets it set."""
    chosen = dict(options)
    if "players" in chosen:
        chosen["players"] = size
    return chosen


def describe(snap: Snapshot) -> dict[str, Any]:
    """A tournament as JSON: its settings, standings (with names and status), rounds, and once
    it has finished its ``winner``: the name first in its final standings (None before, or if
    nobody played), what its page and the list of those finished lately say."""
    tournament = snap.tournament
    names = {e.account_id: e.name for e in snap.entrants}
    statuses = {e.account_id: e.status for e in snap.entrants}
    lines: list[dict[str, Any]]
    if tournament.kind == "arena":
        lines = [dict(line.to_json()) for line in arena.standings(snap.seeds, snap.tables)]
    else:
        bye = BYE_HALVES if tournament.kind == "swiss" else pods.bye_halves(tournament.sizes)
        lines = [dict(s.to_json()) for s in standings(snap.seeds, snap.tables, snap.byes, bye)]
    for line in lines:
        player = line["player"]
        line["name"] = names.get(player, "")
        line["status"] = statuses.get(player, "")
    rounds: dict[int, dict[str, Any]] = {}
    for board in snap.boards:
        entry = rounds.setdefault(board.round, {"round": board.round, "tables": [], "byes": []})
        entry["tables"].append(
            {
                "game": board.game_id,
                "players": [names.get(p, "") for p in board.table.players],
                "places": None if board.table.places is None else list(board.table.places),
            }
        )
    for given in snap.byes:
        entry = rounds.setdefault(given.round, {"round": given.round, "tables": [], "byes": []})
        entry["byes"].append(names.get(given.player, ""))
    return {
        "tournament": tournament.to_json(),
        "standings": lines,
        "rounds": [rounds[n] for n in sorted(rounds)],
        "winner": lines[0]["name"] if lines and tournament.status == DONE else None,
    }
