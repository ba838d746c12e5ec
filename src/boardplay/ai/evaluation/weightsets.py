"""Named weight sets: the numbers of a game's evaluation, shipped as data with the package.

A game whose evaluation is a weighted sum of terms (``montana``, ``passtally``) reads its
weights from ``weights/<game>/<set>.json`` beside this module, so a set fitted from self-play
(``boardplay.ai.fit``) ships as data next to the hand-set one, and the spec parameter
``weights=NAME`` (``mcts``, ``greedy``) chooses which one an agent plays with. ``hand`` is the
set chosen by hand, the baseline a fitted set is measured against; each game's module names its
default set.

A file holds ``weights`` (term name -> weight of that term in a seat's strength; a term left out
weighs 0), ``shape`` (the fixed numbers around the weighted sum, e.g. the softmax temperature,
which the fit does not move) and ``provenance`` (how the set was made: by hand, or the fit's
command, games, agent, seed and held-out scores).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from boardplay.core.errors import OptionError

FORMAT = "boardplay-weights"


@dataclass(frozen=True)
class WeightSet:
    """One named set of a game's evaluation weights."""

    game: str
    name: str
    weights: dict[str, float]
    shape: dict[str, float]
    provenance: dict[str, Any] = field(default_factory=dict)

    def vector(self, terms: tuple[str, ...]) -> list[float]:
        """The weights in the order of ``terms`` (the game's term names); a term the set does
        not name weighs 0, a name the game does not know is an error (a typo in a file would
        otherwise silently weigh nothing)."""
        unknown = sorted(set(self.weights) - set(terms))
        if unknown:
            raise ValueError(
                f"weight set {self.name!r} of {self.game} names unknown terms "
                f"{', '.join(unknown)}; the terms are {', '.join(terms)}"
            )
        return [float(self.weights.get(term, 0.0)) for term in terms]

    def shaped(self, key: str) -> float:
        """A fixed number of the evaluation's shape (``ValueError`` names a missing one)."""
        if key not in self.shape:
            raise ValueError(f"weight set {self.name!r} of {self.game} has no shape value {key!r}")
        return float(self.shape[key])

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": 1,
            "game": self.game,
            "name": self.name,
            "weights": dict(self.weights),
            "shape": dict(self.shape),
            "provenance": dict(self.provenance),
        }


def from_json(data: dict[str, Any]) -> WeightSet:
    """A weight set from its JSON form (``WeightSet.to_json``); ``ValueError`` says what is
    wrong with a malformed one."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a weight set (format {data.get('format')!r}, wanted {FORMAT!r})")
    try:
        weights = {str(k): float(v) for k, v in data["weights"].items()}
        shape = {str(k): float(v) for k, v in data["shape"].items()}
        return WeightSet(
            game=str(data["game"]),
            name=str(data["name"]),
            weights=weights,
            shape=shape,
            provenance=dict(data.get("provenance", {})),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"malformed weight set: {exc}") from None


def _folder(game: str) -> resources.abc.Traversable:
    return resources.files("boardplay.ai.evaluation") / "weights" / game


@cache
def names(game: str) -> tuple[str, ...]:
    """The weight sets shipped for ``game`` (sorted; empty for a game without any)."""
    folder = _folder(game)
    if not folder.is_dir():
        return ()
    return tuple(
        sorted(
            item.name.removesuffix(".json")
            for item in folder.iterdir()
            if item.name.endswith(".json")
        )
    )


@cache
def load(game: str, name: str) -> WeightSet:
    """The shipped weight set ``name`` of ``game``; ``OptionError`` lists the known ones."""
    known = names(game)
    if name not in known:
        listed = ", ".join(known) if known else "none"
        raise OptionError(f"no weight set {name!r} for {game}; its weight sets are {listed}")
    text = (_folder(game) / f"{name}.json").read_text(encoding="utf-8")
    loaded = from_json(json.loads(text))
    if (loaded.game, loaded.name) != (game, name):
        raise ValueError(f"weights/{game}/{name}.json says it is {loaded.game}/{loaded.name}")
    return loaded
