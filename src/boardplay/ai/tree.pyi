"""Type stub for the compiled ``boardplay.ai.tree`` (what both compiled searches share)."""

from typing_extensions import disjoint_base

from boardplay.core.kernel import Kernel

@disjoint_base
class Tree:
    """The base of ``Search`` and ``Puct`` (see the module docstring in ``tree.pyx``)."""

    contempt: float
    decisive: bool
    repetition: bool
    seat: int
    def set_position(self, position: Kernel) -> None: ...
    def set_history(self, keys: object) -> None: ...
    def seed(self, seed: int) -> None: ...
