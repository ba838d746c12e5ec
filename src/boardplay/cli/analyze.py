"""``boardplay analyze GAME``: a balance study (seat advantage, effect of each rules option)
under strong self-play, written as docs/analysis/GAME.md with plots."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from boardplay.ai.analysis import run_study, variants_for, write_report
from boardplay.ai.arena import GameResult
from boardplay.ai.specs import make_agent
from boardplay.cli.common import (
    MAX_ACTIONS_HELP,
    console,
    fail,
    friendly,
    progress_bar,
    warn_if_endless,
)
from boardplay.core.registry import canonical_name, load


def register(app: typer.Typer) -> None:
    @app.command("analyze")
    @friendly
    def analyze(
        game: str = typer.Argument(..., help="potlatch, proteus, passtally or montana"),
        games: int = typer.Option(20, "--games", "-n", min=1, help="Games per variant."),
        agent: str = typer.Option(
            "medium", help="Agent spec playing every seat (strong-vs-strong self-play)."
        ),
        seed: int = typer.Option(0, help="Seed of the study."),
        workers: int = typer.Option(1, min=1, help="Worker processes (the machine is shared)."),
        out: Path = typer.Option(Path("docs/analysis"), help="Directory for GAME.md and plots."),
        json_path: Path | None = typer.Option(None, "--json", help="Also write the numbers here."),
        records: Path | None = typer.Option(
            None, help="Directory to append every game to, one JSON Lines file per variant."
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
        """Measure seat advantage and the effect of the rules options on GAME."""
        name = canonical_name(game)
        if "(" in game:
            raise fail("analyze takes a plain game name; the study chooses the option sets")
        if resume and records is None:
            raise fail("--resume continues a study saved with --records DIR; give that directory")
        variants = variants_for(name)
        make_agent(agent, load(name), 0)  # a bad spec fails before any game is played
        unbounded = [g for v in variants if not (g := load(name, **v.options)).bounded]
        if unbounded:  # one note for the study, not one per variant
            warn_if_endless(unbounded[0], max_actions)
        total = games * len(variants)
        with progress_bar() as bar:
            task = bar.add_task(f"{name} balance study", total=total)

            def advance(_: GameResult) -> None:
                bar.advance(task)

            study = run_study(
                name,
                games,
                agent,
                seed,
                workers,
                variants,
                advance,
                records,
                resume,
                max_actions,
                ray,
            )
        data = study.to_json()
        table = Table(title=f"{name}: {games} games per variant, {agent} in every seat")
        for column in ("variant", "first mover", "seat win rates", "draws", "length"):
            table.add_column(column, justify="left" if column != "draws" else "right")
        for v in data["variants"]:
            first = v["first_mover"]
            table.add_row(
                v["game"],
                f"{first['win_rate']:.0%} ({first['ci95'][0]:.0%}–{first['ci95'][1]:.0%})",
                " ".join(f"{s['win_rate']:.0%}" for s in v["seats"]),
                str(v["draws"]),
                str(v["mean_length"]),
            )
        console.print(table)
        path = write_report(study, out)
        console.print(f"Report written to {path}")
        if json_path is not None:
            json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
