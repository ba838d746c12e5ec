"""The pre-kernel Montana engine, frozen as the differential test's reference (do not edit)."""

from boardplay.games._legacy.montana.game import MontanaGame
from boardplay.games._legacy.montana.state import MontanaState

__all__ = ["MontanaGame", "MontanaState"]
