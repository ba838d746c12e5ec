"""Type stub for the compiled ``boardplay.ai.evaluation.compiled`` (per-game evaluations in C)."""

from typing_extensions import disjoint_base

from boardplay.core.kernel import Kernel

def has_compiled_evaluation(game_name: str) -> bool: ...

@disjoint_base
class LeafEvaluation:
    """One game's evaluation, computed from the kernel's feature vector."""

    @property
    def kind(self) -> int: ...
    @property
    def players(self) -> int: ...
    def __init__(self, game_name: str, players: int, weights: str | None = None) -> None: ...
    def values(self, k: Kernel) -> list[float]: ...
