"""Type stub for the compiled ``boardplay.games.passtally.kernel`` (see ``kernel.pyx``; its
cold Python face is ``fields.pyx``)."""

from typing import final

from boardplay.core.kernel import Kernel

@final
class PasstallyKernel(Kernel):
    """One Passtally position under fixed options, as typed C fields."""

    def __init__(
        self,
        num_players: int,
        jump_step: bool = False,
        continuous: bool = True,
        finish_turn: bool = True,
        max_turns: int = -1,
    ) -> None: ...

def compact_tables() -> tuple[list[int], list[float], int]: ...
