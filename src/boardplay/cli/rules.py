"""``boardplay rules GAME``: the player-facing rules in the terminal."""

from __future__ import annotations

import typer
from rich.markdown import Markdown

from boardplay.cli.common import console, friendly
from boardplay.core.registry import load


def register(app: typer.Typer) -> None:
    @app.command("rules")
    @friendly
    def rules(
        game: str = typer.Argument(..., help="potlatch, proteus, passtally or montana"),
        raw: bool = typer.Option(False, "--raw", help="Print the Markdown source."),
    ) -> None:
        """Show the rules of GAME for players."""
        text = load(game).rules_text()
        if raw:
            typer.echo(text)
        else:
            console.print(Markdown(text))
