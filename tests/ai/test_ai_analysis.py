"""Balance studies, reports and the MCTS speed benchmark, on the test game."""

from __future__ import annotations

from pathlib import Path

import pytest
from ai_testgames import PigGame
from typer.testing import CliRunner

from boardplay.ai.analysis import Variant, report_markdown, run_study, variants_for, write_report
from boardplay.ai.bench import mcts_speed
from boardplay.cli.main import app
from boardplay.core import registry

pytestmark = pytest.mark.usefixtures("pig")


def test_study_counts_seats_first_mover_and_lengths(tmp_path: Path) -> None:
    variants = [Variant("players=2", {"players": 2}), Variant("players=3", {"players": 3})]
    study = run_study("pig", 6, "greedy", seed=2, variants=variants)
    data = study.to_json()
    assert [v["players"] for v in data["variants"]] == [2, 3]
    for v in data["variants"]:
        assert v["games"] == 6
        assert sum(s["win_rate"] for s in v["seats"]) == pytest.approx(1.0, abs=1e-3)
        # Pig always starts with seat 0.
        assert v["first_mover"]["win_rate"] == v["seats"][0]["win_rate"]
        for s in v["seats"]:
            assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    again = run_study("pig", 6, "greedy", seed=2, variants=variants).to_json()
    assert again == data
    path = write_report(study, tmp_path)
    text = path.read_text()
    assert path.name == "pig.md"
    assert "| `pig(players=3)` | 6 |" in text
    assert (tmp_path / "pig-seats.png").stat().st_size > 1000
    assert (tmp_path / "pig-first-mover.png").stat().st_size > 1000


def test_a_study_resumes_from_its_records(tmp_path: Path) -> None:
    variants = [Variant("players=2", {"players": 2}), Variant("players=3", {"players": 3})]
    run_study("pig", 3, "greedy", seed=2, variants=variants, records=tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["pig-players=2.jsonl", "pig-players=3.jsonl"]
    resumed = run_study(
        "pig", 5, "greedy", seed=2, variants=variants, records=tmp_path, resume=True
    ).to_json()
    assert resumed == run_study("pig", 5, "greedy", seed=2, variants=variants).to_json()
    assert all(len((tmp_path / f).read_text().splitlines()) == 5 for f in files)


def test_report_calls_an_effect_only_when_the_interval_excludes_the_fair_share() -> None:
    study = run_study("pig", 4, "random", variants=[Variant("default", {})])
    for result in study.variants:
        # Pretend seat 0 won 40 of 40: the interval (91%–100%) excludes 50%.
        result.results = [
            r.__class__(i, r.seats, (1.0, 0.0), None, 5, 0.0, None, 0)
            for i, r in enumerate(result.results * 10)
        ]
    assert "first mover advantage" in report_markdown(study)


def test_variants_follow_the_issue_and_fall_back_to_choice_options() -> None:
    assert [v.options for v in variants_for("pig")] == [{}]
    if "proteus" in registry.available():
        assert [v.options["rules"] for v in variants_for("proteus")] == ["seed", "kadon"]
    if "passtally" in registry.available():
        assert [v.options for v in variants_for("passtally")] == [{"players": 2}, {"players": 3}]


def test_analyze_cli_writes_the_report(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["analyze", "pig", "--games", "3", "--agent", "random", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pig.md").exists()
    bad = CliRunner().invoke(app, ["analyze", "pig", "--agent", "oracle"])
    assert bad.exit_code == 2 and "unknown agent 'oracle'" in bad.output
    lost = CliRunner().invoke(app, ["analyze", "pig", "--resume"])
    assert lost.exit_code == 2 and "--records DIR" in lost.output


def test_mcts_speed_reports_simulations_per_second() -> None:
    assert mcts_speed(PigGame({}), seconds=0.05) > 0
