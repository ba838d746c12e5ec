"""Open tables: a seek for three or four players (Passtally with three, Montana with three or
four) fills up seat by seat from the lobby, as Board Game Arena's tables do, and starts when
its last seat is taken. Why a seek and not a thing of its own: everything else is the same — the
owner posts it from the same form (the player count is one of the game's options), it is listed
in the same live list, lasts while its owner is here, obeys the same rating range, rated rules,
ceilings and quota, and its game starts the same way (``seeks.start_game``) with the same
``started`` notice to every player; only *accepting* differs, so only that is here.

- **Taking a seat** (``sit``) checks what accepting a seek checks (the rating range, the rated
  rules against the owner and every seated player, the acceptor's game quota), then takes the
  seat in one step under a lock on the table (``SeekStore.sit``): of any number of players
  taking the last seat at once, on any number of processes, exactly one starts the game; the
  others get 404 ``seek_taken``. A rated table is checked again against the players seated at
  the moment the seat was taken, so two accounts of one person cannot slip in side by side.
- **A seat lasts while its holder is here**, as a seek does while its owner is: the holder's
  lobby socket keeps it, a reload keeps it, leaving the site gives it up after the grace.
  A holder may leave before the game starts (``leave``); the owner may cancel the table
  (``seeks.cancel_seek``), which frees every seat; the table goes when its owner has gone.
- **Ceilings** (``config.Limits``, counted before the seat is stored): ``seats_per_account``
  seats held at once at other players' tables, ``seats_per_hour`` seats taken an hour.
- **The game**: the owner and the seated players, seats drawn at random; every player is told
  ``{"type": "started", "game"}`` and the taker of the last seat gets its token in the answer.
  Starting it withdraws every player's other seeks and seats."""

from __future__ import annotations

import dataclasses
import time

from boardplay.web.accounts import Account
from boardplay.web.admission import Door
from boardplay.web.errors import ApiError, conflict, not_found, quote
from boardplay.web.lobby.seatstore import SitRefused, Sitter
from boardplay.web.lobby.seeks import (
    Started,
    accept_seek,
    admit,
    rating_in_range,
    start_game,
)
from boardplay.web.lobby.sockets import Lobby
from boardplay.web.lobby.store import Seek
from boardplay.web.throttles import Ceiling, Throttled


async def sit(
    lobby: Lobby, account: Account, visitor: str, seek_id: str, door: Door = Door.TABLE
) -> tuple[Started | None, Seek | None]:
    """Take a seat at a table → (the game, None) for the last seat, else (None, the table with
    its players). A two-player seek is accepted (its one seat is the last)."""
    seek = await lobby.db(lobby.store.seek, seek_id, time.time(), lobby.limits.seek_ttl)
    if seek is None:
        raise not_found(f"there is no open table {quote(seek_id)} (full, cancelled or gone)")
    if not seek.table:
        return await accept_seek(lobby, account, visitor, seek_id, Door.SEEK), None
    return await take_seat(lobby, account, visitor, seek, door)


