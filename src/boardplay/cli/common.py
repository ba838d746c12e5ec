"""Shared pieces of the command line: the console, loading a game from the command line's
``--option k=v`` pairs, and turning bad input into one clear line with exit code 2.

Every text printed here goes through the ``cli`` message catalogue (:mod:`boardplay.i18n`).
Help texts shared by several commands are module constants marked with ``N_`` because modules
are imported before the language is known; commands translate them with ``_`` when they are
declared."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game
from boardplay.core.options import parse_option_pairs
from boardplay.core.registry import available, load
from boardplay.i18n import N_, _

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


NARROWEST_FOLD = 6
"""The narrowest a folding column (a name) is made so that a table fits its console."""


def _grow(widths: list[int], targets: list[int], spare: int) -> int:
    """Widen ``widths`` toward ``targets`` with at most ``spare`` columns of text, in proportion
    to what each still wants; returns what is left of ``spare``."""
    wanted = [max(0, target - width) for width, target in zip(widths, targets, strict=True)]
    given = min(spare, sum(wanted))
    shares = [given * want // max(1, sum(wanted)) for want in wanted]
    left = given - sum(shares)
    for index in sorted(range(len(widths)), key=lambda i: -wanted[i]):
        extra = min(left, wanted[index] - shares[index])
        shares[index] += extra
        left -= extra
    for index, share in enumerate(shares):
        widths[index] += share
    return spare - given


def print_table(table: Table, out: Console | None = None) -> None:
    """Print ``table`` with every number whole, however narrow the console. Piped, Rich assumes
    80 columns, and where a table is wider it shrinks every column alike and cuts their cells
    with an ellipsis (``30.1%–95…``).

    Here, when the table does not fit, each column gets at least the width of its longest word
    (its cells still wrap between words), except a column made with ``overflow="fold"`` (a long
    name), which gets as little as ``NARROWEST_FOLD`` and folds onto more lines. The width left
    goes first to the folding columns up to their longest word (a name kept whole), then to the
    others up to their whole width (a heading on one line), then to the folding columns again.
    A table wider than the console even so is printed whole, not cropped: a terminal wraps its
    lines, a pipe keeps them."""
    out = out or console
    unbounded = out.options.update_width(sys.maxsize)
    words, widest, folds = [], [], []
    for column in table.columns:
        sizes = [Measurement.get(out, unbounded, cell) for cell in (column.header, *column.cells)]
        words.append(max(size.minimum for size in sizes))
        widest.append(max(size.maximum for size in sizes))
        folds.append(column.overflow == "fold")
    room = out.width - (Measurement.get(out, unbounded, table).maximum - sum(widest))
    if sum(widest) <= room:
        out.print(table)  # it fits: Rich's own layout
        return
    widths = [min(w, NARROWEST_FOLD) if fold else w for w, fold in zip(words, folds, strict=True)]
    over = max(0, sum(widths) - room)
    spare = max(0, room - sum(widths))
    for fold, targets in ((True, words), (False, widest), (True, widest)):
        chosen = [t if f == fold else w for t, f, w in zip(targets, folds, widths, strict=True)]
        spare = _grow(widths, chosen, spare)
    for column, width in zip(table.columns, widths, strict=True):
        column.width = width
    table.width = out.width + over  # beyond the console if need be, never cropped
    out.print(table, crop=False)


P = ParamSpec("P")
R = TypeVar("R")

OPTION_HELP = N_("A game option as name=value (repeatable), e.g. --option actions=3")


def game_help() -> str:
    """The help of a GAME argument: the registered games, read from the registry when the
    command is declared, so a newly registered game is listed without touching the CLI."""
    return _("One of the games: {games}").format(games=", ".join(available()))


def game_argument() -> Any:
    """The GAME argument of every command that loads a game (a name or a game string)."""
    return typer.Argument(..., help=game_help())


def game_options() -> Any:
    """The ``--option name=value`` pairs that go with GAME (``load_game``)."""
    return typer.Option([], "--option", "-o", help=_(OPTION_HELP))


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr and return the exit to raise (code 2)."""
    label = _("error:")
    err_console.print(f"[bold red]{label}[/] {message}", markup=True, soft_wrap=True)
    return typer.Exit(2)


def friendly(func: Callable[P, R]) -> Callable[P, R]:
    """Run a command; bad input (any ``BoardplayError``) becomes one line and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except BoardplayError as exc:
            raise fail(str(exc)) from None

    return wrapper


def progress_bar() -> Progress:
    """The progress bar of long runs (arena, analyze): description, bar, done/total, time."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )


@contextmanager
def progress(description: str, total: int) -> Iterator[Callable[[object], None]]:
    """A progress bar for ``total`` games; yields the callback that counts one finished game
    (the ``progress`` argument of ``run_arena`` and ``run_study``)."""
    with progress_bar() as bar:
        task = bar.add_task(description, total=total)

        def advance(_: object) -> None:
            bar.advance(task)

        yield advance


MAX_ACTIONS_HELP = N_(
    "Adjudicate a game still running after N actions (chance outcomes included) as a draw; "
    "the cap is saved in each record."
)


# ----- options shared by the long runs (arena, analyze), declared once ------------------------
def workers_option() -> Any:
    return typer.Option(1, min=1, help=_("Worker processes (the machine is shared)."))


def resume_option() -> Any:
    return typer.Option(
        False, help=_("Keep the games already in --records and play only the missing ones.")
    )


def max_actions_option() -> Any:
    return typer.Option(None, "--max-actions", min=1, help=_(MAX_ACTIONS_HELP))


def ray_option() -> Any:
    return typer.Option(
        None,
        "--ray",
        help=_(
            "Play the games as tasks on the Ray cluster at this address (same seeds and "
            "results as the local pool); 'local' starts a small local Ray."
        ),
    )


def warn_if_endless(game: Game, max_actions: int | None) -> None:
    """Say so when a run could hang: these rules let a game go on for ever and nothing caps it."""
    if max_actions is None and not game.bounded:
        note = _(
            "Note: {game} has no length limit, so two agents that keep moving back and forth "
            "can play for ever. Cap the games with --max-actions N (an adjudicated draw) or the "
            "rules' own --option max_turns=N."
        ).format(game=game)
        console.print(f"[yellow]{note}[/yellow]")


def load_game(name: str, options: list[str] | None) -> Game:
    """``name`` may itself carry options (``potlatch(actions=3)``); ``--option`` pairs add more."""
    return load(name, **parse_option_pairs(options or []))
