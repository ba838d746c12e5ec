"""Learned policies: small networks trained by ``boardplay train`` and played with NumPy.

Training needs torch (the ``train`` extra); playing does not. A policy file (``.npz``) holds the
layers of a multilayer perceptron (``w0, b0, w1, b1, ...``, tanh between them, the last layer's
outputs are one logit per action) and a JSON ``meta`` block: the game string it was trained on,
the observation size, the number of actions, and how it was trained. Deciding is one pass over
the observation of the seat to move, then the best logit among the legal actions, so a move
costs a fraction of a millisecond and the same position always gets the same move.

Policies are chosen by name (``policy(name=potlatch-ppo)``, or ``policy(potlatch-ppo)``), never by
path: the names are the files shipped in ``boardplay/ai/policies`` and those in the folders an
operator lists in ``$BOARDPLAY_POLICY_PATH``, so a web visitor's AI spec cannot make the server
open a file of its choosing.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State

Array = np.ndarray[Any, Any]


def without_illegal(scores: Array, masks: Array) -> Array:
    """``scores`` (one row of per-action scores per game, changed in place) with every action a
    0 of ``masks`` marks illegal at minus infinity, so it is never the best."""
    scores[np.asarray(masks).reshape(scores.shape) == 0] = -np.inf
    return scores


def best_legal(scores: Array, masks: Array) -> Array:
    """Each row's best-scoring legal action (``without_illegal``)."""
    best: Array = without_illegal(scores, masks).argmax(axis=1)
    return best


SHIPPED = Path(__file__).with_name("policies")
"""The policies that come with boardplay (docs/adapters.md, "Learning baselines")."""

PATH_VARIABLE = "BOARDPLAY_POLICY_PATH"
NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")


@dataclass
class PolicyNet:
    """A trained policy's layers (float32) and what it was trained on."""

    weights: list[Array]
    biases: list[Array]
    meta: dict[str, Any] = field(default_factory=dict)

    batched = True
    """Marks the call below as batched for ``boardplay.adapters.opponents``."""

    @property
    def observation_size(self) -> int:
        return int(self.weights[0].shape[1])

    @property
    def num_actions(self) -> int:
        return int(self.weights[-1].shape[0])

    def logits(self, observations: Array) -> Array:
        """``(n, observation_size)`` float32 -> ``(n, num_actions)`` logits."""
        x = observations.reshape(observations.shape[0], -1).astype(np.float32, copy=False)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w.T + b
            if i < last:
                np.tanh(x, out=x)
        return x

    def __call__(self, observations: Array, masks: Array) -> Array:
        """The best legal action of each row (an illegal action's logit never wins)."""
        return best_legal(self.logits(observations), masks)

    def check(self, game: Game) -> None:
        """Refuse a game whose observations or actions do not fit this network."""
        size = int(np.prod(game.observation_shape()))
        if size != self.observation_size or game.num_distinct_actions != self.num_actions:
            trained = self.meta.get("game", "another game")
            raise OptionError(
                f"this policy was trained on {trained} ({self.observation_size} observation "
                f"values, {self.num_actions} actions); {game} has {size} and "
                f"{game.num_distinct_actions}"
            )

    def save(self, path: Path) -> None:
        """Write the layers as float16 (half the size; the play is the same to within the
        rounding of a logit) and the meta block as JSON."""
        arrays: dict[str, Array] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float16)
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(out, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        with np.load(path, allow_pickle=False) as data:
            count = sum(1 for key in data.files if key.startswith("w"))
            weights = [data[f"w{i}"].astype(np.float32) for i in range(count)]
            biases = [data[f"b{i}"].astype(np.float32) for i in range(count)]
            meta = json.loads(str(data["meta"]))
        return cls(weights, biases, meta)


def search_path() -> list[Path]:
    """Where policy names are looked up: the operator's folders first, then the shipped one."""
    extra = [Path(p) for p in os.environ.get(PATH_VARIABLE, "").split(os.pathsep) if p]
    return [*extra, SHIPPED]


def available_policies() -> list[str]:
    """The names ``policy(name=...)`` accepts, sorted."""
    names = {p.stem for folder in search_path() if folder.is_dir() for p in folder.glob("*.npz")}
    return sorted(n for n in names if NAME.fullmatch(n))


_CACHE: dict[Path, tuple[float, PolicyNet]] = {}


def find_policy(name: str) -> PolicyNet:
    """The policy called ``name`` (a name, not a path), loaded once per file version."""
    if not NAME.fullmatch(name):
        raise OptionError(
            f"policy name {name[:40]!r} must be lower-case letters, digits, '-', '_' or '.'"
        )
    for folder in search_path():
        path = folder / f"{name}.npz"
        if path.is_file():
            stamp = path.stat().st_mtime
            cached = _CACHE.get(path)
            if cached is None or cached[0] != stamp:
                cached = (stamp, PolicyNet.load(path))
                _CACHE[path] = cached
            return cached[1]
    known = ", ".join(available_policies()) or "none"
    raise OptionError(f"unknown policy {name!r}; known policies: {known}")


LEVELS = SHIPPED / "levels.json"
"""Which shipped policy plays each game's ``learned`` level (written with the baselines)."""


def learned_policy(game: Game) -> str:
    """The name of the policy behind ``game``'s ``learned`` level, if one fits ``game``."""
    table: dict[str, str] = json.loads(LEVELS.read_text()) if LEVELS.is_file() else {}
    name = table.get(game.name)
    if name is None:
        raise OptionError(f"no learned policy is shipped for {game.name}")
    find_policy(name).check(game)
    return name


class PolicyAgent:
    """An ``Agent`` that plays a learned policy: the best legal action by the network, read
    from the mover's own observation (no search)."""

    def __init__(self, game: Game, net: PolicyNet, name: str) -> None:
        net.check(game)
        self.net = net
        self.name = name
        self._obs = np.zeros((1, net.observation_size), dtype=np.float32)
        self._mask = np.zeros((1, net.num_actions), dtype=np.int8)

    def step(self, state: State) -> int:
        player = state.current_player()
        legal = state.legal_actions()
        if player < 0 or not legal:
            raise ValueError("there is no decision to take here (the game is over or chance acts)")
        kernel = getattr(state, "kernel", None)
        if kernel is not None:
            kernel.observe(player, self._obs[0])
        else:
            self._obs[0] = state.observation_tensor(player)
        self._mask.fill(0)
        self._mask[0, legal] = 1
        return int(self.net(self._obs, self._mask)[0])

    def reset(self) -> None:
        return None

    def inform(self, action: int) -> None:
        return None
