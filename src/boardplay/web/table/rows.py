"""What a stored game is, as the server holds it in memory: its row (``GameRow``) and its seats
(``SeatRow``), the words of its seat kinds, and the refusal a write meets when another process
changed the game first (``StaleWrite``). ``storage.py`` reads and writes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from boardplay.core.game import State
from boardplay.core.records import Move
from boardplay.web.played import ACTIVE
from boardplay.web.table.clocks import Clock
from boardplay.web.tokens import digest_matches

HUMAN = "human"
"""A seat played by the game's creator from their own browser."""
HOTSEAT = "hotseat"
"""A seat played from the creator's browser too, by whoever sits there (same token)."""
AI = "ai"
"""A seat played by the server with an agent spec (``easy`` .. ``expert``, ``random``)."""
INVITE = "invite"
"""A seat for a player who joins with the invitation link's code."""
OPEN = "open"
"""A seat anyone can take from the lobby's list of open games."""
SEAT_KINDS = (HUMAN, HOTSEAT, AI, INVITE, OPEN)

UNKNOWN_AI = -2
"""``ai_seat`` of a game nobody has checked yet for an AI to move (stored by an older version,
or written without saying); the first process to load it works it out and stores it."""
AI_ERROR_LENGTH = 400


class StaleWrite(Exception):
    """Another process changed the game since the revision this write was based on."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def epoch_ms(moment: datetime) -> int:
    """``moment`` in milliseconds since the epoch, as lichess's API writes times (a time read
    back without its zone, as SQLite gives it, is UTC: the server writes UTC only)."""
    return round((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp() * 1000)


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    spec: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None
    account: int | None = None
    """The account whose seat this is (its player signed in), if any."""
    keys: tuple[str, ...] = ()
    """Hashes of the seat's other tokens (``seat_keys_table``)."""
    bot: bool = False
    """The seat's account is a bot account (read with the game: every view marks it BOT)."""

    @property
    def claimed(self) -> bool:
        return self.kind == AI or self.token_hash is not None

    def held_by(self, digest: str | None) -> bool:
        """Whether the token whose ``hash_token`` is ``digest`` holds this seat (hashed once by
        the caller for all the seats: every view sent asks this of every seat)."""
        return digest_matches(digest, self.token_hash) or any(
            digest_matches(digest, key) for key in self.keys
        )


def ai_to_move(seats: Sequence[SeatRow], state: State) -> int | None:
    """The AI seat ``state`` waits for, None if it waits for no AI (a person, chance, the end):
    a game's pending AI job, whoever works it out (a new game's row, a room after a move)."""
    current = state.current_player()
    if current >= 0 and seats[current].kind == AI:
        return current
    return None


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: int | None
    """The agreed seed of a reproducible game; None for a game whose chance is drawn by the
    server from ``secrets`` (never stored, never shown)."""
    seats: list[SeatRow]
    start_position: dict[str, Any] | None = None
    status: str = ACTIVE
    result: dict[str, Any] | None = None
    created: datetime = field(default_factory=utc_now)
    updated: datetime = field(default_factory=utc_now)
    moves: list[Move] = field(default_factory=list)
    revision: int = 0
    """Raised by every stored change; a copy with the database's revision is current."""
    ai_seat: int | None = UNKNOWN_AI
    """The AI seat to move (a pending AI job), None if no AI is to move."""
    ai_error: str | None = None
    """Why the last AI move was not the AI's own choice (shown to the players)."""
    private: bool = False
    """Left out of the lobby's lists: only those given its link can watch or join it."""
    resigned: list[int] = field(default_factory=list)
    """Seats that gave up (``endings.py``); the game ends when one seat is left."""
    draw_offer: dict[str, Any] | None = None
    """A draw proposed and not yet settled: ``{"by": seat, "agreed": [seats]}``."""
    rematch: str | None = None
    rematch_offer: dict[str, Any] | None = None
    """Play again, proposed and not yet agreed by every player (``{"by", "agreed"}``)."""
    """The id of the game "play again" started from this one (seats swapped)."""
    owner: str | None = None
    """A hash of the address that made the game (``guard.visitor_of``): whose quota it counts
    against and whose turn in the AI queue its AI moves take."""
    owner_network: str | None = None
    """A hash of the owner's wider network (``guard.prefix_of``), for the AI-only ceilings."""
    owner_account: int | None = None
    """The account signed in when the game was made, for the AI-only ceilings."""
    rated: bool = False
    """Its result changes its players' ratings (every seat a signed-in person, no AI)."""
    clock: dict[str, Any] | None = None
    """The time control (``clocks.py``): ``{"base", "increment"}`` or ``{"days"}``; None:
    untimed."""
    clock_state: dict[str, Any] | None = None
    """Each seat's time as of the last clock event, the running seat, the flagged seats."""
    deadline: float | None = None
    """When the server must look at the game's time next (server time, seconds): its running
    clock falls, or its held clock starts (``Clock.wake``); None while no clock runs."""

    @property
    def thinking(self) -> int | None:
        """The AI seat to move (its job is waiting or running on some process), if any."""
        seat = self.ai_seat
        return seat if seat is not None and seat >= 0 else None

    @property
    def hints_allowed(self) -> bool:
        """Hints are for games without another person at the table: no invited or open seat
        (there, a hint would be outside help against a person; ``advice/reviews.py``)."""
        return not any(s.kind in (INVITE, OPEN) for s in self.seats)

    @property
    def ai_only(self) -> bool:
        """Every seat is played by an AI (the games counted by ``ai_games_per_visitor``)."""
        return all(s.kind == AI for s in self.seats)


def clock_values(clock: Clock | None) -> dict[str, Any]:
    """A change that moves a game's clock stores it and when it falls, in the same
    transaction (``clock`` None: a change that leaves the clock as it is)."""
    if clock is None:
        return {}
    return {"clock_state": clock.to_json(), "deadline": clock.wake}


def job_values(ai_seat: int | None, ai_error: str | None) -> dict[str, Any]:
    """A change ends any AI job in progress and opens the next one (if an AI is to move)."""
    error = ai_error[:AI_ERROR_LENGTH] if ai_error else None
    return {
        "ai_seat": ai_seat,
        "ai_owner": None,
        "ai_lease": None,
        "ai_attempts": 0,
        "ai_error": error,
    }


@dataclass(frozen=True, slots=True)
class InPlay:
    """A real-time game being played by signed-in players at every seat, as those who look for
    games worth watching read it (the lobby's TV): its game, options, the accounts in seat order
    and the names they play under."""

    id: str
    game: str
    options: dict[str, Any]
    players: tuple[int, ...]
    names: tuple[str, ...]
    rated: bool


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended, all that those who follow ends read of it (a tournament's places):
    its result and the seats that resigned."""

    result: dict[str, Any] | None
    resigned: list[int]


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """One change of a game's moves, as it is stored: its plies (``moves`` as plies
    ``first_ply, first_ply + 1, ...``), the status and result after them, the revision it is
    based on (when given), the AI job it opens and the clock it sets. Written the same way by
    ``Storage.write`` (a transaction) and ``pgwrite.MovesWriter`` (one statement)."""

    game_id: str
    first_ply: int
    moves: Sequence[Move]
    status: str
    result: dict[str, Any] | None
    revision: int | None = None
    ai_seat: int | None = UNKNOWN_AI
    ai_error: str | None = None
    clock: Clock | None = None

    def values(self) -> dict[str, Any]:
        """The game's columns the change sets."""
        return {
            "status": self.status,
            "result": self.result,
            **job_values(self.ai_seat, self.ai_error),
            **clock_values(self.clock),
        }
