"""Montana (Rüdiger Dorn, 2017): the worker-placement race, 2–4 players, data-driven (spec:
docs/spec/montana.md)."""

from boardplay.games.montana.game import MontanaGame
from boardplay.games.montana.state import MontanaState

__all__ = ["MontanaGame", "MontanaState"]
