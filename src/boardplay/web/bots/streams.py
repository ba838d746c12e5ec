"""The Bot API's two streams, as lichess sends them: newline-delimited JSON (one object a line),
with an empty line every ``fanout.KEEPALIVE`` seconds so that a client, and every proxy
between, knows the connection lives (``fanout.py``: how lines reach readers at one process's
cost).

- **The event stream** (``GET /api/stream/event``) of an account: ``gameStart`` for each game
  it plays (on connecting, those running; then each new one), ``gameFinish`` when one ends, and
  its challenges as they are made and answered (``challenge``, ``challengeDeclined``,
  ``challengeCanceled``). Challenges and started games come as the lobby tells them to the
  player's lobby sockets (``Lobby.listen``: here at once, from another process within a
  second through the lobby's events); a game started any other way (a tournament pairing, a
  game made through the table's API) is found at the next ``fanout.TICK`` by a look at the
  running games of every event stream's account (one query), so nothing that seats the bot
  goes unannounced. Another domain that wants to tell a bot of a game tells the player through
  ``Lobby.tell`` (``{"type": "started", "game"}``), as the lobby does; a message ``{"type":
  "event", "event": {...}}`` told so is passed on as it is (the seam for tournament events).
- **The game stream** (``GET /api/bot/game/stream/{id}``): ``gameFull`` first (players, clock,
  options, starting position, the moves so far and the state with the position), then
  ``gameState`` after every change (moves, clocks, status, a draw offered), ``chatLine`` for the
  table chat and ``opponentGone`` when the opponent leaves the table or comes back; it ends
  after the state that says the game is over. It watches the game's room as a socket does (a
  ``sockets.Told`` subscriber, told each change in the broadcast's call and sent no views: its
  ``gameState`` is built once per change for every stream of the process), so a move made on
  another process reaches it as it reaches that process's sockets (the broker, or the periodic
  check). A client that reconnects gets ``gameFull`` again, with the game as it is now.

A stream whose reader stops reading is ended once ``fanout.QUEUE`` lines wait (it reconnects and
gets the state afresh), so no reader can make the server keep a growing backlog."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping
from typing import Any, ParamSpec, Protocol, TypeVar

from boardplay.web.bots.fanout import Lines
from boardplay.web.bots.service import ApiUser, Bots
from boardplay.web.bots.wire import (
    StateKey,
    challenge_event,
    challenge_kind,
    full_members,
    game_event,
    players_of,
    rating,
    state_key,
    state_line,
    with_state,
)
from boardplay.web.chat import PLAYERS, ChatRelay
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, forbidden
from boardplay.web.lobby import Lobby
from boardplay.web.ratings import Ratings, pool_of
from boardplay.web.sockets import Told
from boardplay.web.table import AI, Room, abandonment_applies, absent_for, control_of, epoch_ms
from boardplay.web.tasks import cancel_and_wait

log = logging.getLogger("boardplay.web")

P = ParamSpec("P")
T = TypeVar("T")

CHAT_MESSAGE = '{"type":"chat"'
"""How the chat's messages to a watcher begin (``chat.ChatRelay.deliver``, compact JSON)."""
PRESENCE_MESSAGE = '{"type":"presence"'
"""How the table's presence begins (``presence.Here.message``, compact JSON)."""
SOURCES = {"challenge": "friend", "seek": "lobby", "tournament": "tournament"}
"""lichess's ``source`` of a game, by what the lobby's ``started`` notice names."""


class StreamHost(Protocol):
    """What the streams need of the process (``Hub``)."""

    limits: Limits
    lobby: Lobby
    chat: ChatRelay
    bots: Bots
    ratings: Ratings

    def db(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]: ...

    async def room(self, game_id: str) -> Room: ...

    def now(self) -> float: ...

    def presence_changed(self, game_id: str) -> None: ...


