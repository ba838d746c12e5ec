"""What a tournament may be: the ``Plan`` someone asks for, checked whole against the games'
catalogue and the operator's ceilings before anything is stored, each problem a 400 naming it
(some with a code of their own, so that the page can word them). A plan that passes can be
played to its end: its game loads at every table size it seats, its clock is one a rated game
may have, it starts within the lead the operator allows and lasts no longer than allowed.

A game that counts its players in an option is set for each table's size (``options_for``),
whether the tournament is checked, rated or paired."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.ratings import check_rated_clock
from boardplay.web.table import ClockRequest, TimeControl
from boardplay.web.tournaments.model import KINDS

DAY = 86400.0


@dataclass(frozen=True)
class Plan:
    """A tournament asked for (``api/tournaments.py`` reads it from the request)."""

    name: str
    kind: str
    game: str
    options: Mapping[str, Any]
    sizes: Sequence[int]
    clock: Mapping[str, Any]
    rated: bool
    starts: float
    minutes: int | None = None
    rounds: int | None = None
    bots: bool = False


def check_plan(
    plan: Plan, catalogue: WebCatalogue, limits: Limits, now: float
) -> tuple[dict[str, Any], TimeControl]:
    """``plan``'s game options (canonical) and clock, once every part of it is allowed at
    ``now``; else the 400 naming the first problem."""
    if plan.kind not in KINDS:
        raise bad_request(f"kind must be one of {', '.join(KINDS)}")
    sizes = sorted(set(plan.sizes))
    if not sizes or any(not 2 <= s <= 4 for s in sizes):
        raise bad_request("sizes: the players at one table, each 2, 3 or 4")
    if plan.kind != "pods" and sizes != [2]:
        raise bad_request(f"an {plan.kind} is for games of two (sizes [2]); pods seat 3-4")
    options = dict(catalogue.build(plan.game, plan.options).options)
    for size in sizes:
        game = catalogue.build(plan.game, options_for(options, size))
        if game.num_players != size:
            raise bad_request(f"{plan.game} with these options is not a game of {size}")
    try:
        control = ClockRequest.model_validate(dict(plan.clock)).control()
    except ValidationError as exc:
        raise bad_request(f"clock: {exc.errors()[0]['msg']}") from None
    if control is None:
        raise bad_request("every tournament game is on the clock: give clock")
    if plan.rated:
        try:
            check_rated_clock(control)
        except ApiError as exc:  # its own code, so that the page can word it
            raise ApiError(400, "rated_clock_too_short", exc.message) from None
        if plan.bots:
            raise ApiError(
                400,
                "rated_with_bots",
                "a tournament open to bots is casual: bots play rated games against people "
                "through challenges only",
            )
    days = limits.tournament_lead_days
    if not now - 60 <= plan.starts <= now + days * DAY:
        raise ApiError(
            400,
            "bad_start",
            f"starts: a time from now to {days:g} days ahead (seconds since 1970)",
        )
    if plan.kind == "arena":
        minutes = limits.tournament_minutes
        if plan.minutes is None or not 1 <= plan.minutes <= minutes:
            raise ApiError(400, "bad_length", f"an arena lasts minutes: 1 to {minutes}")
    elif plan.rounds is None or not 1 <= plan.rounds <= limits.tournament_rounds:
        raise ApiError(
            400, "bad_length", f"a {plan.kind} has rounds: 1 to {limits.tournament_rounds}"
        )
    return options, control


def options_for(options: Mapping[str, Any], size: int) -> dict[str, Any]:
    """A game's (canonical) options at a table of ``size``: a game that counts its players in
    an option (Montana's and Passtally's ``players``) gets it set."""
    chosen = dict(options)
    if "players" in chosen:
        chosen["players"] = size
    return chosen
