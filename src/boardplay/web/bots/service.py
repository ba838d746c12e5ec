"""Bot accounts and personal API tokens, as lichess has them (its Bot API and OAuth personal
tokens): what a token may do (scopes), who it speaks for, how often it may ask, and its end.

- **A bot account** is an ordinary account marked once, irreversibly, while it has played no
  game (``Accounts.set_bot``): its results and rating are a program's from its first game.
  Every view that names a player says BOT (the seat's ``bot``, the challenge's ``from_bot`` /
  ``to_bot``, the profile's and leaderboard's ``bot``); bots have their own leaderboard and play
  through challenges only (the lobby refuses them seeks).
- **A personal API token** is shown once when made; only its SHA-256 is stored
  (``store.py``). It carries scopes: a request needing one it lacks is refused (403
  ``missing_scope``) before anything else. Its owner lists and revokes tokens on the account page or
  through the API, and a token ends exactly when the account's sessions do: sign out everywhere, a
  password change and deleting the account end every token (``end_tokens`` runs on
  ``SignedOutEverywhere`` and ``AccountClosed``).
- **A bot's token is known without a query** once read on a process (``Bots.known``): a bot
  account stays one for good, so what may change of it is its end, and a token's end is heard
  as a stream's is (at once here, through the broker elsewhere, and at the latest at the next
  check of the tokens known); it is read again every ``USED_EVERY`` seconds, which also keeps
  its ``used`` time. A person's token is read at every request.
- **Every request counts** against its token's ceilings, in the database before the request
  runs (``throttles.py``): a burst on one process or several gets no more than requests sent
  one after another (429 with ``Retry-After``). A move counts only if its game refuses it
  (``Bots.moving``); which ceiling counts what, and why a bot's requests pass the
  per-address guard, is ``limits.py``'s.
- **A revoked token's streams end promptly**: at once on the process that revoked it, on the
  others through the broker (topic ``bots``) and, should that be lost, at their next check of
  the open streams' tokens (one query every ``CHECK_EVERY`` seconds)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account, Accounts
from boardplay.web.bots.fanout import Looks
from boardplay.web.bots.limits import MOVES, REQUESTS, TOKEN_PREFIX, BotGate, Kind
from boardplay.web.bots.store import LABEL_MAX, USED_EVERY, TokenRow, TokenStore
from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.errors import ApiError, bad_request, conflict, forbidden, not_found
from boardplay.web.events import AccountClosed, BecameBot, Bus, SignedOutEverywhere
from boardplay.web.metrics import Metrics
from boardplay.web.table import Games, Room
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.text import tidy
from boardplay.web.throttles import Ceiling, Left, Throttled, Throttles
from boardplay.web.tokens import hash_token, new_token

log = logging.getLogger("boardplay.web")


BOT_PLAY = "bot:play"
"""Play the bot account's games: the game stream, moves, resign, abort, draws, chat; the event
stream; upgrade to a bot."""
CHALLENGE_READ = "challenge:read"
"""Read challenges: the event stream's challenge events, the list of challenges."""
CHALLENGE_WRITE = "challenge:write"
"""Send, accept, decline and cancel challenges."""
TOURNAMENT_WRITE = "tournament:write"
"""Join and leave tournaments (the tournaments domain checks it)."""
SCOPES = (BOT_PLAY, CHALLENGE_READ, CHALLENGE_WRITE, TOURNAMENT_WRITE)
CHECK_EVERY = 2.0
"""Seconds between two checks that the open streams' tokens still exist (the fallback when a
revocation's broker message is lost)."""
KNOWN_TOKENS = 10_000
"""Bots' tokens a process keeps read (``Bots.known``), the oldest read dropped first."""
SEAT_TOKENS = 10_000
"""Seat tokens a process keeps for bots' games (``seat_token``), least recently used dropped."""


@dataclass(frozen=True)
class ApiUser:
    """Who a request with a personal API token speaks for, and with which token (``secret``:
    the token as the request sent it, kept in memory only)."""

    account: Account
    token: TokenRow
    secret: str = field(default="", repr=False)


def _not_fresh() -> ApiError:
    return conflict(
        "not_fresh",
        "only an account that has played no game can become a bot; make a new account for the bot",
    )


def missing_scope(scope: str) -> ApiError:
    return forbidden(
        "missing_scope",
        f"this token lacks the scope {scope!r}; make a token with it on the account page",
    )


