"""Players with several server processes on one PostgreSQL database and Redis between them: a
rated game whose players sit on different processes ends, both processes see the end (and their
sweeps look again), and the ratings change exactly once; two writers settling the same game at
the same instant on PostgreSQL produce one update between them; each process's sockets are told
who has the game open on the other."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpcalls
import httpx
import pytest
import sqlalchemy as sa
from accountcalls import RAPID
from test_web_multi import Cluster, Watcher, fresh_database, server_env

from boardplay.web.accounts.store import AccountStore
from boardplay.web.ratings.store import RatingStore
from boardplay.web.ratings.tables import history_table, ratings_table
from boardplay.web.table.storage import HUMAN, GameRow, SeatRow, Storage


@pytest.fixture(scope="module")
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    made = Cluster(server_env(fresh_database(postgres_url), redis_url), 2)
    try:
        yield made
    finally:
        made.stop()


def signed_up(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    answer = client.post("/api/account/signup", json={"name": name, "password": "multi secret"})
    assert answer.status_code == 201, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


def test_a_rated_game_across_two_processes_is_rated_exactly_once(cluster: Cluster) -> None:
    hana = signed_up(cluster.base[0], "Hana")
    kenji = signed_up(cluster.base[1], "Kenji")
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = hana.post(
        "/api/games", json={"game": "tiny", "seats": seats, "rated": True, "clock": RAPID}
    ).json()
    joined = kenji.post(f"/api/games/{made['id']}/join", json={"seat": 1}).json()
    players = {0: (hana, made["token"]), 1: (kenji, joined["token"])}
    view: dict[str, Any] = joined["game"]
    while view["status"] == "active":
        client, token = players[view["current_player"]]
        answer = client.post(
            f"/api/games/{made['id']}/actions",
            json={"action": "t1", "ply": view["ply"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    # Each process sees the end: the one that stored it at once, the other through Redis, and
    # both sweeps look for unrated games every 5 seconds.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        board = httpcalls.get(f"{cluster.base[1]}/api/ratings/tiny").json()["players"]
        if len(board) == 2:
            break
        time.sleep(0.2)
    time.sleep(6)  # past a sweep of each process
    for base in cluster.base:
        board = httpcalls.get(f"{base}/api/ratings/tiny").json()["players"]
        assert sorted(p["games"] for p in board) == [1, 1], board
        for name in ("Hana", "Kenji"):
            profile = httpcalls.get(f"{base}/api/players/{name}").json()
            assert len(profile["history"]["tiny"]) == 1


def test_two_writers_settling_one_game_at_once_update_once(postgres_url: str) -> None:
    url = fresh_database(postgres_url)
    storage = Storage(url)
    accounts = AccountStore(storage.engine)
    a = accounts.create("Ann", "ann", None, "handle-a")
    b = accounts.create("Ben", "ben", None, "handle-b")
    storage.create_game(
        GameRow(
            id="race",
            game="tiny",
            options={},
            seed=None,
            seats=[SeatRow(0, HUMAN, "Ann", account=a.id), SeatRow(1, HUMAN, "Ben", account=b.id)],
            rated=True,
        )
    )
    writers = [RatingStore(Storage(url, migrate=False).engine) for _ in range(2)]
    start = threading.Barrier(2)
    done: list[bool] = []

    def settle(store: RatingStore) -> None:
        start.wait()
        done.append(store.settle("race", "tiny", [(a.id, 1), (b.id, 2)]))

    threads = [threading.Thread(target=settle, args=(w,)) for w in writers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(done) == [False, True]
    with storage.engine.connect() as conn:
        games = conn.execute(sa.select(ratings_table.c.games)).scalars().all()
        history = conn.execute(sa.select(sa.func.count()).select_from(history_table)).scalar()
    assert sorted(games) == [1, 1] and history == 2
    storage.close()


def test_presence_adds_up_the_sockets_of_both_processes(cluster: Cluster) -> None:
    made = httpcalls.post(
        f"{cluster.base[0]}/api/games",
        json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}]},
    ).json()
    joined = httpcalls.post(
        f"{cluster.base[1]}/api/games/{made['id']}/join", json={"seat": 1}
    ).json()
    with cluster.ws(0, made["id"]) as first, cluster.ws(1, made["id"]) as second:
        for socket, token in ((first, made["token"]), (second, joined["token"])):
            socket.send(json.dumps({"type": "hello", "token": token, "id": 1, "presence": True}))
        for socket in (first, second):
            deadline = time.monotonic() + 15
            seats: list[int] = []
            while seats != [0, 1]:
                assert time.monotonic() < deadline, f"presence never added up: {seats}"
                message = json.loads(socket.recv(timeout=15))
                if message["type"] == "presence":
                    seats = message["seats"]
    # The second process's socket has gone: the first one's are told within a check or two.
    with cluster.ws(0, made["id"]) as watcher:
        watcher.send(
            json.dumps({"type": "hello", "token": made["token"], "id": 1, "presence": True})
        )
        deadline = time.monotonic() + 15
        seen: dict[str, Any] = {}
        while seen.get("seats") != [0]:
            assert time.monotonic() < deadline, seen
            message = json.loads(watcher.recv(timeout=15))
            if message["type"] == "presence":
                seen = message


def test_many_sockets_arriving_at_once_all_get_their_game_and_presence(cluster: Cluster) -> None:
    """Sockets of one game connecting together once raced to store this process's presence
    row (a duplicate key on PostgreSQL) and the losers' connections were dropped."""
    made = httpcalls.post(
        f"{cluster.base[0]}/api/games",
        json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
    ).json()
    start = threading.Barrier(24)
    seen: list[list[int]] = []

    def visit() -> None:
        start.wait()
        with cluster.ws(0, made["id"]) as socket:
            socket.send(json.dumps({"type": "hello", "token": made["token"], "presence": True}))
            while True:
                message = json.loads(socket.recv(timeout=20))
                if message["type"] == "presence" and message["seats"]:
                    seen.append(message["seats"])
                    return

    threads = [threading.Thread(target=visit) for _ in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert seen == [[0, 1]] * 24


def test_a_deadline_that_passes_is_flagged_once_and_every_socket_sees_it(cluster: Cluster) -> None:
    """A rated correspondence game with a socket on each process: two days pass (the stored
    clock is moved back two days, as the passing time would leave it, and its revision raised
    so both processes reload it), both processes' sweeps race to flag it, exactly one stores the
    flag, both sockets see the game end on time, and the ratings change once."""
    mio = signed_up(cluster.base[0], "Mio")
    taro = signed_up(cluster.base[1], "Taro")
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = mio.post(
        "/api/games", json={"game": "tiny", "seats": seats, "rated": True, "clock": {"days": 1}}
    ).json()
    gid = made["id"]
    joined = taro.post(f"/api/games/{gid}/join", json={"seat": 1}).json()
    players = {0: (mio, made["token"]), 1: (taro, joined["token"])}
    view: dict[str, Any] = joined["game"]
    movers: set[int] = set()
    while len(movers) < 2:  # both seats move: the flag is then a loss, not an abort
        client, token = players[view["current_player"]]
        movers.add(view["current_player"])
        answer = client.post(
            f"/api/games/{gid}/actions",
            json={"action": "t1", "ply": view["ply"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    late = view["current_player"]
    watchers = [Watcher(cluster.ws(i, gid)) for i in range(2)]
    for watcher in watchers:
        watcher.until(lambda v: v["ply"] == view["ply"])
    engine = sa.create_engine(cluster.env["BOARDPLAY_DATABASE_URL"])
    games = sa.table(
        "games",
        sa.column("id"),
        sa.column("revision"),
        sa.column("deadline"),
        sa.column("clock_state", sa.JSON),
    )
    with engine.begin() as conn:
        row = conn.execute(sa.select(games).where(games.c.id == gid)).one()
        clock = dict(row.clock_state, since=row.clock_state["since"] - 2 * 86_400)
        conn.execute(
            games.update()
            .where(games.c.id == gid)
            .values(
                clock_state=clock, deadline=row.deadline - 2 * 86_400, revision=row.revision + 1
            )
        )
    shifted = row.revision + 1
    for watcher in watchers:
        ended = watcher.until(lambda v: v["status"] == "finished", timeout=20)
        assert ended["result"]["ended"] == "time" and ended["result"]["winners"] == [1 - late]
    time.sleep(3)  # past another sweep of each process: nothing more is stored
    with engine.connect() as conn:
        final = conn.execute(sa.select(games.c.revision).where(games.c.id == gid)).scalar_one()
    assert final == shifted + 1, "the flag was stored more than once"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        history = httpcalls.get(f"{cluster.base[0]}/api/players/Mio").json()["history"]
        if history.get("tiny"):
            break
        time.sleep(0.2)
    for name in ("Mio", "Taro"):
        assert (
            len(httpcalls.get(f"{cluster.base[1]}/api/players/{name}").json()["history"]["tiny"])
            == 1
        )
    engine.dispose()
