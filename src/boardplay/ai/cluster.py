"""Arena and balance-study games as Ray tasks, for runs that outgrow one machine.

Each game of a run is one task: the same ``GameTask`` (index, seats, seed) the local process
pool plays, given to the same ``play_game``, so a run gives the same results on a cluster as on
the pool, and its records and ``--resume`` work the same (results come back to the driver,
which appends each to the records file as it arrives). ``ADDRESS`` is an existing cluster's
(``ray://host:10001`` or ``host:6379``, as ``ray.init`` takes it); ``local`` starts a small Ray
on this machine for tests (two CPUs, no dashboard, loopback only) and stops it afterwards."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardplay.ai.tasks import GameResult, GameTask
    from boardplay.core.game import Game

LOCAL = "local"
RETRIES = 3
"""Times Ray reruns a game whose worker died (a game is deterministic: a rerun is the same)."""


@contextlib.contextmanager
def connected(address: str) -> Iterator[Any]:
    """``ray`` connected to ``address`` (or a local Ray started here and stopped on exit)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'boardplay[ray]'") from None
    if ray.is_initialized():
        yield ray
        return
    if address == LOCAL:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            _node_ip_address="127.0.0.1",
            log_to_driver=False,
            configure_logging=False,
        )
    else:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()


Player = Callable[["Game", tuple[str, ...], "GameTask", bool], "GameResult"]
"""How one game is played: the arena's ``play_game``, passed in so this module never imports
the arena (which imports it)."""


def run_on_ray(
    address: str,
    play_game: Player,
    game: Game,
    specs: Sequence[str],
    tasks: Sequence[GameTask],
    keep_records: bool,
    progress: Callable[[GameResult], None] | None,
) -> list[GameResult]:
    """Play ``tasks`` as Ray tasks; ``progress`` sees each result as it arrives. Returns the
    results in task order."""
    frozen = tuple(specs)
    results: list[GameResult] = []
    with connected(address) as ray:
        play = ray.remote(num_cpus=1, max_retries=RETRIES)(play_game)
        shared = ray.put(game)
        pending = [play.remote(shared, frozen, task, keep_records) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result: GameResult = ray.get(ref)
                results.append(result)
                if progress is not None:
                    progress(result)
    results.sort(key=lambda r: r.index)
    return results
