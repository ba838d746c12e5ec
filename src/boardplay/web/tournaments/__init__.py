"""Tournaments: arenas, Swiss and pods for the games of three and four, on the clock, rated or
casual. The pairing and scoring engines are pure (``swiss.py``, ``arena.py``, ``pods.py`` over
``records.py``, ``standings.py`` and ``matching.py``); docs/tournaments.md gives each format's
rules as implemented."""

from __future__ import annotations

from boardplay.web.tournaments.arena import pair_wave
from boardplay.web.tournaments.director import TICK
from boardplay.web.tournaments.listing import LIST_LIMIT, LIST_TTL
from boardplay.web.tournaments.plans import Plan
from boardplay.web.tournaments.pods import pair_pods
from boardplay.web.tournaments.records import Bye, Table
from boardplay.web.tournaments.schemas import TournamentRequest
from boardplay.web.tournaments.service import Tournaments
from boardplay.web.tournaments.standings import Standing, standings
from boardplay.web.tournaments.swiss import pair_round

__all__ = [
    "LIST_LIMIT",
    "LIST_TTL",
    "TICK",
    "Bye",
    "Plan",
    "Standing",
    "Table",
    "TournamentRequest",
    "Tournaments",
    "pair_pods",
    "pair_round",
    "pair_wave",
    "standings",
]
