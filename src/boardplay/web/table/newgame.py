"""A new game's row and its seats, built from what was asked and checked part by part before
anything is stored: each seat's kind, a name that fits its column, an AI seat's spec within the
operator's think-time and iteration ceilings, a rated game's seats. Every door that makes a game
(``creation.py``) builds its row here, so a game is stored the same way however it was made."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.ai.specs import make_agent
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game
from boardplay.web.config import Limits
from boardplay.web.errors import bad_request, quote
from boardplay.web.table import storage as st
from boardplay.web.table.clocks import Clock, TimeControl
from boardplay.web.table.schema import NAME_LENGTH, SPEC_LENGTH
from boardplay.web.table.seating import NAME_CHARS
from boardplay.web.text import tidy
from boardplay.web.tokens import hash_token, new_token


def new_row(
    game_id: str,
    game: Game,
    seats: list[st.SeatRow],
    clock: TimeControl | None,
    seed: int | None = None,
    start_by: float | None = None,
    **more: Any,
) -> st.GameRow:
    """A new game's row, whatever door made it: the game as built (its name, its options
    complete), its seats, and its clock, if it has one, with every seat's full time (held for
    every seat's player until ``start_by``, if given: ``clocks.py``); ``more``, the row's other
    fields (its owner, whether it is rated...)."""
    fresh = None if clock is None else Clock.fresh(clock, len(seats), start_by)
    if more.get("start_position") is None and "ai_seat" not in more:
        # Who is to move is known now, so the first process to load the game need not store
        # it (``Room.settle``: a write and a new revision for every game made). A game that
        # starts at chance, or from a position, is worked out there.
        first = game.new_initial_state()
        if not first.is_chance_node() and not first.is_terminal():
            more["ai_seat"] = st.ai_to_move(seats, first)
    return st.GameRow(
        id=game_id,
        game=game.name,
        options=dict(game.options),
        seed=seed,
        seats=seats,
        clock=None if clock is None else clock.to_json(),
        clock_state=None if fresh is None else fresh.to_json(),
        deadline=None if fresh is None else fresh.wake,
        **more,
    )


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


def seat_row(
    game: Game,
    index: int,
    seat: Mapping[str, Any],
    token: str,
    invites: dict[int, str],
    limits: Limits,
) -> st.SeatRow:
    """Seat ``index`` of a created game as its request asked (``seats[index]``): the creator's
    and hotseat seats hold ``token``'s hash, an invited seat a new code's (kept in ``invites``),
    an AI seat its spec (``check_spec``); a seat without a name gets one."""
    kind = seat.get("kind")
    if kind == "me":
        kind = st.HUMAN
    if kind not in st.SEAT_KINDS:
        raise bad_request(
            f"seats[{index}].kind must be one of me, {', '.join(st.SEAT_KINDS)}; got {quote(kind)}"
        )
    raw_name = seat.get("name")
    if raw_name is not None and not isinstance(raw_name, str):
        raise bad_request(f"seats[{index}].name must be a string")
    name = tidy(raw_name or "")[:NAME_CHARS]
    if kind == st.AI:
        spec = seat.get("spec")
        if not isinstance(spec, str) or not spec.strip():
            raise bad_request(f"seats[{index}] is an AI seat and needs a spec, e.g. 'easy'")
        spec = spec.strip()
        check_spec(game, spec, f"seats[{index}].spec", limits)
        default = tidy(f"AI ({spec})")
        if len(default) > NAME_LENGTH:
            default = default[: NAME_LENGTH - 2] + "…)"
        return st.SeatRow(index, kind, name or default, spec=spec)
    if kind in (st.HUMAN, st.HOTSEAT):
        name = name or game.seat_name(index)
        return st.SeatRow(index, kind, name, token_hash=hash_token(token))
    if kind == st.INVITE:
        code = new_token()
        invites[index] = code
        return st.SeatRow(index, kind, name or "Invited player", invite_hash=hash_token(code))
    return st.SeatRow(index, kind, name or "Open seat")


def check_spec(game: Game, spec: str, field: str, limits: Limits) -> None:
    """Refuse an AI spec that does not parse, does not fit its column, or asks for more think
    time per move than the operator's ceiling, or (setting no time) more iterations (naming
    the ceiling)."""
    if len(spec) > SPEC_LENGTH:
        raise bad_request(f"{field} is longer than {SPEC_LENGTH} characters")
    try:
        agent = make_agent(spec, game, 0)
    except BoardplayError as exc:
        raise bad_request(f"{field}: {exc}") from None
    time_limit = getattr(agent, "time_limit", None)
    if time_limit is not None and not (
        math.isfinite(time_limit) and time_limit <= limits.ai_max_time
    ):
        raise bad_request(
            f"{field} asks for {time_limit:g} s per move; this server's ceiling is "
            f"{limits.ai_max_time:g} s (BOARDPLAY_WEB_AI_MAX_TIME)"
        )
    # A spec with its own think time (within the ceiling) is stopped by that time, so its
    # iteration cap is only a cap inside it (the expert levels ask for 100,000-200,000 in
    # 0.1 s); the iteration ceiling holds for specs that set no time.
    iterations = getattr(agent, "iterations", None)
    if time_limit is None and iterations is not None and iterations > limits.ai_max_iterations:
        raise bad_request(
            f"{field} asks for {iterations} iterations per move; this server's ceiling is "
            f"{limits.ai_max_iterations} (BOARDPLAY_WEB_AI_MAX_ITERATIONS)"
        )
