"""Budgets rewritten in one place; site levels as simulations with a time cap; the judging rule
across budgets (issue 67)."""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from ai_testgames import NimGame

import boardplay
from boardplay.ai.agents import agent_analysis
from boardplay.ai.bench import spec_speed
from boardplay.ai.budgets import TIME_CAP_FACTOR, site_simulations, site_spec
from boardplay.ai.judge import Outcome, Setting, play_setting, settings, verdict
from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.placement_book import PlacementGuard
from boardplay.ai.specs import GUARDED_LEVELS, make_agent, with_budget
from boardplay.core.errors import OptionError
from boardplay.web.workers.ai_worker import site_agent


class LevelledNim(NimGame):
    """Nim with a ladder whose expert is a think time the site turns into simulations."""

    levels: ClassVar[Mapping[str, str] | None] = {
        "easy": "mcts(iterations=5)",
        "medium": "mcts(iterations=20)",
        "hard": "mcts(time=0.5,iterations=50)",
        "expert": "mcts(time=0.5,iterations=100000,early=false,reuse=false)",
    }
    level_simulations: ClassVar[Mapping[str, int] | None] = {"expert": 300, "hard": 400}
    agents: ClassVar[Mapping[str, str] | None] = {"old-expert": "mcts(time=0.2,iterations=70)"}


class SlowNim(LevelledNim):
    """The expert asks for more simulations than its short time can give."""

    levels: ClassVar[Mapping[str, str] | None] = {
        **LevelledNim.levels,  # type: ignore[dict-item]
        "expert": "mcts(time=0.01,iterations=1000000000,early=false,reuse=false)",
    }
    level_simulations: ClassVar[Mapping[str, int] | None] = {"expert": 1_000_000_000}


def test_with_budget_replaces_only_the_budget() -> None:
    game = boardplay.load("potlatch")
    assert with_budget("mcts(time=0.1,c=0.7,iterations=5)", game, iterations=80) == (
        "mcts(iterations=80,c=0.7)"
    )
    assert with_budget("mcts(c=0.7)", game, time=0.25, iterations=9) == (
        "mcts(iterations=9,time=0.25,c=0.7)"
    )
    resolved = with_budget("hard", game, time=0.01)
    assert resolved == "mcts(time=0.01)"
    with pytest.raises(OptionError, match="needs a budget"):
        with_budget("mcts(c=1)", game)


def test_a_named_agent_is_its_spec_under_its_name() -> None:
    game = LevelledNim()
    agent = make_agent("old-expert", game, 1)
    assert isinstance(agent, MCTSAgent) and agent.iterations == 70 and agent.name == "old-expert"
    assert with_budget("old-expert", game, iterations=9) == "mcts(iterations=9)"
    assert site_spec("old-expert", game) == "old-expert"  # not a level: the visitor's budget
    with pytest.raises(OptionError, match="old-expert"):
        make_agent("older-expert", game, 1)  # the error lists the names


def test_a_site_level_is_its_simulations_with_a_time_cap() -> None:
    game = LevelledNim()
    assert site_simulations("expert", game) == 300
    assert site_simulations("hard", game) == 50  # never above the level's own cap
    assert site_simulations("easy", game) == 5
    cap = 0.5 * TIME_CAP_FACTOR
    assert site_spec("expert", game) == f"mcts(iterations=300,time={cap:g},early=false,reuse=false)"
    assert site_spec("Expert", game) == site_spec("expert", game)
    assert site_spec("easy", game) == "easy"  # no think time: already a simulation budget
    assert site_spec("mcts(time=0.5)", game) == "mcts(time=0.5)"  # a visitor's own spec


def test_a_table_size_counts_its_own_levels_simulations() -> None:
    """Montana's learned expert plays two players only: its count is theirs, and three or four
    players keep the search expert's own cap."""
    two, three, four = (boardplay.load(f"montana(players={n})") for n in (2, 3, 4))
    counted = (two.player_level_simulations or {})[2]["expert"]
    assert site_simulations("expert", two) == counted < 100_000
    assert site_spec("expert", two).startswith(f"az(iterations={counted},time=0.12,")
    assert site_simulations("expert", three) == site_simulations("expert", four) == 100_000


def test_the_site_agent_stops_at_its_simulations_when_time_is_ample() -> None:
    game = LevelledNim()
    agent = site_agent("expert", game, 1, max_time=60.0)
    agent.step(game.new_initial_state())
    found = agent_analysis(agent)
    assert found is not None and found.iterations == 300


def test_the_site_agent_stops_at_its_time_cap_when_time_is_short() -> None:
    game = SlowNim()
    agent = site_agent("expert", game, 1, max_time=60.0)
    assert isinstance(agent, MCTSAgent)
    assert agent.time_limit == pytest.approx(0.01 * TIME_CAP_FACTOR)
    began = time.monotonic()
    agent.step(game.new_initial_state())
    found = agent_analysis(agent)
    assert found is not None and 0 < found.iterations < 1_000_000_000
    assert time.monotonic() - began < 5.0
    # The operator's ceiling still bounds the cap.
    ceiling = site_agent("expert", game, 1, max_time=0.02)
    assert isinstance(ceiling, MCTSAgent) and ceiling.time_limit == 0.02


def test_a_guarded_level_with_its_own_time_is_held_to_the_ceiling_in_its_search() -> None:
    """A visitor's ``expert(time=4)`` on Proteus is the guarded learned search: the operator's
    ceiling must reach the search inside the guard, not an attribute of the guard."""
    proteus = boardplay.load("proteus")
    agent = site_agent("expert(time=4)", proteus, 1, max_time=0.5)
    assert isinstance(agent, PlacementGuard)
    assert agent.inner.time_limit == 0.5


