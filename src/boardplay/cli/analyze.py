"""``boardplay analyze GAME``: a balance study (seat advantage, effect of each rules option)
under strong self-play, written as docs/analysis/GAME.md with plots."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from boardplay.ai.analysis import run_study, variants_for, write_report
from boardplay.ai.specs import make_agent
from boardplay.cli.common import (
    console,
    fail,
    friendly,
    game_help,
    max_actions_option,
    progress,
    ray_option,
    resume_option,
    warn_if_endless,
    workers_option,
)
from boardplay.core.registry import canonical_name, load
from boardplay.i18n import N_, _

# The columns of the summary table (the English name decides the alignment).
COLUMNS = (N_("variant"), N_("first mover"), N_("seat win rates"), N_("draws"), N_("length"))


def register(app: typer.Typer) -> None:
    @app.command(
        "analyze", help=_("Measure seat advantage and the effect of the rules options on GAME.")
    )
    @friendly
    def analyze(
        game: str = typer.Argument(..., help=game_help()),
        games: int = typer.Option(20, "--games", "-n", min=1, help=_("Games per variant.")),
        agent: str = typer.Option(
            "medium", help=_("Agent spec playing every seat (strong-vs-strong self-play).")
        ),
        seed: int = typer.Option(0, help=_("Seed of the study.")),
        workers: int = workers_option(),
        out: Path = typer.Option(Path("docs/analysis"), help=_("Directory for GAME.md and plots.")),
        json_path: Path | None = typer.Option(
            None, "--json", help=_("Also write the numbers here.")
        ),
        records: Path | None = typer.Option(
            None, help=_("Directory to append every game to, one JSON Lines file per variant.")
        ),
        resume: bool = resume_option(),
        max_actions: int | None = max_actions_option(),
        ray: str | None = ray_option(),
    ) -> None:
        name = canonical_name(game)
        if "(" in game:
            raise fail(_("analyze takes a plain game name; the study chooses the option sets"))
        if resume and records is None:
            raise fail(
                _("--resume continues a study saved with --records DIR; give that directory")
            )
        variants = variants_for(name)
        make_agent(agent, load(name), 0)  # a bad spec fails before any game is played
        unbounded = [g for v in variants if not (g := load(name, **v.options)).bounded]
        if unbounded:  # one note for the study, not one per variant
            warn_if_endless(unbounded[0], max_actions)
        total = games * len(variants)
        with progress(_("{game} balance study").format(game=name), total) as advance:
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
        title = _("{game}: {games} games per variant, {agent} in every seat")
        table = Table(title=title.format(game=name, games=games, agent=agent))
        for column in COLUMNS:
            table.add_column(_(column), justify="left" if column != "draws" else "right")
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
        console.print(_("Report written to {path}").format(path=path))
        if json_path is not None:
            json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