def check_scopes(raw: Sequence[str]) -> frozenset[str]:
    """The scopes asked for, each known (400 naming the known ones otherwise)."""
    scopes = frozenset(s.strip() for s in raw if s.strip())
    unknown = sorted(scopes - set(SCOPES))
    if unknown or not scopes:
        raise bad_request(
            f"unknown scope {unknown[0]!r}; scopes are: {', '.join(SCOPES)}"
            if unknown
            else f"a token needs at least one scope of: {', '.join(SCOPES)}"
        )
    return scopes


class Bots:
    """Tokens, bot accounts and the open streams of one server process (made by the hub)."""

    def __init__(
        self,
        engine: Engine,
        db: Runner,
        limits: Limits,
        throttles: Throttles,
        bus: Bus,
        *,
        accounts: Accounts,
        games: Games,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = TokenStore(engine)
        self.metrics = metrics or Metrics()
        """The operator's series: the streams open, counted where they are registered."""
        self.db = db
        self.limits = limits
        self.throttles = throttles
        self.bus = bus
        self.accounts = accounts
        self.games = games
        self.streams: dict[str, set[Callable[[], None]]] = {}
        """Open streams by their token's hash: each one's closer."""
        self.send: Callable[[str], object] | None = None
        """Tells the other processes of revoked tokens at once (the broker's topic, given by the
        wiring; None: one process, or no Redis, and the periodic check is the only way)."""
        self.seat_tokens: OrderedDict[tuple[int, str], str] = OrderedDict()
        self._moving: set[tuple[int, str]] = set()
        """(token id, game) of the moves running on this process (``moving``)."""
        self.gate = BotGate()
        """The tokens the per-address guard lets by, and those held past a ceiling (the app
        hands its guard's gate over: ``app.py``)."""
        self.looks = Looks(games.in_progress)
        """The event streams' looks at their games (``fanout.py``)."""
        self.known: dict[str, tuple[TokenRow, Account, float]] = {}
        """Bots' tokens read on this process, by hash, with when they were read (``_find``)."""
        self._task: asyncio.Task[None] | None = None
        bus.subscribe(AccountClosed, self._sessions_ended)
        bus.subscribe(SignedOutEverywhere, self._sessions_ended)

    # ----- tokens -------------------------------------------------------------------------
    async def create_token(
        self, account: Account, label: str, scopes: Sequence[str]
    ) -> tuple[str, TokenRow]:
        """A new token (its secret, shown this once, and its row); 409 past the ceiling."""
        wanted = check_scopes(scopes)
        label = tidy(label)[:LABEL_MAX] or "API token"
        secret = TOKEN_PREFIX + new_token()
        most = self.limits.api_tokens_per_account
        row = await self.db(
            self.store.add, account.id, hash_token(secret), label, sorted(wanted), most
        )
        if row is None:
            raise conflict(
                "too_many_tokens",
                f"this account holds {most} API tokens, the most the server allows "
                "(BOARDPLAY_WEB_API_TOKENS_PER_ACCOUNT): revoke one first",
            )
        return secret, row

    async def tokens(self, account: Account) -> list[TokenRow]:
        found: list[TokenRow] = await self.db(self.store.of_account, account.id)
        return found

    async def revoke(self, account: Account, token_id: int) -> None:
        gone = await self.db(self.store.revoke, account.id, token_id)
        if not gone:
            raise not_found("this account has no such API token")
        self.ended(gone)

    async def end_tokens(self, account_id: int) -> None:
        """Every token of the account ends (signed out everywhere, a new password, the account
        deleted), and every stream open with one of them."""
        self.ended(await self.db(self.store.revoke, account_id, None))

    async def _sessions_ended(self, event: AccountClosed | SignedOutEverywhere) -> None:
        """A token is no browser, yet ends with the account's sessions: signing out
        everywhere, a new password and deleting the account end every one."""
        await self.end_tokens(event.account_id)

    def ended(self, hashes: Sequence[str], tell: bool = True) -> None:
        """These tokens are gone: forget them and close their streams here, and tell the other
        processes."""
        self.gate.forget(hashes)
        for digest in hashes:
            self.known.pop(digest, None)
            for close in list(self.streams.pop(digest, ())):
                close()
        if tell and hashes and self.send is not None:
            self.send(json.dumps(list(hashes)))

    def remote(self, text: str) -> None:
        """Another process revoked these tokens (the broker's ``bots`` topic)."""
        try:
            hashes = [h for h in json.loads(text) if isinstance(h, str)]
        except (ValueError, TypeError):
            return
        self.ended(hashes, tell=False)

    async def authorise(self, header: str | None, *scopes: str, kind: Kind = REQUESTS) -> ApiUser:
        """The account a request's ``Authorization: Bearer <token>`` speaks for, if the token
        exists and has one of ``scopes`` (none named: any token will do); the request is
        counted against the token's ceiling of its ``kind`` before it runs; a move
        (``MOVES``) only if it is held past that ceiling: ``moving`` counts moves."""
        secret = header[7:].strip() if header and header.lower().startswith("bearer ") else ""
        if not secret.startswith(TOKEN_PREFIX) or len(secret) > 100:
            raise ApiError(
                401,
                "token_required",
                "this needs a personal API token (header Authorization: Bearer bp_…), made on "
                "the account page",
            )
        digest = hash_token(secret)
        held = self.gate.waiting(digest, kind)
        if held:
            raise self._over(kind, Throttled(self._ceiling(0, kind), held))
        found = await self._find(digest)
        if found is None:
            self.gate.forget([digest])
            raise ApiError(401, "bad_token", "this API token is unknown or was revoked")
        token, account = found
        if scopes and not token.scopes & set(scopes):
            raise missing_scope(" or ".join(scopes))
        user = ApiUser(account, token, secret)
        if kind != MOVES:
            await self._count(user, kind)
        self.gate.vouch(digest)
        return user

    async def _count(self, user: ApiUser, kind: Kind) -> Left:
        """One request of ``kind`` against the token's ceiling (429 past it, and the token held
        on this process until the ceiling's window has run)."""
        try:
            return await self.throttles.take_one(self._ceiling(user.token.id, kind), self.db)
        except Throttled as exc:
            self.gate.hold(hash_token(user.secret), kind, exc.retry_after)
            raise self._over(kind, exc) from None

    @contextlib.asynccontextmanager
    async def moving(self, user: ApiUser, game_id: str) -> AsyncIterator[None]:
        """A move of the bot's in ``game_id`` runs within: counted against its refused moves'
        ceiling only once the game refuses it (``ApiError``), and the token held on this
        process when that was the last the ceiling allows. A game takes one move a turn, so
        the moves it takes need no ceiling; counting each before it ran and giving it back
        after cost two database writes a move.

        One move of a token and game runs at a time on a process: another sent meanwhile is
        refused at once, from memory (429 ``move_in_flight``, try again in a second), as a
        held token's are. So a burst of refused moves gets no more than the ceiling on one
        process, and one more per other process serving the bot in that game."""
        key = (user.token.id, game_id)
        if key in self._moving:
            raise ApiError(
                429,
                "move_in_flight",
                "a move of this bot in this game is still being played: send the next once "
                "it is answered",
                {"Retry-After": "1"},
            )
        self._moving.add(key)
        try:
            yield
        except ApiError:
            with contextlib.suppress(ApiError):  # past the ceiling: its next one is refused
                left = await self._count(user, MOVES)
                if not left.attempts:  # the last one allowed: the next is refused at once
                    self.gate.hold(hash_token(user.secret), MOVES, left.seconds)
            raise
        finally:
            self._moving.discard(key)

    def _ceiling(self, token_id: int, kind: Kind) -> Ceiling:
        if kind == MOVES:
            return Ceiling(f"api-moves:{token_id}", self.limits.api_refused_moves_per_minute, 60.0)
        return Ceiling(f"api:{token_id}", self.limits.api_requests_per_minute, 60.0)

    def _over(self, kind: Kind, exc: Throttled) -> ApiError:
        """The 429 of a token past its ceiling of ``kind``."""
        if kind == MOVES:
            most = self.limits.api_refused_moves_per_minute
            return exc.error(
                "move_rate",
                f"this token had {most} moves refused in the last minute (illegal, not its "
                "turn, or the game over), the most the server allows "
                "(BOARDPLAY_WEB_API_REFUSED_MOVES_PER_MINUTE); moves the game takes are not "
                "counted",
            )
        most = self.limits.api_requests_per_minute
        return exc.error(
            "api_rate",
            f"this token made {most} requests (other than moves) in the last minute, the most "
            "the server allows (BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE)",
        )

    async def _find(self, digest: str) -> tuple[TokenRow, Account] | None:
        """The token of this hash and its account: a bot's as this process last read it, if
        less than ``USED_EVERY`` seconds ago, else from the database. Only bots' are kept:
        an account becomes a bot for good, while a person's account may still become one."""
        now = time.monotonic()
        known = self.known.get(digest)
        if known is not None and now - known[2] < USED_EVERY:
            return known[0], known[1]
        found: tuple[TokenRow, Account] | None = await self.db(self.store.find, digest)
        self.known.pop(digest, None)
        if found is not None and found[1].bot:
            self.known[digest] = (found[0], found[1], now)
            while len(self.known) > KNOWN_TOKENS:
                del self.known[next(iter(self.known))]
        return found

    # ----- bot accounts -------------------------------------------------------------------
    async def upgrade(self, account: Account) -> None:
        """Make the account a bot for good (409 ``not_fresh`` once it has played a game), then
        tell every domain (``BecameBot``: what it held that is for people goes)."""
        if account.bot:
            return
        # Marked, then looked at again: a seat taken at the same moment (whose admission read
        # the account as a person) is found by the second look, and the mark is taken back.
        if await self.games.has_played(account.id) or not await self.accounts.set_bot(
            account.id, True
        ):
            raise _not_fresh()
        if await self.games.has_played(account.id):
            await self.accounts.set_bot(account.id, False)
            for digest, (token, _, _) in list(self.known.items()):  # read while marked
                if token.account_id == account.id:
                    del self.known[digest]
            raise _not_fresh()
        await self.bus.publish(BecameBot(account.id))

    @staticmethod
    def require_bot(user: ApiUser) -> None:
        if not user.account.bot:
            raise forbidden(
                "not_a_bot",
                "the Bot API plays for bot accounts only: upgrade this account first (POST "
                "/api/bot/account/upgrade), which only an account with no games can",
            )

    def seat_token(self, user: ApiUser, room: Room) -> str:
        """The seat token the bot acts with in the room's game (the table's every action takes
        one): made on this process at its first need, kept here (never sent, never stored) and
        granted to the room's copy (``Room.grant``) for the seats the bot's account holds, so
        no other door and no other process knows it. 403 ``not_your_game`` if the bot holds no
        seat."""
        key = (user.account.id, room.row.id)
        token = self.seat_tokens.get(key)
        if token is not None:
            self.seat_tokens.move_to_end(key)
            if room.seats_of(token):
                return token
        seats = {s.seat for s in room.row.seats if s.account == user.account.id}
        if not seats:
            raise forbidden("not_your_game", "this bot holds no seat in this game")
        if token is None:
            token = self.seat_tokens[key] = new_token()
            while len(self.seat_tokens) > SEAT_TOKENS:
                self.seat_tokens.popitem(last=False)
        room.grant(token, seats)
        return token

    # ----- open streams -------------------------------------------------------------------
    def opened(self, token_hash: str, close: Callable[[], None], kind: str) -> Callable[[], None]:
        """Register a stream of the token (``kind``: ``event`` or ``game``), or 429
        ``too_many_streams`` past ``Limits.api_streams_per_token`` open on this process
        (counted and registered in one step of the event loop, so a burst cannot pass it);
        returns what forgets it (once, however often it is called)."""
        mine = self.streams.setdefault(token_hash, set())
        most = self.limits.api_streams_per_token
        if len(mine) >= most:
            raise ApiError(
                429,
                "too_many_streams",
                f"this token has {most} streams open on this server, the most it allows "
                "(BOARDPLAY_WEB_API_STREAMS_PER_TOKEN): close one first",
                {"Retry-After": "5"},
            )
        mine.add(close)
        gauge = self.metrics.stream(kind)
        gauge.inc()

        def forget() -> None:
            mine = self.streams.get(token_hash)
            if mine is not None and close in mine:
                mine.discard(close)
                gauge.dec()
                if not mine:
                    del self.streams[token_hash]

        return forget

    async def check(self) -> None:
        """Forget the tokens no longer stored and end their streams (revoked on a process whose
        broker message did not arrive)."""
        held = list({*self.streams, *self.known})
        if not held:
            return
        alive = await self.db(self.store.alive, held)
        self.ended([h for h in held if h not in alive], tell=False)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._checks())

    async def _checks(self) -> None:
        while True:
            await asyncio.sleep(CHECK_EVERY)
            try:
                await self.check()
            except Exception:
                log.exception("could not check the bots' tokens; trying again")

    def close_streams(self) -> None:
        """End every open stream (the process is stopping; the bots reconnect elsewhere)."""
        for closers in list(self.streams.values()):
            for close in list(closers):
                close()

    async def close(self) -> None:
        self.close_streams()
        self.looks.close()
        await cancel_and_wait([self._task])