def game_full(room: Room, seats: list[int], state: str) -> str:
    """The ``gameFull`` line's JSON, ``state`` (an encoded ``gameState``) last. boardplay's time
    control is ``control``: ``clock`` is lichess's (``wire.lichess_clock``). The title and the
    options are the public view's, read from the game itself (the whole view, built for this
    alone, was a fifth of a stream's opening)."""
    row = room.row
    game = None if room.broken else room.game
    control = control_of(row.clock)
    head = {
        "type": "gameFull",
        "id": row.id,
        "game": row.game,
        "title": row.game if game is None else getattr(game, "title", row.game),
        "options": row.options if game is None else game.options,
        "rated": row.rated,
        "control": None if control is None else control.to_json(),
        "createdAt": epoch_ms(row.created),
        "players": players_of(room),
        "yourSeats": seats,
        "initialPosition": row.start_position,
        **full_members(room),
    }
    return with_state(head, state)


def registered(
    stream: object, bots: Bots, user: ApiUser, lines: Lines, kind: str
) -> Callable[[], None]:
    """Count the stream (of ``kind``: ``event``, ``game``) against its token's ceiling now, in
    the route (429 before any line is sent), and forget it when it ends, or when the stream is
    dropped without ever running (its client left before the first line): ``weakref.finalize``."""
    forget = bots.opened(user.token.token_hash, lines.close, kind)
    weakref.finalize(stream, forget)
    return forget


class _Watch:
    """A room watched for a stream as a socket watches it: ``changed`` runs after each update
    this process sends it (its own moves, another process's, a check's), with the chat's
    messages and, where asked (``presence``), the table's presence as the socket
    would get them (neither is a view: ``opponentGone`` still comes), and ``sockets.CHANGED``
    where a socket would get a view (the stream reads the room itself, so none is built for
    it). Only a game stream's
    watch counts in the table's presence (``counts``: its seats are at the table); an event
    stream watching for a game's end is nobody there."""

    def __init__(self, room: Room, changed: Callable[[str], None], counts: bool = False) -> None:
        self.room = room
        self.sub = Told(changed)
        self.sub.counts = counts
        self.sub.views = False
        room.subscribers.add(self.sub)

    def stop(self) -> None:
        self.room.subscribers.discard(self.sub)
        self.sub.stop()


