"""Type stub for the compiled ``boardplay.core.leaf`` (a game's evaluation in C)."""

from typing_extensions import disjoint_base

from boardplay.core.kernel import Kernel

@disjoint_base
class LeafEvaluation:
    """A game's evaluation, computed from the kernel's feature vector."""

    @property
    def players(self) -> int: ...
    def __init__(self, players: int, weights: list[float]) -> None: ...
    def values(self, k: Kernel) -> list[float]: ...

def hand_only(game: str, weights: str | None) -> None: ...
