"""``boardplay puzzles``: mine puzzles from recorded and self-played games (``mine``), confirm a
puzzle file by a deeper search (``verify``), and list one (``show``). The library is
``boardplay.puzzles``; the file format is docs/formats/puzzles.md.

The group and its commands are declared inside :func:`register` so that their help texts are
translated in the language the app is built in (see ``boardplay.cli.main``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.table import Table

from boardplay.ai.specs import make_agent
from boardplay.cli.common import console, fail, friendly, game_argument, game_options, load_game
from boardplay.core.records import Record, read_jsonl
from boardplay.i18n import _, ngettext
from boardplay.puzzles import Puzzle, mine, read_puzzles, selfplay, verify, write_puzzles
from boardplay.puzzles.puzzle import DEPTH, VERIFY_SEED


def _records(paths: list[Path], game: str) -> Iterator[tuple[Record, str]]:
    """The records in ``paths`` (record files and ``.jsonl`` corpora) of ``game``, labelled."""
    for path in paths:
        if path.suffix == ".jsonl":
            for number, record in enumerate(read_jsonl(path), start=1):
                if record.game == game:
                    yield record, f"{path.name}#{number}"
        else:
            record = Record.load(path)
            if record.game == game:
                yield record, path.name


def _summary(puzzles: list[Puzzle]) -> None:
    """One table of the puzzles and a count per theme."""
    table = Table()
    for column in (_("puzzle"), _("kind"), _("solution"), _("value"), _("themes")):
        table.add_column(column, overflow="fold")
    for puzzle in puzzles:
        table.add_row(
            puzzle.id,
            puzzle.kind,
            " ".join(puzzle.solution),
            f"{puzzle.value:.2f} / {puzzle.runner_up:.2f}",
            ", ".join(puzzle.themes),
        )
    console.print(table)
    themes = Counter(theme for puzzle in puzzles for theme in puzzle.themes)
    line = ", ".join(f"{theme} {count}" for theme, count in themes.most_common())
    console.print(_("Themes: {themes}").format(themes=line or "-"))


def register(app: typer.Typer) -> None:
    puzzles_app = typer.Typer(
        help=_("Puzzles: positions where exactly one turn wins or saves the game."),
        no_args_is_help=True,
    )
    app.add_typer(puzzles_app, name="puzzles")

    @puzzles_app.command(
        "mine",
        help=_(
            "Find puzzles in recorded games (--records) or in the engine's own games, confirm "
            "each by a deeper search, and append them to OUT as JSON Lines."
        ),
    )
    @friendly
    def mine_command(
        game: str = game_argument(),
        out: Path = typer.Argument(..., help=_("The puzzle file to append to (.jsonl).")),
        option: list[str] = game_options(),
        records: list[Path] = typer.Option(
            [],
            "--records",
            help=_("A record or a JSON Lines corpus to mine (repeatable); default: self-play."),
        ),
        agent: str = typer.Option(
            "hard", help=_("The agent that plays both seats of the self-played games.")
        ),
        iterations: int = typer.Option(
            1000, min=1, help=_("Search iterations per scored position.")
        ),
        seed: int = typer.Option(0, help=_("Seed of the games and the searches.")),
        count: int | None = typer.Option(
            None, "--count", "-n", min=1, help=_("Stop after this many confirmed puzzles.")
        ),
        minutes: float | None = typer.Option(
            None, min=0.0, help=_("Stop after this much processor time.")
        ),
        check: bool = typer.Option(
            True, help=_("Confirm every puzzle by a deeper search and keep only those.")
        ),
        latest: int | None = typer.Option(
            None, min=1, help=_("Test only each game's last turn starts, this many.")
        ),
    ) -> None:
        loaded = load_game(game, option)
        if loaded.num_players != 2:
            raise fail(_("puzzles are mined from two-player games; use --option players=2"))
        if not records and count is None and minutes is None:
            raise fail(_("self-play never ends by itself: give --count or --minutes"))
        make_agent(agent, loaded, 0)  # a bad spec fails before any game is played
        games = (
            _records(records, loaded.name)
            if records
            else ((r, f"selfplay/{i}") for i, r in enumerate(selfplay(loaded, agent, seed)))
        )

        def found(puzzle: Puzzle) -> None:
            write_puzzles(out, [puzzle])
            console.print(
                _("{id}: {kind}, solution {solution}, themes: {themes}").format(
                    id=puzzle.id,
                    kind=puzzle.kind,
                    solution=" ".join(puzzle.solution),
                    themes=", ".join(puzzle.themes),
                )
            )

        seconds = minutes * 60 if minutes is not None else None
        tally = mine(
            loaded,
            games,
            iterations,
            seed,
            seconds=seconds,
            count=count,
            check=check,
            found=found,
            latest=latest,
        )
        numbers = tally.to_json()
        console.print(
            _(
                "{games} games, {positions} positions, {found} puzzles found, {verified} "
                "confirmed, {rejected} rejected in {seconds} s of processor time"
            ).format(**numbers, seconds=numbers["cpu_seconds"])
        )

    @puzzles_app.command(
        "verify",
        help=_(
            "Confirm every puzzle of FILE by a deeper search with another seed; exit 1 if one "
            "fails."
        ),
    )
    @friendly
    def verify_command(
        file: Path = typer.Argument(..., help=_("A puzzle file (.jsonl).")),
        depth: int = typer.Option(
            DEPTH, min=1, help=_("Times the mining budget the confirming search spends.")
        ),
        offset: int = typer.Option(
            VERIFY_SEED,
            help=_("Added to each puzzle's mining seed: another offset is another search."),
        ),
        out: Path | None = typer.Option(
            None, "--out", help=_("Write the confirmed puzzles here, with their new check.")
        ),
    ) -> None:
        confirmed: list[Puzzle] = []
        failed = 0
        for puzzle in read_puzzles(file):
            puzzle.verified = verify(puzzle, depth, offset)
            if puzzle.verified["ok"]:
                confirmed.append(puzzle)
                continue
            failed += 1
            console.print(
                _("{id}: not confirmed: {reason}").format(
                    id=puzzle.id, reason=puzzle.verified["reason"]
                )
            )
        total = len(confirmed) + failed
        console.print(
            ngettext(
                "{confirmed} of {total} puzzle confirmed",
                "{confirmed} of {total} puzzles confirmed",
                total,
            ).format(confirmed=len(confirmed), total=total)
        )
        if out is not None:
            write_puzzles(out, confirmed, append=False)
        if failed:
            raise typer.Exit(1)

    @puzzles_app.command("show", help=_("List the puzzles of FILE; --picture draws one."))
    @friendly
    def show_command(
        file: Path = typer.Argument(..., help=_("A puzzle file (.jsonl).")),
        picture: str | None = typer.Option(
            None, "--picture", help=_("Draw this puzzle's position (its id).")
        ),
    ) -> None:
        puzzles = list(read_puzzles(file))
        if picture is None:
            _summary(puzzles)
            return
        chosen = next((p for p in puzzles if p.id == picture), None)
        if chosen is None:
            raise fail(_("{file} holds no puzzle {id}").format(file=file, id=picture))
        game, state = chosen.load()
        console.print(state.render())
        seat = game.seat_name(chosen.to_move)
        task = (
            _("{seat} to move: find the one turn that wins.")
            if chosen.kind == "win"
            else _("{seat} to move: find the one turn that does not lose.")
        )
        console.print(task.format(seat=seat))
