"""The one rule of who may sit at a table with whom, asked at every door a game is made through.

A game's players meet through many doors: a created game's invited or open seat, a challenge (from
the page or the Bot API), a seek, a quick game, an open table of three or four, a rematch, a
tournament's pairing. A copy of the rule kept at each door is a copy some door misses (a rated arena
seating two accounts of one person; a seek made before an upgrade seating a bot against a person),
so the rule lives here, once; every door is a member of ``Door``, and the table's ``GameMaker`` —
the only code that stores a game or seats a player — asks ``Admission.judge`` with its door before
it does.

The rule (each refusal a 403 in the API's error shape, with a sentence saying why):

- **Players that still exist.** An account deleted meanwhile cannot be seated (409
  ``player_gone``). The accounts are read afresh, never taken from a session or a stored seek,
  so an upgrade to a bot made a second ago counts.
- **The lobby is for people** (``bot_no_seeks``): a bot plays through challenges, so that a
  program cannot sit in the lobby's lists taking every game offered (lichess's rule).
- **A people's tournament is for people** (``bots_not_allowed``).
- **A bot meets a person at a rated table only through a challenge** or its rematch
  (``bots_not_allowed``): a person chose to play the program for rating.
- **Nobody sits with a player who blocks them, or whom they block** (``blocked``): the
  relations' blocks (``relations/``), at every door but a tournament's. A tournament pairs whoever
  entered, as lichess's arena and Swiss pairings do (a player who blocked another may withdraw);
  its games' chat still keeps the two apart. An offer to one named player (a challenge) is
  refused for a block before it is sent (``offer``), so a blocked player cannot press one on
  the blocker at all.
- **A marked player plays casual** (``marked``): an account a moderator marked for engine help
  or boosting (``moderation/``), whose rated games the ratings exclude (``ratings/``), sits at
  no rated table, whoever else is there; at a tournament's door, the entering player alone (the
  others are asked again when a table is made, and a tournament's table the rule refuses is
  made casual).
- **A rated table needs different people** (``same_person``): two accounts that share an
  address or a device, while either of them is younger than ``Limits.rated_fresh_account``,
  cannot be at one rated table; a second account of one person would farm the first. The asking
  player's current address is remembered first, as a sign-in would, so an account that never
  signed in from there is caught too."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from boardplay.web.accounts import Account, Accounts
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, conflict, forbidden
from boardplay.web.relations import Relations


class Door(StrEnum):
    """Every way a game is made with people at it. A new way is a new member, and the
    admission tests hold one scenario per member (``tests/web/admission``): a door without one
    fails them."""

    GAME = "game"
    """A created game's invited or open seat taken (``POST /api/games/{id}/join``)."""
    CHALLENGE = "challenge"
    """A challenge accepted on the page (``POST /api/challenges/{id}/accept``)."""
    BOT_CHALLENGE = "bot challenge"
    """A challenge accepted with a personal API token (the Bot API's
    ``POST /api/challenge/{id}/accept``)."""
    SEEK = "seek"
    """A two-player seek accepted."""
    QUICK = "quick game"
    """A quick game paired with an open seek or table."""
    TABLE = "open table"
    """A seat taken at an open table of three or four."""
    REMATCH = "rematch"
    """Play again, once every player agreed."""
    TOURNAMENT = "tournament"
    """A tournament entered, and its tables' games made."""


LOBBY_DOORS = frozenset({Door.SEEK, Door.QUICK, Door.TABLE})
"""The doors of the lobby's lists, which are for people."""
BOT_RATED_DOORS = frozenset({Door.CHALLENGE, Door.BOT_CHALLENGE, Door.REMATCH})
"""The doors through which a bot may sit at a rated table with a person."""
UNBLOCKED_DOORS = frozenset({Door.TOURNAMENT})
"""The doors a block does not close (lichess pairs a tournament's players whatever their
blocks; its pool of quick games, our ``Door.QUICK``, never pairs them)."""
BLOCKED = "blocked"
"""The code of a refusal for a block."""
MARKED = "marked"
"""The code of a refusal of a marked player at a rated table."""


@dataclass(frozen=True)
class Seating:
    """A table asked for: its ``players`` (their accounts, in seat order), made through
    ``door``, ``rated`` or not. ``newcomer`` is the player whose request this is (only their
    pairs are checked for one person's two accounts: the others sat down together already;
    None: every pair), acting from ``visitor``; ``bots``: a tournament that admits bots."""

    door: Door
    players: Sequence[int]
    rated: bool
    newcomer: int | None = None
    visitor: str | None = None
    bots: bool = False


@dataclass(frozen=True)
class Verdict:
    """The rule's answer: the players' accounts as read now (in the order asked; a deleted one
    left out) and the refusal, if any."""

    accounts: list[Account]
    refusal: ApiError | None

    def admitted(self) -> list[Account]:
        """The accounts, if the table is admitted; else the refusal, raised."""
        if self.refusal is not None:
            raise self.refusal
        return self.accounts


