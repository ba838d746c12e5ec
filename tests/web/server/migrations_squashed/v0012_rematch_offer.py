"""Play again by agreement: ``rematch_offer`` holds a rematch one player proposed after the game
ended and the others have not all accepted yet (``{"by": seat, "agreed": [seats]}``); the new
game starts, and ``rematch`` points at it, once every seat a person holds has agreed. Games
stored before this revision have no offer.

Revision ID: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "rematch_offer" not in present:
        op.add_column("games", sa.Column("rematch_offer", sa.JSON, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "rematch_offer")
