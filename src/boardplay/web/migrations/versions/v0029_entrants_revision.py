"""A tournament's entrants' revision: ``tournaments.entrants_revision``, raised by every change of
its entrants (one entered, came back, paused, withdrew or was renamed) in the change's own
transaction. A step of an arena reads the tournament at every game that ends; each process keeps
the entrants it read and reads them again only when this has moved (``TournamentStore``), not
the whole field at every step (a thousand rows in an arena of a thousand).

Revision ID: 0029
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tournaments")}
    if "entrants_revision" not in present:
        op.add_column(
            "tournaments",
            sa.Column("entrants_revision", sa.Integer, nullable=False, server_default="0"),
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("entrants_revision")
