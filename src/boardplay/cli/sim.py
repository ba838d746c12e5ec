"""``boardplay sim``: outcome statistics of many seeded random games through the contract."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field

import typer
from rich.progress import Progress
from rich.table import Table

from boardplay.cli.common import (
    console,
    friendly,
    game_argument,
    game_options,
    load_game,
    print_table,
)
from boardplay.core.game import Game
from boardplay.core.playout import random_playout
from boardplay.i18n import _


@dataclass
class SimStats:
    """Outcome counts of many random games of one game."""

    game: Game
    games: int = 0
    wins: list[float] = field(default_factory=list)
    draws: int = 0
    unfinished: int = 0
    first_mover_wins: float = 0.0
    lengths: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, seed: int, max_actions: int) -> None:
        state = self.game.new_initial_state()
        rng = random.Random(seed)
        # The first deciding seat comes after any opening chance events (e.g. Passtally's reveals).
        length = 0
        while state.is_chance_node():
            length += random_playout(state, rng, max_actions=1)
        first_mover = state.current_player()
        length += random_playout(state, rng, max_actions=max_actions - length)
        self.games += 1
        if not self.wins:
            self.wins = [0.0] * self.game.num_players
        self.lengths.append(length)
        if not state.is_terminal():
            self.unfinished += 1
            return
        winners = state.winners()
        if not winners:
            self.draws += 1
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        if first_mover in winners:
            self.first_mover_wins += 1 / len(winners)
        reason = state.end_reason()
        if reason:
            self.reasons[reason] += 1


def _pct(part: float, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def register(app: typer.Typer) -> None:
    @app.command(
        "sim",
        help=_("Play uniformly random games and report win, draw and length statistics."),
    )
    @friendly
    def sim(
        game: str = game_argument(),
        games: int = typer.Option(1000, "--games", "-n", min=1, help=_("Number of random games.")),
        seed: int = typer.Option(0, help=_("Seed of the first game (game i uses seed + i).")),
        option: list[str] = game_options(),
        max_actions: int | None = typer.Option(
            None, help=_("Stop a game after this many actions (default: the game's bound).")
        ),
    ) -> None:
        loaded = load_game(game, option)
        cap = max_actions or loaded.max_game_length
        stats = SimStats(loaded)
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{loaded}", total=games)
            for i in range(games):
                stats.add(seed + i, cap)
                progress.advance(task)
        table = Table(title=_("{games} random games of {game}").format(games=games, game=loaded))
        table.add_column(_("result"))
        table.add_column(_("games"), justify="right")
        table.add_column(_("rate"), justify="right")
        for seat, won in enumerate(stats.wins):
            wins = _("{seat} wins").format(seat=loaded.seat_name(seat))
            table.add_row(wins, f"{won:g}", _pct(won, games))
        table.add_row(_("draws"), str(stats.draws), _pct(stats.draws, games))
        first = stats.first_mover_wins
        table.add_row(_("first mover wins"), f"{first:g}", _pct(first, games))
        if stats.unfinished:
            table.add_row(
                _("unfinished after {limit} actions").format(limit=cap),
                str(stats.unfinished),
                _pct(stats.unfinished, games),
            )
        for reason, count in stats.reasons.most_common():
            table.add_row(
                _("ended by: {reason}").format(reason=reason), str(count), _pct(count, games)
            )
        print_table(table)
        lengths = stats.lengths
        summary = _(
            "game length (actions, chance included): mean {mean}, median {median}, min {min}, "
            "max {max}, stdev {stdev}"
        )
        console.print(
            summary.format(
                mean=f"{statistics.fmean(lengths):.1f}",
                median=f"{statistics.median(lengths):g}",
                min=min(lengths),
                max=max(lengths),
                stdev=f"{statistics.pstdev(lengths):.1f}",
            )
        )
