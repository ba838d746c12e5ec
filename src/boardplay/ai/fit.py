"""Evaluation weights fitted from self-play: ``python -m boardplay.ai.fit GAME --games N
--agent SPEC --seed S --out FILE``.

A game whose evaluation is a weighted sum of terms (``montana``, ``passtally``: each module's
``TERMS``, ``terms`` and ``temperature``) turns each seat's strength into win chances by a
softmax. That is a conditional logit model of who wins, so its weights can be fitted by maximum
likelihood from positions whose winner is known. This module plays self-play games with a cheap
search agent (with probability ``explore`` a seat plays a uniformly random move instead, so the
positions vary; with several ``--agent`` specs the seats take them in turn, game by game, so a
set can be refitted on games its own agent played against the one it came from, where what its
weights prefer shows whether it wins), records every decision's term values and the game's
result (``returns()``, so a draw counts half for each seat), and fits the weights by Newton's
method with a small L2 penalty; ``--fix`` keeps chosen terms at their hand weights. The last
quarter of the games is held out: the fitted weights and the ``hand`` set are both scored there
(mean log-loss of the result, and how often the seat given the best chance won), and the
numbers go into the written weight set's provenance with the command that made it. A written
set ships as ``src/boardplay/ai/evaluation/weights/<game>/<name>.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from boardplay.ai.evaluation import montana, passtally, weightsets
from boardplay.ai.specs import make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game, sample_chance
from boardplay.core.registry import load

Array = npt.NDArray[np.float64]

MODELS: dict[str, ModuleType] = {"montana": montana, "passtally": passtally}
"""Games whose evaluation is a weighted sum of terms, by name."""

MAX_ACTIONS = 3000
"""A self-play game still running after this many actions is dropped (no result to learn)."""


@dataclass
class Positions:
    """Recorded decisions: ``terms[n, s, k]`` is term ``k`` of seat ``s`` divided by the
    softmax temperature, ``results[n, s]`` seat ``s``'s share of the game's result (rows sum to
    1), ``games[n]`` the index of the self-play game the position comes from."""

    terms: Array
    results: Array
    games: npt.NDArray[np.int64]

    def subset(self, mask: npt.NDArray[np.bool_]) -> Positions:
        return Positions(self.terms[mask], self.results[mask], self.games[mask])


def model_for(game: Game) -> ModuleType:
    """The evaluation module whose weights can be fitted for ``game`` (``OptionError`` names the
    games that have one)."""
    model = MODELS.get(game.name)
    if model is None:
        raise OptionError(
            f"no fitted evaluation for {game.name}; the games with one are {', '.join(MODELS)}"
        )
    return model


def self_play(
    game: Game,
    specs: Sequence[str],
    games: int,
    seed: int,
    explore: float,
    progress: bool = False,
) -> Positions:
    """Play ``games`` self-play games (seat ``s`` of game ``i`` plays ``specs[(i + s) % len]``
    with its own seed) and record each decision's term values and the game's result."""
    model = model_for(game)
    hand = weightsets.load(game.name, "hand")
    players = game.num_players
    rows: list[list[list[float]]] = []
    results: list[list[float]] = []
    origin: list[int] = []
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        agents = [
            make_agent(specs[(index + seat) % len(specs)], game, rng.getrandbits(32))
            for seat in range(players)
        ]
        state = game.new_initial_state()
        recorded: list[list[list[float]]] = []
        actions = 0
        while not state.is_terminal() and actions < MAX_ACTIONS:
            if state.is_chance_node():
                action = sample_chance(state, rng)
            else:
                assert state.kernel is not None
                features = state.kernel.features()
                scale = model.temperature(features, hand)
                seats = model.terms(features, players, hand)
                recorded.append([[x / scale for x in row] for row in seats])
                legal = state.legal_actions()
                if len(legal) > 1 and rng.random() < explore:
                    action = rng.choice(legal)
                else:
                    action = agents[state.current_player()].step(state)
            state.apply_action(action)
            for agent in agents:
                agent.inform(action)
            actions += 1
        if progress and (index + 1) % 10 == 0:
            print(f"{index + 1}/{games} games", file=sys.stderr, flush=True)
        if not state.is_terminal():
            continue
        result = [float(x) for x in state.returns()]
        total = sum(result)
        if total <= 0:
            continue
        rows.extend(recorded)
        results.extend([[x / total for x in result]] * len(recorded))
        origin.extend([index] * len(recorded))
    if not rows:
        raise ValueError("self-play produced no finished game to learn from")
    return Positions(
        np.asarray(rows, dtype=np.float64),
        np.asarray(results, dtype=np.float64),
        np.asarray(origin, dtype=np.int64),
    )


def chances(terms: Array, weights: Array) -> Array:
    """The softmax win chances of every position (``terms`` as in ``Positions``)."""
    strength = terms @ weights
    strength -= strength.max(axis=1, keepdims=True)
    exp = np.exp(strength)
    out: Array = exp / exp.sum(axis=1, keepdims=True)
    return out


def log_loss(positions: Positions, weights: Array) -> float:
    """Mean negative log-likelihood of the results under the weights' win chances."""
    p = chances(positions.terms, weights)
    return float(-(positions.results * np.log(np.maximum(p, 1e-300))).sum(axis=1).mean())


