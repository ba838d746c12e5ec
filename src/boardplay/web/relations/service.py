"""Who follows and who blocks whom (lila's ``relation`` module): the service the routes, the
admission rule and the chat ask.

**Follow.** A signed-in player follows another (never themself, never a deleted account, never
one they block or who blocks them) up to ``Limits.follows_per_account`` (400, lichess's ceiling)
players, and reads them as a list with where each is now: on the site (a page of it open: the
lobby's live connection), playing (a game under way, with its id to watch it) or in a running
tournament. Those three are read through the domains that know them, handed over by the wiring
(``Whereabouts``: the lobby's, the table's and the tournaments' readers), one query each for the
whole list, so this domain reads none of their tables and sits below them.

**Block.** A player blocks another up to ``Limits.blocks_per_account`` (500). What a block
stops is decided where each thing is decided, from what this service answers: the admission
rule refuses a table at which one player blocks another (``admission/``, every door but a
tournament's, as on lichess) and an offer to a player (a challenge); the chat refuses a blocked
player's message in the blocker's game and hides each one's messages from the other
(``chat/``). A block, or its end, is published (``BlockChanged``) for the chats that keep it in
memory. Blocking a player ends their follow of the blocker and the blocker's of them.

**Ceilings.** Every follow, unfollow, block and unblock counts against
``Limits.relations_per_hour`` before it runs (429), and the follows and blocks are counted under
a lock on their owner (``store.py``), so no burst passes either ceiling. Each call is
idempotent: following a player followed already, or unblocking one not blocked, answers the
same as the first time and changes nothing.

**A deleted account** (``AccountClosed``) loses its relations both ways: it is in nobody's list
and blocks nobody any more."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account, Accounts
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError, conflict, forbidden, quote
from boardplay.web.events import AccountClosed, BlockChanged, Bus
from boardplay.web.relations.store import BLOCK, FOLLOW, RelationStore, blocks, followers
from boardplay.web.throttles import Ceiling, Throttled

HOUR = 3600.0
Ids = Sequence[int]


@dataclass(frozen=True)
class Whereabouts:
    """Where players are now, as the domains above this one read it (the wiring hands them
    over): ``online`` the accounts with a page of the site open, ``playing`` each one's game
    under way (its id), ``entered`` each one's running tournament (its id and name)."""

    online: Callable[[Ids], Awaitable[set[int]]]
    playing: Callable[[Ids], Awaitable[dict[int, str]]]
    entered: Callable[[Ids], Awaitable[dict[int, tuple[str, str]]]]


@dataclass(frozen=True)
class Followed:
    """A followed player as the following list shows them."""

    account: Account
    since: float
    online: bool
    game: str | None
    tournament: tuple[str, str] | None

    def to_json(self) -> dict[str, Any]:
        tournament = self.tournament
        return {
            "name": self.account.name,
            "bot": self.account.bot,
            "since": self.since,
            "online": self.online,
            "playing": self.game,
            "tournament": None
            if tournament is None
            else {"id": tournament[0], "name": tournament[1]},
        }


