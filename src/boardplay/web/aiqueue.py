"""The AI worker pool's slots, handed to visitors in turn.

A process computes ``slots`` AI moves at once (``Settings.ai_workers``). First come, first served
let one visitor with many AI-against-AI games hold every worker while another visitor's AI waited
seconds for its turn. Here every AI move waits for a slot under the name of the visitor who made
its game (``GameRow.owner``), and slots go to the waiting visitors in turn (round robin: a visitor
just served goes to the back of the line). No visitor holds more than ``share`` slots at once,
one fewer than the pool when the pool has two or more, so another visitor's AI always finds a
worker free or next in line."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator


class FairQueue:
    """``slots`` places, at most ``share`` per visitor, given to the waiting visitors in turn."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.share = max(1, self.slots - 1)
        self.in_use = 0
        self.held: Counter[str] = Counter()
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        """Visitors with moves waiting, in the order they are served."""

    @contextlib.asynccontextmanager
    async def slot(self, visitor: str) -> AsyncIterator[None]:
        """Wait for a slot for ``visitor``'s AI move; hold it for the ``with`` block."""
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(visitor, deque()).append(ticket)
        self._hand_out()
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._release(visitor)  # the slot came just as the wait was cancelled
            else:
                self._forget(visitor, ticket)
            raise
        try:
            yield
        finally:
            self._release(visitor)

    def _hand_out(self) -> None:
        while self.in_use < self.slots:
            visitor = next((v for v in self.waiting if self.held[v] < self.share), None)
            if visitor is None:
                return
            tickets = self.waiting.pop(visitor)
            ticket = tickets.popleft()
            if tickets:
                self.waiting[visitor] = tickets  # the back of the line
            if ticket.done():
                continue  # cancelled while waiting
            ticket.set_result(None)
            self.held[visitor] += 1
            self.in_use += 1

    def _release(self, visitor: str) -> None:
        self.in_use -= 1
        self.held[visitor] -= 1
        if self.held[visitor] <= 0:
            del self.held[visitor]
        self._hand_out()

    def _forget(self, visitor: str, ticket: asyncio.Future[None]) -> None:
        tickets = self.waiting.get(visitor)
        if tickets is not None and ticket in tickets:
            tickets.remove(ticket)
            if not tickets:
                del self.waiting[visitor]
