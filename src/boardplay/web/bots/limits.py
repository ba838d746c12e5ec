"""What bounds a bot (lichess's way: per token and per game, not per host), one ceiling for each
cost a bot can ask for, each named in docs/bots.md's table of limits:

- **moves**: a move the game takes costs its token nothing; it is already bounded by the game
  (one per turn, a Montana turn's several included) and games by the challenges and
  tournaments that make them. A move the game *refuses* (illegal, not the bot's turn, the game
  over, not its game) counts against ``Limits.api_refused_moves_per_minute`` once refused
  (``throttles.py``, atomic across processes); one move of a token and game runs at a time on
  a process, another meanwhile is refused from memory, so a burst of refused moves gets no
  more than the ceiling (``Bots.moving``);
- **every other request** (streams opened, challenges answered, chat ...) counts against
  ``Limits.api_requests_per_minute`` per token, before it runs;
- **streams** open at once: ``Limits.api_streams_per_token`` per token and process
  (``Bots.opened``); **challenges**: the lobby's ceilings per account (``lobby/challenges.py``).

A token past one of its ceilings is held (``BotGate.hold``) on this process until its
``Retry-After``: its next requests of that kind are refused from memory, before any database
work, so a client that ignores the 429 costs the server nothing but the refusal.

The site's per-address guard (``guard.py``, ``Limits.rate_per_second``) is for people and for
tokens this process does not know yet: a Bot API request whose token this process has found
stored (``BotGate.vouch``) is counted by the guard against its *token* instead (the same rate
and burst, ``BotGate.key_of``), and a move not at all (the ceilings above bound moves), so the
bots of one host do not share one address's rate. A made-up or revoked token is never vouched
for (``forget``), so it meets the address's rate as any visitor does."""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Literal

from starlette.types import Scope

from boardplay.web.tokens import hash_token

TOKEN_PREFIX = "bp_"
"""Every personal token starts so (lichess's ``lip_``): a leaked one is recognisable in a log
or a repository scan, and never mistaken for a seat token."""
BOT_API = re.compile(
    r"/api/(bot/|stream/event$|challenge(/|$)|account$|token(/|$)|tournaments?/[^/]+/join$)"
)
"""The paths a personal token is counted on (the Bot API's routes, lichess's paths): only
these pass the per-address guard with a vouched-for token; the site's other routes count the
address whatever the request carries."""
MOVE = re.compile(r"/api/bot/game/[^/]+/move/")
"""A bot's move, counted by ``api_refused_moves_per_minute`` rather than the request ceiling."""
Kind = Literal["requests", "moves"]
"""Which of its ceilings a token's request counts against."""
REQUESTS: Kind = "requests"
MOVES: Kind = "moves"
KNOWN = 10_000
"""Tokens a process vouches for at once (least recently used forgotten: their next request
meets the address's rate once, and is vouched for again)."""

Clock = Callable[[], float]


class BotGate:
    """The tokens this process has found stored, and those held past a ceiling."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.known: OrderedDict[str, None] = OrderedDict()
        self.held: dict[tuple[str, Kind], float] = {}

    def key_of(self, scope: Scope) -> str | None:
        """What the guard counts this request against: None, its address (a person, a token
        this process does not know, a route outside the Bot API); ``token:<hash>``, the token;
        '' nothing (a move of a known token: ``api_refused_moves_per_minute`` bounds it)."""
        path = scope.get("path", "")
        if not BOT_API.match(path):
            return None
        header = b""
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                header = value
        if header[:7].lower() != b"bearer ":
            return None
        secret = header[7:].strip().decode("latin-1")
        if not secret.startswith(TOKEN_PREFIX):
            return None
        digest = hash_token(secret)
        if digest not in self.known:
            return None
        return "" if MOVE.match(path) else f"token:{digest}"

    def vouch(self, digest: str) -> None:
        """The token of this hash is stored and within its ceilings."""
        self.known[digest] = None
        self.known.move_to_end(digest)
        while len(self.known) > KNOWN:
            self.known.popitem(last=False)

    def forget(self, digests: Iterable[str]) -> None:
        """These tokens are gone (revoked, or not found): the guard counts them again."""
        for digest in digests:
            self.known.pop(digest, None)
            self.held.pop((digest, REQUESTS), None)
            self.held.pop((digest, MOVES), None)

    def hold(self, digest: str, kind: Kind, seconds: float) -> None:
        """Refuse the token's requests of ``kind`` from memory for ``seconds`` (its ceiling's
        window has that long to run)."""
        self.held[(digest, kind)] = self.clock() + seconds
        if len(self.held) > KNOWN:
            now = self.clock()
            for key in [k for k, until in self.held.items() if until <= now]:
                del self.held[key]

    def waiting(self, digest: str, kind: Kind) -> float:
        """Seconds the token is still held for ``kind`` (0: not held)."""
        until = self.held.get((digest, kind))
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self.held[(digest, kind)]
            return 0.0
        return left
