"""Arenas on Ray: a run played as Ray tasks (a local Ray, two CPUs) gives the same games as the
local process pool for the same seed, and its records resume on either."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardplay
from boardplay.ai.arena import run_arena
from boardplay.core.records import read_jsonl

ray = pytest.importorskip("ray")


def test_an_arena_on_a_local_ray_equals_the_process_pool(tmp_path: Path) -> None:
    game = boardplay.load("potlatch")
    specs = ["random", "greedy"]
    path = tmp_path / "run.jsonl"
    on_ray = run_arena(game, specs, 4, seed=7, records=path, ray="local")
    assert not ray.is_initialized()  # the local Ray was stopped again
    resumed = run_arena(game, specs, 6, seed=7, records=path, resume=True, workers=2)
    pool_path = tmp_path / "pool.jsonl"
    pool = run_arena(game, specs, 6, seed=7, records=pool_path, workers=2)
    assert [(r.index, r.seats, r.returns) for r in resumed.results] == [
        (r.index, r.seats, r.returns) for r in pool.results
    ]
    assert [r.returns for r in on_ray.results] == [r.returns for r in pool.results[:4]]

    def games_in(file: Path) -> set[tuple[int, ...]]:
        return {tuple(m.action for m in record.moves) for record in read_jsonl(file)}

    assert len(list(read_jsonl(path))) == 6
    assert games_in(path) == games_in(pool_path)

    def tallies(result: object) -> list[dict[str, object]]:  # think times vary between runs
        agents = result.to_json()["agents"]  # type: ignore[attr-defined]
        return [{k: v for k, v in a.items() if k != "thinking"} for a in agents]

    assert tallies(resumed) == tallies(pool)


def test_alphazero_games_on_a_local_ray_train_the_pools_network(tmp_path: Path) -> None:
    """``boardplay train --algo alphazero --ray``: the iteration's games as Ray tasks, each from
    its own seed, train the same network as the process pool's (issue 67, build 4)."""
    pytest.importorskip("torch", reason="the train extra is not installed")
    import numpy as np

    from boardplay.ai.alphazero import AZConfig, train_alphazero
    from boardplay.ai.az import read_arrays

    arrays = []
    for where in ({"ray": "local"}, {"workers": 2}):
        config = AZConfig(
            game="potlatch",
            games=4,
            games_per_iteration=2,
            simulations=8,
            hidden=(8,),
            updates=2,
            batch=16,
            eval_games=0,
            teacher="mcts(iterations=20)",
            teacher_iterations=1,
            **where,  # type: ignore[arg-type]
        )
        folder = tmp_path / next(iter(where))
        train_alphazero(config, folder)
        arrays.append(read_arrays(folder / "network.npz")[0])
    assert not ray.is_initialized()
    assert all(np.array_equal(arrays[0][key], arrays[1][key]) for key in arrays[0])
