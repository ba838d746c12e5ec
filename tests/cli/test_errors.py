"""Bad command-line input is one clear line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from boardplay.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "chess"], "unknown game 'chess'; available games:"),
        (["sim", "chess", "--games", "1"], "unknown game 'chess'"),
        (["play", "chess"], "unknown game 'chess'"),
        (["bench", "chess"], "unknown game 'chess'"),
        (["sim", "potlatch(actions=3", "--games", "1"], "cannot read game string"),
        (["replay", "/nonexistent/record.json"], "cannot read /nonexistent/record.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.startswith("boardplay ")
