"""The game maker's doors: every way a game is made or a seat taken (``admission.Door``),
each asking the one admission rule before it stores anything. A created game, a seat joined, a
game the lobby or a tournament seats, a rematch: each builds its row the one way
(``newgame.py``), is counted against the ceilings on games made in the transaction that stores
it (``quotas.py``), and tells who follows its players that it began (``GameStarted``)."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from boardplay.core.game import Game
from boardplay.web.accounts import Account
from boardplay.web.admission import Admission, Door, Seating
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.errors import bad_request, conflict, sign_in_needed
from boardplay.web.events import Bus, GameStarted
from boardplay.web.metrics import Metrics
from boardplay.web.ratings import check_rated_clock
from boardplay.web.table import storage as st
from boardplay.web.table.clocks import ARRIVAL_GRACE, TimeControl
from boardplay.web.table.newgame import check_rated_seats, check_spec, new_row, seat_row
from boardplay.web.table.offers import RematchAnswer, rematch
from boardplay.web.table.quotas import QUOTA_WINDOW, games_ceiling, insert_counted, too_many
from boardplay.web.table.rooms import Room
from boardplay.web.table.schema import NAME_LENGTH, games_table
from boardplay.web.table.schemas import JoinRequest
from boardplay.web.table.seating import join
from boardplay.web.throttles import Throttled, Throttles
from boardplay.web.tokens import hash_token, new_game_id, new_token

log = logging.getLogger("boardplay.web")


class GameMaker:
    """Makes games and seats players, for every door (``admission.Door``): the only code that
    stores a new game or puts a player in a seat, so each asks the one admission rule
    (``admission/``) before it does (``Hub.maker``)."""

    def __init__(
        self,
        catalogue: WebCatalogue,
        limits: Limits,
        storage: st.Storage,
        throttles: Throttles,
        db: Runner,
        room: Callable[[str], Awaitable[Room]],
        made: Callable[[st.GameRow], Awaitable[Room]],
        admission: Admission,
        bus: Bus,
        now: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
    ) -> None:
        self.now = now
        self.metrics = metrics or Metrics()
        """The operator's series: games made are counted here, their one maker."""
        """The server's time (``Hub.now``): when a held clock's grace ends."""
        self.catalogue = catalogue
        self.bus = bus
        self.limits = limits
        self.storage = storage
        self.throttles = throttles
        self.db = db
        self.room = room
        self.made = made
        """The room of a game this process has just stored (``House.made``: not read back)."""
        self.admission = admission

    async def admit(self, seating: Seating) -> list[Account]:
        """The admission rule for ``seating`` (the accounts, read now; else the refusal): a
        maker that must refuse before it changes anything (the lobby, before it takes a seek)
        asks here first, and the maker's own step asks again."""
        return (await self.admission.judge(seating)).admitted()

    async def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        reproducible: bool = False,
        seed: int | None = None,
        private: bool = False,
        owner: str | None = None,
        account: Account | None = None,
        rated: bool = False,
        clock: TimeControl | None = None,
        network: str | None = None,
    ) -> tuple[Room, str, dict[int, str]]:
        """A new game (``Door.GAME``); returns the room, the creator's token and invitation codes
        by seat. Chance is the server's secret unless ``reproducible`` (then ``seed``, or one drawn
        here, is shown to everyone and every joining player must accept it). A ``private`` game is
        left out of the lobby's lists. The creator's seat is ``account``'s when signed in; a
        ``rated`` game needs that, signed-in players in every other seat (``ratings/rated.py``) and
        a ``clock``, so that no player can hold it hostage by not moving. It counts against
        ``owner``'s games of the hour and, played by AIs alone, against the AI-only games running
        for its owner's address, ``network`` and ``account`` and on the whole server, all in the
        transaction that stores it (``insert_counted``)."""
        if seed is not None and not reproducible:
            raise bad_request(
                "field 'seed' is only for reproducible games (add reproducible: true; every "
                "player then sees the seed and must accept it); other games' luck is drawn "
                "by the server"
            )
        game = self.catalogue.build(game_name, options)
        # An option that fixes what chance would decide is a chosen seed by another name: the
        # game is labelled reproducible and every joining player must agree to it.
        reproducible = reproducible or any(
            spec.fixes_chance and game.options[spec.name] != spec.default
            for spec in game.option_set.specs
        )
        if rated:
            if account is None:
                raise sign_in_needed("create a rated game")
            check_rated_seats(seats, reproducible, private)
            check_rated_clock(clock)
            if clock is None:
                raise bad_request(
                    "a rated game needs a clock (field 'clock': {'base': seconds, 'increment': "
                    "seconds} or {'days': n}), so that nobody can stall it; untimed games are "
                    "casual"
                )
        if reproducible and seed is None:
            seed = secrets.randbelow(2**63)
        if len(seats) != game.num_players:
            raise bad_request(f"{game_name} with these options needs {game.num_players} seats")
        if account is not None:
            await self.admit(Seating(Door.GAME, [account.id], rated))
        token = new_token()
        invites: dict[int, str] = {}
        rows: list[st.SeatRow] = []
        for index, seat in enumerate(seats):
            rows.append(seat_row(game, index, seat, token, invites, self.limits))
            if account is not None and rows[-1].kind in (st.HUMAN, st.HOTSEAT):
                # Hotseat seats are the same table's: the account takes them to its other
                # devices too (a profile leaves such games out of its results: no contest).
                rows[-1].account = account.id
                if rows[-1].kind == st.HUMAN:
                    rows[-1].name = account.name
        row = new_row(
            new_game_id(),
            game,
            rows,
            clock,
            seed=seed,
            private=private,
            owner=owner,
            owner_network=network,
            owner_account=None if account is None else account.id,
            rated=rated,
        )
        await self.db(self._insert, row)
        self._made(row)
        room = await self.room(row.id)
        await self.started(room.row)
        return room, token, invites

    async def join(
        self,
        room: Room,
        request: JoinRequest,
        account: Account | None,
        visitor: str | None = None,
    ) -> tuple[str, int]:
        """Take a seat of a created game (``Door.GAME``): an invited one with its code, else an
        open one (``seating.join``), once the rule admits the player beside those seated."""
        if account is not None:
            seated = [s.account for s in room.row.seats if s.account is not None]
            players = [*dict.fromkeys([*seated, account.id])]
            await self.admit(Seating(Door.GAME, players, room.row.rated, account.id, visitor))
        taken = await join(room, request, account)
        await self.started(room.row)
        return taken

    async def seat(
        self,
        door: Door,
        game_name: str,
        options: Mapping[str, Any],
        players: Sequence[int],
        *,
        rated: bool,
        clock: TimeControl | None,
        owner: str | None = None,
        newcomer: int | None = None,
        visitor: str | None = None,
        game_id: str | None = None,
        bots: bool = False,
        new_id: str | None = None,
        counted: bool = True,
    ) -> tuple[Room, list[str]]:
        """Make a game with every seat already its player's (``players``: accounts in seat
        order, named as they are now) and start its clock: a game the lobby starts for the
        players of an offer (``newcomer`` the one whose request starts it, from ``visitor``),
        or a tournament for its table. Returns the room and each seat's token (the players'
        pages may also ask for their own: ``POST /api/account/games/{id}/token``).
        ``owner``'s games of the hour count it (None: nobody's, a tournament's; ``counted``
        False: a challenge's, counted when it was sent). With
        ``game_id`` (chosen before, by a tournament's pairing) it is made at most once
        whoever asks: a second attempt finds the row and makes nothing (no tokens then).
        With ``new_id`` (a challenge's id, which lichess's clients take for the game's) the game
        is made under that id as any other, or refused (409) if one has it already.

        A tournament's game holds its clock for its players (``clocks.py``): the pairing comes
        while they may still be reading how their last game ended, and the page moves them on a
        few seconds later, so no clock runs until each has come to the table, or
        ``ARRIVAL_GRACE`` has passed. The lobby's games start at once: their players asked for
        them that moment.

        A tournament's table cannot be refused (its round would wait for ever): a table the
        rule refuses is made casual instead, and logged; entering was the tournament's door,
        and refused what it could then."""
        game = self.catalogue.build(game_name, options)
        if len(players) != game.num_players:
            raise bad_request(f"{game_name} with these options needs {game.num_players} seats")
        if rated:
            check_rated_clock(clock)
        verdict = await self.admission.judge(Seating(door, players, rated, newcomer, visitor, bots))
        refusal = verdict.refusal
        if refusal is not None:
            if door != Door.TOURNAMENT or refusal.code == "player_gone":
                raise refusal
            log.warning("tournament game %s made casual: %s", game_id, refusal.message)
            rated = False
        tokens = [new_token() for _ in players]
        seats = [
            st.SeatRow(
                index,
                st.HUMAN,
                player.name[:NAME_LENGTH],
                token_hash=hash_token(token),
                account=player.id,
                bot=player.bot,
            )
            for index, (player, token) in enumerate(zip(verdict.accounts, tokens, strict=True))
        ]
        start_by = self.now() + ARRIVAL_GRACE if door == Door.TOURNAMENT else None
        row = new_row(
            game_id or new_id or new_game_id(),
            game,
            seats,
            clock,
            owner=owner,
            rated=rated,
            start_by=start_by,
        )
        if game_id is None:
            try:
                await self.db(self._insert, row, counted)
            except sa.exc.IntegrityError:
                raise conflict("game_exists", f"a game {row.id} exists already") from None
        elif not await self.db(self._insert_once, row):
            # Made by another attempt: read as it is now (``settle`` started its clock).
            return await self.room(row.id), []
        self._made(row)
        room = await self.made(row)  # stored just now, as it is; ``Room.settle`` starts its clock
        await self.started(row)
        return room, tokens

    async def rematch(
        self,
        room: Room,
        token: str | None,
        owner: str | None = None,
        answer: RematchAnswer = "offer",
    ) -> tuple[str | None, dict[int, str]]:
        """Play again (``offers.rematch``, ``Door.REMATCH``): the new game counts against
        ``owner``'s games of the hour, and its players are admitted, before it is stored."""

        made: list[st.GameRow] = []

        async def admit(row: st.GameRow) -> None:
            players = [s.account for s in row.seats if s.account is not None]
            await self.admit(Seating(Door.REMATCH, [*dict.fromkeys(players)], row.rated))
            await self.take_quota(owner)
            made.append(row)

        answered = await rematch(room, admit, token, owner, answer)
        if made and answered[0] == made[-1].id:  # this request started it
            self._made(made[-1])
            await self.started(made[-1])
        return answered

    async def started(self, row: st.GameRow) -> None:
        """Tell whoever hears it (``GameStarted``: the players' followers) that ``row``'s game
        began, once its last seat a person needed is taken; nothing while one waits."""
        if any(s.kind in (st.OPEN, st.INVITE) and not s.claimed for s in row.seats):
            return
        players = tuple(dict.fromkeys(s.account for s in row.seats if s.account is not None))
        if players:
            await self.bus.publish(GameStarted(row.id, players, not row.private))

    def _made(self, row: st.GameRow) -> None:
        """``row``'s game was stored by this process: counted once, whichever door made it."""
        self.metrics.game(row.game).created.inc()

    def _insert_once(self, row: st.GameRow) -> bool:
        try:
            with self.storage.engine.begin() as conn:
                st.insert_game(conn, row)
        except sa.exc.IntegrityError:
            with self.storage.engine.connect() as conn:
                found = conn.execute(
                    sa.select(games_table.c.id).where(games_table.c.id == row.id)
                ).first()
            if found is None:
                raise
            return False
        return True

    def _insert(self, row: st.GameRow, counted: bool = True) -> None:
        try:
            insert_counted(self.storage.engine, row, self.limits, counted)
        except Throttled as exc:
            raise too_many(exc, self.limits) from None

    async def check_quota(self, owner: str | None) -> None:
        """429 if ``owner`` has made its hour's share of games already (a look, counting
        nothing: asked before a lobby's seek is taken, whose game is then counted when made)."""
        if owner is None:
            return
        ceiling = games_ceiling(owner, self.limits)
        made = await self.db(self.throttles.count, ceiling.key)
        if made >= ceiling.most:
            raise too_many(Throttled(ceiling, QUOTA_WINDOW), self.limits)

    async def take_quota(self, owner: str | None) -> None:
        """Count one game of ``owner``'s hour ("play again"), or 429."""
        if owner is None:
            return
        try:
            await self.db(self.throttles.take, [games_ceiling(owner, self.limits)])
        except Throttled as exc:
            raise too_many(exc, self.limits) from None

    def check_spec(self, game: Game, spec: str, field: str) -> None:
        """Refuse an AI spec this server's ceilings do not allow (``newgame.check_spec``): a
        created AI seat's, or a level the pages offer."""
        check_spec(game, spec, field, self.limits)
