"""The same storage on PostgreSQL (``BOARDPLAY_DATABASE_URL``): a throwaway cluster on loopback
(``devservices``), used when the PostgreSQL server binaries are installed (``make services``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardplay.web.app import create_app
from boardplay.web.config import Settings


def app_on(url: str) -> TestClient:
    return TestClient(
        create_app(Settings(database_url=url, catalogue="webtiny:CATALOGUE", ai_workers=0))
    )


def test_games_live_and_survive_a_restart_on_postgresql(postgres_url: str) -> None:
    auth: dict[str, str]
    with app_on(postgres_url) as client:
        created = client.post(
            "/api/games", json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}]}
        ).json()
        gid = created["id"]
        auth = {"Authorization": f"Bearer {created['token']}"}
        assert gid in [
            g["id"] for g in client.get("/api/games", params={"open": 1}).json()["games"]
        ]
        joined = client.post(f"/api/games/{gid}/join", json={"name": "Bo"}).json()
        guest = {"Authorization": f"Bearer {joined['token']}"}
        assert (
            client.post(
                f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth
            ).status_code
            == 200
        )
        assert client.post(f"/api/games/{gid}/undo", headers=auth).status_code == 200
        for move in ("t2", "t1"):
            assert (
                client.post(
                    f"/api/games/{gid}/actions", json={"action": move}, headers=auth
                ).status_code
                == 200
            )
        refused = client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth)
        assert refused.status_code == 409
        assert (
            client.post(
                f"/api/games/{gid}/actions", json={"action": "t9"}, headers=guest
            ).status_code
            == 422
        )
        before: dict[str, Any] = client.get(f"/api/games/{gid}", headers=guest).json()
    with app_on(postgres_url) as client:
        after = client.get(f"/api/games/{gid}", headers=guest).json()
        assert after["moves"] == before["moves"] and after["position"] == before["position"]
        assert after["your_turn"] and after["seats"][1]["name"] == "Bo"
        assert (
            client.post(
                f"/api/games/{gid}/actions", json={"action": "t1"}, headers=guest
            ).status_code
            == 200
        )


def test_a_long_valid_ai_spec_is_stored_on_postgresql(postgres_url: str) -> None:
    """The default seat name of an AI seat ("AI (spec)") once overflowed PostgreSQL's 64-character
    name column and gave a 500; a spec too long for its column is refused with a 400."""
    spec = "mcts(iterations=50,c=0.7000000000000000000000000000000000000000000000001)"
    with app_on(postgres_url) as client:
        seats = [{"kind": "me"}, {"kind": "ai", "spec": spec}]
        created = client.post("/api/games", json={"game": "tiny", "seats": seats})
        assert created.status_code == 201, created.text
        name = created.json()["game"]["seats"][1]["name"]
        assert len(name) <= 64 and name.startswith("AI (mcts")
        too_long = [{"kind": "me"}, {"kind": "ai", "spec": "mcts(" + "c=0.5," * 40 + "c=1)"}]
        refused = client.post("/api/games", json={"game": "tiny", "seats": too_long})
        assert refused.status_code == 400 and "spec" in refused.json()["error"]["message"]


class OneStatement:
    """The store with its moves written and its periodic checks made as the server makes them on
    PostgreSQL: one statement each from an event loop (``pgwrite.MovesWriter``,
    ``pgchecks.LoopChecks``); every other call goes to the store."""

    def __init__(self, store: Any) -> None:
        from boardplay.web.table.pgwrite import LoopConnections, MovesWriter

        self.store = store
        self.loop = asyncio.Runner()
        self.connections = LoopConnections(store.engine.url, 4)
        self.writer = MovesWriter(self.connections)

    def append_moves(self, *args: Any, **kwargs: Any) -> int:
        from boardplay.web.table.rows import MoveWrite

        return self.loop.run(self.writer.write(MoveWrite(*args, **kwargs)))

    def set_clock(self, game_id: str, revision: int, clock: Any) -> int:
        from boardplay.web.table.rows import clock_values

        return self.loop.run(self.writer.set(game_id, revision, clock_values(clock)))

    def checks(self, process: str) -> Any:
        from boardplay.web.table.pgchecks import LoopChecks
        from boardplay.web.table.presence import PresenceStore

        return LoopChecks(self.connections, PresenceStore(self.store.engine, process))

    def newer(self, known: dict[str, int]) -> dict[str, int]:
        newer: dict[str, int] = self.loop.run(self.checks("newer").check(known, {}))[0]
        return newer

    def due(self, free: int, now: float) -> tuple[list[str], list[str]]:
        due: tuple[list[str], list[str]] = self.loop.run(self.checks("due").due(free, now))
        return due

    def presence(self, process: str) -> Any:
        """A process's presence as its checks store and read it."""
        checks, run = self.checks(process), self.loop.run

        class Presence:
            def sync(self, reports: Any, game_ids: list[str]) -> Any:
                return run(checks.check({game_id: 0 for game_id in game_ids}, reports))[1]

            def forget(self) -> None:
                checks.presence.forget()

        return Presence()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def close(self) -> None:
        self.loop.run(self.connections.close())
        self.loop.close()
        self.store.close()


