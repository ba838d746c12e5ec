"""The list of open seeks as each lobby page is shown it: every seek but those a block hides.

A player who blocks another, or is blocked by them, does not see the other's seeks, nor a
table of three or four the other sits at (lichess's lobby hides a blocked player's seeks, and
their pool never pairs the two). Taking one is refused all the same by the admission rule
(``admission/``): this spares a player the offer they could not take, and the blocker the
sight of the other's. Both ways, as the chat hides messages (``chat/blocks.py``), so that
neither learns of the block from the lobby.

The list is read once for everyone and sent as one text (``sockets.encode``); a reader from
whom a listed seek is hidden gets a text of their own, made from the same read. Who is hidden
from whom is the relations' answer (``Relations.hidden``): one query for every signed-in
socket at each new list, one for a socket as it opens, one for a request of ``GET
/api/seeks``. A block or its end changes the lists at once on every process that hears it
(``BlockChanged``, everywhere through Redis), else at the next change of the list."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence

from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.events import BlockChanged, Bus
from boardplay.web.lobby.store import Seek, SeekStore
from boardplay.web.relations import Relations
from boardplay.web.sockets import Subscriber, encode


class LobbySocket:
    """One open lobby page: its send queue, its account (None: a guest), and the list of
    seeks it was last sent (so a new list goes only to sockets that lack it)."""

    __slots__ = ("account_id", "seen", "sub")

    def __init__(self, sub: Subscriber, account_id: int | None) -> None:
        self.sub = sub
        self.account_id = account_id
        self.seen: str | None = None


def visible(seeks: Sequence[Seek], hidden: Collection[int]) -> list[Seek]:
    """``seeks`` without those a player in ``hidden`` owns or sits at."""
    if not hidden:
        return list(seeks)
    return [s for s in seeks if not any(s.holds(player) for player in hidden)]


class SeekList:
    """Reads the open seeks, and words the list for each reader. ``here(account)`` says
    whether the account has a lobby socket on this process; ``changed()`` sends the sockets
    their lists anew (the lobby's)."""

    def __init__(
        self,
        store: SeekStore,
        db: Runner,
        limits: Limits,
        relations: Relations,
        bus: Bus,
        here: Callable[[int], bool],
        changed: Callable[[], None],
    ) -> None:
        self.store = store
        self.db = db
        self.limits = limits
        self.relations = relations
        self.here = here
        self.changed = changed
        bus.subscribe(BlockChanged, self._block_changed, everywhere=True)

    async def _block_changed(self, event: BlockChanged) -> None:
        """A block made or ended: the lists of the two players' sockets here follow."""
        if self.here(event.blocker) or self.here(event.blocked):
            self.changed()

    async def seeks(self) -> list[Seek]:
        """The open seeks, oldest first (at most ``Limits.seeks_listed``)."""
        limits = self.limits
        found: list[Seek] = await self.db(
            self.store.open_seeks, time.time(), limits.seek_ttl, limits.seeks_listed
        )
        return found

    async def seeks_for(self, reader: int | None) -> list[Seek]:
        """The open seeks ``reader`` is shown (a guest: all)."""
        found = await self.seeks()
        if reader is None:
            return found
        return visible(found, (await self.relations.hidden([reader]))[reader])

    @staticmethod
    def text(seeks: Sequence[Seek]) -> str:
        """The ``seeks`` message of ``seeks``."""
        return encode({"type": "seeks", "seeks": [s.to_json() for s in seeks]})

    async def texts(
        self, readers: Collection[int], seeks: Sequence[Seek], text: str
    ) -> dict[int, str]:
        """The ``seeks`` message of each of ``readers`` from whom a seek of ``seeks`` is
        hidden (one query for them all); the others are sent ``text``, everyone's."""
        if not readers or not seeks:
            return {}
        holders = {s.account_id for s in seeks} | {p.account_id for s in seeks for p in s.seated}
        out: dict[int, str] = {}
        made: dict[frozenset[int], str] = {}
        for reader, hidden in (await self.relations.hidden(sorted(set(readers)))).items():
            if hidden & holders:
                if hidden not in made:
                    made[hidden] = self.text(visible(seeks, hidden))
                out[reader] = made[hidden]
        return out
