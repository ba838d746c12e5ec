"""The ``boardplay`` commands end to end (Typer's runner feeds the keyboard)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import boardplay
from boardplay.cli.main import app
from boardplay.core.records import Record

runner = CliRunner()


def test_play_potlatch_human_against_random_and_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    keys = "P-E\nnonsense\n42\n2\nquit\n"
    args = ["play", "potlatch", "--p1", "random", "--seed", "4", "--save", str(path)]
    result = runner.invoke(app, args, input=keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seed 4" in out
    assert "1 P-E" in out  # the legal moves are listed with numbers
    assert "'nonsense' is not a legal move here; legal moves:" in out
    assert "'42' is not a legal move here" in out
    assert "Game stopped." in out
    record = Record.load(path)
    # P-E, then move number 2 of the second list; then Blue's two random actions.
    assert record.moves[0].notation == "P-E"
    assert record.moves[1].notation == "P-NW"
    assert [m.player for m in record.moves] == [0, 0, 1, 1]
    assert record.players[1].spec == "random"
    assert record.replay().current_player() == 0


def test_play_between_agents_to_the_end_is_reproducible(tmp_path: Path) -> None:
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        args = ["play", "potlatch", "--p0", "random", "--p1", "random", "--seed", "9"]
        result = runner.invoke(app, [*args, "--save", str(path)])
        assert result.exit_code == 0, result.output
        assert "Game over:" in result.stdout
    first, second = (json.loads(p.read_text()) for p in paths)
    assert first["moves"] == second["moves"]
    assert first["result"]["terminal"] is True


@pytest.mark.parametrize("game", boardplay.available())
def test_every_game_plays_to_the_end_with_agents(game: str) -> None:
    seats = ["--p0", "random", "--p1", "random"]
    result = runner.invoke(app, ["play", game, *seats, "--seed", "1"], input="")
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.stdout


def test_play_defaults_to_a_human_against_the_medium_level(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "potlatch", "--save", str(path)], input="P-E\nC-E\nq\n")
    assert result.exit_code == 0, result.output
    assert "Red (human), Blue (medium)" in result.stdout
    assert "win probability" in result.stdout  # the bot shows its estimate and line
    assert Record.load(path).players[1].spec == "medium"


def test_play_rejects_seats_the_game_does_not_have() -> None:
    result = runner.invoke(app, ["play", "potlatch", "--p2", "random"])
    assert result.exit_code == 2
    assert "there is no --p2" in result.stderr


def test_play_rejects_unknown_agent_and_option() -> None:
    result = runner.invoke(app, ["play", "potlatch", "--p1", "wizard"])
    assert result.exit_code == 2
    assert "unknown agent 'wizard'" in result.stderr
    result = runner.invoke(app, ["play", "potlatch", "--option", "actions=5"])
    assert result.exit_code == 2
    assert "option 'actions' does not accept '5'; allowed: 2, 3" in result.stderr
    result = runner.invoke(app, ["play", "potlatch", "--option", "colour=red"])
    assert result.exit_code == 2
    assert "potlatch has no option 'colour'" in result.stderr


def _saved_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    args = ["play", "potlatch", "--p0", "random", "--p1", "random", "--seed", "2", "--save"]
    assert runner.invoke(app, [*args, str(path)]).exit_code == 0
    return path


def test_replay_steps_forward_back_and_jumps(tmp_path: Path) -> None:
    path = _saved_game(tmp_path)
    record = Record.load(path)
    result = runner.invoke(app, ["replay", str(path)], input="n\nn\nb\nj 3\ne\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "start" in out
    assert f"after move 1/{len(record.moves)}: Red {record.moves[0].notation}" in out
    assert f"after move 3/{len(record.moves)}" in out
    assert "Game over:" in out


def test_replay_shows_one_position(tmp_path: Path) -> None:
    path = _saved_game(tmp_path)
    result = runner.invoke(app, ["replay", str(path), "--move", "2"])
    assert result.exit_code == 0
    assert "after move 2/" in result.stdout
    result = runner.invoke(app, ["replay", str(path), "--move", "100000"])
    assert result.exit_code == 2
    assert "--move must be between 0 and" in result.stderr


def test_replay_rejects_a_corrupt_record_naming_the_entry(tmp_path: Path) -> None:
    path = _saved_game(tmp_path)
    data = json.loads(path.read_text())
    data["moves"][4] = "X-Y"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "move 5 ('X-Y'" in result.stderr


def test_rules_are_shown_for_players() -> None:
    result = runner.invoke(app, ["rules", "potlatch", "--raw"])
    assert result.exit_code == 0
    assert "Potlatch" in result.stdout
    assert "stack" in result.stdout.lower()


def test_sim_reports_rates_and_lengths() -> None:
    result = runner.invoke(app, ["sim", "potlatch", "--games", "30", "--seed", "5"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "30 random games of potlatch" in out
    assert "Red wins" in out and "Blue wins" in out and "draws" in out
    assert "first mover wins" in out
    assert "game length" in out and "median" in out


def test_sim_with_options_names_them() -> None:
    args = ["sim", "potlatch", "-n", "5", "--option", "actions=3", "--option", "layout=L4"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "potlatch(actions=3,layout=L4)" in result.stdout


def test_bench_reports_throughput_per_option_set() -> None:
    result = runner.invoke(app, ["bench", "potlatch", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    assert "games/s" in result.stdout
    assert "potlatch(actions=3" in result.stdout


def test_bench_pairing_reports_a_row_per_field(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardplay.web.tournaments import pairingbench

    monkeypatch.setattr(pairingbench, "FIELDS", (66,))  # make bench measures up to 1,000
    result = runner.invoke(app, ["bench", "potlatch", "--seconds", "0.05", "--pairing"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "│" in line and " 66 " in line]
    (row,) = rows
    swiss, arena = (float(cell) for cell in row.split("│")[2:4])
    assert swiss >= 0 and arena >= 0  # CPU seconds, printed as measured (0.00 for 66)
