"""The tournaments' API, what the pages and the other domains ask for: creating one (its plan
checked whole: ``plans.py``), entering, pausing and withdrawing, what the pages list and show,
and the step every process takes (``director.py``, reached through ``tick`` and ``advance``).

**Who may play.** Entering is the admission rule's tournament door (``admission/``): a bot in a
people's tournament, or a second account of one person in a rated one, is refused. An account
that becomes a bot or is deleted later is withdrawn from what it entered (``BecameBot``,
``AccountClosed``; a deleted one is shown as a deleted player) and never paired again."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Engine

from boardplay.web.accounts import DELETED_NAME, Account, Accounts
from boardplay.web.admission import Door, Seating
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.chat import Silenced
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError, conflict, not_found
from boardplay.web.events import AccountClosed, BecameBot, Bus
from boardplay.web.metrics import Metrics
from boardplay.web.ratings import NEW_RATING, Ratings, pool_of
from boardplay.web.table import GameMaker, Games
from boardplay.web.text import tidy
from boardplay.web.tournaments import arena, pods
from boardplay.web.tournaments.director import TICK, Director
from boardplay.web.tournaments.listing import (
    LIST_TTL,
    Page,
    PageCache,
    check_list,
    parse_cursor,
    read_page,
)
from boardplay.web.tournaments.model import (
    ACTIVE,
    CREATED,
    DONE,
    PAUSED,
    STARTED,
    WITHDRAWN,
    Entrant,
    Full,
    Snapshot,
    Tournament,
)
from boardplay.web.tournaments.paging import FRESH, Built, Views, page_answer
from boardplay.web.tournaments.plans import Plan, check_plan, options_for
from boardplay.web.tournaments.records import BYE_HALVES
from boardplay.web.tournaments.standings import standings
from boardplay.web.tournaments.store import TournamentStore
from boardplay.web.tournaments.talk import Hidden, Talk

FINISHED_LISTED = 10
"""Finished tournaments the list shows under the upcoming and running ones."""


class Tournaments:
    """The tournaments of one process (each call may run on any process)."""

    interval = TICK
    """Seconds between this process's ticks (the wiring's periodic task)."""

    def __init__(
        self,
        engine: Engine,
        db: StorageThreads,
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
        metrics: Metrics | None = None,
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
        self.director = Director(
            self.store, db, maker, games, bus, lambda: self.now(), metrics or Metrics()
        )
        """The step every process takes on every tournament (``director.py``)."""
        self.views = Views()
        """The views this process built lately, by revision (``paging.py``)."""
        self.pages = PageCache()
        """The list's pages this process sent lately (``listing.py``)."""
        self.director.stepped = lambda _id: self.pages.clear()
        bus.subscribe(AccountClosed, self._account_closed)
        bus.subscribe(BecameBot, self._became_bot)

    # ----- what people ask for ------------------------------------------------------------
    async def create(self, creator: Account, plan: Plan) -> Tournament:
        """A new tournament, checked whole (400 naming the problem) before it is stored."""
        options, control = check_plan(plan, self.catalogue, self.limits, self.now())
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
        self.pages.clear()
        return tournament

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
        self.pages.clear()  # its count of players
        self.views.changed(tournament_id)

    async def withdraw(self, tournament_id: str, account: Account) -> None:
        await self._set(tournament_id, account, WITHDRAWN)

    async def pause(self, tournament_id: str, account: Account) -> None:
        """An arena player takes a break: paired no more until they join again."""
        await self._set(tournament_id, account, PAUSED)

    async def _set(self, tournament_id: str, account: Account, status: str) -> None:
        await self._get(tournament_id)
        if not await self.db(self.store.set_status, tournament_id, account.id, status):
            raise conflict("not_entered", "you are not in this tournament")
        self.pages.clear()
        self.views.changed(tournament_id)

    async def _account_closed(self, event: AccountClosed) -> None:
        """A deleted account leaves every tournament not over, shown as a deleted player."""
        await self.db(self.store.withdraw_everywhere, event.account_id, DELETED_NAME, False)
        self.pages.clear()

    async def _became_bot(self, event: BecameBot) -> None:
        """A new bot leaves the people's tournaments it had entered (those open to bots keep
        it)."""
        await self.db(self.store.withdraw_everywhere, event.account_id, None, True)
        self.pages.clear()

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
        each line of the standings; built once per revision on this process (``paging.py``:
        the answer is shared, never to be changed)."""
        return (await self.built(tournament_id)).view

    async def built(self, tournament_id: str, fresh: float = 0.0) -> Built:
        """The tournament's view at its revision, as this process last built it when that is
        still the revision (one row read to know) or was built less than ``fresh`` seconds ago;
        else built now and kept (404 for no such tournament)."""
        now = self.now()
        latest = self.views.latest(tournament_id)
        if latest is not None and now - latest.at < fresh:
            return latest
        revision = await self.db(self.store.revision, tournament_id)
        if revision is None:
            raise not_found("tournament")
        if latest is not None and latest.revision == revision:
            latest.at = now  # checked: as good as built now
            return latest
        snap = await self._snapshot(tournament_id)
        view = describe(snap)
        found = await self.accounts.by_ids([e.account_id for e in snap.entrants])
        bots = sorted(e.name for e in snap.entrants if (a := found.get(e.account_id)) and a.bot)
        for line in view["standings"]:
            line["bot"] = line["name"] in bots
        view["bots"] = bots
        # The revision the view shows: a page that fetched its view and a standings page side by
        # side can find them at two revisions, and asks for the view again until they agree.
        view["revision"] = snap.tournament.revision
        return self.views.keep(tournament_id, Built(snap.tournament.revision, view, now))

    async def standings_page(
        self, tournament_id: str, page: int | None, since: int | None, player: int | None
    ) -> dict[str, Any]:
        """A page of the standings (``paging.page_answer``; ``page`` None: ``player``'s), or
        with ``since`` (the revision the client shows) only the lines of the page that changed,
        or ``unchanged``. A poll (``since``) is answered from this process's view for up to
        ``FRESH`` seconds, so a tournament of a thousand is ranked at most once a second here;
        a first read (a page opened, another page asked for) checks the revision."""
        built = await self.built(tournament_id, 0.0 if since is None else FRESH)
        if since == built.revision:
            return {"revision": since, "since": since, "unchanged": True}
        before = None if since is None else self.views.at(tournament_id, since)
        return page_answer(built, page, player, before)

    async def _snapshot(self, tournament_id: str) -> Snapshot:
        try:
            snap: Snapshot = await self.db(self.store.snapshot, tournament_id)
        except LookupError:
            raise not_found("tournament") from None
        return snap

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """The tournament, its standings, players and rounds, as the page shows them."""
        return describe(await self._snapshot(tournament_id))

    async def page(self, status: str, cursor: str | None, limit: int, site: bool) -> Page:
        """A page of the list (``listing.py``): ``tournaments`` and the ``next`` cursor; for
        the ``site``'s pages each with its ``players``, and on the first page of the open ones
        the last ones ``finished``, with their winners. Read once per ``LIST_TTL`` seconds on
        this process (sooner when it changed the list itself)."""
        statuses, latest = check_list(status, limit)
        after = None if cursor is None else parse_cursor(cursor)
        key = (site, status, cursor, limit)
        now = self.now()
        cached = self.pages.get(key, now)
        if cached is not None:
            return cached
        generation = self.pages.generation
        engine = self.store.engine
        found, following = await self.db(read_page, engine, statuses, latest, after, limit)
        listed = [t.to_json() for t in found]
        answer: dict[str, Any] = {"tournaments": listed, "next": following}
        if site:
            first = cursor is None and status == "open"
            finished = await self.finished_lately() if first else []
            shown = (*listed, *finished)
            counts = await self.db(self.store.player_counts, [t["id"] for t in shown])
            for tournament in shown:
                tournament["players"] = counts.get(tournament["id"], 0)
            if first:
                answer["finished"] = finished
        made = Page.of(answer, now + LIST_TTL)
        self.pages.put(key, made, now, generation)
        return made

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

    # ----- the step every process takes (``director.py``) ---------------------------------
    async def tick(self) -> None:
        """Advance every tournament that has work (``Director.tick``)."""
        await self.director.tick()

    async def advance(self, tournament_id: str) -> None:
        """One tournament's step (``Director.advance``)."""
        await self.director.advance(tournament_id)

    async def ends_told(self) -> None:
        """Wait until the steps set off by the games ended so far are done (tests)."""
        await self.director.ends_told()

    async def close(self) -> None:
        await self.director.close()


def describe(snap: Snapshot) -> dict[str, Any]:
    """A tournament as JSON: its settings, standings (with names and status), rounds, and once
    it has finished its ``winner``: the name first in its final standings (None before, or if
    nobody played), what its page and the list of those finished lately say."""
    tournament = snap.tournament
    names = {e.account_id: e.name for e in snap.entrants}
    statuses = {e.account_id: e.status for e in snap.entrants}
    lines: list[dict[str, Any]]
    if tournament.kind == "arena":
        kept = arena.kept_of(snap.settled)
        lines = [dict(line.to_json()) for line in arena.standings(snap.seeds, snap.tables, kept)]
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
