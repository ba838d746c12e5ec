"""``boardplay rules GAME``: the player-facing rules in the terminal, in English or Japanese.

The rules come in the language of the messages unless ``--lang`` asks for another one, so
``boardplay --lang ja rules potlatch`` and ``boardplay rules potlatch --lang ja`` agree."""

from __future__ import annotations

import typer
from rich.markdown import Markdown

from boardplay.cli.common import console, fail, friendly, game_argument
from boardplay.core.registry import load
from boardplay.i18n import LANGUAGES, UnknownLanguageError, _, get_language
from boardplay.i18n.rules import rules_text


def register(app: typer.Typer) -> None:
    @app.command("rules", help=_("Show the rules of GAME for players."))
    @friendly
    def rules(
        game: str = game_argument(),
        raw: bool = typer.Option(False, "--raw", help=_("Print the Markdown source.")),
        lang: str | None = typer.Option(
            None,
            "--lang",
            metavar="LANG",
            help=_("Language of the rules: en or ja (default: the language of the messages)."),
        ),
    ) -> None:
        try:
            text = rules_text(load(game), lang or get_language())
        except UnknownLanguageError as exc:
            raise fail(
                _("unknown language {code}; choose one of {languages}").format(
                    code=repr(exc.code[:20]), languages=", ".join(LANGUAGES)
                )
            ) from None
        if raw:
            typer.echo(text)
        else:
            console.print(Markdown(text))
