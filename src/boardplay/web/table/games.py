"""The table's API for what other domains read of its games and of the seats accounts hold
(lila's ``GameRepo`` beside the round): a game's row, which games are still being played, how
ended games ended, an account's games and results, and the seats an account takes or gets new
tokens for. Other domains never read the table's tables; they are given this.

It also ends what the table keeps of an account when the account's owner says so: every seat
token at ``SignedOutEverywhere`` (a new password, signing out everywhere), and at
``AccountClosed`` the account's unfinished games (as its resignations) and its seats' tokens,
its seats then named "deleted player"."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from boardplay.web.accounts import DELETED_NAME
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError
from boardplay.web.events import AccountClosed, Bus, SignedOutEverywhere
from boardplay.web.played import ACTIVE
from boardplay.web.table.offers import resign_account
from boardplay.web.table.rooms import Room
from boardplay.web.table.rows import GameEnd, GameRow, InPlay
from boardplay.web.table.seatkeys import SeatKeyed, SeatStore, still_playing
from boardplay.web.table.storage import Storage

log = logging.getLogger("boardplay.web")

RECENT_RATED = 200
"""Rated games ended lately that the ratings' periodic look goes over (``finished_rated``)."""
PLAYING_QUIET = 1800.0
"""Seconds after its last change a game under way stops counting as its players' game now
(``playing``): an untimed game left for half an hour is not being played."""


class Games:
    """One process's reader of the games and the accounts' seats."""

    def __init__(
        self,
        storage: Storage,
        db: StorageThreads,
        room: Callable[[str], Awaitable[Room]],
        loaded: Callable[[str], Room | None],
        bus: Bus,
    ) -> None:
        self.storage = storage
        self.seats = SeatStore(storage.engine)
        self.db = db
        self.room = room
        self.loaded = loaded
        bus.subscribe(SignedOutEverywhere, self._signed_out)
        bus.subscribe(AccountClosed, self._closed)

    async def get(self, game_id: str) -> GameRow | None:
        """The game as stored now (None: no such game)."""
        found: GameRow | None = await self.db(self.storage.get_game, game_id)
        return found

    async def still_playing(self, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` that exist and have not ended."""
        return await still_playing(self.db, game_ids)

    async def ended(self, game_ids: Sequence[str]) -> dict[str, GameEnd]:
        """Those of ``game_ids`` that have ended, with their results (one query)."""
        found: dict[str, GameEnd] = await self.db(self.seats.ended, list(game_ids))
        return found

    async def in_play(self, limit: int) -> list[InPlay]:
        """Real-time games played by signed-in players at every seat, moved most recently
        first (``SeatStore.in_play``): what the lobby's TV chooses from."""
        found: list[InPlay] = await self.db(self.seats.in_play, limit)
        return found

    async def finished_rated(self) -> list[str]:
        """The rated games that ended most recently (``RECENT_RATED`` of them)."""
        found: list[str] = await self.db(self.seats.finished_rated, RECENT_RATED)
        return found

    # ----- an account's games -----------------------------------------------------------
    async def games_of(self, account_id: int, limit: int) -> list[tuple[str, str, datetime]]:
        """(game id, status, last change) of the account's games, most recent change first."""
        found: list[tuple[str, str, datetime]] = await self.db(
            self.seats.games_of, account_id, limit
        )
        return found

    async def in_progress(self, account_ids: Sequence[int]) -> dict[int, set[str]]:
        """Each of these accounts' games in progress (one query for them all)."""
        found: dict[int, set[str]] = await self.db(self.seats.in_progress, account_ids)
        return found

    async def seated(self, game_ids: Sequence[str]) -> dict[str, tuple[str, datetime, list[str]]]:
        """Each game's name, last change and the names at its seats, in seat order (a list of
        games shown as "game, date, players")."""
        found: dict[str, tuple[str, datetime, list[str]]] = await self.db(
            self.seats.seated, game_ids
        )
        return found

    async def results_of(self, account_id: int, limit: int) -> list[tuple[str, str, int, Any]]:
        """(game id, game name, seat, result) of its seats in finished public games."""
        found: list[tuple[str, str, int, Any]] = await self.db(
            self.seats.results_of, account_id, limit
        )
        return found

    async def playing(self, account_ids: Sequence[int]) -> dict[int, str]:
        """Each account's public real-time game under way, if any (its id: a link to watch)."""
        found: dict[int, str] = await self.db(self.seats.playing, list(account_ids), PLAYING_QUIET)
        return found

    async def has_played(self, account_id: int) -> bool:
        """Whether the account holds a seat in any game (a bot must be made before)."""
        found: bool = await self.db(self.seats.has_played, account_id)
        return found

    async def has_finished_game(self, account_id: int) -> bool:
        found: bool = await self.db(self.seats.has_finished_game, account_id)
        return found

    async def adopt(
        self, account_id: int, name: str, seats: Sequence[tuple[str, int]]
    ) -> list[str]:
        """Make a guest's (game, seat) pairs the account's (on signing up or in); the games
        changed."""
        changed: list[str] = await self.db(self.seats.adopt, account_id, name, list(seats))
        await self._reload(changed)
        return changed

    async def seat_key(self, account_id: int, game_id: str, token_hash: str) -> SeatKeyed:
        """One more token (its hash) for every seat the account holds in the game: the seats
        and the game's new revision."""
        found: SeatKeyed = await self.db(self.seats.seat_key, account_id, game_id, token_hash)
        return found

    # ----- an account's credentials end ------------------------------------------------------
    async def _signed_out(self, event: SignedOutEverywhere) -> None:
        await self._reload(await self.db(self.seats.revoke, event.account_id))

    async def _closed(self, event: AccountClosed) -> None:
        """Its games against others end first as its resignations (rated once, like any
        resignation); then its seats' tokens end and the seats are a deleted player's."""
        for game_id, status, _ in await self.games_of(event.account_id, 10_000):
            if status != ACTIVE:
                continue
            try:
                await resign_account(await self.room(game_id), event.account_id)
            except ApiError:
                continue  # gone, or over meanwhile
        await self._reload(await self.db(self.seats.close, event.account_id, DELETED_NAME))

    async def _reload(self, game_ids: Sequence[str]) -> None:
        """Games whose seats changed in the database: their loaded copies catch up and tell
        their watchers (and the other processes)."""
        for game_id in game_ids:
            room = self.loaded(game_id)
            if room is None:
                continue
            try:
                await room.refresh()
                await room.changed()
            except Exception:
                log.exception("game %s could not reload its seats; its next use does", game_id)
