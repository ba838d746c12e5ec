"""What each line of the Bot API's streams says (docs/bots.md, "What the streams carry"):
lichess's field names and shapes where the Bot API overlaps lichess's, boardplay's where the
games differ (seats, each game's notation, chance moves, the position as the game's own JSON).
The streams (``streams.py``) decide when a line goes; this module decides what it carries.

**Cost.** A move reaches every game stream of the game, and each stream's ``gameState`` holds
the moves, the legal moves and the position: the part that depends on the game alone is built
and encoded once per revision on each process (``shared_state``, through
``fanout.shared_line``: one text for every stream of the game), and each stream adds only the
clocks read at its own moment. Nothing of it is read from the room's public view: that view
(every move's words, the text picture, hints) is for pages, and a game between bots may have
none open; the position, the legal moves and the clocks come from the room's state
(``Room.glance``) and clock."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from boardplay.core.registry import game_class
from boardplay.web.bots.fanout import shared_line
from boardplay.web.ratings import NEW_RATING, pool_of
from boardplay.web.sockets import encode
from boardplay.web.table import Room, TimeControl

STATUS = {
    "resignation": "resign",
    "agreement": "draw",
    "time": "outoftime",
    "aborted": "aborted",
    "abandoned": "abandoned",
}
"""``gameState.status`` of a game ended by its players or the clock (lichess's words); one the
rules ended is ``finished``, one running ``started``."""
NO_CLOCK_MS = 2_147_483_647
"""``wtime``/``btime`` of a game without a clock: lichess's value for "no limit"."""
SPEEDS = ((30, "ultraBullet"), (180, "bullet"), (480, "blitz"), (1500, "rapid"))
"""lichess's speed of a real-time clock, by its estimated length per player (base + 40 ×
increment, the estimate the rated rules use too) below each bound; longer is ``classical``."""
DECLINE_REASONS = {
    "generic": "I am not accepting challenges now.",
    "later": "Not now: ask me again later.",
    "tooFast": "This clock is too fast for me: challenge me to a slower game.",
    "tooSlow": "This clock is too slow for me: challenge me to a faster game.",
    "timeControl": "I do not play with this clock.",
    "rated": "Send me a rated challenge instead.",
    "casual": "Send me a casual challenge instead.",
    "standard": "I do not play these options now.",
    "variant": "I do not play this game.",
    "noBot": "I do not play bots.",
    "onlyBot": "I play bots only.",
}
"""lichess's decline reasons (its keys), each in a sentence of ours."""


def status_of(room: Room) -> str:
    row = room.row
    if row.status != "finished":
        return "started"
    ended = (row.result or {}).get("ended")
    return STATUS.get(ended, "finished") if isinstance(ended, str) else "finished"


def times_of(room: Room, now: float) -> list[int] | None:
    """Each seat's time left in milliseconds as of ``now`` (the running seat's counted down),
    from the room's clock, as the page's clock is (not through the view: a bot's every line
    would build one)."""
    clock = room.clock
    if clock is None:
        return None
    left = list(clock.left)
    running, since = clock.seat, clock.since
    if running is not None and since is not None and room.row.status != "finished":
        left[running] = max(0.0, left[running] - (now - since))
    return [round(x * 1000) for x in left]


def title_of(game: str) -> str:
    """The game's name as people read it (a class attribute: no game is built for it)."""
    try:
        return str(getattr(game_class(game), "title", game))
    except Exception:  # a catalogue's game outside the registry (the tests' tiny one)
        return game


def variant(game: str) -> dict[str, str]:
    """lichess's ``variant``: the game's key (as challenges name it) and its name."""
    return {"key": game, "name": title_of(game)}


def speed_of(control: TimeControl | None) -> str:
    """lichess's speed: a real-time clock's by its estimated length; a game with days per move
    or no clock at all is ``correspondence``, as lichess calls its unlimited games too."""
    if control is None or control.correspondence:
        return "correspondence"
    estimate = control.base + 40 * control.increment
    return next((name for bound, name in SPEEDS if estimate < bound), "classical")


def time_control(clock: Mapping[str, Any] | None) -> dict[str, Any]:
    """lichess's ``timeControl`` of a challenge (seconds, as lichess gives them there)."""
    if not clock:
        return {"type": "unlimited"}
    if clock.get("days") is not None:
        return {"type": "correspondence", "daysPerTurn": clock["days"]}
    base, increment = clock.get("base", 0), clock.get("increment", 0)
    return {
        "type": "clock",
        "limit": base,
        "increment": increment,
        "show": f"{base / 60:g}+{increment:g}",
    }


def control_of_json(clock: Mapping[str, Any] | None) -> TimeControl | None:
    if not clock:
        return None
    if clock.get("days") is not None:
        return TimeControl(days=int(clock["days"]))
    return TimeControl(float(clock.get("base", 0)), float(clock.get("increment", 0)))


def player(name: str | None, bot: bool, rating: int | None) -> dict[str, Any]:
    """A player as lichess names one (``id`` the lower-case name, ``title`` BOT for a bot), with
    boardplay's ``bot``."""
    return {
        "id": name.lower() if name else None,
        "name": name,
        "title": "BOT" if bot else None,
        "rating": rating,
        "bot": bot,
    }


def rating(ratings: Mapping[tuple[int, str], float], account: int | None, pool: str) -> int | None:
    """The account's rating in ``pool`` from a ``Ratings.ratings_of`` answer (None: no account)."""
    if account is None:
        return None
    return round(ratings.get((account, pool), NEW_RATING))


# ----- the game stream's state --------------------------------------------------------------
class StateKey(NamedTuple):
    """What makes a ``gameState`` worth sending (a stream sends one only when its key changed)."""

    ply: int
    status: str
    draw_offer: Any
    resigned: tuple[int, ...]


def state_key(room: Room) -> StateKey:
    return StateKey(
        len(room.moves),
        status_of(room),
        (room.row.draw_offer or {}).get("by"),
        tuple(room.row.resigned),
    )


def shared_state(room: Room) -> str:
    """The members of the ``gameState`` the same for every stream of the game, encoded (no
    braces): every move so far in the game's notation (chance outcomes included, seat -1), whose
    turn it is and the legal moves, how the game stands, and the position in the game's JSON
    (docs/formats/<game>.md). Built once per revision of the room for every stream of this
    process (``fanout.shared_line``), for the audience ``()``: all of it is what the public
    view says (``Room.glance``), and a seat's view (``views.seat_view``) adds only what the
    page lets that seat do (none of it in a state), so every seat, and anyone, is given the
    very same members; hidden information stays out of the position as it stays out of the
    game page's."""

    def build() -> str:
        glance = room.glance()
        over = room.row.status == "finished" or glance.terminal
        current = glance.current_player
        result = room.row.result or {}
        members = {
            "moves": [m.notation for m in room.moves],
            "seats": [m.player for m in room.moves],
            "ply": len(room.moves),
            "turn": None if over or current is None or current < 0 else current,
            "legal": [] if over else glance.legal,
            "status": status_of(room),
            "winners": result.get("winners") if over else None,
            "result": result.get("text") if over else None,
            "drawOffer": (room.row.draw_offer or {}).get("by"),
            "resigned": list(room.row.resigned),
            "position": glance.position,
        }
        return encode(members)[1:-1]

    return shared_line(room, (), room.row.revision, build)


def clocks(room: Room, now: float) -> dict[str, Any]:
    """The state's clocks as of ``now``: ``times`` per seat (ms, null without a clock) and, in a
    two-seat game, lichess's ``wtime``/``btime``/``winc``/``binc`` (ms) for seats 0 and 1."""
    times = times_of(room, now)
    out: dict[str, Any] = {"times": times}
    if len(room.row.seats) == 2:
        control = room.control
        increment = (
            0 if control is None or control.correspondence else round(control.increment * 1000)
        )
        out.update(
            wtime=NO_CLOCK_MS if times is None else times[0],
            btime=NO_CLOCK_MS if times is None else times[1],
            winc=increment,
            binc=increment,
        )
    return out


def state_line(room: Room, now: float) -> str:
    """A ``gameState`` line's JSON: the shared members and this stream's clocks as of ``now``."""
    return '{"type":"gameState",' + shared_state(room) + "," + encode(clocks(room, now))[1:]


def lichess_clock(control: TimeControl | None) -> dict[str, Any]:
    """``gameFull``'s lichess members of the time control: ``clock`` ``{initial, increment}``
    in ms (null without a real-time clock), and ``daysPerTurn`` with days per move."""
    if control is None:
        return {"clock": None}
    if control.correspondence:
        return {"clock": None, "daysPerTurn": control.days}
    return {
        "clock": {
            "initial": round(control.base * 1000),
            "increment": round(control.increment * 1000),
        }
    }


def full_members(room: Room) -> dict[str, Any]:
    """``gameFull``'s lichess members besides the clock: the game as ``variant``, its ``speed``
    and ``perf`` (the rating pool it counts for)."""
    row = room.row
    title = title_of(row.game)
    return {
        "variant": {"key": row.game, "name": title},
        "speed": speed_of(room.control),
        "perf": {"key": pool_of(row.game, row.options, len(row.seats)), "name": title},
        **lichess_clock(room.control),
    }


def with_state(head: Mapping[str, Any], state: str) -> str:
    """``head``'s JSON with the member ``state`` (an encoded ``gameState``) added last."""
    return encode(head)[:-1] + ',"state":' + state + "}"


# ----- the event stream -----------------------------------------------------------------------
def players_of(room: Room) -> list[dict[str, Any]]:
    return [
        {"seat": s.seat, "name": s.name, "bot": s.bot, "ai": s.kind == "ai"} for s in room.row.seats
    ]


def game_event(
    kind: str,
    room: Room,
    seats: list[int],
    now: float,
    ratings: Mapping[tuple[int, str], float],
    source: str | None,
) -> dict[str, Any]:
    """A ``gameStart`` or ``gameFinish`` line: boardplay's members and lichess's (``opponent``
    the first seat after the bot's that is not its own; ``secondsLeft`` the bot's first seat's
    time; ``source`` how the game was made, when the stream was told)."""
    row = room.row
    current = room.glance().current_player
    control = room.control
    pool = pool_of(row.game, row.options, len(row.seats))
    others = [s for s in row.seats if s.seat not in seats]
    others.sort(key=lambda s: (s.seat - (seats[0] if seats else 0)) % len(row.seats))
    opponent = None
    if others:
        first = others[0]
        opponent = {
            "id": first.name.lower() if first.account is not None else None,
            "username": first.name,
            "rating": rating(ratings, first.account, pool),
            "ai": first.kind == "ai",
        }
    times = times_of(room, now)
    mine = seats[0] if seats else None
    return {
        "type": kind,
        "game": {
            "id": row.id,
            "gameId": row.id,
            "game": row.game,
            "variant": variant(row.game),
            "rated": row.rated,
            "speed": speed_of(control),
            "perf": pool,
            "yourSeats": seats,
            "isMyTurn": row.status != "finished" and current in seats,
            "hasMoved": any(m.player in seats for m in room.moves),
            "lastMove": room.moves[-1].notation if room.moves else "",
            "opponent": opponent,
            "secondsLeft": None
            if times is None or mine is None
            else math.floor(times[mine] / 1000),
            "source": source,
            "players": players_of(room),
            "clock": None if control is None else control.to_json(),
            "status": status_of(room),
            "winners": (row.result or {}).get("winners"),
        },
    }


CHALLENGE_KINDS = {
    "open": "challenge",
    "declined": "challengeDeclined",
    "cancelled": "challengeCanceled",
}


def challenge_kind(challenge: Mapping[str, Any]) -> str | None:
    """The event line of a challenge by its status (None: nothing to say; an accepted challenge
    is announced by its game's ``gameStart``)."""
    return CHALLENGE_KINDS.get(str(challenge.get("status")))


def challenge_event(
    challenge: Mapping[str, Any], ratings: Mapping[str, int | None]
) -> dict[str, Any] | None:
    """The event line of a challenge the lobby told of: boardplay's challenge with lichess's
    members added (``ratings`` by the players' names, in the game's pool)."""
    kind = challenge_kind(challenge)
    if kind is None:
        return None
    sender, receiver = challenge.get("from"), challenge.get("to")
    game = str(challenge.get("game"))
    color = challenge.get("color") or "random"
    game_id = challenge.get("game_id")
    out = {
        **challenge,
        "url": f"/#/game/{game_id}" if game_id else "/#/",
        "challenger": player(sender, bool(challenge.get("from_bot")), ratings.get(str(sender))),
        "destUser": player(receiver, bool(challenge.get("to_bot")), ratings.get(str(receiver))),
        "variant": variant(game),
        "speed": speed_of(control_of_json(challenge.get("clock"))),
        "timeControl": time_control(challenge.get("clock")),
        "color": color,
        "finalColor": challenge.get("finalColor") or (None if color == "random" else color),
        "perf": {"name": title_of(game)},
    }
    if kind == "challengeDeclined":
        key = str(challenge.get("decline_reason") or challenge.get("declineReasonKey") or "generic")
        key = key if key in DECLINE_REASONS else "generic"
        out.update(declineReasonKey=key, declineReason=DECLINE_REASONS[key])
    return {"type": kind, "challenge": out}
