"""The AI worker pool's slots, handed to visitors in turn.

A process computes ``slots`` AI moves at once (``Settings.ai_workers``). First come, first served
let one visitor with many AI-against-AI games hold every worker while another visitor's AI waited
seconds for its turn. Here every AI move waits for a slot under the name of the visitor who made
its game (``GameRow.owner``), and a free slot goes to the waiting visitor served longest ago (round
robin: a visitor just served goes to the back of the line). No visitor holds more than ``share``
slots at once, one fewer than the pool when the pool has two or more, so another visitor's AI
always finds a worker free or next in line.

That held for one visitor but not for many: two AI-only games from each of eight addresses
filled every slot with five-second thinks, and another visitor's instant AI waited 15 s for
one. So games played by AIs alone (nobody waits at their table) are *background* work: together
they hold at most ``share`` slots, whoever made them, and the last slot is kept for the AI
turns of games with a person at the table. A visitor is the wider network a game was made from
(``guard.prefix_of``), so one host's many addresses take one turn."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque
from collections.abc import AsyncIterator

MAX_REMEMBERED = 10_000
"""Visitors whose last turn is remembered; beyond that, those with nothing waiting are forgotten."""


class FairQueue:
    """``slots`` places, at most ``share`` per visitor, given to the waiting visitors in turn."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.share = max(1, self.slots - 1)
        self.in_use = 0
        self.background = 0
        """Slots held by games played by AIs alone."""
        self.held: Counter[str] = Counter()
        self.waiting: dict[str, deque[tuple[asyncio.Future[None], bool]]] = {}
        """Visitors with moves waiting, and their tickets in order (each with whether it is
        background work)."""
        self.served: dict[str, int] = {}
        """When each visitor was last given a slot (a count of slots given)."""
        self.turn = 0

    @contextlib.asynccontextmanager
    async def slot(self, visitor: str, background: bool = False) -> AsyncIterator[None]:
        """Wait for a slot for ``visitor``'s AI move (``background``: of a game played by AIs
        alone); hold it for the ``with`` block."""
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(visitor, deque()).append((ticket, background))
        self._hand_out()
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._release(visitor, background)  # the slot came as the wait was cancelled
            else:
                self._forget(visitor, ticket)
            raise
        try:
            yield
        finally:
            self._release(visitor, background)

    def _may_take(self, visitor: str) -> bool:
        """Whether ``visitor``'s next ticket may have a slot now: within its share, and if it is
        background work, within the background's share."""
        if self.held[visitor] >= self.share:
            return False
        return not self.waiting[visitor][0][1] or self.background < self.share

    def _hand_out(self) -> None:
        while self.in_use < self.slots:
            # The waiting visitor served longest ago (never served: first), within its shares.
            ready = [v for v in self.waiting if self._may_take(v)]
            if not ready:
                return
            visitor = min(ready, key=lambda v: self.served.get(v, -1))
            tickets = self.waiting[visitor]
            ticket, background = tickets.popleft()
            if not tickets:
                del self.waiting[visitor]
            if ticket.done():
                continue  # cancelled while waiting
            ticket.set_result(None)
            self.turn += 1
            self.served[visitor] = self.turn
            self.held[visitor] += 1
            self.in_use += 1
            self.background += background
        if len(self.served) > MAX_REMEMBERED:  # forget visitors neither waiting nor served now
            for visitor in [v for v in self.served if v not in self.waiting and not self.held[v]]:
                del self.served[visitor]

    def _release(self, visitor: str, background: bool) -> None:
        self.in_use -= 1
        self.background -= background
        self.held[visitor] -= 1
        if self.held[visitor] <= 0:
            del self.held[visitor]
        self._hand_out()

    def _forget(self, visitor: str, ticket: asyncio.Future[None]) -> None:
        tickets = self.waiting.get(visitor)
        if tickets is None:
            return
        for entry in tickets:
            if entry[0] is ticket:
                tickets.remove(entry)
                break
        if not tickets:
            del self.waiting[visitor]
