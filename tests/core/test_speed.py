"""The engine bench's plumbing: which option sets the native yardstick covers, how its JSON
line is read, and the CLI table that puts the two side by side (speed itself is measured by
``make bench``, never asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import boardplay
from boardplay.cli.main import app
from boardplay.core.speed import contract_speed, yardstick_arguments, yardstick_speed


@pytest.mark.parametrize(
    ("spec", "arguments"),
    [
        ("potlatch", ["2"]),
        ("potlatch(actions=3)", ["3"]),
        ("potlatch(layout=L4)", None),
        ("potlatch(filter_dead_ends=true)", None),
        ("proteus(max_turns=200)", ["seed"]),
        ("proteus(rules=kadon,max_turns=200)", ["kadon"]),
        ("proteus", None),
        ("proteus(max_turns=200,repetition=forbid)", None),
        ("passtally(players=3)", ["3"]),
        ("montana", ["2"]),
        ("montana(players=4)", ["4"]),
        ("montana(max_turns=100)", None),
        ("montana(recruit_grain=additional)", None),
    ],
)
def test_yardstick_covers_exactly_its_option_sets(spec: str, arguments: list[str] | None) -> None:
    assert yardstick_arguments(boardplay.load(spec)) == arguments


def _fake_yardstick(folder: Path, games_per_s: float) -> None:
    """A stand-in program with the yardstick's interface: ``NAME bench ARG GAMES``."""
    line = json.dumps({"games": 1000, "actions": 30000, "wall_seconds": 1000 / games_per_s})
    script = folder / "potlatch"
    script.write_text(f"#!/bin/sh\ntest \"$1\" = bench || exit 2\necho '{line}'\n")
    script.chmod(0o755)


def test_yardstick_line_is_read_from_the_named_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_yardstick(tmp_path, 4000.0)
    monkeypatch.setenv("BOARDPLAY_YARDSTICK", str(tmp_path))
    speed = yardstick_speed(boardplay.load("potlatch"), 0.01)
    assert speed is not None
    assert speed.games == 1000
    assert speed.games_per_second == pytest.approx(4000.0)
    assert yardstick_speed(boardplay.load("potlatch(layout=L4)"), 0.01) is None


def test_no_yardstick_folder_means_no_native_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDPLAY_YARDSTICK", str(tmp_path / "absent"))
    assert yardstick_speed(boardplay.load("potlatch"), 0.01) is None


def test_contract_speed_plays_whole_games() -> None:
    speed = contract_speed(boardplay.load("potlatch"), 0.01)
    assert speed.games >= 1
    assert speed.actions >= 8 * speed.games  # a Potlatch game lasts at least a few turns


def test_bench_prints_native_games_beside_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_yardstick(tmp_path, 4000.0)
    monkeypatch.setenv("BOARDPLAY_YARDSTICK", str(tmp_path))
    result = CliRunner().invoke(app, ["bench", "potlatch", "--seconds", "0.02"])
    assert result.exit_code == 0, result.output
    assert "4,000" in result.stdout  # the native column, read from the stand-in
    assert "potlatch(actions=3" in result.stdout
