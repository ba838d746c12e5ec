"""``boardplay arena GAME --agents SPEC SPEC [...]``: a seeded round robin between agents with a
progress bar, a results table, and optional JSON summary and JSON Lines records."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from boardplay.ai.arena import ArenaResult, run_arena
from boardplay.ai.arena import schedule as arena_schedule
from boardplay.cli.common import (
    console,
    fail,
    friendly,
    game_argument,
    game_options,
    load_game,
    max_actions_option,
    print_table,
    progress,
    ray_option,
    resume_option,
    warn_if_endless,
    workers_option,
)
from boardplay.i18n import N_, _, ngettext

AGENTS_HELP = N_(
    "Agent specs, e.g. --agents random greedy 'mcts(iterations=400)' hard "
    "(several after one --agents, or --agents repeated)."
)


# Columns both tables share, after the first (which names the agent or the pairing).
COUNTS = (N_("games"), N_("wins"), N_("draws"))


def headed_table(title: str, columns: tuple[str, ...]) -> Table:
    """A table with translated headings: the first column is names (folded onto more lines
    when the console is narrow), the others numbers (kept whole by ``print_table``)."""
    table = Table(title=title)
    for position, column in enumerate(columns):
        if position == 0:
            table.add_column(_(column), justify="left", overflow="fold")
        else:
            table.add_column(_(column), justify="right")
    return table


def results_table(result: ArenaResult) -> Table:
    """Per agent: games, wins, draws, win rate with its 95% interval, Elo-scale rating."""
    data = result.to_json()
    title = _("{game}: {games} games, seed {seed}")
    table = headed_table(
        title.format(game=result.game, games=data["games"], seed=result.seed),
        (N_("agent"), *COUNTS, N_("win rate"), N_("95% CI"), N_("rating (95% CI)"), N_("s/move")),
    )
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
            _("{mean} (max {max})").format(
                mean=f"{thinking['seconds_per_move']:.3f}", max=f"{thinking['max_seconds']:.2f}"
            ),
        )
    return table


def pairings_table(result: ArenaResult) -> Table:
    table = headed_table(
        _("head to head (first agent's view)"),
        (N_("pairing"), *COUNTS, N_("losses"), N_("win rate"), N_("95% CI")),
    )
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
        "arena",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": False},
        help=_("Play a round robin between agents and rate them (Bradley–Terry, openskill)."),
    )
    @friendly
    def arena(
        ctx: typer.Context,
        game: str = game_argument(),
        agents: list[str] = typer.Option(None, "--agents", "-a", help=_(AGENTS_HELP)),
        games: int = typer.Option(
            20, "--games", "-n", min=1, help=_("Games per table of agents (seats rotate).")
        ),
        seed: int = typer.Option(0, help=_("Seed of the run; each game derives its own.")),
        workers: int = workers_option(),
        option: list[str] = game_options(),
        json_path: Path | None = typer.Option(None, "--json", help=_("Write a JSON summary here.")),
        records: Path | None = typer.Option(
            None, help=_("Append every game, as it ends, to this JSON Lines record file.")
        ),
        resume: bool = resume_option(),
        max_actions: int | None = max_actions_option(),
        ray: str | None = ray_option(),
    ) -> None:
        specs = [*(agents or []), *ctx.args]
        for extra in ctx.args:
            if extra.startswith("-"):
                raise fail(_("unknown option {option}").format(option=repr(extra)))
        if len(specs) < 2:
            raise fail(_("give at least two agents, e.g. --agents random greedy"))
        if resume and records is None:
            raise fail(_("--resume continues a run saved with --records FILE; give that file"))
        loaded = load_game(game, option)
        warn_if_endless(loaded, max_actions)
        total = len(arena_schedule(len(specs), loaded.num_players, games, seed))
        with progress(_("{game} arena").format(game=loaded), total) as advance:
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
        print_table(results_table(result))
        print_table(pairings_table(result))
        seats = result.to_json()["seats"]
        shown = ", ".join(
            _("seat {seat}: {rate}").format(seat=i, rate=f"{s['win_rate']:.1%}")
            for i, s in enumerate(seats)
        )
        console.print(_("Win rate by seat (all agents): {rates}").format(rates=shown))
        adjudicated = sum(r.adjudicated for r in result.results)
        if adjudicated:
            console.print(
                ngettext(
                    "{count} game reached {limit} actions: an adjudicated draw",
                    "{count} games reached {limit} actions: adjudicated draws",
                    adjudicated,
                ).format(count=adjudicated, limit=max_actions)
            )
        if json_path is not None:
            json_path.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
            console.print(_("Summary written to {path}").format(path=json_path))
        if records is not None:
            console.print(_("Records written to {path}").format(path=records))
