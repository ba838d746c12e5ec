"""Finding an opponent: seeks (an offer of a game open to any signed-in player) and how an
accepted offer starts its game (challenges, offers to one named player, are ``challenges.py``;
tables, seeks for three or four players that fill up seat by seat, ``tables.py``; quick games
``quick.py``). Stored by ``store.py``; the lobby's sockets are told of every change
(``sockets.py``).

Why it works as it does:

- **Two players accept, more sit down.** Accepting a two-player seek starts the game at once,
  for both. A seek for three or four players is a table: each player takes a seat and the last
  seat starts it (``tables.py``), so accepting one is refused (409 ``take_a_seat``). Challenges
  stay two-player: a third player cannot be named.
- **Exactly one acceptor wins.** Accepting a seek deletes its row, and answering a challenge
  moves it from ``open`` by one conditional update: of any number of requests at once, on any
  number of processes, exactly one finds the row, and only that one starts a game. Everything
  that could refuse the request (the rating range, the quota) is checked before that step, so a
  refusal changes nothing; should the game then fail to start, the seek is put back (the
  challenge reopened).
- **The game.** The owner's seat is theirs (kind ``me``, their account); the acceptor (every
  seated player of a table) takes another through an invitation code that never leaves the
  server, so no stranger can take it from the list of open games between the two steps. Who
  sits where is drawn at random. All are sent ``{"type": "started", "game"}`` on their lobby
  sockets; their pages fetch their seat tokens with ``POST /api/account/games/{id}/token`` (the
  answer to the request that started it carries its token already).
- **Ratings.** A seek's range is the opponents' ratings it accepts, in the game's pool
  (``ratings.pool_of``); a player without a rating there counts as ``NEW_RATING`` (1500). The
  range applies to rated and unrated seeks alike. A quick game pairs with the open seek closest
  in rating among those of the same game, options and rated flag whose range includes the
  player and whose owner is within the player's own range; if none fits, it posts that seek
  (or keeps the same one posted before). Looking and posting are one step under a lock on the
  game, so two players asking for the same quick game at once are paired, not both posted.
- **Ceilings** (``config.Limits``): open seeks per account, open challenges sent per account
  (429 past either), seeks listed. Starting a game counts against the acceptor's hourly game
  quota (``GameMaker.check_quota``), as creating one does: the acceptor's request is what makes it.
- **Luck nobody chose.** Options that fix what chance decides (a chosen deal) make a game
  reproducible, which its players must agree to one by one; a seek or challenge is for games
  whose luck is the server's, so such options are refused."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardplay.web.accounts import Account
from boardplay.web.admission import Door, Seating
from boardplay.web.errors import ApiError, bad_request, conflict, forbidden, not_found, quote
from boardplay.web.lobby.schemas import SeekRequest
from boardplay.web.lobby.sockets import Lobby
from boardplay.web.lobby.store import Seek
from boardplay.web.ratings import pool_of
from boardplay.web.table import ClockRequest, Room, control_of
from boardplay.web.throttles import Ceiling, Throttled


@dataclass(frozen=True)
class Offer:
    """A validated game offer: the game with its options in full (defaults filled in, so two
    offers compare equal exactly when they make the same game) and its rating pool."""

    game: str
    options: dict[str, Any]
    players: int
    pool: str
    rated: bool
    clock: dict[str, Any] | None
    """The time control (``TimeControl.to_json``), None for an untimed game."""


@dataclass(frozen=True)
class Posted:
    """A seek stored (as opposed to an open one chosen instead, for a quick game)."""

    seek: Seek


@dataclass(frozen=True)
class Started:
    """A game a seek or challenge started, and the acceptor's seat in it."""

    room: Room
    token: str
    seat: int


def new_id() -> str:
    """A short random id (not a secret: seeks are public, challenges checked by account)."""
    return secrets.token_urlsafe(6)


def offer_of(
    lobby: Lobby,
    game: str,
    options: Mapping[str, Any] | None,
    rated: bool,
    clock: ClockRequest | None = None,
    table: bool = True,
) -> Offer:
    """The offer a seek (``table``: of any player count the game has) or a challenge (two
    players) makes."""
    built = lobby.catalogue.build(game.strip(), options or {})
    control = clock.control() if clock is not None else None
    if rated and control is None:
        raise bad_request("a rated game needs a clock (field 'clock'): untimed games are casual")
    if built.num_players != 2 and not table:
        raise bad_request(
            f"challenges are for two-player games; {built.name} with these options has "
            f"{built.num_players} seats (open a table in the lobby instead: post a seek)"
        )
    if any(
        spec.fixes_chance and built.options[spec.name] != spec.default
        for spec in built.option_set.specs
    ):
        raise bad_request(
            "these options fix what chance decides (the game would be reproducible): a seek "
            "or challenge is for games whose luck nobody chose"
        )
    found = dict(built.options)
    shown = None if control is None else control.to_json()
    players = built.num_players
    return Offer(built.name, found, players, pool_of(built.name, found, players), rated, shown)


