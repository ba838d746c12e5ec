"""Type stub for the compiled ``boardplay.ai.search`` (the MCTS loop over a game's kernel)."""

from typing import Self

from typing_extensions import disjoint_base

from boardplay.ai.tree import Tree
from boardplay.core.kernel import Kernel
from boardplay.core.leaf import LeafEvaluation

MAX_NODES: int

@disjoint_base
class Search(Tree):
    """A UCT tree over one game's kernels (see the module docstring in ``search.pyx``)."""

    c: float
    cutoff: int
    finish_turn: bool
    policy: bool
    normalize: bool
    @property
    def spread(self) -> bool: ...
    def __new__(
        cls,
        prototype: Kernel,
        evaluation: LeafEvaluation | None = None,
        *,
        c: float = 1.0,
        cutoff: int = -1,
        contempt: float = 0.0,
        decisive: bool = False,
        repetition: bool = False,
        finish_turn: bool = False,
        policy: bool = False,
        normalize: bool = False,
        spread: bool = False,
        seed: int = 0,
        max_nodes: int = ...,
    ) -> Self: ...
    def reset(self, position: Kernel) -> None: ...
    def children(self, node: int) -> list[tuple[int, int, int]]: ...
