"""Alembic's entry point: run the migrations on the connection ``boardplay.web.migrate`` hands
over (it holds the lock that keeps concurrent first starts from racing)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
