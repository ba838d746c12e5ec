"""Challenges: an offer of a game to one named player, who accepts or declines it (its sender
may cancel it while it is open). Accepting starts the game for both at once, as accepting a
seek does (``seeks.start_game``); the same checks apply to the game offered
(``seeks.offer_of``: two players, luck nobody chose). Of several answers at once exactly one
wins (``SeekStore.settle``: one conditional update from ``open``); everything that could refuse
an acceptance (the admission rule) is checked before it, and the challenge is reopened if the
game then fails to start. The game is not counted against the acceptor's address
(``Limits.games_per_visitor``): its sender's challenges were counted when sent
(``challenges_per_hour``, ``challenges_per_account``), so a bot that answers challenges from
its host is bounded by its challengers, as on lichess. Both players' lobby sockets are told of
each change, and of the game it started.

A challenge's id is its game's (lichess's rule: a client that keeps the challenge's id finds the
game by it): drawn as a game's id is (``tokens.new_game_id``) and given to the game the
acceptance makes. The acceptance settles the challenge as ``STARTING`` (listed as open) and marks
it accepted, with its game's id, once the game exists: a reader that finds it accepted finds its
game. The challenger may choose its seat (lichess's
``color``); otherwise seats are drawn, as for a seek."""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Literal

from boardplay.web.accounts import Account
from boardplay.web.admission import Door, Seating
from boardplay.web.errors import ApiError, conflict, forbidden, not_found, quote
from boardplay.web.events import ChallengeSent
from boardplay.web.lobby.challengestore import (
    ACCEPTED,
    CANCELLED,
    DECLINED,
    OPEN,
    STARTING,
    Challenge,
)
from boardplay.web.lobby.schemas import ChallengeRequest
from boardplay.web.lobby.seeks import Started, offer_of, start_game
from boardplay.web.lobby.sockets import Lobby
from boardplay.web.throttles import Ceiling, Throttled
from boardplay.web.tokens import new_game_id

CHALLENGES_LISTED = 50
"""Challenges ``GET /api/challenges`` lists (newest first, sent and received together)."""
Answer = Literal["accept", "decline", "cancel"]


async def send_challenge(lobby: Lobby, account: Account, body: ChallengeRequest) -> Challenge:
    """Challenge the player named ``body.to`` (429 past ``Limits.challenges_per_account`` open
    ones sent, ``challenges_per_hour`` sent, or ``challenges_received`` waiting for them)."""
    offer = offer_of(lobby, body.game, body.options, body.rated, body.clock, table=False)
    name = body.to.strip()
    target = await lobby.accounts.by_name(name)
    if target is None:
        raise ApiError(404, "no_such_player", f"there is no player named {quote(name)}")
    if target.id == account.id:
        raise ApiError(400, "challenge_self", "you cannot challenge yourself")
    await lobby.maker.admission.offer(account.id, target)  # a block: 403 before it is sent
    limits = lobby.limits
    now = time.time()
    challenge = Challenge(
        id=new_game_id(),  # the game's id once accepted (lichess's: one id for both)
        from_account=account.id,
        to_account=target.id,
        game=offer.game,
        options=offer.options,
        rated=offer.rated,
        clock=offer.clock,
        created=now,
        updated=now,
        status=OPEN,
        from_name=account.name,
        to_name=target.name,
        from_bot=account.bot,
        to_bot=target.bot,
        seat=body.seat,
    )
    store = lobby.store
    hourly = Ceiling(f"challenges:{account.id}", limits.challenges_per_hour, 3600.0)
    try:
        held = await lobby.db(
            store.add_challenge,
            challenge,
            limits.challenges_per_account,
            limits.challenge_lifetime,
            limits.challenges_received,
            hourly,
        )
    except Throttled as exc:
        raise exc.error(
            "too_many_challenges",
            f"you have sent {limits.challenges_per_hour} challenges in the last hour, the most "
            "the server allows (BOARDPLAY_WEB_CHALLENGES_PER_HOUR)",
        ) from None
    if held == "sent":
        raise ApiError(
            429,
            "too_many_challenges",
            f"you have {limits.challenges_per_account} open challenges; the server allows "
            f"{limits.challenges_per_account} at once (BOARDPLAY_WEB_CHALLENGES_PER_ACCOUNT): "
            "cancel one or wait for an answer",
        )
    if held == "received":
        raise ApiError(
            429,
            "challenges_waiting",
            f"{target.name} has {limits.challenges_received} challenges waiting for an answer, "
            "the most the server keeps for one player (BOARDPLAY_WEB_CHALLENGES_RECEIVED): try "
            "again later",
        )
    message = {"type": "challenge", "challenge": challenge.to_json()}
    await lobby.tell([(target.id, message), (account.id, message)])
    await lobby.bus.publish(
        ChallengeSent(target.id, account.name, offer.game, offer.rated, challenge.id)
    )
    return challenge


