"""Learned guidance (issue 50, build 3): the network's forward pass in C against NumPy's, the
PUCT search, the ``az`` spec's errors, and a tiny self-play training run (needs torch)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from boardplay.ai.az import (
    AZAgent,
    build_network,
    load_network,
    numpy_forward,
    read_arrays,
    save_arrays,
)
from boardplay.ai.nets import Network
from boardplay.ai.puct import Puct
from boardplay.ai.specs import make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import State
from boardplay.core.registry import load

GAME = "proteus(max_turns=200)"


def random_arrays(seed: int, hidden: tuple[int, ...] = (32, 24)) -> dict[str, np.ndarray]:
    """A Proteus network's arrays with random weights (large enough to give varied outputs)."""
    rng = np.random.default_rng(seed)
    widths = [165, *hidden]
    arrays = {}
    for i, (a, b) in enumerate(itertools.pairwise(widths)):
        arrays[f"trunk{i}_w"] = rng.normal(0, 0.3, (a, b)).astype(np.float32)
        arrays[f"trunk{i}_b"] = rng.normal(0, 0.1, b).astype(np.float32)
    arrays["policy_w"] = rng.normal(0, 0.3, (widths[-1], 217)).astype(np.float32)
    arrays["policy_b"] = rng.normal(0, 0.1, 217).astype(np.float32)
    arrays["value_w"] = rng.normal(0, 0.3, (widths[-1], 2)).astype(np.float32)
    arrays["value_b"] = rng.normal(0, 0.1, 2).astype(np.float32)
    return arrays


def positions(count: int, seed: int = 0) -> list:
    """States met in seeded random Proteus games (placement and movement)."""
    game = load(GAME)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_compiled_forward_equals_numpy_on_real_positions() -> None:
    arrays = random_arrays(3)
    network = build_network(arrays, {})
    assert network.hidden == (32, 24) and network.inputs == 165 and network.actions == 217
    for state in positions(60)[::3]:
        seat = state.current_player()
        x = np.zeros(165, dtype=np.float32)
        state.kernel.observe(seat, x)
        logits, values = network.position(state.kernel, seat)
        want_logits, want_values = numpy_forward(arrays, x[None])
        assert np.abs(logits - want_logits[0]).max() < 1e-5
        assert np.abs(values - want_values[0]).max() < 1e-5
        assert np.abs(network(x)[0] - logits).max() == 0.0


def test_the_searchs_legal_logits_are_bitwise_the_full_passs() -> None:
    """The search computes only the legal actions' logits (transposed rows, four at a time):
    the same sums in the same order as the full head, so the same bits, and the same values."""
    network = load_network("proteus")[0]
    for state in positions(120, seed=4)[::2]:
        seat = state.current_player()
        if seat < 0:
            continue
        actions, legal, values = network.legal(state.kernel, seat)
        logits, want_values = network.position(state.kernel, seat)
        assert list(actions) == state.legal_actions()
        assert np.array_equal(legal, logits[actions])
        assert np.array_equal(values, want_values)


def test_network_refuses_shapes_that_do_not_chain() -> None:
    arrays = random_arrays(1)
    with pytest.raises(ValueError, match="trunk1_w"):
        Network(
            [(arrays["trunk0_w"], arrays["trunk0_b"]), (arrays["trunk0_w"], arrays["trunk1_b"])],
            (arrays["policy_w"], arrays["policy_b"]),
            (arrays["value_w"], arrays["value_b"]),
        )


def test_puct_finds_the_winning_move_with_an_untrained_network() -> None:
    # Seeded random play reaches a position where seat 1 has 14 moves and only 167 wins at
    # once; the network knows nothing, so only the terminal returns backed up can find it.
    state = load(GAME).new_initial_state()
    rng = random.Random(0)
    for _ in range(35):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == 1 and len(state.legal_actions()) == 14
    search = Puct(state.kernel, build_network(random_arrays(5), {}), seed=1)
    done, _ = search.run(300, 0.0)
    assert done == 300
    action, node, visits = search.children(search.root)[0]
    assert action == 167 and search.node_value(node) == 1.0
    assert visits > 150  # the search concentrates on the win
    visits_by_action = np.zeros(217, dtype=np.float32)
    assert search.visits_into(visits_by_action) == 299  # the root's first visit expanded it
    assert search.advance(167) and search.node_player(search.root) < 0  # the game is over


