"""Montana (Rüdiger Dorn, 2017): the worker-placement race, 2–4 players, data-driven (spec:
docs/spec/montana.md)."""

GAME = "boardplay.games.montana.game:MontanaGame"
