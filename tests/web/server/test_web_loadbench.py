"""``make bench-web``'s load generator and its floor server (``tools/loadbench.py``,
``tools/floorserver.py``), run small: every move of the real server and of the floor must come
back to its player and reach the spectator on the other process, with no error, so a bench row
and the floor it is read against measure the same work."""

from __future__ import annotations

import argparse

import loadbench
import pytest


def _args(**changes: object) -> argparse.Namespace:
    base = {
        "games": 4,
        "seconds": 2.0,
        "game": "potlatch",
        "processes": [1, 2],
        "pace": 0.0,
        "py_spy": None,
        "accounts": False,
        "words": False,
        "floor": True,
    }
    return argparse.Namespace(**{**base, **changes})


@pytest.mark.parametrize("processes", [1, 2])
def test_the_floor_stores_and_relays_every_move(
    postgres_url: str, redis_url: str, processes: int
) -> None:
    row = loadbench.run_setup(postgres_url, redis_url, processes, _args(), floor=True)
    assert row["server"] == "floor"
    assert row["errors"] == 0, row["first_errors"]
    assert row["moves"] > 20
    assert row["server_cpu_ms_per_move"] > 0
    # A floor game ends after as many moves as the bench's Potlatch games, so new games are
    # created in the window as they are on the real server.
    assert row["games_played"] > 4


def test_a_row_is_read_against_the_floor_run_after_it(postgres_url: str, redis_url: str) -> None:
    args = _args(accounts=True)
    rows = [
        loadbench.run_setup(postgres_url, redis_url, 2, args),
        loadbench.run_setup(postgres_url, redis_url, 2, args, floor=True),
    ]
    loadbench._against_floor(rows)
    server, floor = rows
    assert server["server"] == "boardplay" and server["accounts"]
    assert not floor["accounts"]  # the floor has no accounts: its tables are never signed in
    assert server["errors"] == floor["errors"] == 0
    expected = server["server_cpu_ms_per_move"] / floor["server_cpu_ms_per_move"]
    assert server["times_floor"] == pytest.approx(expected, abs=0.01)