def outcome(label: str, bar: float | None, wins: int, draws: int, games: int) -> Outcome:
    setting = Setting(label, 0.1, None, bar)
    losses = games - wins - draws
    return Outcome(setting, games, wins, draws, losses, (0.0, 0.0), (0.0, 0.0), (0.0, 0.0))


def test_the_settings_are_the_nominal_time_a_third_and_a_tenth() -> None:
    rows = settings(0.3, 5000)
    assert [(r.label, r.bar) for r in rows] == [
        ("B", 0.60),
        ("B/3", 0.55),
        ("B/10", 0.55),
        ("equal simulations", None),
    ]
    assert [r.time for r in rows[:3]] == pytest.approx([0.3, 0.1, 0.03])
    assert rows[3].iterations == 5000 and rows[3].time is None


def test_the_verdict_needs_every_bar() -> None:
    passing = [
        outcome("B", 0.60, 120, 0, 200),  # 60% exactly
        outcome("B/3", 0.55, 100, 20, 200),  # 55%
        outcome("B/10", 0.55, 115, 0, 200),
        outcome("equal simulations", None, 0, 0, 200),  # reported, not judged
    ]
    judged = verdict(passing)
    assert judged.replace and not judged.clear_fail and not judged.provisional
    assert judged.sentence() == "the challenger replaces the incumbent"
    short = [*passing[:2], outcome("B/10", 0.55, 108, 0, 200)]  # 54% at B/10
    assert not verdict(short).replace and not verdict(short).clear_fail


def test_a_clear_fail_stands_whatever_the_games() -> None:
    # 30 points of 60 at B/10: the interval reaches 62.4%, above 55%: not clear.
    few = [outcome("B", 0.60, 45, 0, 60), outcome("B/10", 0.55, 30, 0, 60)]
    assert not verdict(few).clear_fail and verdict(few).provisional
    assert "provisionally stays" in verdict(few).sentence()
    # 16.5 of 60 at B (27.5%): the interval tops out near 40%, below 60%.
    clear = [outcome("B", 0.60, 8, 17, 60), outcome("B/10", 0.55, 40, 0, 60)]
    judged = verdict(clear)
    assert judged.clear_fail and not judged.replace
    assert judged.sentence() == "the incumbent stays: the challenger clearly fails a bar"
    with pytest.raises(ValueError, match="no judged setting"):
        verdict([outcome("equal simulations", None, 1, 0, 2)])


def test_a_setting_is_played_at_its_budget() -> None:
    game = NimGame()
    strong, weak = "mcts(iterations=300,early=false)", "mcts(iterations=2,early=false)"
    timed = play_setting(game, strong, weak, Setting("B", 5.0, None, 0.6), 4, 67_000)
    assert timed.games == 4 and timed.wins + timed.draws + timed.losses == 4
    assert timed.simulations[0] > timed.simulations[1]  # each keeps its own cap at equal time
    even = play_setting(game, strong, weak, Setting("sims", None, 40, None), 4, 67_003)
    assert even.games == 4 and even.simulations[0] == even.simulations[1] == 40


def load_tool(name: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``tools/NAME.py`` as a module (registered while the test runs: its dataclasses look
    their module up)."""
    path = Path(__file__).parents[2] / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_tool", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, tool)
    spec.loader.exec_module(tool)
    return tool


def test_the_judge_tool_prints_the_table_and_the_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = load_tool("judge", monkeypatch)
    out = tmp_path / "judge.json"
    argv = ["--game", "potlatch", "--challenger", "mcts(iterations=20)", "--incumbent"]
    argv += ["mcts(iterations=2)", "--time", "0.5", "--games", "2", "--only", "B", "B/10"]
    assert tool.main([*argv, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| custom | B, 0.5 s | 2 |" in printed
    assert "| custom | B/10, 0.05 s | 2 |" in printed
    assert "custom: the " in printed and "provisionally" in printed
    assert out.read_text().count('"setting"') == 2


def test_the_ladder_tool_gives_each_timed_level_its_share_of_the_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = load_tool("ladder", monkeypatch)
    potlatch = boardplay.load("potlatch")
    assert tool.at_budget("expert", potlatch, 3) == "expert(time=0.01)"
    assert tool.at_budget("hard", potlatch, 1) == "hard"
    assert tool.at_budget("medium", potlatch, 10) == "medium"  # a simulation budget only
    argv = ["--games", "2", "--only", "potlatch", "--steps", "hard", "--budgets", "B/10"]
    assert tool.main([*argv, "--records", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "| medium → hard | B/10 | `medium` → `hard(time=0.003)` | 2, 67100 |" in printed
    assert (tmp_path / "potlatch-medium-hard-B10.jsonl").read_text().count("\n") == 2


def test_a_levels_rate_leaves_out_searches_stopped_at_their_cap() -> None:
    game = LevelledNim()
    assert spec_speed(game, "mcts(time=0.02,iterations=100000000,early=false)", positions=3) > 0
    # Every search ends at its cap of 5: nothing is left to measure.
    assert spec_speed(game, "mcts(time=5,iterations=5,early=false)", positions=3) == 0.0


def test_the_site_guards_the_levels_the_command_line_guards() -> None:
    # Proteus's hard and expert keep out of placement traps on the site too, around the search
    # whose time the operator capped; medium is not guarded anywhere.
    game = boardplay.load("proteus")
    for level in GUARDED_LEVELS:
        agent = site_agent(level, game, 1, max_time=0.05)
        assert isinstance(agent, PlacementGuard), level
        assert isinstance(make_agent(level, game, 1), PlacementGuard), level
        assert agent.inner.time_limit <= 0.05
    assert not isinstance(site_agent("medium", game, 1, max_time=0.05), PlacementGuard)
