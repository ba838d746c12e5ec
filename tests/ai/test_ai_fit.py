"""The self-play fit of evaluation weights (``boardplay.ai.fit``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import boardplay
from boardplay.ai import fit
from boardplay.ai.evaluation import montana, passtally, weightsets


def _synthetic(weights: list[float], positions: int, seats: int, seed: int) -> fit.Positions:
    """Positions whose winner is drawn from the softmax of known weights."""
    rng = np.random.default_rng(seed)
    terms = rng.normal(size=(positions, seats, len(weights)))
    chances = fit.chances(terms, np.asarray(weights))
    winners = [rng.choice(seats, p=p) for p in chances]
    results = np.zeros((positions, seats))
    results[np.arange(positions), winners] = 1.0
    return fit.Positions(terms, results, np.arange(positions) // 20)


def test_the_fit_recovers_known_weights() -> None:
    true = [1.2, -0.6, 0.3, 0.0]
    positions = _synthetic(true, 6000, 3, seed=1)
    fitted = fit.fit_weights(positions, l2=0.01)
    assert fitted == pytest.approx(true, abs=0.12)
    # Maximum likelihood: the fit explains the data better than the true weights, and far
    # better than knowing nothing (all weights 0: log 3 per position).
    assert fit.log_loss(positions, fitted) <= fit.log_loss(positions, np.asarray(true))
    assert fit.log_loss(positions, np.zeros(4)) == pytest.approx(np.log(3))
    assert fit.log_loss(positions, fitted) < 0.85 * np.log(3)


def test_fixed_weights_keep_their_start_and_the_rest_fit_around_them() -> None:
    true = [1.2, -0.6, 0.3, 0.0]
    positions = _synthetic(true, 6000, 3, seed=3)
    start = np.asarray([1.2, 5.0, 0.0, 0.7])
    fitted = fit.fit_weights(positions, l2=0.01, start=start, fixed=[0, 3])
    assert (fitted[0], fitted[3]) == (1.2, 0.7)
    free = fit.fit_weights(positions, l2=0.01)
    assert fitted[1] == pytest.approx(true[1], abs=0.15)
    assert fit.log_loss(positions, fitted) > fit.log_loss(positions, free)


def test_several_agents_take_the_seats_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    seated: list[str] = []
    real = fit.make_agent

    def spy(spec: str, game: object, seed: int | None = None) -> object:
        seated.append(spec)
        return real(spec, game, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(fit, "make_agent", spy)
    game = boardplay.load("montana")
    specs = ["mcts(iterations=3)", "greedy", "random"]
    positions = fit.self_play(game, specs, games=3, seed=1, explore=0.0)
    assert seated == [specs[0], specs[1], specs[1], specs[2], specs[2], specs[0]]
    assert sorted(set(positions.games.tolist())) == [0, 1, 2]


def test_draws_count_half_and_the_penalty_shrinks() -> None:
    positions = _synthetic([0.8, 0.0], 2000, 2, seed=2)
    positions.results[:500] = 0.5  # a quarter of the games drawn
    loose = fit.fit_weights(positions, l2=0.0)
    tight = fit.fit_weights(positions, l2=5000.0)
    assert 0.3 < loose[0] < 1.0
    assert abs(tight[0]) < abs(loose[0]) / 2
    # A held-out quarter is scored for the fitted and the hand weights alike.
    assert 0.5 < fit.accuracy(positions, loose) < 1.0


def _run(tmp_path: Path, *args: str) -> tuple[int, Path]:
    out = tmp_path / "set.json"
    status = fit.main([*args, "--out", str(out)])
    return status, out


@pytest.mark.parametrize(("game", "model"), [("montana", montana), ("passtally", passtally)])
def test_the_command_plays_fits_and_writes_a_weight_set(
    tmp_path: Path, game: str, model: object, capsys: pytest.CaptureFixture[str]
) -> None:
    args = (game, "--games", "4", "--agent", "mcts(iterations=5)", "--seed", "3")
    status, out = _run(tmp_path, *args)
    assert status == 0
    written = weightsets.from_json(json.loads(out.read_text()))
    assert (written.game, written.name) == (game, "fitted")
    assert set(written.weights) == set(model.TERMS)  # type: ignore[attr-defined]
    assert written.shape == weightsets.load(game, "hand").shape
    made = written.provenance
    assert made["command"] == (
        f"python -m boardplay.ai.fit {game} --games 4 --agent 'mcts(iterations=5)' --seed 3 "
        f"--out {out}"
    )
    assert (made["games"], made["agent"], made["seed"], made["games_held_out"]) == (
        4,
        "mcts(iterations=5)",
        3,
        1,
    )
    assert made["positions_train"] > 3 * 20 and made["positions_held_out"] > 20
    for key in ("held_out_log_loss", "held_out_log_loss_hand"):
        assert 0.0 < made[key] < 5.0
    assert "held_out_log_loss" in capsys.readouterr().out
    # --fix keeps a term at its hand weight.
    hand = weightsets.load(game, "hand").weights
    term = next(iter(hand))
    held = tmp_path / "held"
    held.mkdir()
    assert _run(held, *args, "--fix", term)[0] == 0
    fixed = json.loads((held / "set.json").read_text())
    assert fixed["weights"][term] == hand[term] != written.weights[term]
    assert fixed["provenance"]["fixed_at_hand"] == [term]
    # The same command makes the same set.
    again = tmp_path / "again"
    again.mkdir()
    assert _run(again, *args)[0] == 0
    assert json.loads((again / "set.json").read_text())["weights"] == written.weights


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("chess", "--games", "4", "--agent", "random"), "unknown game 'chess'"),
        (("potlatch", "--games", "4", "--agent", "random"), "no fitted evaluation for potlatch"),
        (("montana", "--games", "4", "--agent", "mcts(depth=2)"), "mcts has no parameter 'depth'"),
        (("montana", "--games", "1", "--agent", "random"), "--games must be at least 2"),
        (("montana(players=9)", "--games", "4", "--agent", "random"), "players"),
        (("montana", "--games", "4", "--agent", "random", "--explore", "1.5"), "--explore"),
        (("montana", "--games", "4", "--agent", "random", "--fix", "ready,wood"), "no term 'wood'"),
    ],
)
def test_bad_input_is_a_clear_error_and_writes_nothing(
    tmp_path: Path, args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _run(tmp_path, *args)
    assert status == 2
    assert message in capsys.readouterr().err
    assert not out.exists()
