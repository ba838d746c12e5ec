"""Making a game within the operator's ceilings: its options and seats checked (AI specs within
the think-time and iteration ceilings, seat names that fit their columns, a seed only for games
everyone agrees to make reproducible, a rated game's rules), and what its maker may make.

**What a maker may make**, counted in the transaction that stores the game, so that a burst of
parallel requests on one process or several gets no more than the ceiling (the fourth attack
round found count-then-insert checks passed by bursts):

- games per hour per address (``Limits.games_per_visitor``; a "play again" counts too), a
  throttle row taken before the insert (``throttles.py``);
- games played by AIs alone running at once: ``ai_games_per_visitor`` per address, per network
  (an IPv4 /24, an IPv6 /48) and per signed-in account, and ``ai_only_games`` on the whole
  server, counted under one lock (PostgreSQL: a transaction advisory lock; SQLite has one
  writer). Each such game keeps an AI worker busy until it ends; with these ceilings and the
  worker slots kept for games with a person at the table (``workers/aiqueue.py``), many addresses
  cannot starve one visitor's instant AI."""

from __future__ import annotations

import logging
import math
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.ai.specs import make_agent
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game
from boardplay.web.accounts import Account
from boardplay.web.admission import Admission, Door, Seating
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.errors import ApiError, bad_request, quote, sign_in_needed
from boardplay.web.events import Bus, GameStarted
from boardplay.web.ratings import check_rated_clock
from boardplay.web.table import storage as st
from boardplay.web.table.clocks import ARRIVAL_GRACE, Clock, TimeControl
from boardplay.web.table.offers import RematchAnswer, rematch
from boardplay.web.table.rooms import Room
from boardplay.web.table.schema import NAME_LENGTH, SPEC_LENGTH, games_table
from boardplay.web.table.schemas import JoinRequest
from boardplay.web.table.seating import NAME_CHARS, join
from boardplay.web.text import tidy
from boardplay.web.throttles import Ceiling, Throttled, Throttles, take
from boardplay.web.tokens import hash_token, new_game_id, new_token

log = logging.getLogger("boardplay.web")

QUOTA_WINDOW = 3600.0
"""Seconds of the window of ``Limits.games_per_visitor``."""
AI_LOCK = zlib.crc32(b"boardplay-ai-only-games")
"""The advisory lock AI-only games are counted and stored under (PostgreSQL)."""


def games_ceiling(owner: str, limits: Limits) -> Ceiling:
    return Ceiling(f"games:{owner}", limits.games_per_visitor, QUOTA_WINDOW)


class TooManyAiGames(Throttled):
    """The AI-only games running for ``who`` are at their ceiling."""

    def __init__(self, who: str, running: int, most: int) -> None:
        super().__init__(Ceiling(f"ai-only:{who}", most, 0.0), 0.0)
        self.who = who
        self.running = running


def insert_counted(engine: Engine, row: st.GameRow, limits: Limits) -> None:
    """Store ``row`` as a new game in one transaction with its counts: its owner's games of the
    hour, and if AIs alone play it, the AI-only games running (``TooManyAiGames``); raises
    ``Throttled`` and stores nothing past a ceiling."""
    with engine.begin() as conn:
        if row.owner is not None:
            take(conn, [games_ceiling(row.owner, limits)], st.utc_now().timestamp())
        if row.ai_only:
            _count_ai_games(conn, row, limits)
        st.insert_game(conn, row)


def _count_ai_games(conn: sa.Connection, row: st.GameRow, limits: Limits) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(AI_LOCK)))
    table = games_table
    running = sa.and_(table.c.ai_only.is_(sa.true()), table.c.status == st.ACTIVE)
    counts = [
        ("address", table.c.owner, row.owner, limits.ai_games_per_visitor),
        ("network", table.c.owner_prefix, row.owner_network, limits.ai_games_per_visitor),
        ("account", table.c.owner_account, row.owner_account, limits.ai_games_per_visitor),
    ]
    for who, column, value, most in counts:
        if value is None:
            continue
        found = conn.execute(
            sa.select(sa.func.count()).where(running, column == value)
        ).scalar_one()
        if found >= most:
            raise TooManyAiGames(who, int(found), most)
    total = conn.execute(sa.select(sa.func.count()).where(running)).scalar_one()
    if total >= limits.ai_only_games:
        raise TooManyAiGames("server", int(total), limits.ai_only_games)


