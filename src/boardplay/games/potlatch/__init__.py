"""Potlatch Klone (Takashi Kato, radiuthree 2021): pawns on a growing board of hex tiles,
chips stacked three high; the first player to start a turn with three stacks of their own
colour wins. Rules: ``docs/spec/potlatch-klone.md`` (engine spec) and ``rules.md``
(player-facing)."""

from boardplay.games.potlatch.game import PotlatchGame
from boardplay.games.potlatch.state import PotlatchState

__all__ = ["PotlatchGame", "PotlatchState"]
