"""Today's Proteus engine: the reference of tests/games/proteus/test_proteus_differential.py."""

from boardplay.games._legacy.proteus.game import ProteusGame
from boardplay.games._legacy.proteus.state import ProteusState

__all__ = ["ProteusGame", "ProteusState"]
