"""``boardplay train --algo alphazero``: a run started from a network file (``--init``) and its
refusals, and the training input of a compact-input game (Potlatch) read as the search reads it
(needs torch)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boardplay.ai.az import build_network, read_arrays, save_arrays
from boardplay.core.errors import OptionError
from boardplay.core.kernel import Kernel
from boardplay.core.registry import load

pytest.importorskip("torch", reason="the train extra is not installed")

from boardplay.ai.alphazero import AZConfig, Learner, train_alphazero
from boardplay.ai.azgames import network_input

GAME = "proteus(max_turns=200)"


def tiny(**changes: object) -> AZConfig:
    settings: dict[str, object] = {
        "game": GAME,
        "games": 1,
        "games_per_iteration": 1,
        "simulations": 4,
        "hidden": (8,),
        "updates": 0,
        "eval_games": 0,
        **changes,
    }
    return AZConfig(**settings)  # type: ignore[arg-type]


def start_file(tmp_path: Path, hidden: tuple[int, ...] = (8,), game: str = GAME) -> Path:
    """A network file of random weights, as a finished run would leave it."""
    config = tiny(hidden=hidden, seed=7)
    arrays = Learner(165, 217, 2, config).arrays()
    path = tmp_path / "start.npz"
    save_arrays(path, arrays, {"game": game, "input": "observation", "games": 123})
    return path


def test_init_continues_from_the_file_and_says_so(tmp_path: Path) -> None:
    path = start_file(tmp_path)
    train_alphazero(tiny(init=str(path)), tmp_path / "run")
    started, _ = read_arrays(path)
    written, meta = read_arrays(tmp_path / "run" / "network.npz")
    # No update ran: the run's network is the file's, not the seed's random weights.
    for key, value in started.items():
        assert np.array_equal(written[key], value), key
    assert meta["init"]["path"] == str(path) and meta["init"]["games"] == 123
    train_alphazero(tiny(), tmp_path / "cold")
    fresh, _ = read_arrays(tmp_path / "cold" / "network.npz")
    assert not np.array_equal(fresh["trunk0_w"], started["trunk0_w"])


def test_train_command_takes_init(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from boardplay.cli.main import app

    path = start_file(tmp_path)
    args = ["train", "proteus", "-o", "max_turns=200", "--algo", "alphazero", "--games", "1"]
    args += ["--simulations", "4", "--hidden", "8", "--eval-games", "0", "--out", str(tmp_path)]
    result = CliRunner().invoke(app, [*args, "--init", str(path)])
    assert result.exit_code == 0, result.output
    _, meta = read_arrays(tmp_path / "proteus-alphazero-1" / "network.npz")
    assert meta["init"]["games"] == 123
    result = CliRunner().invoke(app, [*args, "--hidden", "4", "--init", str(path)])
    assert result.exit_code != 0 and "this run (165, 4)" in result.output


def test_the_run_keeps_its_best_network_and_says_which_file_is_which(tmp_path: Path) -> None:
    """Research review 2026-11d, N5: ``best.npz`` was written but never named. The command says
    what it is, and it plays as ``az(weights=PATH)``."""
    from typer.testing import CliRunner

    from boardplay.ai.specs import make_agent
    from boardplay.cli.main import app

    args = ["train", "proteus", "-o", "max_turns=200", "--algo", "alphazero", "--games", "1"]
    args += ["--simulations", "4", "--hidden", "8", "--eval-games", "2", "--opponent", "random"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    run = tmp_path / "proteus-alphazero-1"
    assert "best.npz is the network of the curve's best point" in result.output
    assert "network.npz the last" in result.output
    arrays, meta = read_arrays(run / "best.npz")
    assert meta["game"] == GAME and "trunk0_w" in arrays
    state = load(GAME).new_initial_state()
    agent = make_agent(f"az(weights={run / 'best.npz'},iterations=4)", load(GAME), 0)
    assert agent.step(state) in state.legal_actions()


@pytest.mark.parametrize(
    ("hidden", "game", "message"),
    [
        ((8, 8), GAME, "1 hidden layers, this run 2"),
        ((16,), GAME, r"trunk0_w of shape \(165, 8\), this run \(165, 16\)"),
        ((8,), "potlatch", "trained for potlatch, not proteus"),
    ],
)
def test_init_refuses_another_network(
    tmp_path: Path, hidden: tuple[int, ...], game: str, message: str
) -> None:
    path = start_file(tmp_path, game=game)
    with pytest.raises(OptionError, match=message):
        train_alphazero(tiny(init=str(path), hidden=hidden), tmp_path / "run")
    with pytest.raises(OptionError, match="no network file"):
        train_alphazero(tiny(init=str(tmp_path / "missing.npz")), tmp_path / "run")


def test_potlatch_trains_on_the_compact_bytes_the_search_reads() -> None:
    """The row self-play stores for the mover is the one the compiled network evaluates in the
    search: the compact bytes from that seat's view, over 16."""
    game = load("potlatch")
    kernel = game.new_initial_state().kernel
    assert isinstance(kernel, Kernel)
    learner = Learner(kernel.compact_size, kernel.action_space, 2, tiny(hidden=(16,)))
    network = build_network(learner.arrays(), {"input": "compact"})
    rng = random.Random(3)
    state = game.new_initial_state()
    seen = set()
    for _ in range(30):
        if state.is_terminal() or not state.legal_actions():
            break
        player = state.current_player()
        now = state.kernel
        assert isinstance(now, Kernel)
        x = np.zeros(kernel.compact_size, dtype=np.float32)
        network_input(now, player, True, x)
        other = np.zeros_like(x)
        network_input(now, 1 - player, True, other)
        seen.add(player)
        assert not np.array_equal(x, other)  # each seat sees the board from its side
        logits, values = network.position(now, player)
        expected = network(x)
        assert np.abs(logits - expected[0]).max() < 1e-5
        assert np.abs(values - expected[1]).max() < 1e-5
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen == {0, 1}