def check_range(low: int | None, high: int | None) -> None:
    if low is not None and high is not None and low > high:
        raise bad_request(f"rating_min ({low}) is above rating_max ({high})")


async def rating_of(lobby: Lobby, account_id: int, pool: str) -> float:
    """The account's rating in ``pool`` (``NEW_RATING`` if it has none there)."""
    return await lobby.ratings.rating(account_id, pool)


async def rating_in_range(lobby: Lobby, account_id: int, seek: Seek) -> float:
    """The account's rating in ``seek``'s pool, or a 403 if it is outside the range the seek
    asks of its opponents (a table: of its players)."""
    pool = pool_of(seek.game, seek.options, seek.players)
    mine = await rating_of(lobby, account_id, pool)
    if not seek.accepts(mine):
        low = "any" if seek.rating_min is None else str(seek.rating_min)
        high = "any" if seek.rating_max is None else str(seek.rating_max)
        what = "table is for players" if seek.table else "seek is for opponents"
        raise forbidden(
            "out_of_range",
            f"this {what} rated {low} to {high} in {pool}; your rating there is {round(mine)}",
        )
    return mine


# ----- seeks ---------------------------------------------------------------------------------
async def list_seeks(lobby: Lobby, reader: int | None = None) -> list[Seek]:
    """The open seeks ``reader`` is shown (without those a block hides: ``listing.py``)."""
    return await lobby.listing.seeks_for(reader)


async def post_seek(lobby: Lobby, account: Account, body: SeekRequest) -> Seek:
    """A new seek of ``account`` (429 past ``Limits.seeks_per_account``)."""
    offer = offer_of(lobby, body.game, body.options, body.rated, body.clock)
    check_range(body.rating_min, body.rating_max)
    mine = await rating_of(lobby, account.id, offer.pool)
    posted = await post(lobby, account, offer, body, mine)
    assert isinstance(posted, Posted)  # (nothing to pick from without ``pick``)
    return posted.seek


async def post(
    lobby: Lobby,
    account: Account,
    offer: Offer,
    body: SeekRequest,
    rating: float,
    pick: Callable[[list[Seek]], Seek | None] | None = None,
) -> Seek | Posted:
    """Store a new seek (``Posted``), or return the open seek ``pick`` chose instead."""
    limits = lobby.limits
    now = time.time()
    seek = Seek(
        id=new_id(),
        account_id=account.id,
        game=offer.game,
        options=offer.options,
        rated=offer.rated,
        clock=offer.clock,
        rating=rating,
        rating_min=body.rating_min,
        rating_max=body.rating_max,
        players=offer.players,
        created=now,
        # Kept alive by this process if the owner's lobby is open here; else by whichever
        # process holds it (it claims the seek on reading the event), or it expires.
        epoch=lobby.epoch if account.id in lobby.by_account else "",
        name=account.name,
    )
    store = lobby.store
    hourly = Ceiling(f"seeks:{account.id}", limits.seeks_per_hour, 3600.0)
    try:
        found = await lobby.db(
            store.post,
            seek,
            limits.seeks_per_account,
            now,
            limits.seek_ttl,
            lobby.epoch,
            pick,
            hourly,
        )
    except Throttled as exc:
        raise exc.error(
            "too_many_seeks",
            f"you have posted {limits.seeks_per_hour} seeks in the last hour, the most the "
            "server allows (BOARDPLAY_WEB_SEEKS_PER_HOUR)",
        ) from None
    if isinstance(found, Seek):
        return found
    if found is not None:
        raise ApiError(
            429,
            "too_many_seeks",
            f"you have {found} open seeks; the server allows {limits.seeks_per_account} at "
            "once (BOARDPLAY_WEB_SEEKS_PER_ACCOUNT): cancel one first",
        )
    lobby.changed()
    return Posted(seek)


async def cancel_seek(lobby: Lobby, account: Account, seek_id: str) -> None:
    store = lobby.store
    if await lobby.db(store.cancel, seek_id, account.id, time.time(), lobby.epoch):
        lobby.changed()
        return
    if await lobby.db(store.seek, seek_id, time.time(), lobby.limits.seek_ttl) is not None:
        raise forbidden("not_your_seek", "only the player who posted a seek can cancel it")
    raise not_found(f"there is no open seek {quote(seek_id)}")