def accuracy(positions: Positions, weights: Array) -> float:
    """Share of positions from games with a single winner where that seat got the best chance."""
    decided = (positions.results == 1.0).any(axis=1)
    if not decided.any():
        return float("nan")
    p = chances(positions.terms[decided], weights)
    winners = positions.results[decided].argmax(axis=1)
    return float((p.argmax(axis=1) == winners).mean())


def fit_weights(
    positions: Positions,
    l2: float = 1.0,
    start: Array | None = None,
    steps: int = 100,
    fixed: Sequence[int] = (),
) -> Array:
    """Maximum-likelihood weights of the conditional logit model with an L2 penalty ``l2``
    (Newton's method with step halving; the objective is concave, so it converges). The
    weights at the indices ``fixed`` keep their ``start`` values (the fit moves the others
    around them)."""
    x, y = positions.terms, positions.results
    k = x.shape[2]
    w = np.zeros(k) if start is None else np.array(start, dtype=np.float64)
    free = np.array([i not in set(fixed) for i in range(k)])

    def objective(v: Array) -> float:
        return -log_loss(positions, v) * len(x) - 0.5 * l2 * float(v @ v)

    current = objective(w)
    for _ in range(steps):
        p = chances(x, w)
        gradient = np.einsum("nsk,ns->k", x, y - p) - l2 * w
        mean = np.einsum("nsk,ns->nk", x, p)
        hessian = (
            np.einsum("nsk,ns,nsj->kj", x, p, x)
            - np.einsum("nk,nj->kj", mean, mean)
            + l2 * np.eye(k)
        )
        step = np.zeros(k)
        step[free] = np.linalg.solve(hessian[np.ix_(free, free)], gradient[free])
        size = 1.0
        while size > 1e-6:
            trial = w + size * step
            value = objective(trial)
            if value >= current - 1e-12:
                break
            size /= 2
        else:
            break
        w, previous, current = trial, current, value
        if abs(current - previous) < 1e-10 * max(1.0, abs(current)):
            break
    return w


