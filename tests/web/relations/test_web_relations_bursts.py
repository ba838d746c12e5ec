"""The follow and block ceilings under a burst: follows (or blocks) of many players sent by one
account at the same moment, to one server process on SQLite and to two sharing PostgreSQL, pass
the ceiling by none (``Limits.follows_per_account``, ``blocks_per_account``, lowered here to
five so a burst of twenty shows it); and one follow sent twenty times at once is one follow.
Real ``boardplay serve`` processes, as ``test_web_bursts.py`` starts them."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import devservices as ds
import httpcalls
import pytest
from test_web_bursts import Call, at_once, codes, env_of, signed_up, visitor

MOST = 5
BURST = 20
CEILINGS = {
    "BOARDPLAY_WEB_FOLLOWS_PER_ACCOUNT": str(MOST),
    "BOARDPLAY_WEB_BLOCKS_PER_ACCOUNT": str(MOST),
}


_names = itertools.count()


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """One process on SQLite."""
    database = f"sqlite:///{tmp_path_factory.mktemp('relations') / 'r.sqlite3'}"
    port = ds.free_port()
    process = ds.start_server(port, env_of(database, **CEILINGS))
    try:
        yield [f"http://127.0.0.1:{port}"]
    finally:
        ds.stop_server(process)


@pytest.fixture(scope="module")
def pair(postgres_url: str) -> Iterator[list[str]]:
    """Two processes on one PostgreSQL database."""
    database = ds.new_database(postgres_url, f"relations_{int(time.time()) % 10**6}")
    ports = [ds.free_port() for _ in range(2)]
    processes = [ds.start_server(port, env_of(database, **CEILINGS)) for port in ports]
    try:
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in processes:
            ds.stop_server(process)


@pytest.fixture(params=["single", "pair"])
def bases(request: pytest.FixtureRequest) -> list[str]:
    found: list[str] = request.getfixturevalue(request.param)
    return found


def players(base: str, count: int) -> list[str]:
    """``count`` new accounts' names (each signed up from an address of its own)."""
    names = [f"P{next(_names)}x{int(time.time()) % 10**5}" for _ in range(count)]
    for name in names:
        signed_up(base, name, visitor())
    return names


@pytest.mark.parametrize("what", ["follow", "block"])
def test_a_burst_of_follows_or_blocks_passes_the_ceiling_by_none(
    bases: list[str], what: str
) -> None:
    me = signed_up(bases[0], f"Fan{next(_names)}x{int(time.time()) % 10**5}", visitor())
    targets = players(bases[0], BURST)
    calls: list[Call] = [
        ("POST", f"{bases[i % len(bases)]}/api/relations/{what}/{name}", {}, me)
        for i, name in enumerate(targets)
    ]
    answers = at_once(calls)
    found = codes(answers)
    assert found == {200: MOST, 409: BURST - MOST}, found
    refused = {a.json()["error"]["code"] for a in answers if a.status_code == 409}
    assert refused == {f"too_many_{what}s"}
    listed = httpcalls.get(
        f"{bases[-1]}/api/relations/{'following' if what == 'follow' else 'blocked'}", headers=me
    ).json()
    assert len(listed["following" if what == "follow" else "blocked"]) == MOST


def test_one_follow_sent_at_once_many_times_is_one_follow(bases: list[str]) -> None:
    me = signed_up(bases[0], f"Twin{next(_names)}x{int(time.time()) % 10**5}", visitor())
    (target,) = players(bases[0], 1)
    calls: list[Call] = [
        ("POST", f"{bases[i % len(bases)]}/api/relations/follow/{target}", {}, me)
        for i in range(BURST)
    ]
    assert codes(at_once(calls)) == {200: BURST}
    listed = httpcalls.get(f"{bases[0]}/api/relations/following", headers=me).json()
    assert [f["name"] for f in listed["following"]] == [target]
