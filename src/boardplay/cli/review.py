"""``boardplay review RECORD``: where did the game turn? One seat's win-probability curve over a
recorded game, its mistakes and blunders, and the better move at each (``boardplay.ai.review``;
thresholds in docs/analysis.md, "Review and hints")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from boardplay.ai.review import BLUNDER, DEFAULT_ITERATIONS, MISTAKE, review_record
from boardplay.cli.common import console, fail, friendly, print_table, progress_bar
from boardplay.core.records import Record, read_jsonl
from boardplay.i18n import _, ngettext
from boardplay.web.words import said

BARS = "▁▂▃▄▅▆▇█"
WIDTH = 60
"""Most characters of the sparkline; a longer game is sampled evenly."""


def sparkline(values: list[float], width: int = WIDTH) -> str:
    """Win probabilities in [0, 1] as block characters, at most ``width`` of them."""
    if len(values) > width:
        values = [values[round(i * (len(values) - 1) / (width - 1))] for i in range(width)]
    top = len(BARS) - 1
    return "".join(BARS[min(top, max(0, round(v * top)))] for v in values)


def load_record(path: Path, index: int) -> Record:
    """The record in ``path``: a record file, or the ``index``-th (from 1) of a JSON Lines
    corpus (``.jsonl``)."""
    if path.suffix != ".jsonl":
        if index != 1:
            raise fail(_("--index is for a JSON Lines corpus (.jsonl); this is one record"))
        return Record.load(path)
    try:
        for number, record in enumerate(read_jsonl(path), start=1):
            if number == index:
                return record
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise fail(_("cannot read {path}: {reason}").format(path=path, reason=reason)) from None
    raise fail(_("{path} holds fewer than {index} records").format(path=path, index=index))


def default_seat(record: Record) -> int:
    """The first seat a person played, else seat 0."""
    return next((i for i, p in enumerate(record.players) if p.kind == "human"), 0)


def _pct(value: float) -> str:
    return f"{value:.0%}"


def show(review: dict[str, Any], record: Record) -> None:
    """The review in Rich: who and what was reviewed, the curve, the flagged moves."""
    players = ", ".join(f"{p.name} ({p.spec or p.kind})" for p in record.players)
    console.print(
        _("[bold]{game}[/] review of seat {seat} ({name}) — {players}").format(
            game=review["game"],
            seat=review["seat"],
            name=review["seat_name"],
            players=players or _("players unknown"),
        )
    )
    console.print(
        _("{judged} decisions judged at {iterations} search iterations each").format(
            judged=review["summary"]["judged"], iterations=review["iterations"]
        )
    )
    curve = [p["win_probability"] for p in review["curve"]]
    if curve:
        console.print(
            _("Win probability: {line}  start {start}, low {low}, high {high}, end {end}").format(
                line=sparkline(curve),
                start=_pct(curve[0]),
                low=_pct(min(curve)),
                high=_pct(max(curve)),
                end=_pct(curve[-1]),
            )
        )
    flagged = review["flagged"]
    if not flagged:
        console.print(_("No mistakes found at this budget."))
        return
    table = Table(title=_("Moves that lost the most"))
    table.add_column(_("move"), justify="right")
    table.add_column(_("played"))
    table.add_column(_("lost"), justify="right")
    table.add_column(_("verdict"))
    table.add_column(_("better"))
    for entry in sorted(flagged, key=lambda m: -m["loss"]):
        best = entry["best"] or {}
        better = best.get("words") or best.get("move", "")
        table.add_row(
            str(entry["ply"] + 1),
            entry.get("words") or entry["move"],
            _pct(entry["loss"]),
            _("blunder") if entry["verdict"] == "blunder" else _("mistake"),
            _("{move} (win {chance})").format(move=better, chance=_pct(best["win_probability"]))
            if best
            else "",
        )
    print_table(table)
    counts = review["summary"]
    mistakes = ngettext("{count} mistake", "{count} mistakes", counts["mistakes"])
    blunders = ngettext("{count} blunder", "{count} blunders", counts["blunders"])
    console.print(
        _("{mistakes} (a loss of {mistake} or more), {blunders} ({blunder} or more)").format(
            mistakes=mistakes.format(count=counts["mistakes"]),
            blunders=blunders.format(count=counts["blunders"]),
            mistake=_pct(MISTAKE),
            blunder=_pct(BLUNDER),
        )
    )


def register(app: typer.Typer) -> None:
    @app.command(
        "review",
        help=_(
            "Review a recorded game: the win chance over the game and the moves that lost most."
        ),
    )
    @friendly
    def review(
        file: Path = typer.Argument(
            ..., help=_("A record (JSON) or a corpus (JSON Lines, .jsonl) of recorded games.")
        ),
        seat: int | None = typer.Option(
            None, help=_("Seat to review (default: the first seat a person played, else 0).")
        ),
        iterations: int = typer.Option(
            DEFAULT_ITERATIONS,
            "--iterations",
            "-i",
            min=1,
            help=_("Search iterations per position."),
        ),
        index: int = typer.Option(
            1, min=1, help=_("Which record of a JSON Lines corpus to review (1 = the first).")
        ),
        seed: int = typer.Option(0, help=_("Seed of the searches.")),
        as_json: bool = typer.Option(False, "--json", help=_("Print the review as JSON.")),
    ) -> None:
        record = load_record(file, index)
        game = record.load_game()
        chosen = default_seat(record) if seat is None else seat

        def describe(state: Any, action: int) -> dict[str, Any]:
            return said(game, state, action)

        if as_json:
            result = review_record(record, chosen, iterations, seed, describe)
            console.print_json(json.dumps(result))
            return
        with progress_bar() as bar:
            task = bar.add_task(_("judging positions"), total=None)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = review_record(record, chosen, iterations, seed, describe, advance)
        show(result, record)
