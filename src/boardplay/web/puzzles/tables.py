"""The puzzles' tables and the rows their store reads (``store.py`` says how they are used;
migration 0026 makes them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from boardplay.web.database import metadata

ID_LENGTH = 40
TOKEN_LENGTH = 16
OWNER_LENGTH = 80
GAME_LENGTH = 64
PLAYING, SOLVED, FAILED = "playing", "solved", "failed"

puzzles_table = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
    sa.Column("game", sa.String(GAME_LENGTH), nullable=False, index=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("choices", sa.Integer, nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("plays", sa.Integer, nullable=False, server_default="0"),
    sa.Column("added", sa.Float, nullable=False),
)
"""``data``: the puzzle as its file holds it (docs/formats/puzzles.md), solution and all; what
leaves the server of it is chosen by the service. ``plays``: rated attempts settled."""

players_table = sa.Table(
    "puzzle_players",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(GAME_LENGTH), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("plays", sa.Integer, nullable=False, server_default="0"),
    sa.Column("updated", sa.Float, nullable=False),
)

attempts_table = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column("id", sa.String(TOKEN_LENGTH), primary_key=True),
    sa.Column("puzzle_id", sa.String(ID_LENGTH), nullable=False),
    sa.Column("owner", sa.String(OWNER_LENGTH), nullable=False, index=True),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("rated_for", sa.Integer, nullable=True),
    sa.Column("mode", sa.String(8), nullable=False),
    sa.Column("streak_id", sa.String(TOKEN_LENGTH), nullable=True, index=True),
    sa.Column("actions", sa.JSON, nullable=False),
    sa.Column("moves", sa.Integer, nullable=False, server_default="0"),
    sa.Column("status", sa.String(8), nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.UniqueConstraint("puzzle_id", "rated_for", name="uq_puzzle_attempts_rated"),
)
"""``owner``: ``account:<id>`` or ``device:<hash>``; ``mode``: ``rated``, ``practice`` (a later
try, or a guest's), ``streak``; ``actions``: the solver's action ids, in order, ``moves`` their
count (what a move's update checks, so that of two moves sent at once only one is stored)."""

results_table = sa.Table(
    "puzzle_results",
    metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("attempt_id", sa.String(TOKEN_LENGTH), nullable=False, unique=True),
    sa.Column("puzzle_id", sa.String(ID_LENGTH), nullable=False, index=True),
    sa.Column("account_id", sa.Integer, nullable=False, index=True),
    sa.Column("game", sa.String(GAME_LENGTH), nullable=False),
    sa.Column("solved", sa.Boolean, nullable=False),
    sa.Column("player_before", sa.JSON, nullable=False),
    sa.Column("player_after", sa.JSON, nullable=False),
    sa.Column("puzzle_before", sa.JSON, nullable=False),
    sa.Column("puzzle_after", sa.JSON, nullable=False),
    sa.Column("settled", sa.Float, nullable=False),
)
"""Each rating is ``[rating, deviation, volatility]``."""

streaks_table = sa.Table(
    "puzzle_streaks",
    metadata,
    sa.Column("id", sa.String(TOKEN_LENGTH), primary_key=True),
    sa.Column("owner", sa.String(OWNER_LENGTH), nullable=False, index=True),
    sa.Column("game", sa.String(GAME_LENGTH), nullable=False),
    sa.Column("seed", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False, server_default="0"),
    sa.Column("current", sa.String(ID_LENGTH), nullable=True),
    sa.Column("alive", sa.Boolean, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
)
"""``current``: the puzzle being solved now (None once the streak is over)."""

Triple = tuple[float, float, float]
Rate = Callable[[Triple, Triple, bool], tuple[Triple, Triple]]
"""The rating rule the service hands the store: (player, puzzle, solved) -> both after."""


@dataclass(frozen=True)
class PuzzleRow:
    id: str
    game: str
    kind: str
    choices: int
    data: dict[str, Any]
    rating: Triple
    plays: int


@dataclass(frozen=True)
class AttemptRow:
    id: str
    puzzle_id: str
    owner: str
    account_id: int | None
    rated: bool
    mode: str
    streak_id: str | None
    actions: list[int]
    status: str


@dataclass(frozen=True)
class StreakRow:
    id: str
    owner: str
    game: str
    seed: int
    solved: int
    current: str | None
    alive: bool


@dataclass(frozen=True)
class Settled:
    """A rated attempt's rating changes: the player's and the puzzle's, before and after."""

    player_before: Triple
    player_after: Triple
    puzzle_before: Triple
    puzzle_after: Triple
