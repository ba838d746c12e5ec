"""Type stub for the compiled ``boardplay.ai.evaluation.proteus_leaf``: ``proteus.py``'s
evaluation in C."""

from boardplay.core.leaf import LeafEvaluation

class ProteusEvaluation(LeafEvaluation):
    def __init__(self, players: int, weights: str | None = None) -> None: ...