class EventStream:
    """One account's event stream."""

    def __init__(self, host: StreamHost, user: ApiUser) -> None:
        self.host = host
        self.user = user
        self.account_id = user.account.id
        self.lines = Lines()
        self.games: dict[str, _Watch | None] = {}
        """Games announced (None once finished and announced so)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: asyncio.Task[None] | None = None
        """The last challenge line being written (each waits for the one before: in order)."""
        self.forget = registered(self, host.bots, user, self.lines, "event")

    def _spawn(
        self, work: Awaitable[None], after: asyncio.Task[None] | None = None
    ) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                if after is not None:
                    await asyncio.wait([after])
                await work
            except ApiError:
                return
            except Exception:
                log.exception("a Bot API event stream's update failed")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def hear(self, message: Mapping[str, Any]) -> None:
        """A lobby notice for the account (``Lobby.listen``)."""
        kind = message.get("type")
        if kind == "challenge" and isinstance(message.get("challenge"), Mapping):
            challenge = message["challenge"]
            if challenge_kind(challenge) is not None:  # its players' ratings, then the line
                self._last = self._spawn(self.tell_challenge(challenge, {}), self._last)
        elif kind == "started" and isinstance(message.get("game"), str):
            source = next((v for k, v in SOURCES.items() if k in message), None)
            self._spawn(self.announce(message["game"], source))
        elif kind == "event" and isinstance(message.get("event"), Mapping):
            self.lines.put(message["event"])

    async def ratings(self, accounts: list[int]) -> Mapping[tuple[int, str], float]:
        """The accounts' ratings (``Ratings.ratings_of``); none if they cannot be read now: a
        rating is an extra of a line that must go all the same (the line says null)."""
        try:
            return await self.host.ratings.ratings_of(accounts) if accounts else {}
        except Exception:
            log.exception("a Bot API event stream could not read the players' ratings")
            return {}

    async def tell_challenge(self, challenge: Mapping[str, Any], known: Mapping[str, int]) -> None:
        """A challenge's line, with its two players' ratings in the game's pool (``known``:
        the players' accounts by name where the caller has them; the others are looked up)."""
        accounts = {**known, self.user.account.name: self.account_id}
        for name in (challenge.get("from"), challenge.get("to")):
            if isinstance(name, str) and name not in accounts:
                with contextlib.suppress(Exception):  # no rating, as above
                    found = await self.host.bots.accounts.by_name(name)
                    if found is not None:
                        accounts[name] = found.id
        options = challenge.get("options") or {}
        players = options.get("players", 2) if isinstance(options, Mapping) else 2
        pool = pool_of(str(challenge.get("game")), options, int(players))
        table = await self.ratings(list(accounts.values()))
        event = challenge_event(
            challenge, {name: rating(table, account, pool) for name, account in accounts.items()}
        )
        if event is not None:
            self.lines.put(event)

    async def announce(self, game_id: str, source: str | None = None) -> None:
        """``gameStart`` for a game of the account not announced yet (and ``gameFinish`` at
        once if it is over already), then watch it for its end."""
        if game_id in self.games or self.lines.closed:
            return
        self.games[game_id] = None
        room = await self.host.room(game_id)
        seats = [s.seat for s in room.row.seats if s.account == self.account_id]
        if not seats:
            del self.games[game_id]
            return
        others = [s.account for s in room.row.seats if s.account not in (None, self.account_id)]
        table = await self.ratings([a for a in others if a is not None])

        def event(kind: str) -> dict[str, Any]:
            return game_event(kind, room, seats, self.host.now(), table, source)

        self.lines.put(event("gameStart"))
        if room.row.status == "finished":
            self.lines.put(event("gameFinish"))
            return
        self.games[game_id] = _Watch(room, lambda _text: self.check(room, event))

    def check(self, room: Room, event: Callable[[str], dict[str, Any]]) -> None:
        watch = self.games.get(room.row.id)
        if watch is not None and room.row.status == "finished":
            watch.stop()
            self.games[room.row.id] = None
            self.lines.put(event("gameFinish"))

    def found(self, game_ids: Collection[str]) -> None:
        """The account's games in progress, as a look found them: those not announced yet are.
        The end of a watched game needs no look: its room is watched, so the process brings it
        up to date as it does for a socket (the broker, and the periodic check should a
        notice be lost)."""
        for game_id in sorted(game_ids):
            if game_id not in self.games:
                self._spawn(self.announce(game_id))

    async def look(self) -> None:
        """The account's games in progress now (on connecting; then ``Bots.looks`` looks for
        every event stream of the process at once)."""
        self.found(
            (await self.host.bots.games.in_progress([self.account_id])).get(self.account_id, ())
        )

    async def _open_challenges(self) -> None:
        store, limits = self.host.lobby.store, self.host.limits
        found = await self.host.db(
            store.challenges_of, self.account_id, time.time(), limits.challenge_lifetime, 50
        )
        for challenge in reversed(found):  # those to the account and those it sent
            if challenge.status == "open":
                known = {
                    challenge.from_name: challenge.from_account,
                    challenge.to_name: challenge.to_account,
                }
                await self.tell_challenge(challenge.to_json(), known)

    async def run(self) -> AsyncIterator[str]:
        forget = self.forget
        stop = self.host.lobby.listen(self.account_id, self.hear)
        looks = self.host.bots.looks
        self._spawn(self.look())
        looks.add(self)
        try:
            await self._open_challenges()
            async for line in self.lines.lines():
                yield line
        finally:
            stop()
            forget()
            looks.discard(self)
            await cancel_and_wait(list(self._tasks))
            for watch in self.games.values():
                if watch is not None:
                    watch.stop()


