"""Potlatch Klone evaluation (reads the kernel's typed features, never the position JSON).

A player wins with three stacks of their own colour at the start of their turn, so the
evaluation counts, per seat: own-colour stacks (the goal itself), 2-high stacks next to the
seat's pawn that a run could end on to crown (a threat for next turn, only usable when the pawn
stands high enough to step there), opponent stacks next to the pawn that the seat could stand on
and break, and the tempo of the side to move. Three own stacks while the opponent is to move are
worth almost a win: the opponent has exactly one turn to break one of them. The kernel counts
all of these (``Feature`` in ``games/potlatch/layout.pxd``); this module reads each by its name
(``FEATURE_NAMES``, resolved to indices once, at import).
"""

from __future__ import annotations

from collections.abc import Sequence

from boardplay.core.heuristics import Heuristics, StrengthEvaluation
from boardplay.games.potlatch.layout import FEATURE_NAMES

TEMPERATURE = 0.5
"""One own stack of lead makes the leader about e^2 = 7 times as likely to win."""
CROWN = 0.35
"""Per 2-high stack next to the pawn that a run could crown (at most ``MAX_CROWNS`` count)."""
MAX_CROWNS = 2
BREAK = 0.25
"""When an opponent stack next to the pawn could be broken (one counts)."""
TEMPO = 0.25
"""For the side to move."""
THREE_STACKS = 0.8
"""Three own stacks while the opponent is to move: it has one turn to break one of them."""

TO_MOVE = FEATURE_NAMES.index("to_move")
SEAT_FEATURES = tuple(
    tuple(FEATURE_NAMES.index(f"{colour}_{name}") for name in ("stacks", "crowns", "breaks"))
    for colour in ("red", "blue")
)
"""Per seat (Red, Blue), the feature indices of its own stacks, crowns and breaks."""


def strengths(features: Sequence[float]) -> list[float]:
    """Per-seat strength from the kernel's feature vector."""
    to_move = features[TO_MOVE]
    out: list[float] = []
    for seat, (stacks, crowns_at, breaks_at) in enumerate(SEAT_FEATURES):
        own, crowns, breaks = features[stacks], features[crowns_at], features[breaks_at]
        value = own + CROWN * min(crowns, MAX_CROWNS) + BREAK * min(breaks, 1)
        if to_move == seat:
            value += TEMPO
        elif own >= 3:
            value += THREE_STACKS
        out.append(value)
    return out


evaluate = StrengthEvaluation(strengths, TEMPERATURE, "Potlatch Klone")
"""The result at the end, otherwise the softmax of the strengths (win chances)."""


HEURISTICS = Heuristics(
    evaluate,
    None,
    "own-colour stacks + 0.35 per crownable 2-high stack next to the pawn (max 2) + 0.25 if an "
    "opponent stack can be broken + tempo; softmax with temperature 0.5",
    cutoff=0,
    compiled="boardplay.ai.evaluation.potlatch_leaf:PotlatchEvaluation",
)