class Relations:
    """Follows and blocks, with what reads and changes them."""

    def __init__(
        self,
        engine: Engine,
        db: StorageThreads,
        limits: Limits,
        bus: Bus,
        accounts: Accounts,
        whereabouts: Whereabouts | None = None,
    ) -> None:
        self.store = RelationStore(engine)
        self.db = db
        self.limits = limits
        self.bus = bus
        self.accounts = accounts
        self.whereabouts = whereabouts
        """Where followed players are (None: nobody is anywhere; a test's bare service)."""
        bus.subscribe(AccountClosed, self._closed)

    # ----- what a player asks for -------------------------------------------------------------
    async def follow(self, account: Account, name: str) -> Account:
        """``account`` follows the player named ``name`` (the account followed)."""
        other = await self._other(account, name, "follow")
        done = await self._change(
            self.store.follow, account.id, other.id, self.limits.follows_per_account
        )
        if done == "blocking":
            raise conflict("blocking", f"you block {other.name}: unblock them first to follow them")
        if done == "blocked":
            raise forbidden("not_followable", f"you cannot follow {other.name}")
        if done == "full":
            most = self.limits.follows_per_account
            raise conflict(
                "too_many_follows",
                f"you follow {most} players, the most one account may "
                "(BOARDPLAY_WEB_FOLLOWS_PER_ACCOUNT): unfollow one first",
            )
        return other

    async def unfollow(self, account: Account, name: str) -> Account:
        other = await self._other(account, name, "unfollow")
        await self._change(self.store.end, account.id, other.id, FOLLOW)
        return other

    async def block(self, account: Account, name: str) -> Account:
        """``account`` blocks the player named ``name`` (told to the chats that keep blocks)."""
        other = await self._other(account, name, "block")
        done = await self._change(
            self.store.block, account.id, other.id, self.limits.blocks_per_account
        )
        if done == "full":
            most = self.limits.blocks_per_account
            raise conflict(
                "too_many_blocks",
                f"you block {most} players, the most one account may "
                "(BOARDPLAY_WEB_BLOCKS_PER_ACCOUNT): unblock one first",
            )
        if done == "done":
            await self.bus.publish(BlockChanged(account.id, other.id, True))
        return other

    async def unblock(self, account: Account, name: str) -> Account:
        other = await self._other(account, name, "unblock")
        if await self._change(self.store.end, account.id, other.id, BLOCK):
            await self.bus.publish(BlockChanged(account.id, other.id, False))
        return other

    async def with_player(self, account: Account, name: str) -> tuple[Account, dict[str, bool]]:
        """What ``account`` has with the player named ``name``: whether it follows them and
        whether it blocks them (the profile's buttons)."""
        other = await self._found(name)
        kind = (
            None if other.id == account.id else await self.db(self.store.kind, account.id, other.id)
        )
        return other, {"following": kind == FOLLOW, "blocking": kind == BLOCK}

    async def following(self, account: Account) -> list[Followed]:
        """The players ``account`` follows, by name, each with where they are now."""
        found = await self.db(self.store.related, account.id, FOLLOW)
        ids = [r.account.id for r in found]
        online: set[int] = set()
        playing: dict[int, str] = {}
        entered: dict[int, tuple[str, str]] = {}
        if ids and self.whereabouts is not None:
            online = await self.whereabouts.online(ids)
            playing = await self.whereabouts.playing(ids)
            entered = await self.whereabouts.entered(ids)
        return [
            Followed(
                r.account,
                r.since,
                r.account.id in online,
                playing.get(r.account.id),
                entered.get(r.account.id),
            )
            for r in found
        ]

    async def blocked(self, account: Account) -> list[tuple[Account, float]]:
        """The players ``account`` blocks, by name, with since when."""
        found = await self.db(self.store.related, account.id, BLOCK)
        return [(r.account, r.since) for r in found]

    # ----- what other domains ask -------------------------------------------------------------
    async def blocks_among(self, accounts: Ids) -> set[tuple[int, int]]:
        """The (blocker, blocked) pairs among ``accounts``: one query (the admission rule)."""
        inside = set(accounts)
        return {
            (a, b) for a, b in await blocks(self.db, list(inside)) if b in inside and a in inside
        }

    async def hidden(self, accounts: Ids) -> dict[int, frozenset[int]]:
        """For each of ``accounts``, the players whose messages it is not shown: those it
        blocks and those who block it (one query; the chat)."""
        out: dict[int, set[int]] = {a: set() for a in accounts}
        for blocker, blocked in await blocks(self.db, list(accounts)):
            if blocker in out:
                out[blocker].add(blocked)
            if blocked in out:
                out[blocked].add(blocker)
        return {a: frozenset(s) for a, s in out.items()}

    async def followers(self, accounts: Ids) -> dict[int, set[int]]:
        """For each of ``accounts``, who follows them (one query; a notice of a game)."""
        out: dict[int, set[int]] = {}
        for follower, followed in await followers(self.db, list(accounts)):
            out.setdefault(followed, set()).add(follower)
        return out

    # ----- inside ---------------------------------------------------------------------------
    async def _found(self, name: str) -> Account:
        found = await self.accounts.by_name(name) if len(name) <= 64 else None
        if found is None:
            raise ApiError(404, "no_such_player", f"there is no player named {quote(name.strip())}")
        return found

    async def _other(self, account: Account, name: str, verb: str) -> Account:
        """The player named ``name``: 404 if there is none (or it was deleted), 400 if it is
        ``account`` itself."""
        other = await self._found(name)
        if other.id == account.id:
            raise ApiError(400, "relation_self", f"you cannot {verb} yourself")
        return other

    async def _change(self, call: Callable[..., Any], owner: int, other: int, arg: Any) -> Any:
        """Run a change of the store, counted against the hourly ceiling (429 past it)."""
        ceiling = Ceiling(f"relations:{owner}", self.limits.relations_per_hour, HOUR)
        try:
            return await self.db(call, owner, other, arg, ceiling, time.time())
        except Throttled as exc:
            raise exc.error(
                "relations_rate",
                f"you have followed, blocked or undone {self.limits.relations_per_hour} times "
                "in the last hour, the most the server allows "
                "(BOARDPLAY_WEB_RELATIONS_PER_HOUR)",
            ) from None

    async def _closed(self, event: AccountClosed) -> None:
        await self.db(self.store.forget, event.account_id)