def test_teacher_games_train_the_first_iterations(tmp_path: Path) -> None:
    """Expert iteration: iteration 1 is played by the mcts teacher (its root visits are the
    policy targets), iteration 2 by the network; the meta and the curve say which."""
    config = tiny(
        game="potlatch",
        games=2,
        teacher="mcts(iterations=30)",
        teacher_iterations=1,
        updates=2,
        batch=16,
    )
    summary = train_alphazero(config, tmp_path)
    assert [p["played_by"] for p in summary["curve"]] == ["teacher", "self"]
    _, meta = read_arrays(tmp_path / "network.npz")
    assert meta["teacher"] == {"spec": "mcts(iterations=30)", "iterations": 1}
    assert meta["input"] == "compact"
    with pytest.raises(OptionError, match="compiled mcts spec"):
        train_alphazero(tiny(teacher="random", teacher_iterations=1), tmp_path / "bad")


def test_a_run_is_the_same_on_any_number_of_worker_processes(tmp_path: Path) -> None:
    """With workers each game has a seed of its own, drawn in order before any is played, and
    the results come back in that order: one worker and two train the same network, through
    teacher games and self-play games alike, and the run counts the workers' CPU."""
    runs = []
    for workers in (1, 2):
        config = tiny(
            games=6,
            games_per_iteration=3,
            teacher="mcts(iterations=20)",
            teacher_iterations=1,
            updates=3,
            batch=16,
            workers=workers,
        )
        summary = train_alphazero(config, tmp_path / str(workers))
        arrays, _ = read_arrays(tmp_path / str(workers) / "network.npz")
        runs.append((summary, arrays))
    (one, first), (two, second) = runs
    assert [p["played_by"] for p in one["curve"]] == ["teacher", "self"]
    assert [p["loss"] for p in one["curve"]] == [p["loss"] for p in two["curve"]]
    assert one["budget"]["positions"] == two["budget"]["positions"] > 0
    assert all(np.array_equal(first[key], second[key]) for key in first)
    assert one["budget"]["selfplay_cpu"] > 0
    with pytest.raises(OptionError, match="workers"):
        train_alphazero(tiny(workers=-1), tmp_path / "bad")