class Admission:
    """The rule, with what it reads: the accounts (who is a bot, how old, seen where), the
    relations (who blocks whom) and the ratings' excluded accounts (``excluded``: which of
    some accounts a moderator marked, given by the wiring)."""

    def __init__(
        self,
        accounts: Accounts,
        relations: Relations,
        limits: Limits,
        excluded: Callable[[Sequence[int]], Awaitable[set[int]]],
    ) -> None:
        self.accounts = accounts
        self.relations = relations
        self.limits = limits
        self.excluded = excluded

    async def judge(self, seating: Seating) -> Verdict:
        """Whether ``seating``'s players may sit together at a table made through its door. A
        maker that must go on whatever happens (a tournament's pairing) decides what a refusal
        means for it; the others raise it (``Verdict.admitted``)."""
        if seating.newcomer is not None and seating.visitor:
            await self.accounts.note_visitor(seating.newcomer, seating.visitor)
        found = await self.accounts.by_ids(seating.players)
        seated = [found[p] for p in seating.players if p in found]
        return Verdict(seated, await self._refusal(seating, seated))

    async def _refusal(self, seating: Seating, seated: list[Account]) -> ApiError | None:
        door, rated, newcomer = seating.door, seating.rated, seating.newcomer
        if len(seated) < len(seating.players):
            return conflict(
                "player_gone", "a player at this table has deleted their account meanwhile"
            )
        robots = [a for a in seated if a.bot]
        if robots and door in LOBBY_DOORS:
            return forbidden(
                "bot_no_seeks",
                "a bot account plays through challenges only; seeks and tables are for people",
            )
        if robots and door == Door.TOURNAMENT and not seating.bots:
            return forbidden(
                "bots_not_allowed", "this tournament is for people; bots may not enter"
            )
        if rated and robots and len(robots) < len(seated) and door not in BOT_RATED_DOORS:
            return forbidden(
                "bots_not_allowed",
                "a bot plays rated games against people through challenges only",
            )
        if door not in UNBLOCKED_DOORS and await self._blocked(seated, newcomer):
            return forbidden(
                BLOCKED,
                "you and a player at this table cannot play together: one of you blocks the other",
            )
        if rated and (marked := await self._marked(seating, seated)):
            who = "your account" if marked.id == newcomer else f"{marked.name}'s account"
            return forbidden(
                MARKED,
                f"a moderator marked {who}: it plays casual games only, never rated ones",
            )
        if rated:
            return await self._same_person(seated, newcomer)
        return None

    async def _marked(self, seating: Seating, seated: list[Account]) -> Account | None:
        """A marked player of ``seated`` (the newcomer alone at a tournament's door), if any."""
        asked = seated
        if seating.door == Door.TOURNAMENT and seating.newcomer is not None:
            asked = [a for a in seated if a.id == seating.newcomer]
        found = await self.excluded([a.id for a in asked]) if asked else set()
        return next((a for a in asked if a.id in found), None)

    async def offer(self, sender: int, to: Account) -> None:
        """Refuse (403 ``blocked``) an offer of a game from ``sender`` to the player ``to``
        where either blocks the other: asked before a challenge is sent, and the table it
        would make asks ``judge`` again at its acceptance."""
        if await self.relations.blocks_among([sender, to.id]):
            raise forbidden(
                BLOCKED, f"you and {to.name} cannot play together: one of you blocks the other"
            )

    async def _blocked(self, seated: list[Account], newcomer: int | None) -> bool:
        """Whether a player of ``seated`` blocks another (one query): the newcomer's pairs
        alone, if named (the others sat down together already)."""
        if len({a.id for a in seated}) < 2:
            return False
        pairs = await self.relations.blocks_among([a.id for a in seated])
        return any(newcomer is None or newcomer in pair for pair in pairs)

    async def _same_person(self, seated: list[Account], newcomer: int | None) -> ApiError | None:
        """The refusal if two of ``seated`` look like one person's accounts: for each player
        (the newcomer alone, if named), one query for those it shares a mark with among the
        others, asked only where one of the pair is young."""
        now, fresh = time.time(), self.limits.rated_fresh_account
        for first in seated:
            if newcomer is not None and first.id != newcomer:
                continue
            later = seated[seated.index(first) + 1 :] if newcomer is None else seated
            young = [
                other
                for other in later
                if other.id != first.id and min(first.age(now), other.age(now)) < fresh
            ]
            shared = await self.accounts.sharing(first.id, [o.id for o in young]) if young else ()
            for other in young:
                if other.id in shared:
                    who = "you" if first.id == newcomer else first.name
                    return ApiError(
                        403,
                        "same_person",
                        f"a rated game needs two people: {other.name} and {who} share an "
                        "address or a device and one of the accounts is new (under "
                        f"{fresh / 3600:g} h old); play it casual, or wait",
                    )
        return None
