"""What several domains must hear, said once by the domain it happened in (lila's ``Bus``).

A domain that changes something other domains depend on publishes an event; it never calls
them by name, and they never read its tables to find out. The accounts publish that an account
was deleted, the bots that an account became a bot, the relations that one account blocked
another, the table that a game started or finished, the ratings that a game was rated, the
tournaments that a round was paired. Who must react subscribes: the tournaments withdraw a
deleted account or a new bot, the lobby takes away their seeks, seats and challenges, the
notices stop, the ratings settle a finished game, the lobby tells a new game's players'
followers.

The events are plain values defined here, in the infrastructure every domain may import, as
lila declares its events in ``lila.core``: a subscriber needs the event's shape, not the
publisher's package, so two domains that hear each other form no loop.

**Where a handler runs.** ``publish`` awaits every handler subscribed on this process, one
after another, before it returns: the request that deleted an account answers after its
tournaments, seeks and challenges are gone, so what a person sees next is already true. A
handler whose work is the database's (withdraw an entry, delete a seek) needs to run once, and
runs on the publishing process only. A handler subscribed ``everywhere`` keeps state in each
process's memory (open streams, sockets): it also runs on every other process, told through
the broker (Redis) when there is one. Without Redis, or while it is down, those processes do not
hear, and each such handler has a slower way that needs no broker (the bots' check of their
streams' tokens, the lobby's events table), as every cross-process message here does.

A handler that fails is logged and the others still run: one domain's trouble must not leave
another's rule unapplied."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, get_args

from boardplay.web.tasks import cancel_and_wait

log = logging.getLogger("boardplay.web")


@dataclass(frozen=True)
class AccountClosed:
    """An account was deleted by its owner: its name is free, it can no longer sign in, and
    nothing of it may wait for a game (tournament entries, seeks, seats at open tables,
    challenges, notices)."""

    account_id: int


@dataclass(frozen=True)
class SignedOutEverywhere:
    """The owner of an account ended its sessions everywhere (signing out everywhere, or a new
    password): every other credential of it ends too, whichever domain keeps it (the seat
    tokens its browsers hold, its personal API tokens and their streams)."""

    account_id: int


@dataclass(frozen=True)
class BecameBot:
    """An account became a bot account (for good): it may no longer hold what is for people
    (entries in people's tournaments, seeks and seats at open tables)."""

    account_id: int


@dataclass(frozen=True)
class BlockChanged:
    """An account blocked another (``blocking``), or took its block back: the chat of either
    shows the other's messages to it no more, or again (``relations/``)."""

    blocker: int
    blocked: int
    blocking: bool


@dataclass(frozen=True)
class ChallengeSent:
    """A player challenged another (the challenged player is told, away from the site too)."""

    to_account: int
    sender: str
    game: str
    rated: bool
    challenge_id: str


@dataclass(frozen=True)
class YourTurn:
    """The turn of a correspondence game passed to these seats, and their players have no page
    of it open: they are told away from the table."""

    game_id: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class GameStarted:
    """A game began with its players seated (the last seat a person needed was taken): their
    accounts, and whether anyone may watch it (a private game's link is its only way in). The
    players' followers are told (the lobby, on their pages and event streams)."""

    game_id: str
    players: tuple[int, ...]
    public: bool = True


@dataclass(frozen=True)
class GameFinished:
    """A game ended (on the board, by the clock or by a player's word)."""

    game_id: str
    rated: bool
    correspondence: bool = False
    """Played over days: its players are told of its end away from the table too."""
    result: dict[str, Any] | None = None
    resigned: tuple[int, ...] = ()
    """How it ended, as stored (``table.GameEnd``): what its tournament counts, untold by a
    read."""


@dataclass(frozen=True)
class RatingSettled:
    """A finished rated game's ratings were settled (once, whichever process did it)."""

    game_id: str
    accounts: tuple[int, ...]


@dataclass(frozen=True)
class TournamentPaired:
    """Games of a tournament's round or arena wave were made: each game's id with its
    players' accounts in seat order (the lobby tells them, on their pages and event
    streams)."""

    tournament_id: str
    games: tuple[tuple[str, tuple[int, ...]], ...]


Event = (
    AccountClosed
    | BecameBot
    | BlockChanged
    | ChallengeSent
    | GameFinished
    | GameStarted
    | RatingSettled
    | SignedOutEverywhere
    | TournamentPaired
    | YourTurn
)
KINDS: dict[str, type[Event]] = {kind.__name__: kind for kind in get_args(Event)}
"""Every event by its name, as it travels between processes."""

E = TypeVar("E", bound=Event)
Handler = Callable[[E], Awaitable[None]]


def encode(event: Event) -> str:
    return json.dumps({"kind": type(event).__name__, **dataclasses.asdict(event)})


def decode(text: str) -> Event:
    """An event from another process (``ValueError`` if it is not one)."""
    raw = json.loads(text)
    kind = KINDS.get(raw.pop("kind", None)) if isinstance(raw, dict) else None
    if kind is None:
        raise ValueError(f"not an event: {text[:80]!r}")
    try:
        return kind(**{name: _tuples(value) for name, value in raw.items()})
    except TypeError as exc:
        raise ValueError(f"not an event: {text[:80]!r}") from exc


def _tuples(value: Any) -> Any:
    """JSON's lists as the tuples the events hold (so an event heard equals the one sent)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


class Bus:
    """One process's subscriptions, and the way to the other processes (``send``)."""

    def __init__(self) -> None:
        self._here: dict[type, list[Handler[Any]]] = {}
        self._everywhere: dict[type, list[Handler[Any]]] = {}
        self.send: Callable[[str], object] | None = None
        """Hands an encoded event to the other processes (the broker's topic, set by the
        wiring with Redis); None: nobody else hears."""
        self._heard: set[asyncio.Task[None]] = set()

    def subscribe(self, kind: type[E], handler: Handler[E], everywhere: bool = False) -> None:
        """Call ``handler`` with each ``kind`` of event published on this process, and also
        with those published on the others if ``everywhere`` (see the module's docstring)."""
        (self._everywhere if everywhere else self._here).setdefault(kind, []).append(handler)

    async def publish(self, event: Event) -> None:
        """Run every handler of the event on this process, in the order they subscribed; then
        tell the other processes, if any handler hears it there."""
        kind = type(event)
        await self._run([*self._here.get(kind, ()), *self._everywhere.get(kind, ())], event)
        if self.send is not None and kind in self._everywhere:
            self.send(encode(event))

    def remote(self, text: str) -> None:
        """Another process published an event (the broker's topic): run the handlers that hear
        it everywhere, in a task (a broker's callback must not wait)."""
        try:
            event = decode(text)
        except ValueError:
            log.warning("an event from another process could not be read: %.80s", text)
            return
        handlers = self._everywhere.get(type(event), [])
        if not handlers:
            return
        task = asyncio.get_running_loop().create_task(self._run(handlers, event))
        self._heard.add(task)
        task.add_done_callback(self._heard.discard)

    async def _run(self, handlers: list[Handler[Any]], event: Event) -> None:
        for handler in handlers:
            try:
                await handler(event)
            except Exception:
                log.exception("a handler of %s failed", event)

    async def close(self) -> None:
        await cancel_and_wait(self._heard)