class GameStream:
    """One game's stream for a bot playing it."""

    def __init__(self, host: StreamHost, user: ApiUser, room: Room) -> None:
        self.host = host
        self.user = user
        self.room = room
        self.lines = Lines()
        self.sent: StateKey | None = None
        self.seats: frozenset[int] = frozenset()
        self.gone = False
        """Whether the last ``opponentGone`` said the opponent is gone."""
        self.met = False
        """Whether the opponent was at the table while this stream was open."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.forget = registered(self, host.bots, user, self.lines, "game")

    def changed(self, text: str) -> None:
        """The room sent its watchers something: a new state, who is at the table, or chat."""
        if not text:  # the room dropped this watcher: the reader reconnects
            self.lines.close()
            return
        if not text.startswith((CHAT_MESSAGE, PRESENCE_MESSAGE)):  # the room changed
            self.state()  # (``sockets.CHANGED``): the state is read from the room
            return
        try:
            message = json.loads(text)
        except ValueError:
            return
        if message.get("type") == "presence":
            self.presence(frozenset(message.get("seats") or ()))
        elif message.get("type") == "chat":
            for line in message.get("messages") or []:
                self.lines.put(
                    {
                        "type": "chatLine",
                        "room": "player" if line.get("channel") == PLAYERS else "spectator",
                        "username": line.get("name"),
                        "seat": line.get("seat"),
                        "text": line.get("text"),
                    }
                )

    def state(self) -> None:
        key = state_key(self.room)
        if key == self.sent:
            return
        self.sent = key
        self.lines.put_text(state_line(self.room, self.host.now()))
        if key.status != "started":
            self.lines.end()

    # ----- the opponent gone (lichess's ``opponentGone``) --------------------------------------
    def opponent(self) -> int | None:
        """The seat whose absence lets this bot claim the game (``abandonment_applies``): the
        other seat of a running real-time two-player game, held by a player, not the AI."""
        room = self.room
        if room.row.status != "active" or not abandonment_applies(room):
            return None
        others = [s for s in room.row.seats if s.seat not in self.seats]
        return others[0].seat if len(others) == 1 and others[0].kind != AI else None

    def presence(self, here: frozenset[int]) -> None:
        """The table's presence changed (the message the game page is sent): the opponent gone
        from it, or back, is an ``opponentGone`` line, the claim's wait read where the claim
        reads it (``absent_for``: a page, a stream, a request or a move of theirs)."""
        seat = self.opponent()
        self.met = self.met or (seat is not None and seat in here)
        # Gone once they were here: seen by this stream, or they moved (a game whose opponent
        # never came is aborted by the claim, not won, and a stream opened first is no news).
        gone = (
            seat is not None
            and seat not in here
            and (self.met or any(m.player == seat for m in self.room.moves))
        )
        if gone == self.gone:
            return
        self.gone = gone
        if seat is None:  # the game is over: nothing to claim, nothing to say
            return
        if not gone:
            self.lines.put({"type": "opponentGone", "gone": False})
            return

        async def tell() -> None:
            waited = await absent_for(self.room, seat)
            if self.gone:  # not back meanwhile
                left = max(0, math.ceil(self.host.limits.abandon_after - waited))
                self.lines.put({"type": "opponentGone", "gone": True, "claimWinInSeconds": left})

        task = asyncio.get_running_loop().create_task(tell())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self) -> AsyncIterator[str]:
        room, account = self.room, self.user.account
        seats = [s.seat for s in room.row.seats if s.account == account.id]
        forget = self.forget
        try:
            if not seats:
                raise forbidden("not_your_game", "this bot holds no seat in this game")
            token = self.host.bots.seat_token(self.user, room)
            # A clock held for the bot runs. Before the watch: from the watch to ``gameFull``
            # nothing may wait, or a change sent meanwhile (this one, the opponent's coming or
            # move) would reach the reader as a ``gameState`` before the game whole and its
            # seats; a change stored until then is in ``gameFull``, one after it follows it.
            await room.came(seats)
        except BaseException:
            forget()
            raise
        self.seats = frozenset(seats)
        watch = _Watch(room, self.changed, counts=True)
        watch.sub.token = token
        watch.sub.presence = True  # told who is at the table, as the game page is
        # The bot is at the table while its stream is open, as a player whose page is: the
        # opponent's page shows it there and no abandonment claim counts it gone (on every
        # process: the presence table, at the next check); the stream's end is its leaving.
        room.recount(self.host.presence_changed)
        try:
            key = self.sent = state_key(room)
            self.lines.put_text(game_full(room, seats, state_line(room, self.host.now())))
            if key.status != "started":
                self.lines.end()
            else:
                await self.host.chat.hello(room, watch.sub)
                self.presence((room.presence.local + room.presence.others).seats)
            async for line in self.lines.lines():
                yield line
        finally:
            forget()
            watch.stop()
            room.recount(self.host.presence_changed)
            await cancel_and_wait(list(self._tasks))