def fitted_set(
    game: Game,
    positions: Positions,
    *,
    name: str,
    holdout: float,
    l2: float,
    provenance: dict[str, Any],
    fixed: Sequence[str] = (),
) -> weightsets.WeightSet:
    """Fit on the first games, score the fit and the hand set on the held-out last games, and
    return the fitted weight set (weights rounded to 4 decimals; the scores are the rounded
    weights'). The terms named in ``fixed`` keep their hand weights."""
    model = model_for(game)
    hand = weightsets.load(game.name, "hand")
    last = int(positions.games.max())
    first_held = last + 1 - max(1, round((last + 1) * holdout))
    held = positions.games >= first_held
    train, test = positions.subset(~held), positions.subset(held)
    if len(train.terms) == 0 or len(test.terms) == 0:
        raise ValueError("too few games to hold some out; play more games")
    hand_weights = np.asarray(hand.vector(model.TERMS))
    held_at = [model.TERMS.index(term) for term in fixed]
    weights = np.round(fit_weights(train, l2, start=hand_weights, fixed=held_at), 4)
    scores = {
        "positions_train": len(train.terms),
        "positions_held_out": len(test.terms),
        "games_held_out": last + 1 - first_held,
        "held_out_log_loss": round(log_loss(test, weights), 5),
        "held_out_log_loss_hand": round(log_loss(test, hand_weights), 5),
        "held_out_accuracy": round(accuracy(test, weights), 4),
        "held_out_accuracy_hand": round(accuracy(test, hand_weights), 4),
    }
    return weightsets.WeightSet(
        game=game.name,
        name=name,
        weights={term: float(w) for term, w in zip(model.TERMS, weights, strict=True)},
        shape=dict(hand.shape),
        provenance={**provenance, **scores},
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m boardplay.ai.fit",
        description="Fit a game's evaluation weights to the results of self-play games.",
    )
    parser.add_argument("game", help=f"the game ({', '.join(MODELS)}), with options if any")
    parser.add_argument("--games", type=int, required=True, help="self-play games to play")
    parser.add_argument(
        "--agent",
        required=True,
        action="append",
        help="the self-play agent spec (repeat: the seats take the specs in turn)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the weight set file to write")
    parser.add_argument("--name", default="fitted", help="the weight set's name")
    parser.add_argument("--explore", type=float, default=0.1, help="chance of a random move")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the weights")
    parser.add_argument("--holdout", type=float, default=0.25, help="share of games held out")
    parser.add_argument(
        "--fix", default="", help="comma-separated terms that keep their hand weights"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command; returns the exit status (2 with a one-line message on bad input)."""
    args = _parser().parse_args(argv)
    try:
        game = load(args.game)
        model_for(game)
        if args.games < 2:
            raise OptionError(f"--games must be at least 2 (some are held out), got {args.games}")
        if not 0.0 <= args.explore < 1.0:
            raise OptionError(f"--explore must be in [0, 1), got {args.explore}")
        if not 0.0 < args.holdout < 1.0:
            raise OptionError(f"--holdout must be between 0 and 1, got {args.holdout}")
        if args.l2 < 0:
            raise OptionError(f"--l2 must be 0 or more, got {args.l2}")
        for spec in args.agent:
            make_agent(spec, game, 0)
        fixed = [term for term in args.fix.split(",") if term]
        unknown = sorted(set(fixed) - set(model_for(game).TERMS))
        if unknown:
            raise OptionError(
                f"{game.name} has no term {unknown[0]!r}; its terms are "
                f"{', '.join(model_for(game).TERMS)}"
            )
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    positions = self_play(game, args.agent, args.games, args.seed, args.explore, progress=True)
    command = "python -m boardplay.ai.fit " + shlex.join(
        list(argv) if argv is not None else sys.argv[1:]
    )
    weight_set = fitted_set(
        game,
        positions,
        name=args.name,
        holdout=args.holdout,
        l2=args.l2,
        fixed=fixed,
        provenance={
            "made_by": "boardplay.ai.fit",
            "command": command,
            "game": args.game,
            "games": args.games,
            "agent": args.agent[0] if len(args.agent) == 1 else args.agent,
            "seed": args.seed,
            "explore": args.explore,
            "l2": args.l2,
            "fixed_at_hand": fixed,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        },
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(weight_set.to_json(), indent=2) + "\n", encoding="utf-8")
    print(json.dumps(weight_set.provenance, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
