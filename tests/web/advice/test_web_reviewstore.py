"""The ``reviews`` table: one process computes a review at a time, a process that stops beating
loses it to the next one, and a failed review can be asked for again — on SQLite and on a real
PostgreSQL (when its binaries are installed, ``make services``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardplay.web.advice.store import DONE, FAILED, RUNNING, ReviewStore
from boardplay.web.table import storage as st
from boardplay.web.tokens import new_game_id


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


def store_with_a_game(url: str) -> tuple[ReviewStore, str]:
    storage = st.Storage(url)
    seats = [st.SeatRow(0, st.AI, "A")]
    row = st.GameRow(id=new_game_id(), game="tiny", options={}, seed=None, seats=seats)
    storage.create_game(row)
    return ReviewStore(storage.engine), row.id


def test_one_owner_at_a_time_and_takeover_after_silence(database_url: str) -> None:
    store, game = store_with_a_game(database_url)
    assert store.get(game, 0, 100) is None
    assert store.claim(game, 0, 100, "A", 12, stale=60)
    assert not store.claim(game, 0, 100, "B", 12, stale=60)  # A is alive
    assert store.claim(game, 1, 100, "B", 12, stale=60)  # another seat is another review
    assert store.beat(game, 0, 100, "A", 5)
    row = store.get(game, 0, 100)
    assert row is not None and (row.status, row.done, row.total) == (RUNNING, 5, 12)
    # A falls silent: with a zero grace period B takes the review over, and A learns it.
    assert store.claim(game, 0, 100, "B", 12, stale=-1)
    assert not store.beat(game, 0, 100, "A", 6)
    store.finish(game, 0, 100, "B", {"summary": {"judged": 4}})
    row = store.get(game, 0, 100)
    assert row is not None and row.status == DONE and row.result == {"summary": {"judged": 4}}
    assert not store.claim(game, 0, 100, "C", 12, stale=-1)  # a stored review is never redone


def test_a_failed_review_can_be_started_again(database_url: str) -> None:
    store, game = store_with_a_game(database_url)
    assert store.claim(game, 0, 50, "A", 3, stale=60)
    store.fail(game, 0, 50, "A", "x" * 1000)
    row = store.get(game, 0, 50)
    assert row is not None and row.status == FAILED and row.error == "x" * 400
    assert store.claim(game, 0, 50, "B", 3, stale=60)
    row = store.get(game, 0, 50)
    assert row is not None and row.status == RUNNING and row.error is None and row.done == 0
