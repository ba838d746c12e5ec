"""The ``boardplay`` command (Typer + Rich)."""
