"""Potlatch Klone (Takashi Kato, radiuthree 2021): pawns on a growing board of hex tiles,
chips stacked three high; the first player to start a turn with three stacks of their own
colour wins. Rules: ``docs/spec/potlatch-klone.md`` (engine spec) and ``rules.md``
(player-facing)."""

GAME = "boardplay.games.potlatch.game:PotlatchGame"
ALIASES = ("potlatch-klone", "potlatch_klone")
