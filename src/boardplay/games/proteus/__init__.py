"""Proteus: the 3x3 game whose rules change as you play (spec: docs/spec/proteus.md)."""

from boardplay.games.proteus.game import ProteusGame
from boardplay.games.proteus.state import ProteusState

__all__ = ["ProteusGame", "ProteusState"]
