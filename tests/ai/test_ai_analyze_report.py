"""What ``boardplay analyze`` tells a researcher (research review 2026-11c, friction 6): which
extra it needs before it plays a game, a report written where asked (by default ``analysis/``
under the current directory, never ``./docs/analysis``), a header that is the whole command
(``--option`` and ``--sweep`` included: run again, it plays the same games), and draws tested
on their own line, apart from the first mover's wins against losses."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boardplay.cli.analyze as analyze_module
from boardplay.ai.tasks import GameResult
from boardplay.ai.variants import compare, verdict
from boardplay.cli.main import app

runner = CliRunner()


def test_the_missing_extra_is_named_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[Any] = []
    monkeypatch.setattr(analyze_module, "run_study", lambda *a, **k: played.append(a))
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as with only the rl extra
    result = runner.invoke(app, ["analyze", "proteus", "--games", "2", "--agent", "random"])
    assert result.exit_code == 2
    assert "pip install 'boardplay[ai]'" in result.output and "matplotlib" in result.output
    assert not played


@pytest.mark.usefixtures("pig")
def test_the_report_goes_under_analysis_of_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["analyze", "pig", "--games", "2", "--agent", "random"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "analysis" / "pig.md").exists()
    assert not (tmp_path / "docs").exists()
    asked = tmp_path / "elsewhere"
    result = runner.invoke(
        app, ["analyze", "pig", "--games", "2", "--agent", "random", "--out", str(asked)]
    )
    assert result.exit_code == 0, result.output
    assert (asked / "pig.md").exists()


def test_the_header_is_the_whole_command_and_plays_the_same_games(tmp_path: Path) -> None:
    command = [
        "analyze", "proteus(repetition=forbid)", "--option", "rules=kadon",
        "--sweep", "max_turns=8,none", "--games", "4", "--agent", "random", "--seed", "3",
        "--max-actions", "200",
    ]  # fmt: skip
    first = tmp_path / "first"
    result = runner.invoke(app, [*command, "--out", str(first), "--json", str(first / "s.json")])
    assert result.exit_code == 0, result.output
    header = (first / "proteus.md").read_text(encoding="utf-8").split("`")[1]
    assert header == shlex.join(["boardplay", *command])
    data = json.loads((first / "s.json").read_text(encoding="utf-8"))
    assert data["command"] == header

    again = tmp_path / "again"  # the header, run as it stands, gives the same study
    words = shlex.split(header)[1:]
    result = runner.invoke(app, [*words, "--out", str(again), "--json", str(again / "s.json")])
    assert result.exit_code == 0, result.output
    assert json.loads((again / "s.json").read_text(encoding="utf-8")) == data


def results(wins: int, losses: int, draws: int) -> list[GameResult]:
    """Two-player games: the first mover (seat 0) wins, loses, or draws."""
    returns = [(1.0, 0.0)] * wins + [(0.0, 1.0)] * losses + [(0.5, 0.5)] * draws
    return [GameResult(i, (0, 1), r, None, 30 + i % 7, 0.0, None, 0) for i, r in enumerate(returns)]


def test_draws_are_tested_apart_from_the_first_movers_wins_and_losses() -> None:
    """The review's Proteus case: as many draws more, the same wins against losses."""
    test = compare(results(50, 50, 0), results(40, 40, 20))
    assert test["first_mover_p"] > 0.5  # 50:50 and 40:40 are the same first mover
    assert test["draws_p"] < 0.001
    assert test["differing"] == ["draws"] and test["differ"]
    words = verdict(test)
    assert "draw rates differ" in words and "first mover" not in words
    test = compare(results(70, 30, 10), results(30, 70, 10))  # the first mover's edge gone
    assert test["differing"] == ["first_mover"] and test["draws_p"] == 1.0


def test_the_command_line_names_what_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardplay.ai.analysis import Study, Variant, VariantResult

    def study(*args: Any, **kwargs: Any) -> Study:
        base = VariantResult(Variant("a", {}), "proteus", 2, results(50, 50, 0))
        other = VariantResult(Variant("b", {}), "proteus(max_turns=20)", 2, results(40, 40, 20))
        return Study("proteus", "random", 100, 0, [base, other])

    monkeypatch.setattr(analyze_module, "run_study", study)
    monkeypatch.setattr(analyze_module, "write_report", lambda *a: Path("report.md"))
    result = runner.invoke(
        app, ["analyze", "proteus", "--sweep", "max_turns=none,20", "--agent", "random"],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if " against " in x)
    assert "draws p < 0.001" in line and line.endswith("in: draws")


