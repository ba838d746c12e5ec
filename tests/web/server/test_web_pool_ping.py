"""A pooled PostgreSQL connection is pinged before use only after it rested
(``database.ping_when_rested``): one used a moment ago goes straight to its statement, one that
rested is pinged, and one whose server side ended while it rested is replaced by the pool, so the
call succeeds as if nothing happened; one cut while in use a moment ago fails its next call, and
the pool connects afresh for the call after."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from boardplay.web import database


def backends(engine: sa.Engine) -> set[int]:
    with engine.connect() as conn:
        return {conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()}


def test_a_rested_connection_is_pinged_and_a_dead_one_replaced(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = database.make_engine(postgres_url)
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    pings: list[object] = []
    ping = engine.dialect.do_ping
    monkeypatch.setattr(engine.dialect, "do_ping", lambda c: pings.append(c) or ping(c))
    try:
        (first,) = backends(engine)
        assert backends(engine) == {first} and pings == []  # used a moment ago: no ping
        monkeypatch.setattr(database, "RESTED", 0.0)
        assert backends(engine) == {first} and len(pings) == 1  # rested: pinged, alive
        with admin.connect() as conn:
            conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        (second,) = backends(engine)  # its ping failed: another connection, no error
        assert second != first and len(pings) == 2
        monkeypatch.setattr(database, "RESTED", 60.0)
        with admin.connect() as conn:
            conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": second})
        with pytest.raises(sa.exc.OperationalError):
            backends(engine)
        assert backends(engine) - {first, second}
    finally:
        engine.dispose()
        admin.dispose()
