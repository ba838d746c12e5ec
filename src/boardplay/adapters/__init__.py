"""Research adapters (docs/design.md §5): OpenSpiel, PettingZoo and Gymnasium views of every game.

The adapters are generic over the core contract (``boardplay.core.game``): they never look
inside a game, so a new engine is covered as soon as it is registered. Each lives in its own
module and imports its framework lazily, so ``import boardplay.adapters`` costs nothing; install
the ``rl`` extra (``pip install boardplay[rl]``) to use them.

Shared conventions (see docs/adapters.md):

- Rewards are terminal and zero-sum: ``utilities`` maps our returns (win share 1/0, draws and
  shared wins split 1) to ``(n * share - 1) / (n - 1)``, i.e. +1 win / -1 loss / 0 draw for two
  players, and +1 / -1/(n-1) for n players, the OpenSpiel convention for n-player win/loss games
  (its ``pig``). The affine map keeps every preference, so any search or learner ranks outcomes
  exactly as the engine does.
- Observations are the engine's ``observation_tensor(player)`` reshaped to
  ``Game.observation_shape()``, as float32.
- A learner's illegal action ends its game as a loss (the Gymnasium envs' default), and the
  first one an env sees raises an ``IllegalActionWarning`` (``warn_illegal``), as PettingZoo's
  ``TerminateIllegalWrapper`` warns: a learner that does not mask (SB3's plain PPO) otherwise
  learns little, silently.
"""

from __future__ import annotations

import warnings

from boardplay.core.game import Game, State


class IllegalActionWarning(UserWarning):
    """A learner chose an illegal action and its game ended as a loss (see ``warn_illegal``)."""


def warn_illegal(game: Game, stacklevel: int = 3) -> None:
    """Warn that a learner's illegal action ended a game of ``game`` as a loss, and how to
    mask. Each env calls this once, at its first illegal action: an unmasked learner picks
    illegal actions all the time, and one line says what a thousand would."""
    warnings.warn(
        f"{game}: the learner chose an illegal action, so its game ended as a loss (the "
        "default illegal='lose'). A learner that does not mask actions, such as SB3's PPO, "
        "learns little this way: mask them with info['action_mask'] or env.action_masks() "
        "(sb3-contrib's MaskablePPO reads it). Shown once per env; silence it with "
        "warnings.filterwarnings('ignore', category=boardplay.adapters.IllegalActionWarning).",
        IllegalActionWarning,
        stacklevel=stacklevel,
    )


def utilities(state: State) -> list[float]:
    """Zero-sum terminal utilities of ``state`` (all 0 before the end); see the module doc."""
    n = state.game.num_players
    if not state.is_terminal():
        return [0.0] * n
    return [(n * share - 1.0) / (n - 1) for share in state.returns()]


def utility_range(game: Game) -> tuple[float, float]:
    """The smallest and largest value ``utilities`` can give in ``game``."""
    return -1.0 / (game.num_players - 1), 1.0


__all__ = ["IllegalActionWarning", "utilities", "utility_range", "warn_illegal"]
