"""``boardplay arena`` and ``boardplay analyze`` through Typer's CliRunner, on the test game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardplay.cli.main import app

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("pig")


def test_arena_prints_a_table_and_writes_json_and_records(tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    records = tmp_path / "games.jsonl"
    result = runner.invoke(
        app,
        [
            "arena", "pig", "--agents", "random", "mcts(iterations=30)", "--games", "4",
            "--seed", "3", "--option", "target=15", "--json", str(summary),
            "--records", str(records),
        ],
        env={"COLUMNS": "120"},  # room for every heading on one line (80: the next test)
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "mcts(iterations=30)" in result.output and "win rate" in result.output
    data = json.loads(summary.read_text())
    assert data["game"] == "pig(target=15)" and data["games"] == 4
    for agent in data["agents"]:
        assert set(agent) >= {"spec", "games", "wins", "draws", "win_rate", "rating"}
        assert agent["games"] == 4
    (pairing,) = data["pairings"]
    assert set(pairing) >= {"spec", "games", "wins", "draws", "win_rate", "rating"}
    assert len(records.read_text().splitlines()) == 4
    mcts = data["agents"][1]["thinking"]
    assert mcts["moves"] > 0 and mcts["simulations_per_search"] <= 30
    assert "s/move" in result.output
    resumed = runner.invoke(
        app,
        [
            "arena", "pig", "--agents", "random", "mcts(iterations=30)", "--games", "6",
            "--seed", "3", "--option", "target=15", "--json", str(summary),
            "--records", str(records), "--resume",
        ],
    )  # fmt: skip
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(summary.read_text())["games"] == 6
    assert len(records.read_text().splitlines()) == 6


@pytest.mark.parametrize("columns", ["80", "40"])
def test_arena_tables_keep_every_number_whole_when_piped(tmp_path: Path, columns: str) -> None:
    """Research reviews 2026-11c and 11d: piped at 80 columns, Rich cut the intervals and ratings
    (``30.1%–95…``, ``(1408–17…``). CliRunner's output is not a terminal, as a pipe is not."""
    summary = tmp_path / "summary.json"
    result = runner.invoke(
        app,
        [
            "arena", "pig", "--agents", "random", "greedy", "mcts(iterations=30)",
            "--games", "4", "--seed", "3", "--json", str(summary),
        ],
        env={"COLUMNS": columns},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    data = json.loads(summary.read_text())
    shown = []
    for agent in data["agents"]:
        low, high = agent["ci95"]
        rlow, rhigh = agent["rating_ci95"]
        shown += [
            f"{agent['win_rate']:.1%}",
            f"{low:.1%}–{high:.1%}",
            f"{agent['rating']:.0f}",
            f"({rlow:.0f}–{rhigh:.0f})",
            f"{agent['thinking']['seconds_per_move']:.3f}",
        ]
    for pairing in data["pairings"]:
        low, high = pairing["ci95"]
        shown += [f"{pairing['win_rate']:.1%}", f"{low:.1%}–{high:.1%}"]
    missing = [number for number in shown if number not in result.output]
    assert not missing, result.output
    if columns == "80":  # it fits: the names fold, the numbers keep their width
        assert max(len(line) for line in result.output.splitlines()) <= 80, result.output


def test_arena_accepts_repeated_agents_option() -> None:
    result = runner.invoke(
        app, ["arena", "pig", "--agents", "random", "--agents", "greedy", "--games", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "pig", "--agents", "random", "wizard"], "unknown agent 'wizard'"),
        (["arena", "pig", "--agents", "random"], "give at least two agents"),
        (["arena", "pig", "--agents", "random", "greedy", "--option", "seats=9"], "no option"),
        (["arena", "chess", "--agents", "random", "greedy"], "unknown game 'chess'"),
        (["arena", "pig", "--agents", "random", "mcts(iterations=x)"], "must be an integer"),
        (["arena", "pig", "--agents", "random", "greedy", "--resume"], "give that file"),
        (["arena", "pig", "--agents", "random", "mcts(early=no)"], "true or false"),
    ],
)
def test_arena_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_arena_warns_about_a_game_without_length_limit_and_caps_it() -> None:
    args = ["arena", "proteus", "--agents", "random", "random", "--games", "2"]
    capped = runner.invoke(app, [*args, "--max-actions", "10"])
    assert capped.exit_code == 0, capped.output
    assert "2 games reached 10 actions: adjudicated draws" in capped.output
    bounded = runner.invoke(app, [*args, "--option", "max_turns=20"])
    assert bounded.exit_code == 0, bounded.output
    assert "no length limit" not in capped.output + bounded.output
    assert "adjudicated" not in bounded.output
    # Without either cap the note comes before any game is played (here a bad spec stops it).
    uncapped = runner.invoke(app, ["arena", "proteus", "--agents", "random", "wizard"])
    assert "proteus has no length limit" in " ".join(uncapped.output.split())
    assert "--max-actions N" in uncapped.output and uncapped.exit_code == 2
