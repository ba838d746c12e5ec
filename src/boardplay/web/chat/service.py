"""The table chat: who reads and writes which channel and what a message may hold (the rules
below, each checked in ``rights.py``), and how a message reaches every socket allowed to read
it, on every server process.

**Two channels**, as on lichess, so that watchers cannot coach or heckle the players:

- ``players``: the people holding seats (identified by their seat token) read and write it;
  nobody else ever sees it, during the game or after. AI seats never chat (they hold no token).
- ``spectators``: everybody watching without a seat reads it; writing needs a signed-in
  account (the session cookie, and its CSRF token over HTTP), so a message always has someone
  answerable behind it. The players do not see it while the game is on (a signed-in player
  who opens the game without their token does not either: their account holds the seat); once
  the game is over they read it too.

**What a message may be.** Plain text: control characters and line breaks become spaces, runs of
spaces one, the ends are trimmed; an empty message is refused, and so is one longer than
``Limits.chat_length`` (300) once tidied. It is never HTML: the page writes it as text
(``textContent``), so ``<b>`` shows as typed. **Ceilings**, counted in the database so every
process agrees (``store.py``): ``chat_per_minute`` (10) messages per sender and channel a
minute and never two within a second; ``chat_per_game`` (1,000) players' messages a game,
counted apart from the spectators' channel, which keeps its latest ``chat_spectators_kept``
(500) and drops the oldest, so watchers can never close the players' chat; and
``chat_per_author`` (60) messages per spectator and game. An account writes in a spectators'
chat once it is ``chat_account_age`` (10 minutes) old or has finished a game. A refusal is a
4xx ``ApiError`` that says which rule and, for the rates, when to try again.

**Blocks** (``blocks.py``). A player cannot write in the game of a player who blocks them, and
no reader is shown the messages of a player they block or who blocks them.

**Reports.** A reader of a channel may report one of its messages: the text and author are
copied into ``chat_reports`` for the operator, once per reporter and message.

**Delivery** (``ChatRelay``). A socket is sent chat only if its hello asked (``"chat": true``),
so older clients see nothing new: after the state answering the hello, the last ``BACKLOG``
messages of each channel it may read, then ``{"type": "chat", "channel", "messages"}`` as they
come. A message written on this process goes to this process's sockets at once, and to the
other processes through the broker as it is stored (``ChatRelay.send``, Redis: a topic
message, as a move's notice), whose sockets have it at once too. Should that be lost (Redis
down, or none), the other processes find it at their next check (``Hub.catch_up``, every
``sync_interval`` seconds, a quarter of it while Redis is down), by one query over the games
they watch for messages newer than they have seen, or written within the last ``LOOKBACK``
seconds (ids need not become visible in order). Each socket remembers what
it was sent, so it gets each message once (a new hello sends the backlog again: clients keep
messages by ``id``).
The chat is saved with the game, never in its public view, record or replay."""

from __future__ import annotations

import dataclasses
import json
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence

from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account
from boardplay.web.chat.blocks import Hidden, reader_of, shown
from boardplay.web.chat.rights import (
    ChatHost,
    Room,
    author_of,
    clean,
    readable,
    require_reader,
)
from boardplay.web.chat.store import (
    CHANNELS,
    SPECTATORS,
    ChatMessage,
    ChatRefused,
    ChatStore,
    ReportedLine,
)
from boardplay.web.chat.store import (
    backlog as read_backlog,
)
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, not_found
from boardplay.web.events import Bus
from boardplay.web.played import FINISHED
from boardplay.web.relations import Relations
from boardplay.web.sockets import Subscriber, encode

log = logging.getLogger("boardplay.web")


Silenced = Callable[[int], Awaitable[float | None]]
"""When an account's chat ban ends (None: it may write): the one place every chat asks, given
by the wiring (the moderators' ``ChatBans.until``)."""
REPORTS_AROUND = 3
"""Lines either side of a reported message the moderators are shown with it."""


