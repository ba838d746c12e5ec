"""Passtally (Masaki Suga, analog lunchbox 2018): lay two-cell path tiles on a 6x6 board and
score the lines joining your own markers. Rules: rules.md; spec: docs/spec/passtally.md."""

GAME = "boardplay.games.passtally.game:PasstallyGame"
