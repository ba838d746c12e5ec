"""``boardplay arena GAME --agents SPEC SPEC [...]``: a seeded round robin between agents with a
progress bar, a results table, and optional JSON summary and JSON Lines records."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from boardplay.ai.arena import ArenaResult, GameResult, run_arena
from boardplay.ai.arena import schedule as arena_schedule
from boardplay.cli.common import (
    MAX_ACTIONS_HELP,
    OPTION_HELP,
    console,
    fail,
    friendly,
    load_game,
    progress_bar,
    warn_if_endless,
)

AGENTS_HELP = (
    "Agent specs, e.g. --agents random greedy 'mcts(iterations=400)' hard "
    "(several after one --agents, or --agents repeated)."
)


def results_table(result: ArenaResult) -> Table:
    """Per agent: games, wins, draws, win rate with its 95% interval, Elo-scale rating."""
    data = result.to_json()
    table = Table(title=f"{result.game}: {data['games']} games, seed {result.seed}")
    columns = ("agent", "games", "wins", "draws", "win rate", "95% CI", "rating (95% CI)", "s/move")
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for agent in sorted(data["agents"], key=lambda a: -a["rating"]):
        low, high = agent["ci95"]
        rlow, rhigh = agent["rating_ci95"]
        thinking = agent["thinking"]
        table.add_row(
            agent["spec"],
            str(agent["games"]),
            str(agent["wins"]),
            str(agent["draws"]),
            f"{agent['win_rate']:.1%}",
            f"{low:.1%}–{high:.1%}",
            f"{agent['rating']:.0f} ({rlow:.0f}–{rhigh:.0f})",
            f"{thinking['seconds_per_move']:.3f} (max {thinking['max_seconds']:.2f})",
        )
    return table


def pairings_table(result: ArenaResult) -> Table:
    table = Table(title="head to head (first agent's view)")
    for column in ("pairing", "games", "wins", "draws", "losses", "win rate", "95% CI"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for pair in result.to_json()["pairings"]:
        low, high = pair["ci95"]
        table.add_row(
            pair["spec"],
            str(pair["games"]),
            str(pair["wins"]),
            str(pair["draws"]),
            str(pair["losses"]),
            f"{pair['win_rate']:.1%}",
            f"{low:.1%}–{high:.1%}",
        )
    return table


def register(app: typer.Typer) -> None:
    @app.command(
        "arena", context_settings={"allow_extra_args": True, "ignore_unknown_options": False}
    )
    @friendly
    def arena(
        ctx: typer.Context,
        game: str = typer.Argument(..., help="potlatch, proteus, passtally or montana"),
        agents: list[str] = typer.Option(None, "--agents", "-a", help=AGENTS_HELP),
        games: int = typer.Option(
            20, "--games", "-n", min=1, help="Games per table of agents (seats rotate)."
        ),
        seed: int = typer.Option(0, help="Seed of the run; each game derives its own."),
        workers: int = typer.Option(1, min=1, help="Worker processes (the machine is shared)."),
        option: list[str] = typer.Option(None, "--option", "-o", help=OPTION_HELP),
        json_path: Path | None = typer.Option(None, "--json", help="Write a JSON summary here."),
        records: Path | None = typer.Option(
            None, help="Append every game, as it ends, to this JSON Lines record file."
        ),
        resume: bool = typer.Option(
            False, help="Keep the games already in --records and play only the missing ones."
        ),
        max_actions: int | None = typer.Option(None, "--max-actions", min=1, help=MAX_ACTIONS_HELP),
        ray: str | None = typer.Option(
            None,
            "--ray",
            help="Play the games as tasks on the Ray cluster at this address (same seeds and "
            "results as the local pool); 'local' starts a small local Ray.",
        ),
    ) -> None:
        """Play a round robin between agents and rate them (Bradley–Terry, openskill)."""
        specs = [*(agents or []), *ctx.args]
        for extra in ctx.args:
            if extra.startswith("-"):
                raise fail(f"unknown option {extra!r}")
        if len(specs) < 2:
            raise fail("give at least two agents, e.g. --agents random greedy")
        if resume and records is None:
            raise fail("--resume continues a run saved with --records FILE; give that file")
        loaded = load_game(game, option)
        warn_if_endless(loaded, max_actions)
        total = len(arena_schedule(len(specs), loaded.num_players, games, seed))
        with progress_bar() as bar:
            task = bar.add_task(f"{loaded} arena", total=total)

            def advance(_: GameResult) -> None:
                bar.advance(task)

            result = run_arena(
                loaded,
                specs,
                games,
                seed=seed,
                workers=workers,
                records=records,
                progress=advance,
                resume=resume,
                max_actions=max_actions,
                ray=ray,
            )
        console.print(results_table(result))
        console.print(pairings_table(result))
        seats = result.to_json()["seats"]
        shown = ", ".join(f"seat {i}: {s['win_rate']:.1%}" for i, s in enumerate(seats))
        console.print(f"Win rate by seat (all agents): {shown}")
        adjudicated = sum(r.adjudicated for r in result.results)
        if adjudicated:
            console.print(f"{adjudicated} games reached {max_actions} actions: adjudicated draws")
        if json_path is not None:
            json_path.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
            console.print(f"Summary written to {json_path}")
        if records is not None:
            console.print(f"Records written to {records}")
