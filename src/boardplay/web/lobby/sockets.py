"""The live lobby: the sockets of open lobby pages (``/api/lobby/ws``) and what they are told.

Every socket is sent the list of open seeks on connect and again whenever it changes
(``{"type": "seeks", "seeks": [...]}``, the same text for every socket, encoded once, but for
a player from whom a block hides a seek: ``listing.py``); a
signed-in player's sockets are also sent their challenges (``{"type": "challenge"}``: the open
ones received, on connect; then each one sent or received as it is made or answered) and
``{"type": "started", "game"}`` when a seek or challenge of theirs starts a game (and, on
connecting, those of the last minute whose game is still played, marked ``"again": true``: the
page goes to one it has not been taken to already), and ``{"type": "followed"}`` when a player
they follow starts one (``following.py``). A guest's socket watches the seeks only.
The only message a client sends is ``{"type": "ping"}``: every change is an HTTP request
(``api/lobby.py``), so it passes the same checks as any other.
Messages are read within the game sockets' ceilings (size: close 1009; JSON safety; the
per-address rate), and each socket has the same bounded send queue (``sockets.Subscriber``).

**Seeks last while their owner is here.** The process that holds an owner's lobby socket
*claims* their seeks (stamps its ``epoch``) and renews their heartbeat every third of
``Limits.seek_ttl``. When an owner's last socket here closes, the seeks are released at once
(``epoch`` '', an event asks any other process holding a socket of theirs to claim them) and,
``Limits.seek_grace`` seconds later, those still unclaimed are deleted; a reload within the
grace claims them back. Seeks of a process that died stop being renewed and drop out of the
list after ``seek_ttl`` (any process deletes them).

**Several processes.** The database is the truth. A change made here is shown to this
process's sockets at once; it is also written to ``lobby_events`` and every process with lobby
sockets reads the events of the last few seconds every ``POLL`` second (one indexed query that
usually finds nothing new), so the others' sockets follow within about a second, with or
without Redis. With Redis, a notice told (a game started, a challenge) also nudges the other
processes to read at once (``send``/``remote``, the broker's lobby topic: a nudge only, the
events stay the truth), so a player or bot whose socket or event stream is on another process
hears of a tournament pairing or a challenge in a round trip rather than up to ``POLL`` later.
Events are read by time rather than by id, and remembered by id, because ids from concurrent
transactions can become visible out of order; ``LOOKBACK`` bounds both the commit delay and the
clock difference between processes that this tolerates."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from fastapi import WebSocket
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.engine import Engine

from boardplay.web import safejson
from boardplay.web.accounts import Account, Accounts
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import bad_request
from boardplay.web.events import AccountClosed, BecameBot, Bus, GameStarted, TournamentPaired
from boardplay.web.guard import RateLimiter
from boardplay.web.lobby.challengestore import CANCELLED, DECLINED, OPEN
from boardplay.web.lobby.eventstore import NOTICE, SEEKS, notify
from boardplay.web.lobby.following import FollowNotices
from boardplay.web.lobby.listing import LobbySocket, SeekList
from boardplay.web.lobby.onlinestore import OnlineStore, came_online
from boardplay.web.lobby.store import Seek, SeekStore
from boardplay.web.models import Ping, describe
from boardplay.web.ratings import Ratings
from boardplay.web.relations import Relations
from boardplay.web.sockets import Subscriber, encode
from boardplay.web.table import GameMaker, Games
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.wsread import read_messages

log = logging.getLogger("boardplay.web")


POLL = 1.0
"""Seconds between a process's reads of the other processes' lobby events."""
LOOKBACK = 5.0
"""Seconds of events each read covers (commit delays and clock differences within this are
harmless: an event is acted on once, whenever it is first seen)."""
LIST_SPACING = 0.25
"""Least seconds between two lists of seeks sent to the sockets: a burst of changes costs each
socket at most four lists a second, whoever causes it."""
CHALLENGES_ON_CONNECT = 50
"""Open challenges received that a new socket is sent at once."""
STARTED_AGAIN = 60.0
"""Seconds back a new socket of a player is sent the ``started`` notices of games still being
played (``"again": true``): a page that was reloading when its seek was taken, its table filled
or its challenge was accepted finds the game all the same (events are kept this long)."""
PING: TypeAdapter[Ping] = TypeAdapter(Ping)


Hear = Callable[[Mapping[str, Any]], None]
"""A listener of an account's lobby notices (``Lobby.listen``)."""