def test_root_noise_mixes_into_the_priors() -> None:
    state = positions(1)[0]
    network = build_network(random_arrays(2), {})
    search = Puct(state.kernel, network, seed=1)
    search.expand_root()
    _, values = network.position(state.kernel, state.current_player())
    assert search.node_value(search.root) == pytest.approx(0.5 * (values[0] + 1.0))
    children = search.children(search.root)
    before = [search.node_prior(node) for _, node, _ in children]
    assert abs(sum(before) - 1.0) < 1e-5
    order = sorted(node for _, node, _ in children)
    weights = np.zeros(len(order))
    weights[0] = 1.0
    search.noise(weights, 0.5)
    assert (
        abs(
            search.node_prior(order[0])
            - (0.5 * before[[n for _, n, _ in children].index(order[0])] + 0.5)
        )
        < 1e-6
    )
    with pytest.raises(ValueError, match="children"):
        search.noise(np.ones(3), 0.25)


def test_az_agent_plays_and_reuses_its_tree(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    save_arrays(path, random_arrays(4), {"game": GAME, "input": "observation"})
    game = load(GAME)
    agent = make_agent(f"az(weights={path},iterations=60)", game, seed=3)
    assert isinstance(agent, AZAgent)
    state = game.new_initial_state()
    for _ in range(6):
        action = agent.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        agent.inform(action)
    analysis = agent.last_search()
    assert analysis is not None and analysis.iterations == 60
    assert analysis.move == analysis.line[0] and len(analysis.line) >= 2
    assert analysis.candidates[0]["visits"] >= analysis.candidates[-1]["visits"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("az(iterations=10)", "az needs weights=NAME"),
        ("az(weights=proteus)", "az needs a budget"),
        ("az(weights=proteus,iterations=ten)", "'iterations' must be an integer"),
        ("az(weights=proteus,time=0)", "'time' must be positive"),
        ("az(weights=proteus,time=1,decisive=yes)", "'decisive' must be true or false"),
        ("az(weights=proteus,iterations=5,depth=3)", "az has no parameter 'depth'"),
        ("az(weights=nosuch,iterations=5)", "no shipped network 'nosuch'"),
        ("az(weights=/nonexistent/x.npz,iterations=5)", "no network file"),
        ("az(weights=proteus,iterations=5,mix=2)", "'mix' is a share from 0 to 1"),
        ("az(weights=proteus,iterations=5,mix=-0.1)", "'mix' must be positive"),
        ("az(weights=proteus,iterations=5,finish_turn=yes)", "'finish_turn' must be true or"),
        ("az(weights=proteus,iterations=5,uniform=1)", "'uniform' must be true or false"),
    ],
)
def test_az_spec_errors_teach(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_agent(spec, load(GAME))


def test_az_spec_refuses_another_games_network(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    save_arrays(path, random_arrays(4), {"game": "potlatch", "input": "observation"})
    with pytest.raises(OptionError, match="trained for potlatch"):
        make_agent(f"az(weights={path},iterations=5)", load(GAME))


def test_tiny_training_run_round_trips_and_learns(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra is not installed")
    from boardplay.ai.alphazero import AZConfig, Learner, train_alphazero

    config = AZConfig(
        game=GAME,
        games=2,
        games_per_iteration=2,
        simulations=8,
        hidden=(16,),
        updates=3,
        batch=32,
        eval_games=0,
    )
    summary = train_alphazero(config, tmp_path)
    assert summary["budget"]["games"] == 2 and summary["curve"][0]["positions"] > 10
    assert (tmp_path / "alphazero.json").is_file()
    arrays, meta = read_arrays(tmp_path / "network.npz")
    assert meta["game"] == GAME and meta["input"] == "observation"
    network, _ = load_network(str(tmp_path / "network.npz"))
    x = np.zeros(165, dtype=np.float32)
    positions(1)[0].kernel.observe(0, x)
    assert np.abs(network(x)[0] - numpy_forward(arrays, x[None])[0][0]).max() < 1e-5
    # The loss falls on a fixed batch: the learner's gradient steps do learn.
    learner = Learner(165, 217, 2, config)
    rng = np.random.default_rng(0)
    xs = rng.random((32, 165), dtype=np.float32)
    pis = np.eye(217, dtype=np.float32)[rng.integers(217, size=32)]
    zs = rng.choice([-1.0, 1.0], (32, 2)).astype(np.float32)
    losses = [sum(learner.fit(xs, pis, zs)) for _ in range(40)]
    assert losses[-1] < 0.85 * losses[0]
    exported = learner.arrays()
    assert exported["trunk0_w"].shape == (165, 16) and exported["value_w"].shape == (16, 2)


def test_train_command_runs_alphazero(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the train extra is not installed")
    from typer.testing import CliRunner

    from boardplay.cli.main import app

    result = CliRunner().invoke(
        app,
        [
            "train",
            "proteus",
            "-o",
            "max_turns=200",
            "--algo",
            "alphazero",
            "--games",
            "2",
            "--simulations",
            "4",
            "--hidden",
            "8",
            "--eval-games",
            "0",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "games       2" in result.output
    assert (tmp_path / "proteus-alphazero-1" / "network.npz").is_file()


def test_decisive_expansion_values_a_win_at_once_exactly() -> None:
    state = load(GAME).new_initial_state()
    rng = random.Random(0)
    for _ in range(35):
        state.apply_action(rng.choice(state.legal_actions()))
    network = build_network(random_arrays(5), {})
    search = Puct(state.kernel, network, seed=1)
    search.run(2, 0.0)  # the root's expansion, then one descent
    (action, node, visits), *_ = search.children(search.root)
    assert (action, visits, search.node_prior(node)) == (167, 1, 1.0)
    assert search.node_value(search.root) == 1.0
    blind = Puct(state.kernel, network, decisive=False, seed=1)
    blind.run(2, 0.0)
    assert blind.node_value(blind.root) < 1.0


def test_repetition_scores_a_return_to_a_known_position_as_a_draw_with_contempt() -> None:
    state = positions(40)[-1]  # movement phase: positions carry repetition keys
    kernel = state.kernel
    assert kernel.repetition_key() != 0
    action = state.legal_actions()[0]
    after = state.clone()
    after.apply_action(action)
    search = Puct(kernel, build_network(random_arrays(6), {}), repetition=True, contempt=0.2)
    search.seat = state.current_player()
    search.set_history([after.kernel.repetition_key()])
    search.run(400, 0.0)
    child = next(node for a, node, _ in search.children(search.root) if a == action)
    assert search.node_visits(child) > 0
    assert search.node_value(child) == pytest.approx(0.5 - 0.2)


def test_the_shipped_proteus_network_loads_and_plays() -> None:
    network, meta = load_network("proteus")
    assert meta["game"].startswith("proteus") and meta["input"] == "observation"
    assert (network.inputs, network.actions, network.seats) == (165, 217, 2)
    game = load(GAME)
    agent = make_agent("az(weights=proteus,iterations=50)", game, seed=1)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()


def test_chance_nodes_are_sampled_by_their_probabilities() -> None:
    # Passtally reveals a tile after a placement: a chance node inside the tree. Each
    # simulation through it takes exactly one outcome, so its visits are its children's.
    game = load("passtally")
    state = game.new_initial_state()
    rng_play = random.Random(4)

    def reveals(state: State) -> bool:  # some action of the mover is followed by a reveal
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            if after.is_chance_node():
                return True
        return False

    while state.is_chance_node() or not reveals(state):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng_play.choice(state.legal_actions()))
    kernel = state.kernel
    rng = np.random.default_rng(0)
    hidden = 16
    network = Network(
        [(rng.normal(0, 0.1, (kernel.observation_size, hidden)), np.zeros(hidden))],
        (rng.normal(0, 0.1, (hidden, kernel.action_space)), np.zeros(kernel.action_space)),
        (rng.normal(0, 0.1, (hidden, kernel.num_players)), np.zeros(kernel.num_players)),
    )
    search = Puct(kernel, network, seed=2)
    search.run(2000, 0.0)
    frontier, chance = [search.root], []
    while frontier:
        node = frontier.pop()
        for _, child, visits in search.children(node):
            if visits > 0:
                frontier.append(child)
            if visits > 1 and search.node_player(child) == -1:
                chance.append(child)
    assert chance, "no chance node visited twice in the tree"
    for node in chance:
        children = search.children(node)
        assert sum(visits for _, _, visits in children) == search.node_visits(node)
        assert sum(search.node_prior(child) for _, child, _ in children) == pytest.approx(1.0)
