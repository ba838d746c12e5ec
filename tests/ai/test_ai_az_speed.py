"""The learned search's speed beside the plain search's (issue 67, build 2): which spec is a
game's learned one, what "the same settings" gives the plain search, the network pass's timer,
and the row ``boardplay bench --mcts`` prints (numbers not asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardplay.ai.az import AZAgent
from boardplay.ai.bench import (
    az_against_mcts,
    bare_spec,
    decisions,
    learned_spec,
    search_counterpart,
)
from boardplay.ai.specs import make_agent
from boardplay.cli.common import console
from boardplay.cli.main import app
from boardplay.core.options import parse_game_string
from boardplay.core.registry import load


def test_the_learned_spec_is_the_first_az_among_levels_then_agents() -> None:
    potlatch = load("potlatch")  # its expert is the plain search, the learned one an agent
    assert learned_spec(potlatch) == (potlatch.agents or {})["az-expert"]
    proteus = load("proteus")
    spec = learned_spec(proteus)
    assert spec is not None and parse_game_string(spec)[0] == "az"
    assert learned_spec(load("passtally")) is None
    assert az_against_mcts(load("passtally")) is None


def test_the_counterpart_shares_the_budget_and_the_options_given_or_default() -> None:
    game = load("potlatch")
    agent = make_agent(
        "az(weights=potlatch-value,time=0.05,iterations=900,contempt=0.2,mix=0.5,uniform=true,"
        "c=3,fpu=0.1)",
        game,
    )
    assert isinstance(agent, AZAgent)
    counterpart = search_counterpart(agent)
    name, params = parse_game_string(counterpart)
    assert name == "mcts"
    assert params == {
        "iterations": "900",
        "time": "0.05",
        "contempt": "0.2",
        "repetition": "false",
        "decisive": "true",  # az's default, passed on: both then look for wins at once
        "finish_turn": "false",
        "early": "false",  # az never stops early
    }
    make_agent(counterpart, game)  # a spec the plain search takes


def test_a_network_pass_is_timed_and_checked() -> None:
    game = load("potlatch")
    agent = make_agent("az(weights=potlatch,iterations=10)", game)
    assert isinstance(agent, AZAgent)
    state = decisions(game, positions=1)[0]
    assert state.kernel is not None
    for logits in (True, False):
        seconds = agent.network.pass_seconds(state.kernel, state.current_player(), 50, logits)
        assert 0.0 < seconds < 1e-3
    with pytest.raises(ValueError, match="repeats"):
        agent.network.pass_seconds(state.kernel, state.current_player(), 0)
    other = load("proteus").new_initial_state().kernel
    assert other is not None
    with pytest.raises(ValueError, match="another game"):
        agent.network.pass_seconds(other, 0, 1)


def test_bench_sets_az_beside_mcts_for_games_with_a_learned_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(console, "width", 160)  # one line per row, headers unwrapped
    result = CliRunner().invoke(app, ["bench", "potlatch", "--mcts", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    for header in ("az vs mcts", "one-unit az vs mcts", "pass µs", "mcts µs"):
        assert header in result.stdout
    table = result.stdout[result.stdout.index("learned search") :]
    row = next(line for line in table.splitlines() if line.strip("│ ").startswith("potlatch "))
    assert row.count("1/") == 2


def test_the_bare_spec_is_the_learned_spec_with_a_one_unit_network(tmp_path: Path) -> None:
    """The bench's ceiling for any network: the same spec, options and all, and a network of
    one hidden unit that reads the same input (Potlatch's compact bytes) and writes the same
    logits and values."""
    game = load("potlatch")
    spec = learned_spec(game)
    assert spec is not None
    bare = bare_spec(spec, tmp_path)
    name, params = parse_game_string(bare)
    assert (name, {**params, "weights": "?"}) == (
        "az",
        {**parse_game_string(spec)[1], "weights": "?"},
    )
    agent = make_agent(bare, game)
    shipped = make_agent(spec, game)
    assert isinstance(agent, AZAgent) and isinstance(shipped, AZAgent)
    assert agent.network.hidden == (1,)
    for field in ("inputs", "actions", "seats", "compact"):
        assert getattr(agent.network, field) == getattr(shipped.network, field)
    assert agent.step(game.new_initial_state()) in game.new_initial_state().legal_actions()
