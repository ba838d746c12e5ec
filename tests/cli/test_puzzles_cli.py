"""``boardplay puzzles mine / verify / show`` end to end with a tiny budget."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from boardplay.cli.main import app

runner = CliRunner()


def test_mine_verify_show(tmp_path: Path) -> None:
    out = tmp_path / "proteus.jsonl"
    args = ["puzzles", "mine", "proteus", str(out), "--agent", "medium"]
    result = runner.invoke(app, [*args, "--iterations", "200", "--count", "2", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "2 confirmed" in result.stdout
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["verified"]["ok"] and first["source"]["kind"] == "selfplay"

    result = runner.invoke(app, ["puzzles", "verify", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 of 2 puzzles confirmed" in result.stdout

    result = runner.invoke(app, ["puzzles", "show", str(out), "--picture", first["id"]])
    assert result.exit_code == 0, result.output
    assert "to move: find the one turn that" in result.stdout

    first["solution"] = ["pass"]
    out.write_text(json.dumps(first) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["puzzles", "verify", str(out)])
    assert result.exit_code == 1
    assert "not confirmed" in result.stdout


def test_mine_refuses_endless_self_play_and_three_seats(tmp_path: Path) -> None:
    out = str(tmp_path / "p.jsonl")
    result = runner.invoke(app, ["puzzles", "mine", "proteus", out])
    assert result.exit_code == 2 and "--count or --minutes" in result.output
    result = runner.invoke(app, ["puzzles", "mine", "montana", out, "-o", "players=3", "-n", "1"])
    assert result.exit_code == 2 and "two-player" in result.output