class Lobby:
    """The lobby of one server process: its sockets, and what its offers (seeks, tables,
    quick games, challenges: ``seeks.py``, ``tables.py``, ``quick.py``, ``challenges.py``) are
    given by the wiring (lila's lobby ``Env``): the storage threads ``db``, this process's
    ``epoch`` (the holder of its owners' seeks), the ceilings, the events, and the other
    domains' APIs — the table's ``GameMaker`` and ``Games``, the accounts, the ratings, the
    catalogue."""

    def __init__(
        self,
        engine: Engine,
        db: StorageThreads,
        epoch: str,
        limits: Limits,
        bus: Bus,
        *,
        maker: GameMaker,
        accounts: Accounts,
        ratings: Ratings,
        catalogue: WebCatalogue,
        games: Games,
        relations: Relations,
    ) -> None:
        self.db = db
        self.store = SeekStore(engine)
        self.here = OnlineStore(engine)
        """Who has a page of the site open, on any process (``onlinestore.py``)."""
        self.epoch = epoch
        self.limits = limits
        self.bus = bus
        self.maker = maker
        self.accounts = accounts
        self.ratings = ratings
        self.catalogue = catalogue
        self.games = games
        self.sockets: set[LobbySocket] = set()
        self.by_account: dict[int, set[LobbySocket]] = {}
        self.listing = SeekList(
            self.store, db, limits, relations, bus, lambda a: a in self.by_account, self.changed
        )
        """The list of seeks as each reader is shown it (``listing.py``)."""
        self.text: str | None = None
        """The current ``seeks`` message (None while no socket is open: nothing keeps it)."""
        self.seeks: list[Seek] = []
        """The seeks it lists."""
        self._dirty = False
        self._refresher: asyncio.Task[None] | None = None
        self._graces: dict[int, asyncio.Task[None]] = {}
        self._seen: dict[int, float] = {}
        """Ids of the events acted on, with when (forgotten once out of the lookback)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False
        self.listeners: dict[int, set[Hear]] = {}
        """What hears an account's notices besides its lobby sockets (a bot's event stream,
        ``bots/``): called with each message ``deliver`` hands its sockets, never waiting."""
        self.send: Callable[[str], object] | None = None
        """Nudges the other processes to read the events now (the broker's lobby topic, set by
        the hub with Redis); None: they read at their next ``POLL``."""
        self._nudged: asyncio.Task[None] | None = None
        self._again = False
        bus.subscribe(TournamentPaired, self._paired)
        bus.subscribe(AccountClosed, self._account_closed)
        bus.subscribe(BecameBot, self._became_bot)
        bus.subscribe(GameStarted, FollowNotices(relations, accounts, self.tell).started)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._every(POLL, self.poll)),
            loop.create_task(self._every(self.limits.seek_ttl / 3, self.upkeep)),
        ]

    async def close(self) -> None:
        self._closed = True
        await cancel_and_wait([*self._tasks, *self._graces.values(), self._refresher, self._nudged])
        with contextlib.suppress(Exception):  # else they expire after seek_ttl
            await self.db(self.here.forget, self.epoch)

    async def online(self, account_ids: Sequence[int]) -> set[int]:
        """Those of ``account_ids`` with a page of the site open now, on any process."""
        found: set[int] = await self.db(
            self.here.online, account_ids, time.time(), self.limits.seek_ttl
        )
        return found

    async def present(self, account_id: int) -> None:
        """A listener of the account's notices opened here (a bot's event stream): online at
        once, and as long as one listens (``upkeep``), as a page makes a player online."""
        await came_online(self.db, account_id, self.epoch, time.time())

    async def _every(self, seconds: float, work: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(seconds * random.uniform(0.8, 1.2))
            try:
                await work()
            except Exception:
                log.exception("lobby check failed; trying again")

    # ----- sockets --------------------------------------------------------------------------
    async def serve(self, websocket: WebSocket, account: Account | None, rate: RateLimiter) -> None:
        """One lobby socket from accept to close."""
        await websocket.accept()

        async def close(code: int) -> None:
            await websocket.close(code=code)

        sub = Subscriber(websocket.send_text, close, self.limits.ws_send_queue)
        socket = LobbySocket(sub, None if account is None else account.id)

        async def answer(text: str) -> None:
            sub.push(self._answer(text))

        try:
            await self._join(socket)
            if account is not None:
                await self._open_challenges(sub, account.id)
                await self._started_again(sub, account.id)
            await read_messages(websocket, sub, self.limits, rate, answer)
        finally:
            self._leave(socket)
            await sub.finish()

    def _answer(self, text: str) -> dict[str, Any]:
        raw = safejson.parse(text, self.limits, "the message")
        try:
            ping = PING.validate_python(raw)
        except ValidationError as exc:
            raise bad_request(
                f"{describe(exc.errors(include_input=False))} (the lobby socket understands "
                "only ping; seeks and challenges are HTTP requests)"
            ) from None
        return {"type": "pong", "id": ping.id}

    async def _open_challenges(self, sub: Subscriber, account_id: int) -> None:
        found = await self.db(
            self.store.challenges_of,
            account_id,
            time.time(),
            self.limits.challenge_lifetime,
            CHALLENGES_ON_CONNECT,
        )
        for challenge in reversed(found):
            if challenge.to_account == account_id and challenge.status == OPEN:
                sub.push({"type": "challenge", "challenge": challenge.to_json()})

    async def _started_again(self, sub: Subscriber, account_id: int) -> None:
        """The games started for the account lately and still played, which a page that was
        away (reloading) when they started missed: read after the socket joined, so a notice
        is either read here or delivered to it live (``tell`` stores it before delivering)."""
        found = await self.db(self.store.started_for, account_id, time.time() - STARTED_AGAIN)
        playing = await self.games.still_playing([str(m.get("game")) for m in found])
        for message in (m for m in found if m.get("game") in playing):
            sub.push({**message, "again": True})

    async def _join(self, socket: LobbySocket) -> None:
        self.sockets.add(socket)
        account_id = socket.account_id
        if account_id is not None:
            mine = self.by_account.setdefault(account_id, set())
            mine.add(socket)
            if len(mine) == 1:  # back within the grace, or here for the first time
                grace = self._graces.pop(account_id, None)
                if grace is not None:
                    grace.cancel()
                await self.db(self.store.claim, [account_id], self.epoch, time.time())
                await came_online(self.db, account_id, self.epoch, time.time())
        if self.text is None:  # the first socket here (lately): no list kept, load one
            seeks = await self.listing.seeks()
            if self.text is None and self.sockets:  # unless a change was sent meanwhile
                self.text, self.seeks = self.listing.text(seeks), seeks
        text, seeks = self.text, self.seeks
        if text is not None and account_id is not None:
            text = (await self.listing.texts([account_id], seeks, text)).get(account_id, text)
        if text is not None and socket.seen != text:
            socket.seen = text
            socket.sub.push_text(text)

    def _leave(self, socket: LobbySocket) -> None:
        self.sockets.discard(socket)
        account_id = socket.account_id
        if account_id is not None and account_id in self.by_account:
            mine = self.by_account[account_id]
            mine.discard(socket)
            if not mine:
                del self.by_account[account_id]
                if self._closed:  # shutting down: the seeks expire unless another process
                    return  # holds a socket of the account
                task = asyncio.get_running_loop().create_task(self._grace(account_id))
                self._graces[account_id] = task
        if not self.sockets:
            self.text, self.seeks = None, []  # not kept without sockets: load afresh next time

    async def _grace(self, account_id: int) -> None:
        """The account's last socket here closed: release its seeks now, and delete those
        nobody claimed once the grace period has passed."""
        try:
            await self.db(self.store.release, account_id, self.epoch, time.time())
            await asyncio.sleep(self.limits.seek_grace)
            if account_id in self.by_account:
                return
            gone = await self.db(self.store.drop_unclaimed, account_id, self.epoch, time.time())
            if gone:
                self.changed()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not take away the seeks of account %s; they expire", account_id)
        finally:
            if self._graces.get(account_id) is asyncio.current_task():
                del self._graces[account_id]

    # ----- what the sockets are sent --------------------------------------------------------
    def changed(self) -> None:
        """The seeks changed: send the sockets the new list (coalesced, at most every
        ``LIST_SPACING`` seconds)."""
        if not self.sockets:
            self.text = None
            return
        self._dirty = True
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        try:
            while self._dirty and self.sockets:
                self._dirty = False
                seeks = await self.listing.seeks()
                text = self.listing.text(seeks)
                self.text, self.seeks = (text, seeks) if self.sockets else (None, [])
                readers = {s.account_id for s in self.sockets if s.account_id is not None}
                texts = await self.listing.texts(readers, seeks, text)
                for socket in list(self.sockets):
                    mine = text if socket.account_id is None else texts.get(socket.account_id, text)
                    if socket.seen != mine:
                        socket.seen = mine
                        socket.sub.push_text(mine)
                await asyncio.sleep(LIST_SPACING)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not send the lobby's seeks; the next change tries again")
            self.text = None

    def listen(self, account_id: int, hear: Hear) -> Callable[[], None]:
        """Hand ``hear`` every notice for ``account_id`` from now on, told here or on another
        process (the same ``challenge`` and ``started`` messages its lobby sockets get), until
        the function returned is called. The seam through which another domain hears what the
        lobby tells a player, and through which it may tell them (``tell``)."""
        self.listeners.setdefault(account_id, set()).add(hear)

        def stop() -> None:
            mine = self.listeners.get(account_id)
            if mine is not None:
                mine.discard(hear)
                if not mine:
                    del self.listeners[account_id]

        return stop

    # ----- what other domains' events mean here ----------------------------------------------
    async def _paired(self, event: TournamentPaired) -> None:
        """A tournament made games: each player is told, as a seek's are (``started``)."""
        notices = [
            (player, {"type": "started", "game": game_id, "tournament": event.tournament_id})
            for game_id, players in event.games
            for player in players
        ]
        await self.tell(notices)

    async def _became_bot(self, event: BecameBot) -> None:
        """Seeks and seats at tables are for people: a new bot's go."""
        await self.withdraw([event.account_id])

    async def _account_closed(self, event: AccountClosed) -> None:
        """A deleted account offers nothing any more: its seeks and seats go, its challenges
        sent are cancelled and those it received declined (both sides told)."""
        await self.withdraw([event.account_id])
        now, lifetime = time.time(), self.limits.challenge_lifetime
        found = await self.db(
            self.store.challenges_of, event.account_id, now, lifetime, CHALLENGES_ON_CONNECT
        )
        notices: list[tuple[int, Mapping[str, Any]]] = []
        for challenge in found:
            if challenge.status != OPEN:
                continue
            sent = challenge.from_account == event.account_id
            party, status = ("from_account", CANCELLED) if sent else ("to_account", DECLINED)
            if await self.db(
                self.store.settle, challenge.id, party, event.account_id, status, now, lifetime
            ):
                closed = dataclasses.replace(challenge, status=status, updated=now)
                message = {"type": "challenge", "challenge": closed.to_json()}
                notices += [(challenge.from_account, message), (challenge.to_account, message)]
        if notices:
            await self.tell(notices)

    async def withdraw(self, account_ids: Sequence[int]) -> None:
        """These players' seeks go, and their seats at other players' tables (they now have a
        game, or may no longer offer one)."""
        store, now = self.store, time.time()
        withdrawn = False
        for account_id in account_ids:
            for seek in await self.db(store.mine, account_id, now, self.limits.seek_ttl):
                if seek.account_id == account_id:
                    done = await self.db(store.cancel, seek.id, account_id, now, self.epoch)
                else:
                    done = await self.db(store.leave, seek.id, account_id, now, self.epoch)
                withdrawn = done or withdrawn
        if withdrawn:
            self.changed()

    def deliver(self, account_id: int, message: Mapping[str, Any]) -> None:
        """Queue ``message`` for this process's lobby sockets and listeners of ``account_id``."""
        for hear in list(self.listeners.get(account_id, ())):
            try:
                hear(message)
            except Exception:
                log.exception("a listener of account %s failed on a lobby notice", account_id)
        sockets = self.by_account.get(account_id)
        if sockets:
            text = encode(message)
            for socket in list(sockets):
                socket.sub.push_text(text)

    async def tell(self, notices: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
        """Send each (account, message) to the account's lobby sockets, here and on the other
        processes through the events. The event is written first, so a socket that joins
        meanwhile (a page reloading) reads it (``_started_again``) if it missed the delivery.
        The change it reports is stored already: if the event cannot be written, only the
        other processes' live notice is lost (the lists still show it)."""
        try:
            await notify(self.db, self.epoch, notices, time.time())
        except Exception:
            log.exception("could not tell the other processes' lobby sockets")
        else:
            if self.send is not None:
                self.send("")
        for account_id, message in notices:
            self.deliver(account_id, message)

    def remote(self, _text: str) -> None:
        """Another process told a notice (the broker's lobby topic): read the events now rather
        than at the next ``POLL``. One read at a time; nudges heard during it make one more."""
        if self._closed:
            return
        if self._nudged is not None and not self._nudged.done():
            self._again = True
            return
        self._nudged = asyncio.get_running_loop().create_task(self._read_now())

    async def _read_now(self) -> None:
        while True:
            self._again = False
            try:
                await self.poll()
            except Exception:
                log.exception("lobby read on a nudge failed; the next poll reads")
            if not self._again or self._closed:
                return

    # ----- the other processes, and time --------------------------------------------------
    async def poll(self) -> None:
        """Act on the other processes' lobby events not seen yet (only while sockets here
        could be told anything)."""
        if not self.sockets and not self.listeners:
            return
        now = time.time()
        events = await self.db(self.store.events_since, now - LOOKBACK, frozenset(self._seen))
        refresh = False
        claim: set[int] = set()
        for event in events:
            if event.id in self._seen:
                continue
            self._seen[event.id] = now
            if event.origin == self.epoch:
                continue  # this process told its sockets when it made the change
            if event.kind == SEEKS:
                refresh = True
                if event.account_id in self.by_account:
                    claim.add(event.account_id)
            elif event.kind == NOTICE and event.account_id is not None and event.message:
                self.deliver(event.account_id, event.message)
        self._seen = {k: v for k, v in self._seen.items() if v >= now - 3 * LOOKBACK}
        if claim:
            await self.db(self.store.claim, sorted(claim), self.epoch, now)
        if refresh:
            self.changed()

    async def upkeep(self) -> None:
        """Renew the seeks of the owners whose sockets are here, and who is online here;
        delete the seeks nobody renewed (a dead process's), old events and long-settled
        challenges."""
        now = time.time()
        limits = self.limits
        if self.by_account:
            await self.db(self.store.claim, sorted(self.by_account), self.epoch, now)
        here = sorted({*self.by_account, *self.listeners})  # a listener is a page (``present``)
        await self.db(self.here.refresh, self.epoch, here, now, limits.seek_ttl)
        gone = await self.db(
            self.store.upkeep, now, limits.seek_ttl, limits.challenge_lifetime, self.epoch
        )
        if gone:
            self.changed()
