"""Type stub for the compiled ``boardplay.games.montana.tables`` (C side: tables.pxd)."""

from collections.abc import Mapping
from typing import Any

from typing_extensions import disjoint_base

from boardplay.games.montana.data import Components

@disjoint_base
class Tables:
    """One game's component values and options as C ints, shared by its kernels."""

    @property
    def n(self) -> int: ...
    @property
    def data(self) -> Components: ...
    @property
    def area_slots(self) -> tuple[int, ...]: ...
    def __init__(self, data: Components, players: int, options: Mapping[str, Any]) -> None: ...
