"""Entry point of the ``boardplay`` command: builds the Typer app from the command modules.

The language is settled *before* the app is built, because Typer takes help texts as plain
strings when the commands are declared: :func:`main` reads a leading ``--lang`` (else
``$BOARDPLAY_LANG``, else the locale) and builds the app in that language. The root option
``--lang`` is also declared on the app itself, so it shows in ``--help``, is validated, and sets
the language of everything printed at run time even when the app was built in another language
(as in tests, which invoke the module-level :data:`app`).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer

from boardplay import __version__
from boardplay.cli import bench, play, replay, review, rules, sim
from boardplay.cli.common import err_console, fail
from boardplay.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    UnknownLanguageError,
    _,
    language,
    language_from_environment,
    set_language,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"boardplay {__version__}")
        raise typer.Exit()


def unknown_language(code: str) -> str:
    """The one-line complaint about a language we have no catalogue for."""
    return _("unknown language {code}; choose one of {languages}").format(
        code=repr(code[:20]), languages=", ".join(LANGUAGES)
    )


def build_app(lang: str = DEFAULT_LANGUAGE) -> typer.Typer:
    """The ``boardplay`` app with every help text in ``lang``."""
    with language(lang):
        summary = _(
            "Potlatch Klone, Proteus, Passtally and Montana: play, replay, simulate, benchmark."
        )
        app = typer.Typer(
            name="boardplay",
            help=summary,
            no_args_is_help=True,
            add_completion=False,
            pretty_exceptions_enable=False,
        )
        for module in (bench, play, replay, review, rules, sim):
            module.register(app)
        # Commands contributed by the AI and web packages (each module has ``register(app)``).
        for name in ("arena", "analyze", "train", "serve", "db", "bot", "puzzles"):
            if importlib.util.find_spec(f"boardplay.cli.{name}") is not None:
                importlib.import_module(f"boardplay.cli.{name}").register(app)

        @app.callback(help=summary)
        def _root(
            version: bool = typer.Option(
                False, "--version", callback=_version, is_eager=True, help=_("Print the version.")
            ),
            lang_option: str | None = typer.Option(
                None,
                "--lang",
                metavar="LANG",
                help=_(
                    "Language of the messages and rules: en or ja (default: $BOARDPLAY_LANG, "
                    "else the locale in $LANG)."
                ),
            ),
        ) -> None:
            try:
                set_language(lang_option or lang)
            except UnknownLanguageError as exc:
                raise fail(unknown_language(exc.code)) from None

    return app


def requested_language(args: list[str]) -> str | None:
    """The value of a ``--lang`` given before the command name, if any (unchecked)."""
    position = 0
    while position < len(args):
        token = args[position]
        if token == "--lang":
            return args[position + 1] if position + 1 < len(args) else None
        if token.startswith("--lang="):
            return token.removeprefix("--lang=")
        if not token.startswith("-"):
            return None  # the command name: what follows belongs to the command
        position += 1
    return None


def _startup_language() -> str:
    try:
        return language_from_environment()
    except UnknownLanguageError:
        return DEFAULT_LANGUAGE  # the callback cannot see the environment's mistake; main() can


app = build_app(_startup_language())


def main(argv: list[str] | None = None) -> None:
    """Run ``boardplay`` with ``argv`` (default: the process's arguments)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        lang = requested_language(args) or language_from_environment()
        lang = set_language(lang)
    except UnknownLanguageError as exc:
        label = _("error:")  # the language is not settled: English, from the catalogue
        err_console.print(f"{label} {unknown_language(exc.code)}", soft_wrap=True)
        raise SystemExit(2) from None
    build_app(lang)(args=args, prog_name="boardplay")


if __name__ == "__main__":
    main()
