"""The fair-play evidence of rated games: one row per seat of a judged game (the account that
held it, the rating pool, the moves judged, those agreeing with the judge, the forced ones left
out, the summed loss of win chance). The rules (what is judged, when the flag fires) are
``service.py`` and ``boardplay.ai.fairplay``; this module stores and sums."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.ai.fairplay import SeatEvidence, Tally
from boardplay.web.database import metadata

evidence_table = sa.Table(
    "fairplay_evidence",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("pool", sa.String(64), nullable=False),
    sa.Column("judged", sa.Integer, nullable=False),
    sa.Column("agreed", sa.Integer, nullable=False),
    sa.Column("forced", sa.Integer, nullable=False),
    sa.Column("loss", sa.Float, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_fairplay_evidence_account_pool", "account_id", "pool"),
)
"""One account's seat in one judged rated game."""


@dataclass(frozen=True)
class GameEvidence:
    """One account's evidence from one game, as a moderator reads it."""

    game_id: str
    pool: str
    evidence: SeatEvidence
    created: float

    def to_json(self) -> dict[str, Any]:
        one = self.evidence
        return {
            "game_id": self.game_id,
            "pool": self.pool,
            "seat": one.seat,
            "judged": one.judged,
            "agreed": one.agreed,
            "forced": one.forced,
            "agreement": None if one.agreement is None else round(one.agreement, 4),
            "mean_loss": None if one.mean_loss is None else round(one.mean_loss, 4),
            "created": self.created,
        }


class FairPlayStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, game_id: str, pool: str, seats: Sequence[tuple[int, SeatEvidence]]) -> bool:
        """Store a judged game's evidence, (account, evidence) per seat an account held; False
        when the game was judged already (nothing changes)."""
        now = time.time()
        with self.engine.begin() as conn:
            known = conn.execute(
                sa.select(evidence_table.c.game_id).where(evidence_table.c.game_id == game_id)
            ).first()
            if known is not None:
                return False
            for account_id, one in seats:
                conn.execute(
                    evidence_table.insert().values(
                        game_id=game_id,
                        seat=one.seat,
                        account_id=account_id,
                        pool=pool,
                        judged=one.judged,
                        agreed=one.agreed,
                        forced=one.forced,
                        loss=one.loss,
                        created=now,
                    )
                )
        return True

    def judged(self, game_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(evidence_table.c.game_id).where(evidence_table.c.game_id == game_id)
            ).first()
        return found is not None

    def tallies(self, account_id: int) -> dict[str, Tally]:
        """The account's evidence summed per pool."""
        t = evidence_table
        query = (
            sa.select(
                t.c.pool,
                sa.func.count(),
                sa.func.sum(t.c.judged),
                sa.func.sum(t.c.agreed),
                sa.func.sum(t.c.loss),
            )
            .where(t.c.account_id == account_id)
            .group_by(t.c.pool)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {
            pool: Tally(int(games), int(judged or 0), int(agreed or 0), float(loss or 0.0))
            for pool, games, judged, agreed, loss in rows
        }

    def tallies_in(self, pool: str) -> dict[int, Tally]:
        """Every account's evidence in ``pool``, summed (what the pool's norms are made of)."""
        t = evidence_table
        query = (
            sa.select(
                t.c.account_id,
                sa.func.count(),
                sa.func.sum(t.c.judged),
                sa.func.sum(t.c.agreed),
                sa.func.sum(t.c.loss),
            )
            .where(t.c.pool == pool)
            .group_by(t.c.account_id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {
            int(account): Tally(int(games), int(judged or 0), int(agreed or 0), float(loss or 0))
            for account, games, judged, agreed, loss in rows
        }

    def games(self, account_id: int, pool: str, limit: int) -> list[GameEvidence]:
        """The account's judged games in ``pool``, the highest agreement first (those that
        stand out), the latest first among equals."""
        t = evidence_table
        rate = sa.cast(t.c.agreed, sa.Float) / sa.func.nullif(t.c.judged, 0)
        query = (
            sa.select(t)
            .where(t.c.account_id == account_id, t.c.pool == pool, t.c.judged > 0)
            .order_by(rate.desc(), t.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            GameEvidence(
                r.game_id,
                r.pool,
                SeatEvidence(r.seat, r.judged, r.agreed, r.forced, r.loss),
                r.created,
            )
            for r in rows
        ]

    def forget(self, account_id: int) -> None:
        """A closed account's evidence goes."""
        with self.engine.begin() as conn:
            conn.execute(evidence_table.delete().where(evidence_table.c.account_id == account_id))
