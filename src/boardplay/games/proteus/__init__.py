"""Proteus: the 3x3 game whose rules change as you play (spec: docs/spec/proteus.md)."""

GAME = "boardplay.games.proteus.game:ProteusGame"
