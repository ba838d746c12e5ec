"""What a rated game is, and what its end means for ratings.

A game is rated when it is created so: a signed-in person in every seat and no AI (no hotseat,
no chosen luck). Its rating *pool* is the game, with the player count where the game has a
``players`` option (Passtally 2 and 3, Montana 2-4 are different contests). At its end each
seat gets a place (1 is best): the winners first; then, if the game keeps a numeric score per
seat, the others by score; a seat that resigned comes after every seat that did not. A game
that ended before every seat had made a move (one player left at once) is not rated: it says
nothing about anyone's play. ``Hub.settle_ratings`` stores the outcome once
(``ratingstore.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.web import storage as st
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.errors import ApiError, bad_request

UNRATED = ""
"""The pool stored for a rated game that ended too early to count (it is settled, unrated)."""


def pool_of(game: str, options: Mapping[str, Any], num_players: int) -> str:
    """The ratings ``game`` played with ``options`` by ``num_players`` counts for."""
    return f"{game}-{num_players}p" if "players" in options else game


def check_rated_seats(
    seats: Sequence[Mapping[str, Any]], reproducible: bool, private: bool
) -> None:
    """A rated game's seats: the creator's ("me") and invited or open seats for other signed-in
    players; nothing a person at the table did not choose to play for rating. It is public (its
    result shows on profiles, linking to it) and its luck is nobody's choice."""
    kinds = [seat.get("kind") for seat in seats]
    if kinds.count("me") + kinds.count(st.HUMAN) != 1 or any(
        k not in ("me", st.HUMAN, st.INVITE, st.OPEN) for k in kinds
    ):
        raise bad_request(
            "a rated game has your seat (kind me) and invite or open seats only: every seat "
            "is a signed-in player, so no AI and no hotseat"
        )
    if reproducible:
        raise bad_request(
            "a rated game cannot be reproducible: its luck must be unknown to every player"
        )
    if private:
        raise bad_request("a rated game cannot be private: its result shows on profiles")


def sign_in_needed(what: str) -> ApiError:
    return ApiError(401, "sign_in_required", f"sign in to {what}")


def places_of(row: st.GameRow) -> list[tuple[int, int]] | None:
    """(account, place) per seat of a finished rated game, or None when it does not count."""
    result = row.result or {}
    accounts = [seat.account for seat in row.seats]
    movers = {move.player for move in row.moves}
    if any(a is None for a in accounts) or not all(s.seat in movers for s in row.seats):
        return None
    winners = set(result.get("winners") or [])
    resigned = set(row.resigned)
    scores = result.get("scores")
    numeric = (
        isinstance(scores, list)
        and len(scores) == len(row.seats)
        and all(isinstance(x, int | float) for x in scores)
    )

    def key(seat: int) -> tuple[int, int, float]:
        score = float(scores[seat]) if numeric else 0.0  # type: ignore[index]
        return (seat in resigned, seat not in winners, -score)

    keys = [key(seat.seat) for seat in row.seats]
    ordered = sorted(set(keys))
    return [
        (int(account), 1 + ordered.index(k))
        for account, k in zip(accounts, keys, strict=True)
        if account is not None
    ]


def pools(catalogue: WebCatalogue) -> list[str]:
    """Every pool the games offered here can be rated in (a leaderboard each)."""
    out: list[str] = []
    for name in catalogue.names():
        game = catalogue.build(name, {})
        counts = [
            int(choice)
            for spec in game.option_set.specs
            if spec.name == "players"
            for choice in (spec.choices or ())
            if isinstance(choice, int)
        ]
        if counts:
            out.extend(pool_of(name, {"players": n}, n) for n in counts)
        else:
            out.append(name)
    return out