def new_row(
    game_id: str,
    game: Game,
    seats: list[st.SeatRow],
    clock: TimeControl | None,
    seed: int | None = None,
    start_by: float | None = None,
    **more: Any,
) -> st.GameRow:
    """A new game's row, whatever door made it: the game as built (its name, its options
    complete), its seats, and its clock, if it has one, with every seat's full time (held for
    every seat's player until ``start_by``, if given: ``clocks.py``); ``more``, the row's other
    fields (its owner, whether it is rated...)."""
    fresh = None if clock is None else Clock.fresh(clock, len(seats), start_by)
    return st.GameRow(
        id=game_id,
        game=game.name,
        options=dict(game.options),
        seed=seed,
        seats=seats,
        clock=None if clock is None else clock.to_json(),
        clock_state=None if fresh is None else fresh.to_json(),
        deadline=None if fresh is None else fresh.wake,
        **more,
    )


def check_rated_seats(
    seats: Sequence[Mapping[str, Any]], reproducible: bool, private: bool
) -> None:
    """A rated game's seats: the creator's ("me") and invited or open seats for other signed-in
    players; nothing a person at the table did not choose to play for rating. It is public (its
    result shows on profiles, linking to it) and its luck is nobody's choice."""
    kinds = [seat.get("kind") for seat in seats]
    if kinds.count("me") + kinds.count(st.HUMAN) != 1 or any(
        k not in ("me", st.HUMAN, st.INVITE, st.OPEN) for k in kinds
    ):
        raise bad_request(
            "a rated game has your seat (kind me) and invite or open seats only: every seat "
            "is a signed-in player, so no AI and no hotseat"
        )
    if reproducible:
        raise bad_request(
            "a rated game cannot be reproducible: its luck must be unknown to every player"
        )
    if private:
        raise bad_request("a rated game cannot be private: its result shows on profiles")


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
        admission: Admission,
        bus: Bus,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.now = now
        """The server's time (``Hub.now``): when a held clock's grace ends."""
        self.catalogue = catalogue
        self.bus = bus
        self.limits = limits
        self.storage = storage
        self.throttles = throttles
        self.db = db
        self.room = room
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
            rows.append(self._seat_row(game, index, seat, token, invites))
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
    ) -> tuple[Room, list[str]]:
        """Make a game with every seat already its player's (``players``: accounts in seat
        order, named as they are now) and start its clock: a game the lobby starts for the
        players of an offer (``newcomer`` the one whose request starts it, from ``visitor``),
        or a tournament for its table. Returns the room and each seat's token (the players'
        pages may also ask for their own: ``POST /api/account/games/{id}/token``).
        ``owner``'s games of the hour count it (None: nobody's, a tournament's). With
        ``game_id`` (chosen before, by a tournament's pairing) it is made at most once
        whoever asks: a second attempt finds the row and makes nothing (no tokens then).

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
            )
            for index, (player, token) in enumerate(zip(verdict.accounts, tokens, strict=True))
        ]
        start_by = self.now() + ARRIVAL_GRACE if door == Door.TOURNAMENT else None
        row = new_row(
            game_id or new_game_id(),
            game,
            seats,
            clock,
            owner=owner,
            rated=rated,
            start_by=start_by,
        )
        if game_id is None:
            await self.db(self._insert, row)
        elif not await self.db(self._insert_once, row):
            tokens = []
        room = await self.room(row.id)  # loading it starts its clock (``Room.settle``)
        if tokens:
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

    def _insert(self, row: st.GameRow) -> None:
        try:
            insert_counted(self.storage.engine, row, self.limits)
        except Throttled as exc:
            raise self._too_many(exc) from None

    async def check_quota(self, owner: str | None) -> None:
        """429 if ``owner`` has made its hour's share of games already (a look, counting
        nothing: asked before a lobby's seek is taken, whose game is then counted when made)."""
        if owner is None:
            return
        ceiling = games_ceiling(owner, self.limits)
        made = await self.db(self.throttles.count, ceiling.key)
        if made >= ceiling.most:
            raise self._too_many(Throttled(ceiling, QUOTA_WINDOW))

    async def take_quota(self, owner: str | None) -> None:
        """Count one game of ``owner``'s hour ("play again"), or 429."""
        if owner is None:
            return
        try:
            await self.db(self.throttles.take, [games_ceiling(owner, self.limits)])
        except Throttled as exc:
            raise self._too_many(exc) from None

    def _too_many(self, exc: Throttled) -> ApiError:
        limits = self.limits
        if isinstance(exc, TooManyAiGames):
            if exc.who == "server":
                why = (
                    f"the server already runs {exc.running} games played by AIs alone, its "
                    f"ceiling (BOARDPLAY_WEB_AI_ONLY_GAMES)"
                )
            else:
                why = (
                    f"this {exc.who} already has {exc.running} games played by AIs alone "
                    f"running; the server allows {limits.ai_games_per_visitor} at once "
                    "(BOARDPLAY_WEB_AI_GAMES_PER_VISITOR)"
                )
            return ApiError(429, "too_many_ai_games", f"{why}: let one finish first")
        most = limits.games_per_visitor
        return exc.error(
            "too_many_games",
            f"this address has made {most} games in the last hour; the server allows {most} "
            "(BOARDPLAY_WEB_GAMES_PER_VISITOR)",
        )

    def _seat_row(
        self, game: Game, index: int, seat: Mapping[str, Any], token: str, invites: dict[int, str]
    ) -> st.SeatRow:
        kind = seat.get("kind")
        if kind == "me":
            kind = st.HUMAN
        if kind not in st.SEAT_KINDS:
            raise bad_request(
                f"seats[{index}].kind must be one of me, {', '.join(st.SEAT_KINDS)}; "
                f"got {quote(kind)}"
            )
        raw_name = seat.get("name")
        if raw_name is not None and not isinstance(raw_name, str):
            raise bad_request(f"seats[{index}].name must be a string")
        name = tidy(raw_name or "")[:NAME_CHARS]
        if kind == st.AI:
            spec = seat.get("spec")
            if not isinstance(spec, str) or not spec.strip():
                raise bad_request(f"seats[{index}] is an AI seat and needs a spec, e.g. 'easy'")
            spec = spec.strip()
            self.check_spec(game, spec, f"seats[{index}].spec")
            default = tidy(f"AI ({spec})")
            if len(default) > NAME_LENGTH:
                default = default[: NAME_LENGTH - 2] + "…)"
            return st.SeatRow(index, kind, name or default, spec=spec)
        if kind in (st.HUMAN, st.HOTSEAT):
            name = name or game.seat_name(index)
            return st.SeatRow(index, kind, name, token_hash=hash_token(token))
        if kind == st.INVITE:
            code = new_token()
            invites[index] = code
            return st.SeatRow(index, kind, name or "Invited player", invite_hash=hash_token(code))
        return st.SeatRow(index, kind, name or "Open seat")

    def check_spec(self, game: Game, spec: str, field: str) -> None:
        """Refuse an AI spec that does not parse, does not fit its column, or asks for more think
        time per move than the operator's ceiling, or (setting no time) more iterations (naming
        the ceiling)."""
        if len(spec) > SPEC_LENGTH:
            raise bad_request(f"{field} is longer than {SPEC_LENGTH} characters")
        try:
            agent = make_agent(spec, game, 0)
        except BoardplayError as exc:
            raise bad_request(f"{field}: {exc}") from None
        limits = self.limits
        time_limit = getattr(agent, "time_limit", None)
        if time_limit is not None and not (
            math.isfinite(time_limit) and time_limit <= limits.ai_max_time
        ):
            raise bad_request(
                f"{field} asks for {time_limit:g} s per move; this server's ceiling is "
                f"{limits.ai_max_time:g} s (BOARDPLAY_WEB_AI_MAX_TIME)"
            )
        # A spec with its own think time (within the ceiling) is stopped by that time, so its
        # iteration cap is only a cap inside it (the expert levels ask for 100,000-200,000 in
        # 0.1 s); the iteration ceiling holds for specs that set no time.
        iterations = getattr(agent, "iterations", None)
        if time_limit is None and iterations is not None and iterations > limits.ai_max_iterations:
            raise bad_request(
                f"{field} asks for {iterations} iterations per move; this server's ceiling is "
                f"{limits.ai_max_iterations} (BOARDPLAY_WEB_AI_MAX_ITERATIONS)"
            )
