"""Alembic migrations of the web database (``boardplay db upgrade``; ``migrate.py`` runs them)."""
