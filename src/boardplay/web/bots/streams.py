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
  options, starting position, the moves so far and the state), then ``gameState`` after every
  change (moves, clocks, status, a draw offered) and ``chatLine`` for the table chat; it ends
  after the state that says the game is over. It watches the game's room as a socket does (a
  ``Subscriber``, sent no views: its ``gameState`` is built once per change for every stream
  of the process), so a move made on another process reaches it as it reaches that process's
  sockets (the broker, or the periodic check). A client that reconnects gets ``gameFull`` again,
  with the game as it is now.

A stream whose reader stops reading is ended once ``fanout.QUEUE`` lines wait (it reconnects and
gets the state afresh), so no reader can make the server keep a growing backlog."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping
from typing import Any, ParamSpec, Protocol, TypeVar

from boardplay.web.bots.fanout import QUEUE, Lines, shared_line
from boardplay.web.bots.service import ApiUser, Bots
from boardplay.web.chat import PLAYERS, ChatRelay
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, forbidden
from boardplay.web.lobby import Lobby
from boardplay.web.sockets import Subscriber, encode
from boardplay.web.table import Room
from boardplay.web.tasks import cancel_and_wait

log = logging.getLogger("boardplay.web")

P = ParamSpec("P")
T = TypeVar("T")

CHAT_MESSAGE = '{"type":"chat"'
"""How the chat's messages to a watcher begin (``chat.ChatRelay.deliver``, compact JSON)."""
STATUS = {
    "resignation": "resign",
    "agreement": "draw",
    "time": "outoftime",
    "aborted": "aborted",
    "abandoned": "abandoned",
}
"""``gameState.status`` of a game ended by its players or the clock (lichess's words); one the
rules ended is ``finished``, one running ``started``."""


class StreamHost(Protocol):
    """What the streams need of the process (``Hub``)."""

    limits: Limits
    lobby: Lobby
    chat: ChatRelay
    bots: Bots

    def db(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]: ...

    async def room(self, game_id: str) -> Room: ...

    def now(self) -> float: ...

    def presence_changed(self, game_id: str) -> None: ...


def status_of(room: Room) -> str:
    row = room.row
    if row.status != "finished":
        return "started"
    ended = (row.result or {}).get("ended")
    return STATUS.get(ended, "finished") if isinstance(ended, str) else "finished"


def times_of(room: Room, now: float) -> list[int] | None:
    """Each seat's time left in milliseconds as of ``now`` (the running seat's counted down)."""
    clock = room.public_view().get("clock")
    if not clock:
        return None
    left = [float(x) for x in clock["left"]]
    running, since = clock.get("running"), clock.get("since")
    if running is not None and since is not None and room.row.status != "finished":
        left[running] = max(0.0, left[running] - (now - float(since)))
    return [round(x * 1000) for x in left]


def game_state(room: Room, now: float) -> dict[str, Any]:
    """The ``gameState`` line: every move so far in the game's notation (chance outcomes
    included, seat -1: an engine replaying them reaches the same position), whose turn it is
    and the moves it may make, the clocks, and how the game stands."""
    view = room.public_view()
    over = room.row.status == "finished" or bool(view.get("terminal"))
    current = view.get("current_player")
    result = room.row.result or {}
    return {
        "type": "gameState",
        "moves": [m.notation for m in room.moves],
        "seats": [m.player for m in room.moves],
        "ply": len(room.moves),
        "turn": None if over or not isinstance(current, int) or current < 0 else current,
        "legal": [] if over else [m["move"] for m in view.get("legal") or []],
        "times": times_of(room, now),
        "status": status_of(room),
        "winners": result.get("winners") if over else None,
        "result": result.get("text") if over else None,
        "drawOffer": (room.row.draw_offer or {}).get("by"),
        "resigned": list(room.row.resigned),
    }


StateKey = tuple[int, str, Any, tuple[int, ...]]
"""What makes a ``gameState`` worth sending: the ply, the status, the draw offer and the
resignations (a stream sends a state only when its key changed)."""


def state_key(room: Room) -> StateKey:
    return (
        len(room.moves),
        status_of(room),
        (room.row.draw_offer or {}).get("by"),
        tuple(room.row.resigned),
    )


def state_line(room: Room, now: float) -> tuple[StateKey, str]:
    """The room's ``gameState`` line as of its change, with its key: built and encoded once per
    change for every game stream of this process that reads the room (``fanout.shared_line``;
    its audience ``()``: the line names no seat, so both players' streams, and a reconnected
    one, send one text)."""
    key = state_key(room)
    return key, shared_line(room, (), key, lambda: encode(game_state(room, now)) + "\n")


def players_of(room: Room) -> list[dict[str, Any]]:
    return [
        {"seat": s.seat, "name": s.name, "bot": s.bot, "ai": s.kind == "ai"} for s in room.row.seats
    ]


def game_full(room: Room, seats: list[int], now: float) -> dict[str, Any]:
    row = room.row
    view = room.public_view()
    return {
        "type": "gameFull",
        "id": row.id,
        "game": row.game,
        "title": view.get("title", row.game),
        "options": view.get("options", row.options),
        "rated": row.rated,
        "clock": (view.get("clock") or {}).get("control"),
        "createdAt": row.created.isoformat(),
        "players": players_of(room),
        "yourSeats": seats,
        "initialPosition": row.start_position,
        "state": game_state(room, now),
    }


