"""Type stub for the compiled ``boardplay.ai.puct`` (PUCT search guided by a network)."""

from typing import Self

import numpy as np
from numpy.typing import ArrayLike
from typing_extensions import disjoint_base

from boardplay.ai.nets import Network
from boardplay.ai.tree import Tree
from boardplay.core.kernel import Kernel
from boardplay.core.leaf import LeafEvaluation

MAX_NODES: int

@disjoint_base
class Puct(Tree):
    """A PUCT tree over one game's kernels (see the module docstring in ``puct.pyx``)."""

    c: float
    fpu: float
    mix: float
    finish_turn: bool
    uniform: bool
    def __new__(
        cls,
        prototype: Kernel,
        network: Network,
        *,
        c: float = 1.5,
        fpu: float = 0.0,
        decisive: bool = True,
        repetition: bool = False,
        contempt: float = 0.0,
        evaluation: LeafEvaluation | None = None,
        mix: float = 0.0,
        finish_turn: bool = False,
        uniform: bool = False,
        seed: int = 0,
        max_nodes: int = ...,
    ) -> Self: ...
    def reset(self, position: Kernel) -> None: ...
    def expand_root(self) -> None: ...
    def noise(self, weights: ArrayLike, epsilon: float) -> None: ...
    def node_prior(self, node: int) -> float: ...
    def children(self, node: int) -> list[tuple[int, int, int]]: ...
    def visits_into(self, out: np.ndarray) -> int: ...
