"""Type stub for the compiled ``boardplay.ai.evaluation.montana_leaf``: ``montana.py``'s
evaluation in C."""

from boardplay.ai.evaluation.compiled import LeafEvaluation

class MontanaEvaluation(LeafEvaluation):
    def __init__(self, players: int, weights: str | None = None) -> None: ...
