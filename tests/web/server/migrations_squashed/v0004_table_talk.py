"""What players settle between themselves: resignations, draw offers, rematches, private games.

``private`` keeps a game out of the lobby's lists (only its link reaches it); ``resigned`` lists
the seats that gave up; ``draw_offer`` holds a draw proposed and not yet settled (``{"by": seat,
"agreed": [seats]}``); ``rematch`` points a finished game at the game "play again" started.
Games stored before this revision are public and have none of these.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = (
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("resigned", sa.JSON, nullable=True),
    sa.Column("draw_offer", sa.JSON, nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
)


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    for column in COLUMNS:
        if column.name not in present:
            op.add_column("games", column)


def downgrade() -> None:
    for column in COLUMNS:
        op.drop_column("games", column.name)