async def my_challenges(lobby: Lobby, account: Account) -> dict[str, list[dict[str, Any]]]:
    """The account's challenges received and sent: open ones, and those settled lately."""
    found = await lobby.db(
        lobby.store.challenges_of,
        account.id,
        time.time(),
        lobby.limits.challenge_lifetime,
        CHALLENGES_LISTED,
    )
    return {
        "incoming": [c.to_json() for c in found if c.to_account == account.id],
        "outgoing": [c.to_json() for c in found if c.from_account == account.id],
    }


async def answer_challenge(
    lobby: Lobby,
    account: Account,
    visitor: str,
    challenge_id: str,
    answer: Answer,
    door: Door = Door.CHALLENGE,
) -> tuple[Challenge, Started | None]:
    """Accept or decline (the challenged player) or cancel (its sender) an open challenge; an
    acceptance is a table made through ``door`` (the page's, or the Bot API's)."""
    store, lifetime = lobby.store, lobby.limits.challenge_lifetime
    found = await lobby.db(store.challenge, challenge_id, time.time(), lifetime)
    if found is None or account.id not in (found.from_account, found.to_account):
        raise not_found(f"you have no challenge {quote(challenge_id)}")
    party = "from_account" if answer == "cancel" else "to_account"
    if getattr(found, party) != account.id:
        raise forbidden(
            "not_yours",
            "only its sender can cancel a challenge"
            if answer == "cancel"
            else f"only the challenged player can {answer} a challenge (you may cancel it)",
        )
    if found.status != OPEN:
        raise conflict("challenge_closed", f"this challenge is {found.status} already")
    sender: Account | None = None
    if answer == "accept":
        try:
            players = [found.from_account, account.id]
            sender, _ = await lobby.maker.admit(
                Seating(door, players, found.rated, account.id, visitor)
            )
        except ApiError as exc:
            if exc.code == "player_gone":
                raise not_found("the player who sent this challenge has left") from None
            raise
    status = {"accept": STARTING, "decline": DECLINED, "cancel": CANCELLED}[answer]
    if not await lobby.db(
        store.settle, challenge_id, party, account.id, status, time.time(), lifetime
    ):
        raise conflict("challenge_closed", "this challenge was answered or cancelled meanwhile")
    started: Started | None = None
    if sender is not None:
        try:
            started = await start_game(
                lobby,
                door,
                sender,
                [account],
                visitor,
                found.game,
                found.options,
                found.rated,
                found.clock,
                game_id=challenge_id,
                owner_seat=found.seat,
                counted=False,
            )
        except Exception:
            await lobby.db(store.started, challenge_id, None, OPEN, time.time())
            raise
        status = ACCEPTED
        await lobby.db(store.started, challenge_id, challenge_id, status, time.time())
    game_id = challenge_id if started is not None else None
    result = dataclasses.replace(found, status=status, game_id=game_id, updated=time.time())
    message = {"type": "challenge", "challenge": result.to_json()}
    notices: list[tuple[int, dict[str, Any]]] = [
        (found.to_account, message),
        (found.from_account, message),
    ]
    if started is not None:
        begun = {"type": "started", "game": started.room.row.id, "challenge": challenge_id}
        notices += [(found.to_account, begun), (found.from_account, begun)]
    await lobby.tell(notices)
    return result, started
