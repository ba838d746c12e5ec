"""``boardplay analyze GAME``: a balance study (seat advantage, effect of each rules option)
under strong self-play, written as ``<game name>.md`` with its plots beside it into ``--out``
(default ``analysis/`` under the current directory: ``analysis/montana.md``, whatever options
the study varied). The report's header is the command that plays the study again.

GAME may be a game string (``proteus(max_turns=100)``) and ``--option`` adds options: the study
is then that one option set. ``--sweep option=v1,v2`` (repeatable) plays every combination of
the swept values over those options and tests each variant against the first. A plain game
name with neither studies the game's preset variants (``Game.study_axes``).

The study needs the ``ai`` extra (NumPy, SciPy, matplotlib): without it, the command says so
before it plays a game."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from boardplay.ai.analysis import Variant, analyze_command, run_study, variants_for, write_report
from boardplay.ai.specs import make_agent
from boardplay.ai.variants import p_value, parse_sweep, sweep
from boardplay.cli.common import (
    console,
    fail,
    friendly,
    game_argument,
    game_options,
    max_actions_option,
    print_table,
    progress,
    ray_option,
    resume_option,
    workers_option,
)
from boardplay.core.options import parse_game_string, parse_option_pairs
from boardplay.core.registry import canonical_name, load
from boardplay.i18n import N_, _

# The columns of the summary table (the English name decides the alignment).
COLUMNS = (
    N_("variant"),
    N_("first mover"),
    N_("seat win rates"),
    N_("draws"),
    N_("length in actions: median (5%-95%), max"),
    N_("cut"),
)

NEEDS = ("numpy", "scipy", "matplotlib")
"""What a study needs beyond the core (the ``ai`` extra): the tests and the plots."""

# What two variants may differ in (``variants.compare``'s ``differing``), in the line's words.
DIFFERING = {"first_mover": N_("first mover"), "draws": N_("draws"), "length": N_("length")}


def missing_modules(names: tuple[str, ...] = NEEDS) -> list[str]:
    """The modules of ``names`` that cannot be imported here."""
    return [name for name in names if importlib.util.find_spec(name) is None]


def register(app: typer.Typer) -> None:
    @app.command(
        "analyze", help=_("Measure seat advantage and the effect of the rules options on GAME.")
    )
    @friendly
    def analyze(
        game: str = game_argument(),
        option: list[str] = game_options(),
        sweeps: list[str] = typer.Option(
            [],
            "--sweep",
            help=_(
                "Play every value of an option, e.g. --sweep max_turns=50,100,200 (repeatable: "
                "every combination); each variant is tested against the first."
            ),
        ),
        games: int = typer.Option(20, "--games", "-n", min=1, help=_("Games per variant.")),
        agent: str = typer.Option(
            "medium", help=_("Agent spec playing every seat (strong-vs-strong self-play).")
        ),
        seed: int = typer.Option(0, help=_("Seed of the study.")),
        workers: int = workers_option(),
        out: Path = typer.Option(
            Path("analysis"),
            help=_(
                "Directory for the report (named after the game, .md) and its plots "
                "(default: analysis/ under the current directory)."
            ),
        ),
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
        missing = missing_modules()
        if missing:  # before any game is played, not after all of them
            raise fail(
                _("boardplay analyze needs the ai extra ({missing} missing): {command}").format(
                    missing=", ".join(missing), command=escape("pip install 'boardplay[ai]'")
                )
            )
        name, from_string = parse_game_string(game)
        name = canonical_name(name)
        pairs = parse_option_pairs(option)
        base = load(name, **from_string, **pairs).options  # bad options fail here, clearly
        given = {key: base[key] for key in (*from_string, *pairs)}
        if resume and records is None:
            raise fail(
                _("--resume continues a study saved with --records DIR; give that directory")
            )
        if sweeps:
            axes = [parse_sweep(name, text) for text in sweeps]
            variants = [Variant(label, opts) for label, opts in sweep(given, axes)]
            for variant in variants:
                load(name, **variant.options)  # a combination the rules refuse fails now
        elif given:
            variants = [Variant(",".join(f"{k}={v}" for k, v in given.items()), given)]
        else:
            variants = variants_for(name)
        make_agent(agent, load(name), 0)  # a bad spec fails before any game is played
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
        study.command = analyze_command(game, option, sweeps, games, agent, seed, max_actions)
        data = study.to_json()
        title = _("{game}: {games} games per variant, {agent} in every seat")
        table = Table(title=title.format(game=name, games=games, agent=agent))
        for column in COLUMNS:  # the variant's name folds; print_table keeps numbers whole
            table.add_column(
                _(column),
                justify="right" if column in ("draws", "cut") else "left",
                overflow="fold" if column == "variant" else "ellipsis",
            )
        for v in data["variants"]:
            first = v["first_mover"]
            length = v["length"]
            table.add_row(
                v["game"],
                f"{first['win_rate']:.0%} ({first['ci95'][0]:.0%}–{first['ci95'][1]:.0%})",
                " ".join(f"{s['win_rate']:.0%}" for s in v["seats"]),
                str(v["draws"]),
                f"{length['p50']:g} ({length['p5']:g}–{length['p95']:g}), {length['max']}"
                if length["games"]
                else "-",
                f"{length['cut']}/{v['cap']}" if v["cap"] else "-",
            )
        print_table(table)
        for test in data["tests"]:
            words = (
                _("they differ at the 5% level in: {what}").format(
                    what=", ".join(_(DIFFERING[name]) for name in test["differing"])
                )
                if test["differ"]
                else _("no difference at the 5% level")
            )
            line = _(
                "{variant} against {baseline}: first mover (edge over its fair share) {first}, "
                "draws {draws}, length {length}: {words}"
            )
            console.print(
                line.format(
                    variant=test["variant"],
                    baseline=test["baseline"],
                    first=p_value(test["first_mover_p"]),
                    draws=p_value(test["draws_p"]),
                    length=p_value(test["length_p"]),
                    words=words,
                ),
                soft_wrap=True,
            )
        path = write_report(study, out)
        console.print(_("Report written to {path}").format(path=path))
        if json_path is not None:
            json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
