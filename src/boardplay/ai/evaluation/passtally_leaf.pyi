"""Type stub for the compiled ``boardplay.ai.evaluation.passtally_leaf``: ``passtally.py``'s
evaluation in C."""

from boardplay.core.leaf import LeafEvaluation

class PasstallyEvaluation(LeafEvaluation):
    def __init__(self, players: int, weights: str | None = None) -> None: ...