async def check_voice(silenced: Silenced | None, account_id: int | None) -> None:
    """403 ``chat_banned`` for an account a moderator banned from the chats, saying until
    when; every chat (a table's channels, a tournament's) asks this before it stores a line."""
    if silenced is None or account_id is None:
        return
    until = await silenced(account_id)
    if until is None:
        return
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
    raise ApiError(
        403,
        "chat_banned",
        f"a moderator banned this account from the chats until {when}; reading is still open",
    )


BACKLOG = 200
"""Messages of a channel a reader is given at once (HTTP, or a socket's hello): the latest."""
LOOKBACK = 60.0
"""Seconds back a check also looks for messages, whatever their id: a message committed on
another process after a newer id was seen here is still found (ids are handed out before
commits, so they need not become visible in order)."""


# ----- requests -----------------------------------------------------------------------------
async def post(
    room: Room,
    relay: ChatRelay,
    token: str | None,
    account: Account | None,
    channel: str,
    text: str,
    aloud: bool = False,
) -> ChatMessage:
    """Write a message (checked, stored, sent to this process's readers at once); ``aloud``:
    a player writing in the spectators' chat (``author_of``), who is no newcomer to it: they
    hold a seat of this game, so the wait for new accounts (``check_newcomer``) is not theirs."""
    author = author_of(room, token, account, channel, aloud)
    limits = room.host.limits
    tidied = clean(text, limits.chat_length)
    await relay.blocks.check_writer(room, author.account_id)
    await check_voice(relay.silenced, author.account_id)
    if channel == SPECTATORS and account is not None and not (aloud and room.seats_of(token)):
        await check_newcomer(room, relay, account)
    try:
        message = await room.host.db(
            relay.store.post,
            room.row.id,
            channel,
            author,
            tidied,
            per_minute=limits.chat_per_minute,
            per_game=limits.chat_per_game,
            per_author=limits.chat_per_author,
            kept=limits.chat_spectators_kept,
        )
    except ChatRefused as exc:
        raise refusal(exc, limits) from None
    relay.deliver(room, [message])
    relay.relay(message)
    return message


async def check_newcomer(room: Room, relay: ChatRelay, account: Account) -> None:
    """403 for an account too new to write in a spectators' chat: younger than
    ``Limits.chat_account_age`` and with no finished game (a flooder's fresh accounts cost
    nothing; a finished game or the wait does)."""
    wait = room.host.limits.chat_account_age - account.age(time.time())
    if wait <= 0 or await relay.finished_a_game(account.id):
        return
    raise ApiError(
        403,
        "account_too_new",
        f"a new account may write in spectators' chats once it is "
        f"{room.host.limits.chat_account_age / 60:g} minutes old or has finished a game; "
        f"{max(1, round(wait / 60))} min to go (reading is open to all)",
    )


def refusal(exc: ChatRefused, limits: Limits) -> ApiError:
    """The 429 for a ceiling, naming it (and when to try again)."""
    per_minute = limits.chat_per_minute
    if exc.reason == "full":
        return ApiError(
            429,
            "chat_full",
            f"this game's chat is full: it keeps at most {limits.chat_per_game} players' "
            "messages (BOARDPLAY_WEB_CHAT_PER_GAME)",
        )
    if exc.reason == "author":
        return ApiError(
            429,
            "chat_author_full",
            f"you have written {limits.chat_per_author} messages in this game's spectators' "
            "chat, the most one account may (BOARDPLAY_WEB_CHAT_PER_AUTHOR)",
        )
    wait = max(1, round(exc.retry_after + 0.5))
    if exc.count >= per_minute:
        why = f"at most {per_minute} chat messages a minute"
    else:
        why = "one chat message a second at most"
    return ApiError(
        429,
        "chat_rate",
        f"slow down: {why}; try again in {wait} s",
        {"Retry-After": str(wait)},
    )


async def read(
    room: Room, relay: ChatRelay, token: str | None, account: Account | None, channel: str
) -> list[ChatMessage]:
    """The last ``BACKLOG`` messages of ``channel``, oldest first (403 for a non-reader),
    without those of players the reader is kept apart from by a block (``blocks.py``)."""
    require_reader(room, token, account, channel)
    found = await room.host.db(relay.store.latest, room.row.id, channel, BACKLOG)
    return shown(found, await relay.blocks.of(reader_of(room, token, account)))


