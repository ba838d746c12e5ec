"""Game clocks: the time controls a game may be played under and how the server keeps time.

Pure rules, no storage: a room (``rooms.py``) asks ``next_clock`` for the clock after each stored
change and writes it in the same transaction as the change; ``timeouts.py`` ends games whose
clock falls. Every time is a server time (seconds since the epoch, from ``Hub.now``, which tests
replace), taken when the server accepts a change, so neither a slow network nor a player's own
clock can add or take time.

**Time controls.** *Real-time* (Fischer): ``base`` seconds each, and ``increment`` seconds added
once per turn, when the turn ends. *Correspondence*: ``days`` per move; a seat's clock is set to
the whole allowance each time the game comes to it. *Untimed*: no clock at all (``None``).

**Whose clock runs.** The clock of the seat that must decide now (``current_player``): the
player whose turn it is, or a seat answering inside another's turn (a Montana City auction asks
the other players to place or pass and to take their rewards). Each player pays for their own
thinking, so nobody's time runs while another player deliberates, and a seat that never answers
is flagged like one that never moves. The increment belongs to the turn and goes to the turn's
owner once, when the turn passes on (``State.turn``); answers inside another's turn earn none. In a
correspondence game each answer gets the full allowance, like a move.

**When no clock runs.** Before every seat is taken (nobody waits for a player who has not
arrived), while an AI is to move (its think time is the operator's ceiling, not a clock), and
while the server resolves chance: chance steps are applied within the same accepted change, so
the time between the move and the next decision is never anybody's.

**A clock held for the players.** A game made for players who did not ask for it at that moment
(a tournament's pairing, which may come while a player still reads how their last game ended)
starts with its clock *held*: ``waiting`` names the seats whose players have not come to the
table yet, and no clock runs until every one of them has (their page's socket said who they are,
their bot's game stream opened, a request or a move with their seat's token: ``Room.came``), or
until ``start_by`` (``ARRIVAL_GRACE`` after the pairing, lichess's bounded wait for a
tournament's first move), whichever comes first. So nobody's time runs while they are away,
and nobody waits for an absent opponent longer than the grace: after it the clock runs, and a
seat that never comes is flagged before it moved, which aborts the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boardplay.web.errors import bad_request, quote

DAY = 86_400.0
PRESETS: tuple[tuple[int, int], ...] = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20))
"""Real-time presets offered by the page, as (minutes, increment seconds)."""
DAYS: tuple[int, ...] = (1, 2, 3, 5, 7, 14)
"""The correspondence allowances offered, in days per move."""
MAX_BASE = 3 * 3600
"""Longest real-time base a game may set (3 hours); longer games are correspondence."""
MAX_INCREMENT = 180
"""Largest increment per turn (3 minutes)."""
MIN_BASE = 15
"""Shortest base (seconds), unless the increment alone keeps a game going."""
ARRIVAL_GRACE = 20.0
"""Seconds a held clock waits for its players to come to the table before it runs anyway: long
enough for a page to show the last game's end and move on (``pages/nextgame.js``: 5 s at most
there), short enough that a player whose opponent never comes is not kept waiting."""


@dataclass(frozen=True)
class TimeControl:
    """A real-time control (``base``, ``increment`` seconds) or a correspondence one (``days``)."""

    base: float = 0.0
    increment: float = 0.0
    days: int | None = None

    @property
    def correspondence(self) -> bool:
        return self.days is not None

    @property
    def allowance(self) -> float:
        """A seat's time at the start (real-time) or at each move (correspondence)."""
        return self.days * DAY if self.days is not None else self.base

    def to_json(self) -> dict[str, Any]:
        if self.days is not None:
            return {"days": self.days}
        return {"base": _number(self.base), "increment": _number(self.increment)}

    def label(self) -> str:
        """``5+3`` (minutes + seconds) or ``3 days``: how lobbies write a time control."""
        if self.days is not None:
            return f"{self.days} day{'s' if self.days != 1 else ''}"
        minutes = self.base / 60
        shown = f"{minutes:g}" if minutes >= 1 else f"{minutes:.2g}"
        return f"{shown}+{self.increment:g}"


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def parse_control(raw: Any, field_name: str = "clock") -> TimeControl | None:
    """The time control of a request (``None`` or absent: untimed), or a 400 that says what is
    allowed. Reads ``{"base": s, "increment": s}`` or ``{"days": n}``."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise bad_request(
            f"{field_name} must be an object: {{'base': seconds, 'increment': seconds}} or "
            "{'days': n}"
        )
    keys = set(raw)
    if keys == {"days"}:
        days = raw["days"]
        if isinstance(days, bool) or days not in DAYS:
            raise bad_request(
                f"{field_name}.days must be one of {', '.join(map(str, DAYS))}; got {quote(days)}"
            )
        return TimeControl(days=int(days))
    if keys - {"base", "increment"} or "base" not in keys:
        unknown = ", ".join(sorted(str(k) for k in keys - {"base", "increment", "days"}))
        why = f" (unknown: {unknown})" if unknown else ""
        raise bad_request(
            f"{field_name} takes 'base' and 'increment' (seconds) or 'days' alone{why}"
        )
    base = _seconds(raw["base"], f"{field_name}.base", MAX_BASE)
    increment = _seconds(raw.get("increment", 0), f"{field_name}.increment", MAX_INCREMENT)
    if base < MIN_BASE and increment < 1:
        raise bad_request(
            f"{field_name}.base must be at least {MIN_BASE} seconds (or give an increment)"
        )
    return TimeControl(base=base, increment=increment)


def _seconds(value: Any, name: str, ceiling: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise bad_request(f"{name} must be a number of seconds; got {quote(value)}")
    if not 0 <= value <= ceiling:
        raise bad_request(f"{name} must be between 0 and {ceiling:g} seconds; got {value:g}")
    return float(value)


def control_of(stored: Mapping[str, Any] | None) -> TimeControl | None:
    """The time control a game was stored with (already checked when it was made)."""
    if not stored:
        return None
    if stored.get("days") is not None:
        return TimeControl(days=int(stored["days"]))
    return TimeControl(float(stored.get("base", 0)), float(stored.get("increment", 0)))


@dataclass
class Clock:
    """Each seat's time as of ``since`` (when the running seat's clock last started; the others
    are stopped), the running seat (None: no clock runs) and the seats whose time ran out; a
    held clock's ``waiting`` seats (whose players have not come to the table yet) and
    ``start_by``, when it runs whoever is missing."""

    left: list[float]
    seat: int | None = None
    since: float | None = None
    flagged: list[int] = field(default_factory=list)
    waiting: list[int] = field(default_factory=list)
    start_by: float | None = None

    @classmethod
    def fresh(cls, control: TimeControl, seats: int, start_by: float | None = None) -> Clock:
        """A clock with every seat's full time; with ``start_by``, held for every seat's player
        until then."""
        if start_by is None:
            return cls([control.allowance] * seats)
        return cls([control.allowance] * seats, waiting=list(range(seats)), start_by=start_by)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None, control: TimeControl, seats: int) -> Clock:
        if not raw:
            return cls.fresh(control, seats)
        return cls(
            [float(x) for x in raw.get("left", [])] or [control.allowance] * seats,
            raw.get("seat"),
            raw.get("since"),
            [int(s) for s in raw.get("flagged", [])],
            [int(s) for s in raw.get("waiting", [])],
            raw.get("start_by"),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "left": [round(x, 3) for x in self.left],
            "seat": self.seat,
            "since": self.since,
            "flagged": list(self.flagged),
        }
        if self.waiting:
            out.update(waiting=list(self.waiting), start_by=self.start_by)
        return out

    def waits(self, now: float) -> bool:
        """The clock is held at ``now``: a player has not come and ``start_by`` has not come."""
        return bool(self.waiting) and self.start_by is not None and now < self.start_by

    @property
    def wake(self) -> float | None:
        """When the server must look at the game's time next (stored as its ``deadline``): the
        running seat's time runs out, or a held clock's ``start_by`` comes."""
        if self.seat is None and self.waiting:
            return self.start_by
        return self.deadline

    @property
    def deadline(self) -> float | None:
        """When the running seat's time runs out (None: no clock runs)."""
        if self.seat is None or self.since is None:
            return None
        return self.since + self.left[self.seat]

    def remaining(self, seat: int, now: float) -> float:
        """``seat``'s time left at ``now`` (never below zero)."""
        left = self.left[seat]
        if seat == self.seat and self.since is not None:
            left -= now - self.since
        return max(0.0, left)

    def due(self, now: float) -> bool:
        """The running seat's time has run out by ``now``."""
        deadline = self.deadline
        return deadline is not None and now >= deadline