def seated(players: int, games: int, first_wins: int, draws: int = 0) -> list[GameResult]:
    """``players``-player games whose first mover (a different seat each game, as Montana's
    drawn start player) wins ``first_wins`` outright; ``draws`` more are shared by every seat
    and the rest are won by the seats after it in turn."""
    out = []
    for i in range(games):
        first = i % players
        returns = [0.0] * players
        if i < first_wins:
            returns[first] = 1.0
        elif i < first_wins + draws:
            returns = [1.0 / players] * players
        else:
            returns[(first + 1 + i % (players - 1)) % players] = 1.0
        out.append(
            GameResult(i, tuple(range(players)), tuple(returns), None, 200, 0.0, None, first)
        )
    return out


def sweep_over_players(first_share: float | None) -> Any:
    """A ``run_study`` standing in for ``analyze montana --sweep players=2,3,4``: per variant 396
    decisive games (a multiple of 2, 3 and 4) and 12 draws; the first mover wins
    ``first_share`` of the decisive games, or exactly its fair share ``1 / players`` if None."""
    from boardplay.ai.analysis import Study, Variant, VariantResult

    def study(*args: Any, **kwargs: Any) -> Study:
        variants = []
        for n in (2, 3, 4):
            wins = 396 // n if first_share is None else round(396 * first_share)
            name = "montana" if n == 2 else f"montana(players={n})"
            results = seated(n, 408, wins, draws=12)
            variants.append(VariantResult(Variant(f"players={n}", {}), name, n, results))
        return Study("montana", "medium", 408, 0, variants)

    return study


def test_a_sweep_over_players_tests_each_first_mover_against_its_own_fair_share(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Research review 2026-11d, N1: a fair game whose first mover wins 1/2, 1/3 and 1/4 of its
    games at 2, 3 and 4 players does not "differ" in the first mover; raw wins against losses
    (1:1, 1:2, 1:3) said p < 0.001."""
    monkeypatch.setattr(analyze_module, "run_study", sweep_over_players(None))
    result = runner.invoke(
        app,
        ["analyze", "montana", "--sweep", "players=2,3,4", "--out", str(tmp_path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if " against " in x]
    assert len(lines) == 2 and all("no difference at the 5% level" in x for x in lines), lines
    assert all("first mover (edge over its fair share) p = 1" in x for x in lines), lines
    report = (tmp_path / "montana.md").read_text(encoding="utf-8")
    assert "the first mover's edge over its fair share differs" not in report
    assert report.count("no difference at the 5% level") == 2


def test_a_first_mover_favoured_at_every_player_count_is_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same sweep with the first mover winning half of all games: fair at 2 players, a
    clear edge at 3 and 4, and the test says the first mover differs from the baseline."""
    monkeypatch.setattr(analyze_module, "run_study", sweep_over_players(0.5))
    result = runner.invoke(
        app,
        ["analyze", "montana", "--sweep", "players=2,3,4", "--out", str(tmp_path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if " against " in x]
    assert len(lines) == 2
    assert all("p < 0.001" in x and x.endswith("in: first mover") for x in lines), lines
    report = (tmp_path / "montana.md").read_text(encoding="utf-8")
    assert report.count("the first mover's edge over its fair share differs (p < 0.001)") == 2
    assert "first mover advantage (interval above the fair share)" in report


def test_the_edge_over_the_fair_share_is_compared_across_player_counts() -> None:
    """The test itself: equal edges agree whatever the player count, different edges do not,
    and draws stay out of the first mover's question."""
    fair = compare(seated(2, 400, 196, draws=8), seated(4, 400, 98, draws=8))
    assert fair["first_mover_p"] > 0.5 and fair["first_mover_test"].startswith("likelihood")
    same_edge = compare(seated(2, 400, 240), seated(3, 400, 173))  # +10 points each
    assert same_edge["first_mover_p"] > 0.5
    favoured = compare(seated(3, 400, 133), seated(3, 400, 200))  # one player count: 2 x 2
    assert favoured["first_mover_p"] < 0.001 and favoured["first_mover_test"] == "chi-square"
    more_draws = compare(seated(3, 300, 100), seated(4, 300, 50, draws=100))  # 1/3 and 1/4
    assert more_draws["differing"] == ["draws"]
