"""What a rated game is, and what its end means for ratings.

A game is rated when it is created so: a signed-in person in every seat and no AI (no hotseat,
no chosen luck), on a clock long enough to be a game (``check_rated_clock``). Its rating *pool*
is the game, with the player count where the game has a ``players`` option (Passtally 2 and 3,
Montana 2-4 are different contests). At its end each seat gets its place (``standing.places``,
the one reading of a result that the pages and profiles share): the winners first; then, if
the game keeps a numeric score per seat, the others by score; a seat that resigned comes after
every seat that did not. The ratings store the outcome once, when they hear ``GameFinished``
(``settle.py``, ``store.py``).

**Rated games worth their rating** (the fourth attack round farmed 1500 → 1842 in 7 s with a
second account, ten games of one turn and a resignation each):

- a game that ended at once by a player's word rather than on the board or the clock (a
  resignation, an agreed draw, an abandonment claim, an abort) before every seat had played
  ``RATED_MIN_TURNS`` turns of its own is not rated: it says nothing about anyone's play (a
  flag is rated: a clock takes at least the minimum rated time to fall);
- a result repeated between the same two players within a day counts less, each earlier one
  halving it (``repeats.py``), so however many games two accounts play, they move each
  other's rating less than ``repeats.PAIR_BOUND`` a day, while a first game moves in full;
- two accounts that share an address or a device, one of them made within the hour
  (``Limits.rated_fresh_account``), cannot play a rated game together: the admission rule
  (``admission/``), asked at every door a game is made through."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from boardplay.web.catalogue import WebCatalogue
from boardplay.web.errors import bad_request
from boardplay.web.played import Game
from boardplay.web.ratings.standing import ENDED_BY_WORD, places


class Control(Protocol):
    """A time control as the rating reads it (the table's ``TimeControl`` is one)."""

    @property
    def base(self) -> float: ...
    @property
    def increment(self) -> float: ...
    @property
    def correspondence(self) -> bool: ...


UNRATED = ""
"""The pool stored for a rated game that ended too early to count (it is settled, unrated)."""


def pool_of(game: str, options: Mapping[str, Any], num_players: int) -> str:
    """The ratings ``game`` played with ``options`` by ``num_players`` counts for."""
    return f"{game}-{num_players}p" if "players" in options else game


RATED_MIN_MINUTES = 1.0
"""The shortest real-time game that is rated, as its estimated length: base + 40 increments
(lichess's estimate of a game's length) of at least a minute per player, so 1+0, ½+1, 0+2
and longer. Shorter games are a test of the connection more than of the players."""


def check_rated_clock(control: Control | None) -> None:
    """400 unless ``control`` is long enough to be rated (correspondence always is)."""
    if control is None or control.correspondence:
        return
    estimate = control.base + 40 * control.increment
    if estimate < RATED_MIN_MINUTES * 60:
        raise bad_request(
            f"a rated real-time game lasts at least {RATED_MIN_MINUTES:g} minute per player as "
            f"base + 40 × increment (this clock gives {estimate:g} s): choose a longer clock, "
            "or play it casual"
        )


RATED_MIN_TURNS = 3
"""Turns every seat must have played for a game ended by a player's word to be rated."""


def turns_played(row: Game) -> list[int]:
    """Per seat, the turns it played: runs of its own decisions (chance steps inside a run do
    not break it; an answer inside another's turn, such as a Montana auction bid, counts)."""
    turns = [0] * len(row.seats)
    last = None
    for move in row.moves:
        if move.player < 0:
            continue
        if move.player != last and 0 <= move.player < len(turns):
            turns[move.player] += 1
        last = move.player
    return turns


def places_of(row: Game) -> list[tuple[int, int]] | None:
    """(account, place) per seat of a finished rated game, or None when it does not count: a
    seat without an account, a seat that never moved, or an end by a player's word before
    every seat played ``RATED_MIN_TURNS`` turns."""
    result = row.result or {}
    accounts = [seat.account for seat in row.seats]
    turns = turns_played(row)
    if any(a is None for a in accounts) or not all(turns):
        return None
    if result.get("ended") in ENDED_BY_WORD and min(turns) < RATED_MIN_TURNS:
        return None
    seats = places({**result, "resigned": list(row.resigned)}, len(row.seats))
    return [
        (int(account), place)
        for account, place in zip(accounts, seats, strict=True)
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
