"""Type stub for the compiled ``boardplay.games.montana.kernel`` (C side: kernel.pxd)."""

from typing import final

from boardplay.core.kernel import Kernel
from boardplay.games.montana.tables import Tables

@final
class MontanaKernel(Kernel):
    """One Montana position over C fields; see kernel.pyx."""

    def __init__(self, num_players: int, tables: Tables) -> None: ...

def compact_tables() -> tuple[list[int], list[float], int, int]: ...

TURN_ENTRY: int
TAIL_ENTRY: int
HEX_BYTES: int
SLOT_ENTRY: int
TAIL_AT: int
