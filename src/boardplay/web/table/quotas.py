"""What a maker may make: the ceilings on games made, counted in the transaction that stores the
game, so that a burst of parallel requests on one process or several gets no more than the
ceiling (a count read before the insert and checked after would let a burst through).

- games per hour per address (``Limits.games_per_visitor``; a "play again" counts too), a
  throttle row taken before the insert (``throttles.py``);
- games played by AIs alone running at once: ``ai_games_per_visitor`` per address, per network
  (an IPv4 /24, an IPv6 /48) and per signed-in account, and ``ai_only_games`` on the whole
  server, counted under one lock (PostgreSQL: a transaction advisory lock; SQLite has one
  writer). Each such game keeps an AI worker busy until it ends; with these ceilings and the
  worker slots kept for games with a person at the table (``workers/aiqueue.py``), many addresses
  cannot starve one visitor's instant AI.

A ceiling reached is a 429 naming it and the setting that raises it (``too_many``); the doors
that make games are ``creation.py``'s."""

from __future__ import annotations

import zlib

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.config import Limits
from boardplay.web.errors import ApiError
from boardplay.web.table import storage as st
from boardplay.web.table.schema import games_table
from boardplay.web.throttles import Ceiling, Throttled, take

QUOTA_WINDOW = 3600.0
"""Seconds of the window of ``Limits.games_per_visitor``."""
AI_LOCK = zlib.crc32(b"boardplay-ai-only-games")
"""The advisory lock AI-only games are counted and stored under (PostgreSQL)."""


def games_ceiling(owner: str, limits: Limits) -> Ceiling:
    return Ceiling(f"games:{owner}", limits.games_per_visitor, QUOTA_WINDOW)


class TooManyAiGames(Throttled):
    """The AI-only games running for ``who`` are at their ceiling."""

    def __init__(self, who: str, running: int, most: int) -> None:
        super().__init__(Ceiling(f"ai-only:{who}", most, 0.0), 0.0)
        self.who = who
        self.running = running


def insert_counted(engine: Engine, row: st.GameRow, limits: Limits, counted: bool = True) -> None:
    """Store ``row`` as a new game in one transaction with its counts: its owner's games of the
    hour (unless not ``counted``: an accepted challenge's, whose sender was counted), and if
    AIs alone play it, the AI-only games running (``TooManyAiGames``); raises ``Throttled`` and
    stores nothing past a ceiling."""
    with engine.begin() as conn:
        if row.owner is not None and counted:
            take(conn, [games_ceiling(row.owner, limits)], st.utc_now().timestamp())
        if row.ai_only:
            _count_ai_games(conn, row, limits)
        st.insert_game(conn, row)


def _count_ai_games(conn: sa.Connection, row: st.GameRow, limits: Limits) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(AI_LOCK)))
    table = games_table
    running = sa.and_(table.c.ai_only.is_(sa.true()), table.c.status == st.ACTIVE)
    counts = [
        ("address", table.c.owner, row.owner, limits.ai_games_per_visitor),
        ("network", table.c.owner_prefix, row.owner_network, limits.ai_games_per_visitor),
        ("account", table.c.owner_account, row.owner_account, limits.ai_games_per_visitor),
    ]
    for who, column, value, most in counts:
        if value is None:
            continue
        found = conn.execute(
            sa.select(sa.func.count()).where(running, column == value)
        ).scalar_one()
        if found >= most:
            raise TooManyAiGames(who, int(found), most)
    total = conn.execute(sa.select(sa.func.count()).where(running)).scalar_one()
    if total >= limits.ai_only_games:
        raise TooManyAiGames("server", int(total), limits.ai_only_games)


def too_many(exc: Throttled, limits: Limits) -> ApiError:
    """The 429 for a ceiling on games made that ``exc`` reached, naming it and its setting."""
    if isinstance(exc, TooManyAiGames):
        if exc.who == "server":
            why = (
                f"the server already runs {exc.running} games played by AIs alone, its "
                f"ceiling (BOARDPLAY_WEB_AI_ONLY_GAMES)"
            )
        else:
            why = (
                f"this {exc.who} already has {exc.running} games played by AIs alone "
                f"running; the server allows {limits.ai_games_per_visitor} at once "
                "(BOARDPLAY_WEB_AI_GAMES_PER_VISITOR)"
            )
        return ApiError(429, "too_many_ai_games", f"{why}: let one finish first")
    most = limits.games_per_visitor
    return exc.error(
        "too_many_games",
        f"this address has made {most} games in the last hour; the server allows {most} "
        "(BOARDPLAY_WEB_GAMES_PER_VISITOR)",
    )
