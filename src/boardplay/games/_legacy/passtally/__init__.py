"""Passtally (Masaki Suga, analog lunchbox 2018): lay two-cell path tiles on a 6x6 board and
score the lines joining your own markers. Rules: rules.md; spec: shared/rules/passtally.md."""

from boardplay.games._legacy.passtally.game import PasstallyGame
from boardplay.games._legacy.passtally.state import PasstallyState

__all__ = ["PasstallyGame", "PasstallyState"]
