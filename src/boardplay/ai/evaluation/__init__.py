"""The shipped games' position evaluations and rollout policies, one module per game, the
generic fallback, and how the AI finds a game's (``heuristics_for``).

What an evaluation and a rollout policy are, and the ``Heuristics`` that bundle them, is
``boardplay.core.heuristics``; a game names its own in ``Game.heuristics``. The shipped games'
modules here weigh the typed feature vector each kernel writes, by feature name, and each has its
evaluation in C beside it (``<game>_leaf.pyx``, a ``boardplay.core.leaf.LeafEvaluation``). A game
whose numbers are data (``weightsets``) can be evaluated with any of its shipped weight sets
(``heuristics_for(game, weights=NAME)``, the spec parameter ``weights=NAME``).
"""

from __future__ import annotations

from dataclasses import replace

from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State
from boardplay.core.heuristics import Heuristics, softmax
from boardplay.core.registry import find


def default_cutoff(heuristics: Heuristics, players: int) -> int | None:
    """MCTS's default cutoff for a table of ``players`` seats: the table's own
    (``Heuristics.table_cutoffs``) or the game's."""
    return dict(heuristics.table_cutoffs).get(players, heuristics.cutoff)


def default_spread(heuristics: Heuristics, players: int) -> bool:
    """Whether MCTS scales its exploration by the returns' spread by default at a table of
    ``players`` seats (``Heuristics.table_spread``)."""
    return players in heuristics.table_spread


def uniform(num_players: int) -> list[float]:
    return [1.0 / num_players] * num_players


def generic_evaluate(state: State) -> list[float]:
    """Fallback evaluation: the result at the end; otherwise a softmax over the scores (when the
    game keeps score) with a temperature that grows with the score level, so a lead of a few
    points early counts for less than the same lead late; otherwise even chances."""
    if state.is_terminal():
        return state.returns()
    players = len(state.returns())
    scores = state.scores()
    if not scores:
        return uniform(players)
    level = sum(abs(s) for s in scores) / len(scores)
    return softmax(list(scores), 2.0 + 0.25 * level)


GENERIC = Heuristics(
    generic_evaluate,
    None,
    "generic: the result at the end, else a softmax over scores(), else even chances",
)


HAND = "hand"
"""The weight set every evaluation has: the hand-set numbers (for a game whose numbers are not
data, its only evaluation)."""


def heuristics_for(game: Game, weights: str | None = None) -> Heuristics:
    """The game's own heuristics (its ``Game.heuristics`` reference) or the generic fallback;
    with ``weights``, evaluating with that weight set (``OptionError`` for one the game does not
    ship; ``hand`` is known everywhere)."""
    reference = game.heuristics
    heuristics: Heuristics = GENERIC if reference is None else find(reference)
    if weights is None:
        return heuristics
    if heuristics.weighted is None:
        if weights == HAND:
            return heuristics
        raise OptionError(
            f"no weight set {weights!r} for {game.name}; its evaluation has only the {HAND!r} set"
        )
    return replace(heuristics, evaluate=heuristics.weighted(weights))
