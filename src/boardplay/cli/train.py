"""``boardplay train GAME``: train a learning baseline (masked PPO or self-play) on the batched
env; ``boardplay baselines DIR``: the table and plots of the runs under DIR. Training needs the
``train`` extra (torch); the table, the plots and playing the policies do not."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from boardplay.ai.baselines import Point, markdown, plot, runs_in, ship, table, write_levels
from boardplay.ai.policy import NAME, SHIPPED
from boardplay.cli.common import (
    console,
    fail,
    friendly,
    game_argument,
    game_options,
    ray_option,
)
from boardplay.core.options import parse_option_pairs
from boardplay.core.registry import load
from boardplay.i18n import _


def register(app: typer.Typer) -> None:
    @app.command("train", help=_("Train a learned policy for GAME (masked PPO or self-play)."))
    @friendly
    def train(
        game: str = game_argument(),
        option: list[str] = game_options(),
        algo: str = typer.Option(
            "ppo",
            help=_(
                "ppo (against random players), selfplay (against a league) or alphazero "
                "(a network for the PUCT search, by self-play)."
            ),
        ),
        steps: int = typer.Option(
            0,
            min=0,
            help=_("Environment steps (learner decisions); 0: the game's baseline budget."),
        ),
        seed: int = typer.Option(1, help=_("Seed of the run (network, games and evaluation).")),
        envs: int = typer.Option(32, min=1, max=4096, help=_("Games stepped at once.")),
        hidden: str = typer.Option(
            "64,64", help=_("Hidden layer widths of the actor and of the critic, e.g. 128,128.")
        ),
        lr: float = typer.Option(
            1e-3, min=1e-6, max=1.0, help=_("Learning rate of the optimiser.")
        ),
        eval_every: int = typer.Option(
            0, min=0, help=_("Steps between two evaluation points of the curve; 0: a tenth.")
        ),
        eval_games: int = typer.Option(
            100, min=0, help=_("Games against random at each evaluation point.")
        ),
        easy_games: int = typer.Option(
            40, min=0, help=_("Games against easy at each evaluation point.")
        ),
        final_games: int = typer.Option(
            200, min=0, help=_("Games against random and against easy at the end.")
        ),
        out: Path = typer.Option(
            Path("runs"), help=_("Folder for the run (a sub-folder game-algo-seed is made).")
        ),
        ship: str | None = typer.Option(
            None, help=_("Also copy the policy into the shipped policies under this name.")
        ),
        games: int = typer.Option(2000, min=1, help=_("alphazero: self-play games in all.")),
        simulations: int = typer.Option(
            100, min=1, help=_("alphazero: PUCT simulations per self-play move.")
        ),
        opponent: str = typer.Option(
            "medium", help=_("alphazero: the fixed opponent of the curve (an agent spec).")
        ),
        init: Path | None = typer.Option(
            None,
            help=_(
                "alphazero: start from this network file (same game, input and --hidden) "
                "to resume or extend a run."
            ),
        ),
        teacher: str | None = typer.Option(
            None,
            help=_(
                "alphazero: an mcts spec whose games and root visits train the network in "
                "the first --teacher-iterations iterations instead of self-play (expert "
                "iteration)."
            ),
        ),
        teacher_iterations: int = typer.Option(
            0, min=0, help=_("alphazero: iterations of 50 games played by --teacher.")
        ),
        workers: int = typer.Option(
            0,
            min=0,
            help=_(
                "alphazero: processes that play each iteration's games, each game from a seed "
                "of its own (the same run with any count); 0: in this process, as the shipped "
                "networks were made."
            ),
        ),
        ray: str | None = ray_option(),
    ) -> None:
        if importlib.util.find_spec("torch") is None:
            raise fail(_("training needs torch: pip install 'boardplay[train]'"))
        if algo != "alphazero" and (workers or ray is not None):
            raise fail(
                _("--workers and --ray play alphazero's games; --algo {algo} has none").format(
                    algo=algo
                )
            )
        if algo == "alphazero":
            from boardplay.ai.alphazero import AZConfig, train_alphazero

            where = out / f"{load(game, **parse_option_pairs(option)).name}-alphazero-{seed}"
            az_config = AZConfig(
                game=str(load(game, **parse_option_pairs(option))),
                games=games,
                seed=seed,
                simulations=simulations,
                hidden=tuple(int(w) for w in hidden.split(",") if w.strip()),
                learning_rate=lr,
                eval_games=eval_games,
                opponent=opponent,
                init=str(init) if init is not None else None,
                teacher=teacher,
                teacher_iterations=teacher_iterations if teacher is not None else 0,
                workers=workers,
                ray=ray,
            )

            def show_point(point: dict[str, Any]) -> None:
                line = _(
                    "iteration {iteration:>4}  games {games:>7,}  loss {loss}  cpu {cpu} s"
                ).format(
                    iteration=point["iteration"],
                    games=point["games"],
                    loss=point["loss"],
                    cpu=point["cpu_seconds"],
                )
                versus = point.get("vs")
                if isinstance(versus, dict):
                    line += "   " + _("vs {opponent} {score:.1%}").format(
                        opponent=opponent, score=versus["score"]
                    )
                console.print(line)

            summary = train_alphazero(az_config, where, show_point)
            console.print(_("Network and curve written to {path}").format(path=where))
            if (where / "best.npz").is_file():  # a short run's last point may not be its best
                best = _(
                    "best.npz is the network of the curve's best point ({score:.1%} against "
                    "{opponent}), network.npz the last; play either as az(weights=FILE,...)"
                )
                console.print(best.format(score=summary["best_score"], opponent=opponent))
            return
        from boardplay.ai.train import TrainConfig
        from boardplay.ai.train import train as run_training

        loaded = load(game, **parse_option_pairs(option))
        try:
            widths = tuple(int(w) for w in hidden.split(","))
        except ValueError:
            widths = ()
        if not widths or not all(1 <= w <= 4096 for w in widths):
            raise fail(
                _("--hidden takes layer widths from 1 to 4096 separated by commas, e.g. 128,128")
            )
        if ship is not None and not NAME.fullmatch(ship):
            raise fail(_("--ship takes a name of lower-case letters, digits, '-', '_' or '.'"))
        config = TrainConfig(
            game=str(loaded),
            algo=algo,
            steps=steps,
            seed=seed,
            envs=envs,
            hidden=widths,
            learning_rate=lr,
            eval_every=eval_every,
            eval_games=eval_games,
            easy_games=easy_games,
            final_games=final_games,
        )
        folder = out / f"{loaded.name}-{algo}-{seed}"

        def show(point: Point) -> None:
            console.print(
                _(
                    "{steps:>9,} steps {seconds:>7.1f} s   "
                    "vs random {random:.0%}   vs easy {easy:.0%}"
                ).format(**point.__dict__)
            )

        run, _net = run_training(config, folder, show)
        for opponent, score in run.final.items():
            console.print(
                _("final: {share:.1%} against {opponent} in {games} games").format(
                    share=score["share"], opponent=opponent, games=score["games"]
                )
            )
        console.print(_("Policy and curve written to {path}").format(path=folder))
        if ship is not None:
            SHIPPED.mkdir(exist_ok=True)
            shutil.copyfile(folder / "policy.npz", SHIPPED / f"{ship}.npz")
            write_levels(SHIPPED)
            console.print(_("Shipped as policy({name})").format(name=ship))

    @app.command("baselines", help=_("Table and learning curves of the training runs under DIR."))
    @friendly
    def baselines(
        runs: Path = typer.Argument(..., help=_("A folder of runs written by boardplay train.")),
        out: Path = typer.Option(
            Path("docs/baselines"), help=_("Folder for the table (table.md) and the plots.")
        ),
        ship_best: bool = typer.Option(
            False,
            "--ship",
            help=_(
                "Ship the best seed of each game and algorithm that won at least 90% against "
                "random, and make the strongest against easy each game's learned level."
            ),
        ),
    ) -> None:
        found = runs_in(runs)
        if not found:
            raise fail(_("no training runs (curve.json) under {path}").format(path=runs))
        all_runs = [run for _folder, run in found]
        rows = table(all_runs)
        shown = Table(title=_("Learning baselines"))
        for column in (_("game"), _("agent"), _("seeds"), _("steps"), _("vs random"), _("vs easy")):
            shown.add_column(column)
        for row in rows:
            shown.add_row(
                row["game"],
                row["algo"],
                str(row["seeds"]),
                f"{row['steps']:,}",
                f"{row.get('random', 0):.1%}",
                f"{row['easy']:.1%}" if "easy" in row else "-",
            )
        console.print(shown, soft_wrap=True)
        out.mkdir(parents=True, exist_ok=True)
        (out / "table.md").write_text(markdown(rows), encoding="utf-8")
        for name in sorted({run.game for run in all_runs}):
            safe = "".join(c if c.isalnum() else "-" for c in name).strip("-")
            plot([r for r in all_runs if r.game == name], out / f"{safe}.png")
        console.print(_("Table and plots written to {path}").format(path=out))
        if ship_best:
            for name, source in ship(found, SHIPPED).items():
                console.print(
                    _("Shipped policy({name}) from {path}").format(name=name, path=source)
                )
