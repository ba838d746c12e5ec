"""The tournament domain's tables: a tournament, its entrants, the tables of its rounds (or
arena waves) and its byes (private to the domain: reads and writes are ``store.py``'s, and other
domains read tournaments through its API). Every domain's tables share ``database.metadata``;
the Alembic migrations create them."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from boardplay.web.database import metadata
from boardplay.web.tournaments.model import Tournament

tournaments_table = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("sizes", sa.JSON, nullable=False),
    sa.Column("clock", sa.JSON, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("starts", sa.Float, nullable=False),
    sa.Column("minutes", sa.Integer, nullable=True),
    sa.Column("rounds", sa.Integer, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("round", sa.Integer, nullable=False, server_default="0"),
    sa.Column("creator", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
    sa.Column("entrants_revision", sa.Integer, nullable=False, server_default="0"),
)
"""``sizes``: the players at one table (one size for Swiss and arena, 3 and/or 4 for pods).
``clock``: the time control every game is played on. ``bots``: bot accounts may enter.
``minutes``: an arena's length; ``rounds``: a Swiss's or pods'. ``round``: the last round (or
arena wave) paired. ``revision``: raised by every change the tournament's page shows (``rows.bump``;
migration 0027), what a poll compares (``paging.py``). ``entrants_revision``: raised by every
change of its entrants (migration 0029), so a process reads them again only then
(``store.TournamentStore``)."""

entrants_table = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Index("ix_tournament_players_account_id", "account_id"),
)
"""``rating``: the player's rating in the game's pool when they joined (their seed).
``status``: active, paused (the arena pairs them no more until they come back) or withdrawn
(no longer paired; their games stay in the standings)."""

boards_table = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=False, unique=True),
    sa.Column("players", sa.JSON, nullable=False),
    sa.Column("made", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("places", sa.JSON, nullable=True),
    sa.Column("ended", sa.Float, nullable=True),
    sa.Column("claimed_until", sa.Float, nullable=True),
)
"""A round's (or wave's) tables: ``players`` account ids in seat order, ``game_id`` chosen when
paired, ``made`` once that game exists, ``places`` once it has ended. ``claimed_until``: until
when a process making the game holds it (``TournamentStore.claim``; migration 0028)."""

byes_table = sa.Table(
    "tournament_byes",
    metadata,
    sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
)


def tournament_of(row: Any) -> Tournament:
    """A tournament from its stored row."""
    return Tournament(
        row.id,
        row.name,
        row.kind,
        row.game,
        dict(row.options),
        list(row.sizes),
        dict(row.clock),
        bool(row.rated),
        float(row.starts),
        row.minutes,
        row.rounds,
        row.status,
        int(row.round),
        row.creator,
        float(row.created),
        row.finished,
        bool(row.bots),
        int(row.revision),
        int(row.entrants_revision),
    )
