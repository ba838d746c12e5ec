"""The designer's tools of ``boardplay analyze``: options and sweeps, the length distribution,
the variant test with its p-values, and tables that keep every number whole at 80 columns."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardplay.ai.analysis import Variant, run_study
from boardplay.ai.tasks import GameResult
from boardplay.ai.variants import compare, length_summary, parse_sweep, sweep
from boardplay.cli.main import app
from boardplay.core.errors import OptionError

runner = CliRunner()


def results(first_wins: int, games: int, lengths: list[int]) -> list[GameResult]:
    out = []
    for i in range(games):
        returns = (1.0, 0.0) if i < first_wins else (0.0, 1.0)
        out.append(GameResult(i, (0, 1), returns, None, lengths[i % len(lengths)], 0.0, None, 0))
    return out


def test_sweeps_are_checked_by_the_options_own_rules() -> None:
    assert parse_sweep("proteus", "max_turns=50,100,none") == ("max_turns", [50, 100, None])
    assert parse_sweep("proteus", "rules=seed,kadon") == ("rules", ["seed", "kadon"])
    with pytest.raises(OptionError, match="no option 'speed'"):
        parse_sweep("proteus", "speed=1,2")
    with pytest.raises(OptionError, match="max_turns"):
        parse_sweep("proteus", "max_turns=-3,5")
    with pytest.raises(OptionError, match="at least two"):
        parse_sweep("proteus", "rules=seed")
    grid = sweep(
        {"repetition": "forbid"}, [("rules", ["seed", "kadon"]), ("max_turns", [50, None])]
    )
    assert [label for label, _ in grid] == [
        "rules=seed,max_turns=50",
        "rules=seed,max_turns=none",
        "rules=kadon,max_turns=50",
        "rules=kadon,max_turns=none",
    ]
    assert all(opts["repetition"] == "forbid" for _, opts in grid)


def test_length_distribution() -> None:
    summary = length_summary(results(5, 100, list(range(1, 101))))
    assert summary["p50"] == pytest.approx(50.5) and summary["max"] == 100
    assert summary["p5"] < summary["p25"] < summary["p75"] < summary["p95"]
    assert summary["cut"] == 0


def test_the_variant_test_separates_what_differs_and_not_what_does_not() -> None:
    rng = random.Random(0)
    same_a = results(50, 100, [rng.randrange(20, 40) for _ in range(100)])
    same_b = results(52, 100, [rng.randrange(20, 40) for _ in range(100)])
    test = compare(same_a, same_b)
    assert test["first_mover_p"] > 0.5 and test["length_p"] > 0.05 and not test["differ"]
    other = results(80, 100, [rng.randrange(35, 60) for _ in range(100)])
    test = compare(same_a, other)
    assert test["first_mover_p"] < 0.001 and test["length_p"] < 0.001 and test["differ"]


def test_a_real_sweep_finds_the_effect_of_a_turn_limit() -> None:
    """Proteus with a 6-turn limit against no limit, random self-play: the limit shortens the
    games and turns many into draws, and the test says so."""
    study = run_study(
        "proteus",
        40,
        "random",
        seed=1,
        variants=[Variant("none", {}), Variant("max_turns=6", {"max_turns": 6})],
    )
    (test,) = study.tests()
    assert test["length_p"] < 0.01 and test["differ"]
    data = study.to_json()
    assert data["variants"][0]["cap"] == 1000  # no limit of its own: the study's cut
    assert data["variants"][1]["cap"] is None and data["variants"][1]["length"]["max"] <= 6


def test_analyze_with_options_and_a_sweep_at_80_columns(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "analyze", "proteus(repetition=forbid)", "--option", "rules=kadon",
            "--sweep", "max_turns=8,none", "--games", "6", "--agent", "random",
            "--out", str(tmp_path), "--json", str(tmp_path / "study.json"),
        ],
        env={"COLUMNS": "80"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "…" not in result.output  # folded, never cut
    data = json.loads((tmp_path / "study.json").read_text())
    assert [v["game"] for v in data["variants"]] == [
        "proteus(rules=kadon,repetition=forbid,max_turns=8)",
        "proteus(rules=kadon,repetition=forbid)",
    ]
    assert "against" in result.output and "p " in result.output
    report = (tmp_path / "proteus.md").read_text()
    assert "## Do the variants differ?" in report and "Mann–Whitney" in report
    assert (tmp_path / "proteus-lengths.png").exists()


def test_analyze_refuses_bad_options_and_sweeps_clearly() -> None:
    bad = runner.invoke(app, ["analyze", "proteus", "--option", "speed=3"])
    assert bad.exit_code == 2 and "no option 'speed'" in bad.output
    bad = runner.invoke(app, ["analyze", "proteus", "--sweep", "max_turns"])
    assert bad.exit_code == 2 and "--sweep takes option=value" in bad.output
