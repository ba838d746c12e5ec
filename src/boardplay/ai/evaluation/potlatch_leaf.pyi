"""Type stub for the compiled ``boardplay.ai.evaluation.potlatch_leaf``: ``potlatch.py``'s
evaluation in C."""

from boardplay.core.leaf import LeafEvaluation

class PotlatchEvaluation(LeafEvaluation):
    def __init__(self, players: int, weights: str | None = None) -> None: ...