def game_event(kind: str, room: Room, seats: list[int]) -> dict[str, Any]:
    """A ``gameStart`` or ``gameFinish`` line of the event stream."""
    row = room.row
    view = room.public_view()
    current = view.get("current_player")
    return {
        "type": kind,
        "game": {
            "id": row.id,
            "gameId": row.id,
            "game": row.game,
            "rated": row.rated,
            "yourSeats": seats,
            "isMyTurn": row.status != "finished" and current in seats,
            "players": players_of(room),
            "clock": (view.get("clock") or {}).get("control"),
            "status": status_of(room),
            "winners": (row.result or {}).get("winners"),
        },
    }


def challenge_event(challenge: Mapping[str, Any]) -> dict[str, Any] | None:
    """The event line of a challenge the lobby told of, by its status (None: nothing to say;
    an accepted challenge is announced by its game's ``gameStart``)."""
    kind = {
        "open": "challenge",
        "declined": "challengeDeclined",
        "cancelled": "challengeCanceled",
    }.get(str(challenge.get("status")))
    if kind is None:
        return None
    return {
        "type": kind,
        "challenge": {
            **challenge,
            "challenger": {"name": challenge.get("from"), "bot": challenge.get("from_bot")},
            "destUser": {"name": challenge.get("to"), "bot": challenge.get("to_bot")},
        },
    }


def registered(stream: object, bots: Bots, user: ApiUser, lines: Lines) -> Callable[[], None]:
    """Count the stream against its token's ceiling now, in the route (429 before any line is
    sent), and forget it when it ends, or when the stream is dropped without ever running (its
    client left before the first line): ``weakref.finalize``."""
    forget = bots.opened(user.token.token_hash, lines.close)
    weakref.finalize(stream, forget)
    return forget


class _Watch:
    """A room watched for a stream as a socket watches it: ``changed`` runs after each update
    this process sends it (its own moves, another process's, a check's), with the chat's
    messages as the socket would get them, and ``sockets.CHANGED`` where a socket would get a
    view (the stream reads the room itself, so none is built for it). Only a game stream's
    watch counts in the table's presence (``counts``: its seats are at the table); an event
    stream watching for a game's end is nobody there."""

    def __init__(self, room: Room, changed: Callable[[str], None], counts: bool = False) -> None:
        self.room = room

        async def send(text: str) -> None:
            changed(text)

        async def close(_code: int) -> None:
            changed("")

        self.sub = Subscriber(send, close, QUEUE)
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
        self.forget = registered(self, host.bots, user, self.lines)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except ApiError:
                return
            except Exception:
                log.exception("a Bot API event stream's update failed")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def hear(self, message: Mapping[str, Any]) -> None:
        """A lobby notice for the account (``Lobby.listen``)."""
        kind = message.get("type")
        if kind == "challenge" and isinstance(message.get("challenge"), Mapping):
            event = challenge_event(message["challenge"])
            if event is not None:
                self.lines.put(event)
        elif kind == "started" and isinstance(message.get("game"), str):
            self._spawn(self.announce(message["game"]))
        elif kind == "event" and isinstance(message.get("event"), Mapping):
            self.lines.put(message["event"])

    async def announce(self, game_id: str) -> None:
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
        self.lines.put(game_event("gameStart", room, seats))
        if room.row.status == "finished":
            self.lines.put(game_event("gameFinish", room, seats))
            return
        self.games[game_id] = _Watch(room, lambda _text: self.check(room, seats))

    def check(self, room: Room, seats: list[int]) -> None:
        watch = self.games.get(room.row.id)
        if watch is not None and room.row.status == "finished":
            watch.stop()
            self.games[room.row.id] = None
            self.lines.put(game_event("gameFinish", room, seats))

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
        for challenge in reversed(found):
            if challenge.status == "open" and challenge.to_account == self.account_id:
                event = challenge_event(challenge.to_json())
                if event is not None:
                    self.lines.put(event)

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
        self.forget = registered(self, host.bots, user, self.lines)

    def changed(self, text: str) -> None:
        """The room sent its watchers something: a new state, or chat lines."""
        if not text:  # the room dropped this watcher: the reader reconnects
            self.lines.close()
            return
        if not text.startswith(CHAT_MESSAGE):  # the room changed: the state is read from it
            self.state()
            return
        try:
            message = json.loads(text)
        except ValueError:
            return
        if message.get("type") == "chat":
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
        key, line = state_line(self.room, self.host.now())
        if key == self.sent:
            return
        self.sent = key
        self.lines.put_line(line)
        if key[1] != "started":  # the status: the game is over
            self.lines.end()

    async def run(self) -> AsyncIterator[str]:
        room, account = self.room, self.user.account
        seats = [s.seat for s in room.row.seats if s.account == account.id]
        forget = self.forget
        try:
            if not seats:
                raise forbidden("not_your_game", "this bot holds no seat in this game")
            token = await self.host.bots.seat_token(self.user, room)
            # A clock held for the bot runs. Before the watch: from the watch to ``gameFull``
            # nothing may wait, or a change sent meanwhile (this one, the opponent's coming or
            # move) would reach the reader as a ``gameState`` before the game whole and its
            # seats; a change stored until then is in ``gameFull``, one after it follows it.
            await room.came(seats)
        except BaseException:
            forget()
            raise
        watch = _Watch(room, self.changed, counts=True)
        watch.sub.token = token
        # The bot is at the table while its stream is open, as a player whose page is: the
        # opponent's page shows it there and no abandonment claim counts it gone (on every
        # process: the presence table, at the next check); the stream's end is its leaving.
        room.recount(self.host.presence_changed)
        try:
            full = game_full(room, seats, self.host.now())
            self.sent = state_key(room)
            self.lines.put(full)
            if full["state"]["status"] != "started":
                self.lines.end()
            else:
                await self.host.chat.hello(room, watch.sub)
            async for line in self.lines.lines():
                yield line
        finally:
            forget()
            watch.stop()
            room.recount(self.host.presence_changed)
