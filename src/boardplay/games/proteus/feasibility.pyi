"""Type stub for the compiled ``boardplay.games.proteus.feasibility`` (see its ``.pyx``)."""

from collections.abc import Sequence

def feasible(counts: Sequence[int], open_tiles: int, missing: int) -> bool: ...