def next_clock(
    control: TimeControl,
    clock: Clock,
    now: float,
    turns: tuple[tuple[int, int], tuple[int, int]] | None,
    runner: int | None,
) -> Clock:
    """The clock after a change accepted at ``now``: the running seat is charged its time, the
    owner of a turn that ended (``turns``: the turn before the change and after it, None when no
    move was made) gets the increment, and ``runner`` (the
    seat that must decide next, if a person's clock should run; None otherwise) starts (a held
    clock no longer waits then). In a
    correspondence game a seat's clock is set to the full allowance whenever a new decision comes
    to it (a new turn, or the clock coming from another seat)."""
    left = list(clock.left)
    if clock.seat is not None and clock.since is not None:
        left[clock.seat] = max(0.0, left[clock.seat] - (now - clock.since))
    turn_ended = turns is not None and turns[0] != turns[1]
    owner = turns[0][0] if turns is not None else -1
    held = clock.seat is None and bool(clock.waiting)  # a turn that cost no time earns none
    if turn_ended and not held and 0 <= owner < len(left) and owner not in clock.flagged:
        left[owner] += control.increment  # zero in a correspondence game
    if runner is None:  # a held clock stays held
        return Clock(left, None, None, list(clock.flagged), list(clock.waiting), clock.start_by)
    if control.correspondence and (runner != clock.seat or turn_ended):
        left[runner] = control.allowance
    return Clock(left, runner, now, list(clock.flagged))
