"""The news that a followed player started a game, told to their followers as the lobby tells a
player of their own games (``Lobby.tell``: their lobby sockets, on every page of the site and on
every process, and whatever listens for them, a bot's event stream): ``{"type": "followed",
"game", "players"}``, ``players`` the names of those at the table the follower follows. Lichess
tells a player's followers when they start playing in the same way (its friends' list hears
"following_playing"). A private game is told to nobody, and a follower at the table is not told
of their own game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from boardplay.web.accounts import Accounts
from boardplay.web.events import GameStarted
from boardplay.web.relations import Relations

Tell = Callable[[Sequence[tuple[int, Mapping[str, Any]]]], Awaitable[None]]


class FollowNotices:
    """Hears ``GameStarted`` and tells the players' followers through ``tell``."""

    def __init__(self, relations: Relations, accounts: Accounts, tell: Tell) -> None:
        self.relations = relations
        self.accounts = accounts
        self.tell = tell

    async def started(self, event: GameStarted) -> None:
        if not event.public:
            return
        followers = await self.relations.followers(event.players)
        if not followers:
            return
        names = {a.id: a.name for a in (await self.accounts.by_ids(list(followers))).values()}
        told: dict[int, list[str]] = {}
        for player in event.players:
            for follower in followers.get(player, ()):
                if follower not in event.players and player in names:
                    told.setdefault(follower, []).append(names[player])
        notices = [
            (follower, {"type": "followed", "game": event.game_id, "players": sorted(players)})
            for follower, players in sorted(told.items())
        ]
        if notices:
            await self.tell(notices)
