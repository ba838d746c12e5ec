"""Type stub for the compiled ``boardplay.games.potlatch.kernel`` (see ``kernel.pyx``)."""

from typing import Literal, final

from boardplay.core.kernel import Kernel

Hex = tuple[int, int]
Entry = tuple[int, int, int]
SnapshotData = tuple[list[Entry], tuple[Hex, Hex] | None]

@final
class PotlatchKernel(Kernel):
    def __init__(
        self,
        num_players: int,
        n_actions: int = 2,
        blank_free: bool = False,
        full: bool = False,
        filter_dead_ends: bool = False,
        turn_limit: int = 1000,
        centre: int = 0,
    ) -> None: ...
    def setup(
        self,
        tiles: list[Entry],
        stock: int,
        pawns: list[Hex],
        to_move: int,
        turns_played: int,
        snapshots: list[SnapshotData | None],
        done: int = 0,
        visited: list[Hex] | None = None,
        run_open: bool = False,
    ) -> None: ...
    def clone(self) -> PotlatchKernel: ...
    def tiles(self) -> list[Entry]: ...
    def pawns(self) -> list[Hex]: ...
    def visited(self) -> list[Hex]: ...
    def snapshot(self, which: int) -> SnapshotData | Literal["never"] | None: ...
    def result(self) -> tuple[int | None, int] | None: ...
    def own_stacks(self, seat: int) -> int: ...
