"""Type stub for the compiled ``boardplay.ai.nets`` (a small policy/value network in C)."""

from collections.abc import Sequence
from typing import Self

import numpy as np
from numpy.typing import ArrayLike
from typing_extensions import disjoint_base

from boardplay.core.kernel import Kernel

COMPACT_SCALE: float
"""What one unit of a compact byte is worth as the network's input."""

@disjoint_base
class Network:
    """An MLP whose forward pass runs in C (see the module docstring in ``nets.pyx``)."""

    @property
    def inputs(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def seats(self) -> int: ...
    @property
    def compact(self) -> bool: ...
    @property
    def hidden(self) -> tuple[int, ...]: ...
    def __new__(
        cls,
        trunk: Sequence[tuple[ArrayLike, ArrayLike]],
        policy: tuple[ArrayLike, ArrayLike],
        value: tuple[ArrayLike, ArrayLike],
        compact: bool = False,
    ) -> Self: ...
    def __call__(self, x: ArrayLike) -> tuple[np.ndarray, np.ndarray]: ...
    def position(self, k: Kernel, player: int) -> tuple[np.ndarray, np.ndarray]: ...
    def legal(self, k: Kernel, player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def pass_seconds(self, k: Kernel, player: int, repeats: int, logits: bool = True) -> float: ...
