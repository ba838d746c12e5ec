"""Passtally (Masaki Suga, analog lunchbox 2018): lay two-cell path tiles on a 6x6 board and
score the lines joining your own markers. Rules: rules.md; spec: docs/spec/passtally.md."""

from boardplay.games.passtally.game import PasstallyGame
from boardplay.games.passtally.state import PasstallyState

__all__ = ["PasstallyGame", "PasstallyState"]
