"""Type stub for the compiled ``boardplay.core.batch`` (see ``batch.pyx``)."""

from typing import Any, Self

from typing_extensions import disjoint_base

from boardplay.core.kernel import Kernel

RANDOM_SEAT: int
WAITS: int

@disjoint_base
class KernelBatch:
    size: int
    learner: int
    num_players: int
    action_space: int
    observation_size: int
    compact: bool
    row_size: int
    limit: int
    def __new__(
        cls,
        start: Kernel,
        size: int,
        learner: int = -1,
        seed: int = 0,
        compact: bool = False,
        limit: int = 0,
    ) -> Self: ...
    def game(self, i: int) -> Kernel: ...
    def reset(self, seed: int, obs: Any, mask: Any, to_move: Any) -> None: ...
    def step(
        self,
        actions: Any,
        obs: Any,
        mask: Any,
        to_move: Any,
        rewards: Any,
        terminated: Any,
        illegal: Any,
        final_obs: Any,
        truncated: Any,
    ) -> int: ...
    def expand(self, compact: Any, out: Any) -> None: ...
    def sample(self, out: Any) -> None: ...
    def seat(self, i: int) -> int: ...
    def learner_seats(self, out: Any) -> None: ...
    def view_from(self, seats: Any) -> None: ...
