"""``boardplay bench``: engine speed per option set as ratios taken in one run: compiled random
games beside the native yardstick, the Python contract loop, and optionally MCTS, the
research adapters and the tournaments' pairing of large fields. Numbers are printed, never
asserted."""

from __future__ import annotations

import typer
from rich.table import Table

from boardplay.cli.common import console, friendly, print_table
from boardplay.core.playout import Speed
from boardplay.core.registry import available, load
from boardplay.core.speed import contract_speed, kernel_speed, yardstick_speed
from boardplay.i18n import N_, _


def _rate(value: float) -> str:
    """A rate short enough for an 80-column table: 5,653 / 230.4k / 6.88M."""
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    if value >= 1e4:
        return f"{value / 1e3:.1f}k"
    return f"{value:,.0f}"


def _ratio(ours: Speed | None, native: Speed | None) -> str:
    if ours is None or native is None or ours.games_per_second <= 0:
        return "—"
    return f"1/{native.games_per_second / ours.games_per_second:.2f}"


def _learned_table(names: list[str]) -> None:
    """The learned search (``az``) beside the plain one at the same settings, for each game with
    a learned search (``ai.bench.az_against_mcts``); nothing for the others."""
    from boardplay.ai.bench import az_against_mcts

    rows = [(name, az_against_mcts(load(name))) for name in names]
    measured = [(name, row) for name, row in rows if row is not None]
    if not measured:
        return
    title = _(
        "learned search (az) against plain search (mcts) at the same settings, simulations per "
        "CPU second (median of 9 positions; target: az at least 1/1.5 of mcts), az with a "
        "network of one hidden unit (the most any network allows), and one network pass beside "
        "one mcts simulation"
    )
    table = Table(title=title)
    headers = (
        N_("game"),
        N_("az"),
        N_("mcts"),
        N_("az vs mcts"),
        N_("one-unit az vs mcts"),
        N_("pass µs"),
        N_("mcts µs"),
    )
    for number, header in enumerate(headers):
        table.add_column(_(header), justify="right" if number else "left")
    for name, row in measured:
        table.add_row(
            name,
            _rate(row.az_rate),
            _rate(row.mcts_rate),
            f"1/{row.slowdown:.2f}",
            f"1/{row.bare_slowdown:.2f}",
            f"{row.pass_seconds * 1e6:.2f}",
            f"{1e6 / row.mcts_rate:.2f}" if row.mcts_rate > 0 else "—",
        )
    print_table(table)


def register(app: typer.Typer) -> None:
    @app.command(
        "bench",
        help=_(
            "Random-game throughput per option set: compiled kernel, native yardstick "
            "(../shared/limit when present; Montana's built from tools/native), their ratio, "
            "and the Python contract loop."
        ),
    )
    @friendly
    def bench(
        game: str | None = typer.Argument(None, help=_("One game (default: all).")),
        seconds: float = typer.Option(3.0, help=_("Time per measurement.")),
        mcts: bool = typer.Option(False, "--mcts", help=_("Also MCTS simulations per second.")),
        adapters: bool = typer.Option(
            False, "--adapters", help=_("Also steps/s through OpenSpiel, PettingZoo, Gymnasium.")
        ),
        pairing: bool = typer.Option(
            False,
            "--pairing",
            help=_("Also CPU seconds to pair a Swiss round and an arena wave of large fields."),
        ),
    ) -> None:
        names = [load(game).name] if game else available()
        title = _(
            "random games, {seconds} s per measurement, one core (games/s and actions/s: "
            "compiled kernel; native: ../shared/limit, Montana's tools/native/montana.c; "
            "contract: legal_actions + apply_action in Python)"
        )
        table = Table(title=title.format(seconds=f"{seconds:g}"))
        sets = [load(name, **o) for name in names for o in type(load(name)).bench_option_sets]
        table.add_column(_("option set"), no_wrap=True, min_width=max(len(str(g)) for g in sets))
        columns = (
            N_("games/s"),
            N_("native games/s"),
            N_("vs native"),
            N_("actions/s"),
            N_("contract act/s"),
        )
        for column in columns:
            table.add_column(_(column), justify="right")
        for loaded in sets:
            ours = kernel_speed(loaded, seconds) if loaded.new_initial_state().kernel else None
            native = yardstick_speed(loaded, seconds)
            python = contract_speed(loaded, seconds)
            table.add_row(
                str(loaded),
                _rate(ours.games_per_second) if ours else _("no kernel"),
                _rate(native.games_per_second) if native else "—",
                _ratio(ours, native),
                _rate(ours.actions_per_second) if ours else "—",
                _rate(python.actions_per_second),
            )
        print_table(table)
        if mcts:
            from boardplay.ai.bench import mcts_speed

            title = _(
                "MCTS simulations/s from the first decision, {seconds} s per search, one core: "
                "default settings (compiled vs the Python reference) and uniform random "
                "rollouts to the end (compiled vs OpenSpiel's Python MCTSBot with its "
                "RandomRolloutEvaluator, and with the adapter's EngineRolloutEvaluator)"
            )
            search = Table(title=title.format(seconds=f"{seconds:g}"))
            headers = (
                N_("game"),
                N_("default"),
                N_("Python ref."),
                N_("speed-up"),
                N_("rollouts"),
                N_("MCTSBot"),
                N_("speed-up"),
                N_("MCTSBot engine"),
                N_("speed-up"),
            )
            for number, header in enumerate(headers):
                search.add_column(_(header), justify="right" if number else "left")
            for name in names:
                default = mcts_speed(name, seconds)
                reference = mcts_speed(name, seconds, reference=True)
                rollouts = mcts_speed(name, seconds, rollouts=True)
                try:  # OpenSpiel is the optional ``rl`` extra
                    from boardplay.adapters.mctsbot import openspiel_mcts_speed

                    bots = [
                        openspiel_mcts_speed(name, seconds, engine_rollouts=engine)
                        for engine in (False, True)
                    ]
                    compared = [
                        cell for bot in bots for cell in (_rate(bot), f"{rollouts / bot:.0f}×")
                    ]
                except ImportError:
                    compared = ["—"] * 4
                search.add_row(
                    name,
                    _rate(default),
                    _rate(reference),
                    f"{default / reference:.0f}×",
                    _rate(rollouts),
                    *compared,
                )
            print_table(search)
            _learned_table(names)
        if adapters:
            from boardplay.adapters.bench import adapter_throughput, format_table

            heading = _("steps/s through the research adapters, {seconds} s per row")
            console.print("\n" + heading.format(seconds=f"{seconds:g}"))
            from boardplay.adapters.pgxbench import pgx_row

            rows = adapter_throughput(names, seconds=seconds)
            console.print(format_table([*rows, pgx_row(seconds, 0)]))
        if pairing:
            from boardplay.web.tournaments import pairingbench

            title = _(
                "tournament pairing, CPU seconds of one core: a Swiss's round 5 and an arena's "
                "wave 5 with everyone free, after random results (targets at 1,000 players: "
                "a round within 2, a wave within 1)"
            )
            paired = Table(title=title)
            for header in (N_("players"), N_("Swiss round"), N_("arena wave")):
                paired.add_column(_(header), justify="right")
            for field in pairingbench.FIELDS:
                swiss = pairingbench.swiss_round_seconds(field)
                arena = pairingbench.arena_wave_seconds(field)
                paired.add_row(f"{field:,}", f"{swiss:.2f}", f"{arena:.2f}")
            print_table(paired)
