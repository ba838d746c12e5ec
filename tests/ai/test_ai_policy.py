"""Learned policies played with NumPy (boardplay.ai.policy) and the baselines' table and plots
(boardplay.ai.baselines): no torch needed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from boardplay.ai.baselines import (
    Point,
    Run,
    Score,
    evaluate,
    markdown,
    plot,
    runs_in,
    ship,
    table,
    write_levels,
)
from boardplay.ai.policy import PATH_VARIABLE, PolicyAgent, PolicyNet, available_policies
from boardplay.ai.specs import make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.registry import available, load
from option_sets import at_most_players
from support import games

GAMES = sorted({*available(), *(at_most_players(name) for name in available())})
"""Every registered game at its defaults and at its largest table."""


def random_net(game: Game, seed: int = 0, hidden: int = 16) -> PolicyNet:
    rng = np.random.default_rng(seed)
    size = int(np.prod(game.observation_shape()))
    actions = game.num_distinct_actions
    return PolicyNet(
        [
            rng.normal(0, 0.3, (hidden, size)).astype(np.float32),
            rng.normal(0, 0.3, (actions, hidden)).astype(np.float32),
        ],
        [rng.normal(0, 0.1, hidden).astype(np.float32), np.zeros(actions, np.float32)],
        {"game": str(game)},
    )


@pytest.fixture
def policy_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(PATH_VARIABLE, str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("name", GAMES)
def test_policy_agent_plays_only_legal_moves_to_the_end(name: str) -> None:
    game = load(name)
    agent = PolicyAgent(game, random_net(game), "net")
    rng = random.Random(3)
    for _ in range(games(3, 30)):
        state = game.new_initial_state()
        # a fixed network can walk in circles where the rules allow endless play: the cap of
        # the research adapters ends such games
        for _ in range(game.episode_limit):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = agent.step(state)
                assert action in state.legal_actions()
            state.apply_action(action)


def test_the_agent_reads_the_movers_own_observation() -> None:
    """The decision equals the network's best legal logit on the engine's observation tensor."""
    game = load("proteus")
    net = random_net(game, seed=5)
    agent = PolicyAgent(game, net, "net")
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(12):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            player = state.current_player()
            logits = net.logits(np.asarray([state.observation_tensor(player)], np.float32))[0]
            legal = state.legal_actions()
            assert agent.step(state) == max(legal, key=lambda a: logits[a])
        state.apply_action(rng.choice(state.legal_actions()))


def test_saved_policy_loads_by_name_and_plays_as_before(policy_dir: Path) -> None:
    game = load("potlatch")
    net = random_net(game, seed=2)
    net.save(policy_dir / "pot-test.npz")
    assert "pot-test" in available_policies()
    for spec in ("policy(pot-test)", "policy(name=pot-test)"):
        agent = make_agent(spec, game, 0)
        assert agent.name == "policy(pot-test)"
    loaded = make_agent("policy(pot-test)", game, 0)
    assert isinstance(loaded, PolicyAgent)
    assert loaded.net.meta == {"game": "potlatch"}
    # float16 storage: the logits agree to the rounding of the weights
    obs = np.random.default_rng(0).random((4, net.observation_size), dtype=np.float32)
    np.testing.assert_allclose(loaded.net.logits(obs), net.logits(obs), atol=0.05)


@pytest.mark.parametrize(
    "spec", ["policy(../../etc/passwd)", "policy(name=/etc/passwd)", "policy(name=A B)"]
)
def test_a_policy_is_named_never_a_path(spec: str, policy_dir: Path) -> None:
    with pytest.raises(OptionError):
        make_agent(spec, load("potlatch"), 0)


def test_unknown_policy_and_wrong_game_are_clear(policy_dir: Path) -> None:
    with pytest.raises(OptionError, match="unknown policy 'nothing-here'; known policies"):
        make_agent("policy(nothing-here)", load("potlatch"), 0)
    with pytest.raises(OptionError, match="one parameter"):
        make_agent("policy(name=x,depth=3)", load("potlatch"), 0)
    random_net(load("potlatch")).save(policy_dir / "pot.npz")
    with pytest.raises(OptionError, match="trained on potlatch"):
        make_agent("policy(pot)", load("proteus"), 0)


def test_evaluate_rotates_seats_and_counts_shares() -> None:
    game = load("proteus(max_turns=40)")
    score = evaluate(random_net(game), game, "random", 10, seed=4)
    assert score.games == 10 and 0 <= score.wins + score.draws <= 10
    assert score.share == pytest.approx(
        (score.wins + 0.5 * score.draws) / 10, abs=0.5 * score.draws / 10 + 1e-9
    )
    low, high = score.interval()
    assert 0 <= low <= score.share <= high <= 1
    assert Score("random", 200, 190, 0, 0.95).interval()[0] > 0.9


def test_table_markdown_and_plots_from_runs(tmp_path: Path) -> None:
    for seed, final in ((1, 0.9), (2, 0.96), (3, 0.93)):
        Run(
            "proteus",
            "ppo",
            seed,
            1000,
            [Point(0, 0.0, 0.5, 0.1), Point(1000, 2.0, final, 0.3)],
            {
                "random": {"share": final, "games": 200},
                "easy": {"share": 0.3, "games": 200},
            },
        ).save(tmp_path / "runs" / f"proteus-ppo-{seed}")
    runs = [run for _, run in runs_in(tmp_path / "runs")]
    assert [r.seed for r in runs] == [1, 2, 3]
    (row,) = table(runs)
    assert row["random"] == pytest.approx(0.93)
    assert (row["random_min"], row["random_max"]) == (0.9, 0.96)
    assert "| proteus | ppo | 3 | 1,000 | 93.0% (90%-96%) | 30.0% (30%-30%) |" in markdown([row])
    plot(runs, tmp_path / "proteus.png")
    assert (tmp_path / "proteus.png").stat().st_size > 10_000


def test_ship_takes_the_best_seed_above_the_threshold(tmp_path: Path) -> None:
    game = load("potlatch")
    found = []
    for algo, seed, vs_random, vs_easy in (
        ("ppo", 1, 0.95, 0.2),
        ("ppo", 2, 0.97, 0.1),
        ("selfplay", 1, 0.93, 0.4),
        ("selfplay", 2, 0.85, 0.9),  # below the threshold: never shipped, however strong
    ):
        folder = tmp_path / f"{algo}-{seed}"
        net = random_net(game, seed=seed)
        net.meta["run"] = f"{algo}-{seed}"
        net.save(folder / "policy.npz")
        final = {"random": {"share": vs_random}, "easy": {"share": vs_easy}}
        found.append((folder, Run("potlatch", algo, seed, 10, [], final)))
    shipped = ship(found, tmp_path / "shipped")
    assert sorted(shipped) == ["potlatch-ppo", "potlatch-selfplay"]
    ppo = PolicyNet.load(tmp_path / "shipped" / "potlatch-ppo.npz")
    assert ppo.meta["run"] == "ppo-2"
    selfplay = PolicyNet.load(tmp_path / "shipped" / "potlatch-selfplay.npz")
    assert selfplay.meta["run"] == "selfplay-1"
    levels = json.loads((tmp_path / "shipped" / "levels.json").read_text())
    assert levels == {"potlatch": "potlatch-selfplay"}


def test_levels_count_every_policy_in_the_folder_whoever_shipped_it(tmp_path: Path) -> None:
    game = load("proteus")
    for name, final in (
        ("proteus-ppo", {"random": 0.91, "easy": 0.1}),
        ("proteus-long", {"random": 0.95, "easy": 0.3}),
        ("proteus-weak", {"random": 0.6, "easy": 0.9}),  # under the threshold: not a level
    ):
        net = random_net(game)
        net.meta["final"] = final
        net.save(tmp_path / f"{name}.npz")
    assert write_levels(tmp_path) == {"proteus": "proteus-long"}
    assert json.loads((tmp_path / "levels.json").read_text()) == {"proteus": "proteus-long"}


def test_the_learned_level_plays_the_policy_its_table_names(
    policy_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import boardplay.ai.policy as policy_module

    game = load("potlatch")
    random_net(game).save(policy_dir / "pot-best.npz")
    table = policy_dir / "levels.json"
    table.write_text(json.dumps({"potlatch": "pot-best"}))
    monkeypatch.setattr(policy_module, "LEVELS", table)
    agent = make_agent("learned", game, 0)
    assert isinstance(agent, PolicyAgent) and agent.name == "learned"
    with pytest.raises(OptionError, match="no learned policy is shipped for proteus"):
        make_agent("learned", load("proteus"), 0)


def test_every_shipped_policy_cleared_the_bar_and_the_levels_table_is_current(
    tmp_path: Path,
) -> None:
    """The files in the package: each won at least 90% of its final 200 games against random
    (its own record), plays its game, and ``levels.json`` is what ``write_levels`` makes of them."""
    import shutil

    from boardplay.ai.baselines import SHIP_THRESHOLD, write_levels
    from boardplay.ai.policy import SHIPPED

    files = sorted(SHIPPED.glob("*.npz"))
    assert {load(str(PolicyNet.load(p).meta["game"])).name for p in files} == {
        "montana",
        "passtally",
        "potlatch",
        "proteus",
    }
    for path in files:
        meta = PolicyNet.load(path).meta
        assert meta["final"]["random"] >= SHIP_THRESHOLD, path.name
    copy = tmp_path / "policies"
    shutil.copytree(SHIPPED, copy)
    assert write_levels(copy) == json.loads((SHIPPED / "levels.json").read_text())
