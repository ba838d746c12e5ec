"""Entry point of the ``boardplay`` command: builds the Typer app from the command modules."""

from __future__ import annotations

import importlib
import importlib.util

import typer

from boardplay import __version__
from boardplay.cli import bench, play, replay, rules, sim

app = typer.Typer(
    name="boardplay",
    help="Potlatch Klone, Proteus, Passtally and Montana: play, replay, simulate, benchmark.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (bench, play, replay, rules, sim):
    module.register(app)

# Commands contributed by the AI and web packages (each module has ``register(app)``).
for name in ("arena", "analyze", "serve", "db"):
    if importlib.util.find_spec(f"boardplay.cli.{name}") is not None:
        importlib.import_module(f"boardplay.cli.{name}").register(app)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"boardplay {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """boardplay: exact engines and strong bots for four modern tabletop games."""


def main() -> None:
    app()


if __name__ == "__main__":
    main()