async def report(
    room: Room,
    relay: ChatRelay,
    token: str | None,
    account: Account | None,
    visitor: str,
    message_id: int,
) -> bool:
    """Store a reader's report of a message for the operator; False if they had already."""
    message = await room.host.db(relay.store.message, room.row.id, message_id)
    if message is None:
        raise not_found(f"this game has no chat message {message_id}")
    require_reader(room, token, account, message.channel)
    seats = room.seats_of(token)
    if account is not None:
        key, who = f"account:{account.id}", f"account {account.name} (#{account.id})"
    elif seats:
        seat = room.row.seats[min(seats)]
        key, who = f"seat:{seat.seat}", f"seat {seat.seat} ({seat.name})"
    else:
        key, who = f"visitor:{visitor}", f"guest {visitor[:16]}"
    return bool(await room.host.db(relay.store.report, message, key, who))


# ----- delivery -----------------------------------------------------------------------------
class ChatRelay:
    """The chat of one server process's sockets: backlogs on hello, messages as they are
    written here, and those written on other processes at each check.

    Each socket remembers which recent messages it was sent (with when they were written), so
    a message reaches it once however it comes (its backlog, this process's delivery, a
    check); ``floor`` is the highest id this process has seen, so a check asks only for what
    is newer, or written within ``LOOKBACK`` (a late commit)."""

    def __init__(
        self,
        host: ChatHost,
        engine: Engine,
        rooms: Mapping[str, Room],
        finished_a_game: Callable[[int], Awaitable[bool]],
        relations: Relations,
        bus: Bus,
        silenced: Silenced | None = None,
    ) -> None:
        self.host = host
        self.store = ChatStore(engine)
        self.blocks = Hidden(relations, bus)
        """What the blocks between players do to the chat (``blocks.py``)."""
        self.silenced = silenced
        """Whether a writer is banned from the chats (``check_voice``)."""
        self.finished_a_game = finished_a_game
        """Whether an account has played a game to its end (the table's, given by the
        wiring): a spectator's standing (``check_newcomer``)."""
        self.rooms = rooms
        self.sent: weakref.WeakKeyDictionary[Subscriber, dict[int, float]] = (
            weakref.WeakKeyDictionary()
        )
        """Per socket: the ids of the messages it was sent, and when they were written."""
        self.floor = 0
        """The highest message id this process has seen (any game)."""
        self.send: Callable[[str], object] | None = None
        """Tells the other processes of a message at once (the wiring gives the broker's topic;
        None: one process, or no Redis, and the periodic check is the only way)."""

    async def reported(self, before: int | None, limit: int) -> list[ReportedLine]:
        """The reported messages for the moderators, newest first (older than the report
        ``before``), each with the lines around it."""
        found: list[ReportedLine] = await self.host.db(
            self.store.reported, before, limit, REPORTS_AROUND
        )
        return found

    def relay(self, message: ChatMessage) -> None:
        """Tell the other processes of a message stored here (never waits; a message lost on
        the way is found by their next check)."""
        if self.send is not None:
            self.send(encode(dataclasses.asdict(message)))

    def remote(self, text: str) -> None:
        """A message another process stored: to this process's sockets of its game, if any
        watch it (each socket still gets it once, whichever way it comes first)."""
        message = ChatMessage(**json.loads(text))
        room = self.rooms.get(message.game_id)
        if room is not None and any(sub.chat is not None for sub in room.subscribers):
            self.deliver(room, [message])

    @staticmethod
    def reader_channels(room: Room, sub: Subscriber) -> frozenset[str]:
        return readable(room, sub.token, sub.account)

    async def hello(self, room: Room, sub: Subscriber) -> None:
        """A socket said hello asking for the chat: send it the backlog of each channel it may
        read (after the state answering the hello), then keep it in the chat."""
        channels = self.reader_channels(room, sub)
        await self.blocks.watch(sub, reader_of(room, sub.token, sub.account))
        sub.chat = channels  # set first: a message written meanwhile reaches it too
        self.sent[sub] = {}
        await self._backlog(room, sub, channels)

    async def _backlog(self, room: Room, sub: Subscriber, channels: Iterable[str]) -> None:
        """The last messages of ``channels`` but those the socket was sent already: a check
        that ran while the backlog was read (the socket is in the chat from the hello on)
        delivers what it finds written lately, the backlog's last lines among them."""
        wanted = sorted(channels)
        if not wanted:
            return
        backlog = await read_backlog(self.host.db, room.row.id, BACKLOG)
        sent = self.sent.setdefault(sub, {})
        for channel in CHANNELS:
            self.floor = max([self.floor, *(m.id for m in backlog[channel])])
        hidden = self.blocks.of_socket(sub)
        for channel in wanted:
            messages = [m for m in shown(backlog[channel], hidden) if m.id not in sent]
            sub.push(
                {
                    "type": "chat",
                    "channel": channel,
                    "backlog": True,
                    "messages": [m.to_json() for m in messages],
                }
            )
            sent.update((m.id, m.created) for m in messages)

    def deliver(self, room: Room, messages: Sequence[ChatMessage]) -> None:
        """Send new messages to this process's sockets of the game allowed to read them, each
        the ones it has not been sent yet (a message encoded once for the sockets that need
        the same ones)."""
        if not messages:
            return
        self.floor = max([self.floor, *(m.id for m in messages)])
        texts: dict[tuple[str, tuple[int, ...]], str] = {}
        for sub in list(room.subscribers):
            if sub.chat is None or sub.dropped:
                continue
            sent = self.sent.setdefault(sub, {})
            hidden = self.blocks.of_socket(sub)
            # A channel the socket may read but was not given the backlog of (the game just
            # ended) waits for the check, which sends the backlog with these messages in it.
            for channel in sorted(self.reader_channels(room, sub) & sub.chat):
                mine = shown(messages, hidden)
                new = [m for m in mine if m.channel == channel and m.id not in sent]
                if not new:
                    continue
                key = (channel, tuple(m.id for m in new))
                if key not in texts:
                    body = [m.to_json() for m in new]
                    texts[key] = encode({"type": "chat", "channel": channel, "messages": body})
                sub.push_text(texts[key])
                sent.update((m.id, m.created) for m in new)

    async def catch_up(self) -> None:
        """One query for the messages other processes added to the games watched here, sent
        to their readers; and the backlog of a channel a socket may newly read (the game
        ended). Never raises: the chat must not stop the check it rides on."""
        try:
            await self._catch_up()
        except Exception:
            log.exception("could not bring the chat up to date; the next check tries again")

    async def _catch_up(self) -> None:
        watched = [
            room
            for room in self.rooms.values()
            if any(sub.chat is not None for sub in room.subscribers)
        ]
        if not watched:
            return
        await self.blocks.refresh([sub for room in watched for sub in room.subscribers])
        since = time.time() - LOOKBACK
        ids = sorted({room.row.id for room in watched})
        found = await self.host.db(self.store.newer, ids, self.floor, since)
        by_game: dict[str, list[ChatMessage]] = {}
        for message in found:
            by_game.setdefault(message.game_id, []).append(message)
        for room in watched:
            self.deliver(room, by_game.get(room.row.id, []))
            for sub in room.subscribers:  # forget what no later check can find again
                sent = self.sent.get(sub)
                if sent:
                    self.sent[sub] = {i: c for i, c in sent.items() if c >= since - LOOKBACK}
            if room.row.status != FINISHED:
                continue  # only an end opens a channel to a socket that has said hello
            behind = [
                sub
                for sub in room.subscribers
                if sub.chat is not None and not self.reader_channels(room, sub) <= sub.chat
            ]
            for sub in behind:
                channels = self.reader_channels(room, sub)
                new = channels - (sub.chat or frozenset())
                sub.chat = channels
                await self._backlog(room, sub, new)
