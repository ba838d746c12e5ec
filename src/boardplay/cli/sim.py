"""``boardplay sim``: outcome statistics of many seeded random games through the contract."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field

import typer
from rich.progress import Progress
from rich.table import Table

from boardplay.cli.common import OPTION_HELP, console, friendly, load_game
from boardplay.core.game import Game
from boardplay.core.playout import random_playout


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
    @app.command("sim")
    @friendly
    def sim(
        game: str = typer.Argument(..., help="potlatch, proteus, passtally or montana"),
        games: int = typer.Option(1000, "--games", "-n", min=1, help="Number of random games."),
        seed: int = typer.Option(0, help="Seed of the first game (game i uses seed + i)."),
        option: list[str] = typer.Option(None, "--option", "-o", help=OPTION_HELP),
        max_actions: int | None = typer.Option(
            None, help="Stop a game after this many actions (default: the game's bound)."
        ),
    ) -> None:
        """Play uniformly random games and report win, draw and length statistics."""
        loaded = load_game(game, option)
        cap = max_actions or loaded.max_game_length
        stats = SimStats(loaded)
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{loaded}", total=games)
            for i in range(games):
                stats.add(seed + i, cap)
                progress.advance(task)
        table = Table(title=f"{games} random games of {loaded}")
        table.add_column("result")
        table.add_column("games", justify="right")
        table.add_column("rate", justify="right")
        for seat, won in enumerate(stats.wins):
            table.add_row(f"{loaded.seat_name(seat)} wins", f"{won:g}", _pct(won, games))
        table.add_row("draws", str(stats.draws), _pct(stats.draws, games))
        table.add_row(
            "first mover wins", f"{stats.first_mover_wins:g}", _pct(stats.first_mover_wins, games)
        )
        if stats.unfinished:
            table.add_row(
                f"unfinished after {cap} actions",
                str(stats.unfinished),
                _pct(stats.unfinished, games),
            )
        for reason, count in stats.reasons.most_common():
            table.add_row(f"ended by: {reason}", str(count), _pct(count, games))
        console.print(table)
        lengths = stats.lengths
        console.print(
            f"game length (actions, chance included): mean {statistics.fmean(lengths):.1f}, "
            f"median {statistics.median(lengths):g}, min {min(lengths)}, max {max(lengths)}, "
            f"stdev {statistics.pstdev(lengths):.1f}"
        )
