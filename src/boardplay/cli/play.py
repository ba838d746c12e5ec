"""``boardplay play GAME``: a game at the terminal, people and agents in any seats.

The board is redrawn before every human decision; the legal moves are listed in notation with
numbers, and a move is entered in notation or by its number. Chance events are resolved by a
seeded generator and shown to everybody, so a seed replays the same game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import typer
from rich.columns import Columns
from rich.panel import Panel
from rich.text import Text

from boardplay.ai.agents import Agent
from boardplay.ai.specs import make_agent
from boardplay.cli.common import console, fail, friendly, game_argument, game_options, load_game
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, sample_chance
from boardplay.core.records import Player, Record
from boardplay.i18n import N_, _

HUMAN = "human"
DEFAULT_OPPONENT = "medium"
HELP = N_(
    "Enter a move in notation (e.g. as listed) or its number from the list. Commands: "
    "'moves' lists the legal moves, 'board' redraws, 'detail' shows extra detail, "
    "'json' prints the position JSON, 'help' shows this, 'quit' ends the game."
)


# The keys of an agent's analysis (``Analysis.summary``), as the player reads them.
ANALYSIS_LABELS = {
    "win_probability": N_("win probability"),
    "line": N_("line"),
    "iterations": N_("iterations"),
    "seconds": N_("seconds"),
}


class Quit(Exception):
    """The human asked to stop (or input ended)."""


def _seat_specs(game: Game, given: list[str | None]) -> list[str]:
    specs: list[str] = []
    for seat, spec in enumerate(given):
        if seat >= game.num_players:
            if spec is not None:
                raise fail(
                    _("{game} is played by {players} here; there is no --p{seat}").format(
                        game=game.name, players=game.num_players, seat=seat
                    )
                )
            continue
        specs.append(spec or (HUMAN if seat == 0 else DEFAULT_OPPONENT))
    return specs


def _show_analysis(agent: Agent) -> None:
    analysis = getattr(agent, "analysis", None)
    if analysis is None:
        return
    info: Any = analysis()
    if not info:
        return
    if isinstance(info, dict):
        parts = []
        for key, value in info.items():
            if isinstance(value, float):
                value = f"{value:.0%}" if "prob" in key else f"{value:.3g}"
            elif isinstance(value, list | tuple):
                value = " ".join(str(v) for v in value)
            label = _(ANALYSIS_LABELS[key]) if key in ANALYSIS_LABELS else key.replace("_", " ")
            parts.append(f"{label}: {value}")
        console.print("   " + "; ".join(parts), style="dim")
    else:
        console.print(f"   {info}", style="dim")


class Table:
    """One game at the terminal: the state, who sits where, the record being written."""

    def __init__(self, game: Game, specs: list[str], seed: int) -> None:
        self.game = game
        self.state = game.new_initial_state()
        self.chance_rng = random.Random(seed)
        self.agents: list[Agent | None] = [
            None if spec == HUMAN else make_agent(spec, game, seed + seat + 1)
            for seat, spec in enumerate(specs)
        ]
        players = [
            Player(game.seat_name(seat), HUMAN if spec == HUMAN else "agent", spec)
            for seat, spec in enumerate(specs)
        ]
        self.record = Record.begin(game, players)
        self.record.meta["seed"] = seed
        self.specs = specs

    def label(self, seat: int) -> str:
        spec = self.specs[seat]
        shown = _("human") if spec == HUMAN else spec
        return f"{self.game.seat_name(seat)} ({shown})"

    def draw(self, detail: bool = False) -> None:
        console.print(Panel(Text(self.state.render(detail)), title=str(self.game), expand=False))

    def apply(self, action: int) -> None:
        self.record.play(self.state, action)
        for agent in self.agents:
            if agent is not None:
                agent.inform(action)

    def run(self) -> None:
        shown = False
        if all(agent is not None for agent in self.agents):
            self.draw()
            shown = True
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if self.state.is_chance_node():
                action = sample_chance(self.state, self.chance_rng)
                chance = _("chance:")
                console.print(f"[magenta]{chance}[/] {self.state.action_to_string(action)}")
                self.apply(action)
                shown = False
                continue
            agent = self.agents[seat]
            if agent is None:
                if not shown:
                    self.draw()
                self.apply(self.ask(seat))
            else:
                action = agent.step(self.state)
                move = self.state.action_to_string(action)
                console.print(
                    _("{player} plays {move}").format(
                        player=self.label(seat), move=f"[bold]{move}[/]"
                    )
                )
                _show_analysis(agent)
                self.apply(action)
            shown = False
        self.draw()
        over = _("Game over:")
        console.print(f"[bold green]{over}[/] {self.state.result_text()}")

    def list_moves(self) -> None:
        moves = self.state.legal_moves()
        console.print(
            Columns([f"[cyan]{i}[/] {m}" for i, m in enumerate(moves, 1)], padding=(0, 2))
        )

    def ask(self, seat: int) -> int:
        self.list_moves()
        moves = self.state.legal_moves()
        while True:
            try:
                prompt = _("move>")
                text = console.input(f"[bold]{self.label(seat)}[/] {prompt} ").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "exit", "q"):
                raise Quit
            if command in ("help", "?", "h"):
                console.print(_(HELP))
            elif command == "moves":
                self.list_moves()
            elif command == "board":
                self.draw()
            elif command == "detail":
                self.draw(detail=True)
            elif command == "json":
                console.print_json(data=self.state.to_json())
            elif text.isdigit() and 1 <= int(text) <= len(moves):
                return self.state.legal_actions()[int(text) - 1]
            else:
                try:
                    return self.state.string_to_action(text)
                except BoardplayError as exc:
                    hint = (
                        _("(or enter a number 1..{count}; 'help' for commands)").format(
                            count=len(moves)
                        )
                        if moves
                        else _("(or enter no number; 'help' for commands)")
                    )
                    console.print(f"[red]{exc}[/]\n{hint}")


def register(app: typer.Typer) -> None:
    @app.command(
        "play",
        help=_("Play GAME in the terminal against agents or other people at the same keyboard."),
    )
    @friendly
    def play(
        game: str = game_argument(),
        option: list[str] = game_options(),
        p0: str | None = typer.Option(None, "--p0", help=_("Seat 0: human or an agent spec.")),
        p1: str | None = typer.Option(None, "--p1", help=_("Seat 1 (default: the medium level).")),
        p2: str | None = typer.Option(None, "--p2", help=_("Seat 2 (3-4 player games).")),
        p3: str | None = typer.Option(None, "--p3", help=_("Seat 3 (4 player games).")),
        seed: int | None = typer.Option(None, help=_("Seed for chance and agents (replayable).")),
        save: Path | None = typer.Option(None, help=_("Write the game record to this file.")),
    ) -> None:
        loaded = load_game(game, option)
        specs = _seat_specs(loaded, [p0, p1, p2, p3])
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        table = Table(loaded, specs, seed)
        seats = ", ".join(table.label(s) for s in range(len(specs)))
        started = _("seed {seed}. Type 'help' for commands.").format(seed=seed)
        console.print(f"[bold]{loaded.title}[/] — {seats} — {started}")
        try:
            table.run()
        except Quit:
            console.print(_("Game stopped."))
        if save is not None:
            table.record.finish(table.state)
            table.record.save(save)
            console.print(_("Record saved to {path}").format(path=save))