@pytest.fixture(params=["sqlite", "postgresql", "postgresql, one statement"])
def storage(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Any]:
    """A fresh store on each back end: SQLite and PostgreSQL write a move in a transaction
    (``Storage.append_moves``), the server on PostgreSQL in one statement (``pgwrite.py``); all
    must keep the same contract."""
    from boardplay.web.table import storage as st

    url = (
        f"sqlite:///{tmp_path / 'moves.sqlite3'}"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    store = st.Storage(url)
    if request.param.endswith("one statement"):
        store = OneStatement(store)
    yield store
    store.close()


def test_a_moves_write_is_all_or_nothing_on_both_back_ends(storage: Any) -> None:
    from boardplay.core.records import Move
    from boardplay.web.table import storage as st
    from boardplay.web.table.clocks import Clock
    from boardplay.web.tokens import new_game_id

    game_id = new_game_id()
    seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    storage.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
    first = storage.append_moves(game_id, 0, [Move(1, "roll1", -1)], st.ACTIVE, None, revision=0)
    assert first == 1
    # Two moves at once, a result, a clock and an AI error, based on the right revision.
    clock = Clock([59.5, 60.0], seat=1, since=100.0)
    second = storage.append_moves(
        game_id,
        1,
        [Move(3, "take3", 0), Move(4, "take4", 1)],
        st.FINISHED,
        {"winners": [1]},
        revision=first,
        ai_seat=None,
        ai_error="x" * 500,
        clock=clock,
    )
    assert second == 2
    row = storage.get_game(game_id)
    assert [(m.action, m.notation, m.player) for m in row.moves] == [
        (1, "roll1", -1),
        (3, "take3", 0),
        (4, "take4", 1),
    ]
    assert (row.status, row.result, row.revision, row.ai_seat) == (
        st.FINISHED,
        {"winners": [1]},
        2,
        None,
    )
    assert row.ai_error == "x" * st.AI_ERROR_LENGTH
    assert row.clock_state == clock.to_json() and row.deadline == clock.deadline
    # A write based on an old revision, or onto a ply already taken, changes nothing.
    with pytest.raises(st.StaleWrite):
        storage.append_moves(game_id, 3, [Move(5, "x", 0)], st.ACTIVE, None, revision=first)
    with pytest.raises(st.StaleWrite):
        storage.append_moves(game_id, 2, [Move(5, "x", 0)], st.ACTIVE, None)
    after = storage.get_game(game_id)
    assert (after.revision, len(after.moves), after.status) == (2, 3, st.FINISHED)
    # No revision given: the write goes on from whatever the game is at; a None result is NULL.
    assert storage.append_moves(game_id, 3, [], st.ACTIVE, None) == 3
    assert storage.get_game(game_id).result is None


def test_a_moves_write_survives_its_connections_being_cut(postgres_url: str) -> None:
    """The moves' pool has no pre-ping: a write on a connection PostgreSQL cut meanwhile is
    tried once more on a fresh one, and stores the move exactly once."""
    import sqlalchemy as sa

    from boardplay.core.records import Move
    from boardplay.web.table import storage as st
    from boardplay.web.tokens import new_game_id

    store = OneStatement(st.Storage(postgres_url))
    try:
        game_id = new_game_id()
        seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
        store.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
        assert store.append_moves(game_id, 0, [Move(1, "roll1", -1)], st.ACTIVE, None) == 1
        with sa.create_engine(postgres_url, poolclass=sa.pool.NullPool).connect() as admin:
            cut = admin.execute(
                sa.text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar()
        assert cut and cut >= 1
        assert store.append_moves(game_id, 1, [Move(3, "take3", 0)], st.ACTIVE, None) == 2
    finally:
        store.close()
    again = st.Storage(postgres_url)  # a pool of its own: the store's readers were cut too
    try:
        assert [m.action for m in again.get_game(game_id).moves] == [1, 3]
    finally:
        again.close()


def test_the_loop_keeps_idle_connections_at_hand(postgres_url: str) -> None:
    """Statements one after another reuse a connection kept out of the pool (a checkout and
    return through psycopg_pool cost a move 250 µs of CPU): one checkout for many statements,
    also after a refused one, and the connection goes back to the pool when it is closed."""
    import psycopg
    import sqlalchemy as sa

    from boardplay.web.table.pgwrite import LoopConnections

    async def run() -> None:
        loop = LoopConnections(sa.make_url(postgres_url), 4)
        try:
            for n in range(5):
                assert await loop.row("SELECT %(n)s::int", {"n": n}) == (n,)
            with pytest.raises(psycopg.errors.DivisionByZero):
                await loop.row("SELECT 1 / %(n)s::int", {"n": 0})
            assert await loop.row("SELECT 6", {}) == (6,)
            assert loop.pool.get_stats()["requests_num"] == 1
            # Two statements at once: the second is checked out, and both come back to hand.
            both = await asyncio.gather(loop.row("SELECT 7", {}), loop.row("SELECT 8", {}))
            assert both == [(7,), (8,)] and loop.pool.get_stats()["requests_num"] == 2
            assert await loop.row("SELECT 9", {}) == (9,)
            assert loop.pool.get_stats()["requests_num"] == 2
        finally:
            await loop.close()
        assert loop.pool.closed

    asyncio.run(run())


def test_a_clock_set_by_itself_raises_the_revision_on_every_back_end(storage: Any) -> None:
    """A clock that starts is stored with no plies (``House.set_clock``: on PostgreSQL a move's
    one statement with none), its deadline with it, from the revision given only."""
    from boardplay.web.table import storage as st
    from boardplay.web.table.clocks import Clock
    from boardplay.web.tokens import new_game_id

    game_id = new_game_id()
    seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    storage.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
    running = Clock([60.0, 60.0], 0, 1000.0)
    assert storage.set_clock(game_id, 0, running) == 1
    row = storage.get_game(game_id)
    assert (row.revision, row.clock_state, row.deadline) == (1, running.to_json(), 1060.0)
    assert row.moves == [] and row.status == st.ACTIVE
    with pytest.raises(st.StaleWrite):
        storage.set_clock(game_id, 0, Clock([1.0, 1.0], 1, 5.0))
    assert storage.set_clock(game_id, 1, None) == 2  # no clock: the revision alone
    assert storage.get_game(game_id).clock_state == running.to_json()


def test_the_reads_of_one_statement_read_alike_from_a_thread_and_from_the_loop(
    storage: Any,
) -> None:
    """Each ``database.OneStatement`` of a game's life (a copy's revision check, the games still
    played, the players' ratings, accounts and relations; a lobby notice, a player online): on a
    storage thread, or (the server on PostgreSQL) sent from the event loop, with lists bound as
    an expanding ``IN`` or as one array, JSON values written as SQLAlchemy writes them, an
    upsert in each database's words, the rows read by position and by name."""
    import datetime

    import sqlalchemy as sa

    from boardplay.web.accounts.store import accounts_table, by_ids
    from boardplay.web.database import StorageThreads
    from boardplay.web.lobby.eventstore import lobby_events_table, notify
    from boardplay.web.lobby.onlinestore import came_online, online_table
    from boardplay.web.ratings.lookups import ratings_of
    from boardplay.web.ratings.tables import ratings_table
    from boardplay.web.relations.store import BLOCK, FOLLOW, blocks, followers, relations_table
    from boardplay.web.table import storage as st
    from boardplay.web.table.seatkeys import still_playing
    from boardplay.web.table.watchstore import current_revision
    from boardplay.web.tokens import new_game_id

    seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    playing, ended = new_game_id(), new_game_id()
    for game_id in (playing, ended):
        storage.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
    storage.set_clock(playing, 0, None)
    storage.finish(ended, 0, {"scores": [1, 0]}, [1])
    now = datetime.datetime.now(datetime.UTC)
    with storage.engine.begin() as conn:
        ids = [
            conn.execute(
                accounts_table.insert().values(
                    name=name,
                    name_key=f"{name}-{playing}",
                    user_handle=f"{name}-{playing}",
                    created=now,
                )
            ).inserted_primary_key[0]
            for name in ("ann", "bo", "cy")
        ]
        conn.execute(
            relations_table.insert(),
            [
                {"owner": ids[0], "other": ids[1], "kind": FOLLOW, "created": 1.0},
                {"owner": ids[2], "other": ids[0], "kind": BLOCK, "created": 2.0},
                {"owner": ids[1], "other": ids[2], "kind": FOLLOW, "created": 3.0},
            ],
        )
        conn.execute(
            accounts_table.update().where(accounts_table.c.id == ids[2]).values(deleted=True)
        )
        conn.execute(
            ratings_table.insert(),
            [
                {
                    "account_id": ids[0],
                    "pool": pool,
                    "rating": rating,
                    "deviation": 50.0,
                    "volatility": 0.06,
                    "games": 3,
                    "updated": 0.0,
                }
                for pool, rating in (("tiny", 1612.5), ("tiny:blitz", 1400.0))
            ],
        )
    db = StorageThreads(storage.engine)
    if isinstance(storage, OneStatement):
        db.loop = storage.connections.rows
        run = storage.loop.run
    else:
        run = asyncio.run
    assert run(current_revision(db, playing)) == 1
    assert run(current_revision(db, "nosuchgame")) is None
    assert run(still_playing(db, [playing, ended, "nosuchgame"])) == {playing}
    assert run(still_playing(db, [])) == set()
    assert run(ratings_of(db, [ids[1], ids[0], ids[0]])) == {
        (ids[0], "tiny"): 1612.5,
        (ids[0], "tiny:blitz"): 1400.0,
    }
    assert run(blocks(db, [ids[0]])) == [(ids[2], ids[0])]
    assert run(blocks(db, [ids[1]])) == [] and run(blocks(db, [])) == []
    assert run(followers(db, [ids[1], ids[2]])) in (
        [(ids[0], ids[1]), (ids[1], ids[2])],
        [(ids[1], ids[2]), (ids[0], ids[1])],
    )
    found = run(by_ids(db, [ids[1], ids[0], ids[2], ids[0]]))
    assert sorted(found) == ids[:2] and found[ids[1]].name == "bo"
    assert found[ids[0]].created == pytest.approx(now.timestamp(), abs=1e-3)
    started = {"type": "started", "game": playing, "players": ["ann", "bo"], "rated": None}
    run(notify(db, f"p-{playing}", [(ids[0], started), (ids[1], {"type": "x"})], 5.0))
    for at in (7.0, 8.0):  # the second time, the row is there already
        run(came_online(db, ids[0], f"p-{playing}", at))
    with storage.engine.connect() as conn:
        events = conn.execute(
            sa.select(lobby_events_table.c.account_id, lobby_events_table.c.message)
            .where(lobby_events_table.c.origin == f"p-{playing}")
            .order_by(lobby_events_table.c.id)
        ).all()
        online = conn.execute(
            sa.select(online_table.c.at).where(online_table.c.process == f"p-{playing}")
        ).all()
    assert [tuple(e) for e in events] == [(ids[0], started), (ids[1], {"type": "x"})]
    assert [row.at for row in online] == [8.0]
    with storage.engine.begin() as conn:
        conn.execute(online_table.delete().where(online_table.c.process == f"p-{playing}"))
        conn.execute(lobby_events_table.delete().where(lobby_events_table.c.account_id.in_(ids)))
        conn.execute(relations_table.delete().where(relations_table.c.owner.in_(ids)))
        conn.execute(ratings_table.delete().where(ratings_table.c.account_id.in_(ids)))
        conn.execute(accounts_table.delete().where(accounts_table.c.id.in_(ids)))
    db.close()


def test_a_write_of_several_plies_stores_them_in_order(storage: Any) -> None:
    """An action and the chance outcomes after it are one write: every ply is stored in order
    with its notation (any text) and player, and a write based on an old revision stores
    nothing."""
    from boardplay.core.records import Move
    from boardplay.web.table import storage as st
    from boardplay.web.tokens import new_game_id

    game_id = new_game_id()
    seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    storage.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
    plies = [Move(3, "take3", 0), Move(2, 'roll2 "é"', -1), Move(1, "take1", 1)]
    assert storage.append_moves(game_id, 0, plies, st.ACTIVE, None, revision=0) == 1
    with pytest.raises(st.StaleWrite):
        storage.append_moves(game_id, 3, [Move(1, "take1", 0)], st.ACTIVE, None, revision=0)
    assert storage.get_game(game_id).moves == plies
    result = {"text": "A wins", "winners": [0]}
    assert storage.append_moves(game_id, 3, [], st.FINISHED, result, revision=1) == 2
    row = storage.get_game(game_id)
    assert (row.status, row.result, row.moves) == (st.FINISHED, result, plies)


def test_the_periodic_checks_read_alike_on_both_back_ends(storage: Any) -> None:
    """What the periodic checks ask of storage: the watched games past a revision (only those,
    and never a game that does not exist), the sweep's two looks in one call, and presence
    written for many games at once (inserted, updated in place, removed) and read back by
    another process."""
    import time

    from boardplay.core.records import Move
    from boardplay.web.table import storage as st
    from boardplay.web.table.presence import Here, PresenceStore
    from boardplay.web.tokens import new_game_id

    ids = [new_game_id() for _ in range(4)]
    seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    for game_id in ids:
        storage.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
    storage.append_moves(ids[1], 0, [Move(1, "take1", 0)], st.ACTIVE, None)
    storage.append_moves(ids[1], 1, [Move(1, "take1", 1)], st.ACTIVE, None)
    revisions = storage.revisions(ids)
    known = {**revisions, ids[1]: revisions[ids[1]] - 1, "no-such-game": 0}
    assert storage.newer(known) == {ids[1]: revisions[ids[1]]}
    assert storage.newer(revisions) == {} and storage.newer({}) == {}
    now = time.time()  # the database is shared with other tests: the sweep's looks agree
    assert storage.due(0, now) == ([], storage.due_clocks(now))
    assert storage.due(5, now) == (storage.due_ai_jobs(5), storage.due_clocks(now))

    def presence(process: str) -> Any:
        if isinstance(storage, OneStatement):
            return storage.presence(process)
        return PresenceStore(storage.engine, process)

    mine, theirs = presence("p1"), presence("p2")
    first = {ids[0]: Here(frozenset({0}), 0), ids[1]: Here(frozenset(), 2), ids[2]: Here()}
    assert mine.sync(first, ids) == {}
    assert theirs.sync({}, ids) == {ids[0]: Here(frozenset({0}), 0), ids[1]: Here(frozenset(), 2)}
    # The same games again: one updated, one gone, one new; the rest untouched.
    second = {ids[0]: Here(frozenset({0, 1}), 1), ids[1]: Here(), ids[3]: Here(frozenset(), 5)}
    mine.sync(second, ids)
    assert theirs.sync({}, ids) == {
        ids[0]: Here(frozenset({0, 1}), 1),
        ids[3]: Here(frozenset(), 5),
    }
    mine.forget()
    assert theirs.sync({}, ids) == {}


def test_a_text_that_holds_the_array_separator_is_refused() -> None:
    from boardplay.web.database import SEPARATOR, text_array

    text_array(["a", "b"])
    with pytest.raises(ValueError, match="separator"):
        text_array(["a", f"b{SEPARATOR}c"])


@pytest.mark.parametrize("one_statement", [True, False], ids=["one statement", "transaction"])
def test_a_ceiling_taken_one_at_a_time_counts_exactly_and_refusals_count_nothing(
    postgres_url: str, one_statement: bool
) -> None:
    """``Throttles.take_one`` (a bot's every request): in one statement from the event loop, as
    in the transaction on a storage thread, exactly ``most`` attempts pass in a window, a refused
    one counts nothing and names the wait to the window's end, and the next window starts
    afresh; each attempt that passes says how many more the window allows, and for how long."""
    import sqlalchemy as sa

    from boardplay.web.migrate import open_database
    from boardplay.web.table.pgwrite import LoopConnections
    from boardplay.web.throttles import Ceiling, Left, Throttled, Throttles

    throttles = Throttles(open_database(postgres_url))
    ceiling = Ceiling(f"test:{'one' if one_statement else 'thread'}", 3, 60.0)

    async def db(call: Any, *args: Any) -> Any:
        return await asyncio.to_thread(call, *args)

    async def run() -> None:
        loop = LoopConnections(sa.make_url(postgres_url), 2) if one_statement else None
        throttles.statement = loop.row if loop is not None else None
        try:
            left = [await throttles.take_one(ceiling, db, now=1000.0 + i) for i in range(3)]
            assert left == [Left(2, 60.0), Left(1, 59.0), Left(0, 58.0)]
            for _ in range(2):
                with pytest.raises(Throttled) as refused:
                    await throttles.take_one(ceiling, db, now=1030.0)
                assert refused.value.retry_after == pytest.approx(30.0)
            assert throttles.count(ceiling.key, now=1030.0) == 3
            assert await throttles.take_one(ceiling, db, now=1060.0) == Left(2, 60.0)
            assert throttles.count(ceiling.key, now=1060.0) == 1
            for _ in range(2):
                await throttles.take_one(ceiling, db, now=1060.0)
            with pytest.raises(Throttled):
                await throttles.take_one(ceiling, db, now=1060.0)
        finally:
            if loop is not None:
                await loop.close()

    asyncio.run(run())


def test_a_game_read_while_a_move_is_stored_is_true_to_its_revision(storage: Any) -> None:
    """A move stored between the game's row and its moves (separate statements, each seeing
    what is committed when it runs) gave a copy older by revision than by its moves, which took
    another process's view of that revision as its own (a bot was told it was to move again).
    The read now holds together: the revision read after the rest, all read again if it moved."""
    import sqlalchemy as sa

    from boardplay.core.records import Move
    from boardplay.web.table import storage as st
    from boardplay.web.tokens import new_game_id

    game_id = new_game_id()
    seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    storage.create_game(st.GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats))
    storage.append_moves(game_id, 0, [Move(1, "roll1", -1)], st.ACTIVE, None, revision=0)
    engine = storage.store.engine if isinstance(storage, OneStatement) else storage.engine
    moved: list[int] = []

    def between(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """Store the next move just before the first read of the moves runs."""
        if not moved and "FROM actions" in statement and "actions.game_id" in statement:
            moved.append(storage.append_moves(game_id, 1, [Move(3, "take3", 0)], st.ACTIVE, None))

    sa.event.listen(engine, "before_cursor_execute", between)
    try:
        row = storage.get_game(game_id)
    finally:
        sa.event.remove(engine, "before_cursor_execute", between)
    assert moved == [2]  # the move was stored mid-read, as the revision it made says
    assert (row.revision, len(row.moves)) == (2, 2)