async def take_seat(
    lobby: Lobby, account: Account, visitor: str, seek: Seek, door: Door = Door.TABLE
) -> tuple[Started | None, Seek | None]:
    """``sit`` at a table read already."""
    if seek.account_id == account.id:
        raise conflict("own_seek", "this is your own table: wait for the others, or cancel it")
    if seek.holds(account.id):
        raise conflict("already_seated", "you have a seat at this table already")
    mine = await rating_in_range(lobby, account.id, seek)
    owner, *_ = await _admit(lobby, door, account, visitor, seek)
    await lobby.maker.check_quota(visitor)  # the last seat makes the game: refuse before
    store, limits, now = lobby.store, lobby.limits, time.time()
    sitter = Sitter(account.id, account.name, mine, now)
    hourly = Ceiling(f"seats:{account.id}", limits.seats_per_hour, 3600.0)
    kept_by = lobby.epoch if account.id in lobby.by_account else ""
    try:
        table, full = await lobby.db(
            store.sit,
            seek.id,
            sitter,
            now,
            limits.seek_ttl,
            lobby.epoch,
            kept_by,
            limits.seats_per_account,
            hourly,
        )
    except Throttled as exc:
        raise exc.error(
            "too_many_seats",
            f"you have taken {limits.seats_per_hour} seats at tables in the last hour, the most "
            "the server allows (BOARDPLAY_WEB_SEATS_PER_HOUR)",
        ) from None
    except SitRefused as exc:
        raise _refusal(exc, limits.seats_per_account) from None
    lobby.changed()
    if seek.rated and {s.account_id for s in table.seated} != {
        *(s.account_id for s in seek.seated),
        account.id,
    }:
        try:  # someone sat down meanwhile: the rule holds against them too
            await _admit(lobby, door, account, visitor, table)
        except ApiError:
            await _undo(lobby, table, account.id, full)
            raise
    if not full:
        return None, table
    return await _start(lobby, door, owner, account, visitor, table), None


async def _admit(
    lobby: Lobby, door: Door, account: Account, visitor: str, table: Seek
) -> list[Account]:
    """The admission rule for ``account`` beside the table's owner and seated players."""
    others = [table.account_id, *(s.account_id for s in table.seated)]
    return await admit(lobby, door, table, [*others, account.id], account, visitor)


async def _undo(lobby: Lobby, table: Seek, account_id: int, full: bool) -> None:
    """Give back a seat taken (the table put back without it, if it was the last)."""
    store, now = lobby.store, time.time()
    if full:
        left = tuple(s for s in table.seated if s.account_id != account_id)
        await lobby.db(store.restore, dataclasses.replace(table, seated=left), now, lobby.epoch)
    else:
        await lobby.db(store.leave, table.id, account_id, now, lobby.epoch)
    lobby.changed()


async def _start(
    lobby: Lobby, door: Door, owner: Account, account: Account, visitor: str, table: Seek
) -> Started:
    """The full table's game: every seated player, ``account`` (the last) at the end."""
    others: list[Account] = []
    for seated in table.seated:
        found = account if seated.account_id == account.id else None
        if found is None:
            found = await lobby.accounts.by_id(seated.account_id)
        if found is None:  # gone since: the table waits for another player
            await _undo(lobby, table, seated.account_id, True)
            raise conflict(
                "seek_taken",
                "a player at this table has just left: you keep your seat, and the game starts "
                "when the table is full again",
            )
        others.append(found)
    others.sort(key=lambda p: p.id == account.id)
    try:
        started = await start_game(
            lobby, door, owner, others, visitor, table.game, table.options, table.rated, table.clock
        )
    except Exception:
        await _undo(lobby, table, account.id, True)
        raise
    message = {"type": "started", "game": started.room.row.id, "seek": table.id}
    await lobby.tell([(p.id, message) for p in (owner, *others)])
    return started


def _refusal(exc: SitRefused, most: int) -> ApiError:
    if exc.reason == "own":
        return conflict("own_seek", "this is your own table: wait for the others, or cancel it")
    if exc.reason == "seated":
        return conflict("already_seated", "you have a seat at this table already")
    if exc.reason == "held":
        return ApiError(
            429,
            "too_many_seats",
            f"you hold seats at {exc.count} tables; the server allows {most} at once "
            "(BOARDPLAY_WEB_SEATS_PER_ACCOUNT): leave one first",
        )
    return conflict("seek_taken", "this table filled up or was cancelled meanwhile")


async def leave(lobby: Lobby, account: Account, seek_id: str) -> None:
    """Give up the account's seat at a table before its game starts."""
    if await lobby.db(lobby.store.leave, seek_id, account.id, time.time(), lobby.epoch):
        lobby.changed()
        return
    raise not_found(f"you have no seat at table {quote(seek_id)}")