async def accept_seek(
    lobby: Lobby, account: Account, visitor: str, seek_id: str, door: Door = Door.SEEK
) -> Started:
    seek = await lobby.db(lobby.store.seek, seek_id, time.time(), lobby.limits.seek_ttl)
    if seek is None:
        raise not_found(f"there is no open seek {quote(seek_id)} (taken, cancelled or gone)")
    if seek.account_id == account.id:
        raise conflict(
            "own_seek", "this is your own seek: wait for someone to accept it, or cancel it"
        )
    if seek.table:
        raise conflict(
            "take_a_seat",
            f"this is a table for {seek.players} players: take a seat "
            f"(POST /api/seeks/{seek.id}/sit); the game starts when every seat is taken",
        )
    return await take(lobby, account, visitor, seek, door)


async def take(
    lobby: Lobby, account: Account, visitor: str, seek: Seek, door: Door = Door.SEEK
) -> Started:
    """Accept ``seek`` for ``account``: check (the admission rule first: nothing changes if
    it refuses), take it (one winner), start the game."""
    await rating_in_range(lobby, account.id, seek)
    owner, _ = await admit(lobby, door, seek, [seek.account_id, account.id], account, visitor)
    await lobby.maker.check_quota(visitor)
    store, limits = lobby.store, lobby.limits
    if not await lobby.db(
        store.take, seek.id, account.id, time.time(), limits.seek_ttl, lobby.epoch
    ):
        raise conflict("seek_taken", "someone else accepted this seek first (or it was cancelled)")
    lobby.changed()
    try:
        started = await start_game(
            lobby, door, owner, [account], visitor, seek.game, seek.options, seek.rated, seek.clock
        )
    except Exception:
        await lobby.db(store.restore, seek, time.time(), lobby.epoch)
        lobby.changed()
        raise
    message = {"type": "started", "game": started.room.row.id, "seek": seek.id}
    await lobby.tell([(owner.id, message), (account.id, message)])
    return started


async def for_people(lobby: Lobby, account: Account, rated: bool = False) -> None:
    """Refuse a bot at the lobby's lists before anything is posted or answered: the admission
    rule's lobby doors (403 ``bot_no_seeks``; a bot plays through challenges, lichess's rule),
    and a marked player a ``rated`` seek (403 ``marked``: nobody could take it). Taking a seek
    or a seat asks the rule again with every player at the table."""
    await lobby.maker.admit(Seating(Door.SEEK, [account.id], rated))


async def admit(
    lobby: Lobby, door: Door, seek: Seek, players: Sequence[int], account: Account, visitor: str
) -> list[Account]:
    """The admission rule for ``account`` taking ``seek`` (its owner first among ``players``,
    read now), as the lobby words a player who has gone."""
    try:
        return await lobby.maker.admit(Seating(door, players, seek.rated, account.id, visitor))
    except ApiError as exc:
        if exc.code == "player_gone":
            raise not_found("the player who posted this offer has left") from None
        raise


async def start_game(
    lobby: Lobby,
    door: Door,
    owner: Account,
    others: Sequence[Account],
    visitor: str,
    game: str,
    options: Mapping[str, Any],
    rated: bool,
    clock: Mapping[str, Any] | None = None,
    game_id: str | None = None,
    owner_seat: int | None = None,
    counted: bool = True,
) -> Started:
    """The game of the offer's ``owner`` and ``others`` (its acceptor, or a table's seated
    players, the one whose request starts it last), made through ``door``, seats drawn at
    random unless the owner chose theirs (``owner_seat``: a challenge's ``color``), under the
    offer's time control (``clock``), with the id ``game_id`` if given (a challenge's); the
    last of ``others``'s seat is returned. ``counted``: the game counts against ``visitor``'s
    games of the hour (not a challenge's: its sender was counted)."""
    players = [*others]
    random.SystemRandom().shuffle(players)
    at = random.SystemRandom().randrange(len(players) + 1) if owner_seat is None else owner_seat
    players.insert(at, owner)
    last = others[-1]
    room, tokens = await lobby.maker.seat(
        door,
        game,
        options,
        [p.id for p in players],
        rated=rated,
        clock=control_of(clock),
        owner=visitor,
        newcomer=last.id,
        visitor=visitor,
        new_id=game_id,
        counted=counted,
    )
    await room.changed()
    seat = next(i for i, p in enumerate(players) if p.id == last.id)
    await withdraw_seeks(lobby, [owner.id, *(p.id for p in others)])
    return Started(room, tokens[seat], seat)


async def withdraw_seeks(lobby: Lobby, account_ids: Sequence[int]) -> None:
    """The players now have a game: their other seeks go, and their seats at other tables
    (nobody can take up the offer of a player who is busy playing and find them gone)."""
    await lobby.withdraw(account_ids)
