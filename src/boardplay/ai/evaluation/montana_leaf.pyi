"""Type stub for the compiled ``boardplay.ai.evaluation.montana_leaf``: ``montana.py``'s
evaluation in C."""

from boardplay.core.leaf import LeafEvaluation

class MontanaEvaluation(LeafEvaluation):
    def __init__(self, players: int, weights: str | None = None) -> None: ...
