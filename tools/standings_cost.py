"""``.venv/bin/python tools/standings_cost.py [PLAYERS]``: what one poll of a large tournament's
standings costs the server, before and after the standings came a page at a time (issue 66;
docs/tournaments.md, "Large fields"): the bytes of the answer and the CPU time of building it.

A Swiss of PLAYERS (1,000) on a fresh SQLite file, round 1 paired and 300 of its games ended, is
read the old way (the whole view built from the tournament's rows, as every poll did: the API's
standings, and the page's view with its bots marked) and the new way (a page of 50 with the
caller's own line; a poll of a client up to date; a poll after five more games ended, which
brings the page's changed lines). Each figure is the median of several runs, in CPU
milliseconds of this process (its storage threads included)."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa

from boardplay.web.accounts.store import accounts_table
from boardplay.web.catalogue import REGISTRY, WebCatalogue
from boardplay.web.hub import Hub
from boardplay.web.migrate import upgrade
from boardplay.web.tournaments import Plan, Tournaments
from boardplay.web.tournaments.model import STARTED
from boardplay.web.tournaments.paging import Views
from boardplay.web.tournaments.rows import add_entrants, set_tournament_status, store_round

RUNS = 9
START = 1_900_000_000.0


async def cost(work: Callable[[], Awaitable[Any]]) -> tuple[float, int]:
    """The median CPU milliseconds of ``work`` and the bytes of its answer as JSON."""
    spent, size = [], 0
    for _ in range(RUNS):
        before = time.process_time()
        answer = await work()
        size = len(json.dumps(answer, separators=(",", ":")).encode())
        spent.append(1000 * (time.process_time() - before))
    return statistics.median(spent), size


def field(engine: sa.Engine, service: Tournaments, tid: str, players: int) -> list[int]:
    """``players`` accounts entered in bulk, round 1 paired (seed i against seed i + n/2)."""
    made = datetime.now(UTC)
    names = [f"P{i:04d}" for i in range(players)]
    rng = random.Random(players)
    with engine.begin() as conn:
        conn.execute(
            accounts_table.insert(),
            [
                {"name": n, "name_key": n.lower(), "user_handle": uuid.uuid4().hex, "created": made}
                for n in names
            ],
        )
        ids = list(
            conn.execute(
                sa.select(accounts_table.c.id).where(accounts_table.c.name.in_(names))
            ).scalars()
        )
        add_entrants(
            conn,
            tid,
            [
                {
                    "account_id": a,
                    "name": n,
                    "rating": float(rng.randint(1200, 1800)),
                    "joined": START - 1000 + i,
                    "status": "active",
                }
                for i, (a, n) in enumerate(zip(ids, names, strict=True))
            ],
        )

    def pair(conn: sa.Connection, snap: Any) -> None:
        seeds = snap.seeds
        half = len(seeds) // 2
        set_tournament_status(conn, snap.tournament, STARTED, START)
        tables = [(seeds[i], seeds[i + half]) for i in range(half)]
        store_round(conn, snap, tables, [], lambda: uuid.uuid4().hex[:12])

    service.store.step(tid, pair)
    return ids


def results(service: Tournaments, tid: str, count: int, rng: random.Random) -> None:
    snap = service.store.snapshot(tid)
    open_ = [b.game_id for b in snap.boards if b.table.places is None]
    ended = {
        game: SimpleNamespace(result={"winners": rng.choice([[0], [1], []])}, resigned=[])
        for game in rng.sample(open_, count)
    }
    service.store.record_results(tid, ended, START)


async def measure(players: int) -> list[tuple[str, float, int]]:
    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder / 'cost.sqlite3'}"
    engine = sa.create_engine(url)
    upgrade(engine)
    clock = [START - 100.0]
    hub = Hub(
        url,
        WebCatalogue(REGISTRY),
        "boardplay.web.catalogue:REGISTRY",
        lambda: ThreadPoolExecutor(1),
        ai_workers=0,
        now=lambda: clock[0],
    )
    service = hub.tournaments
    try:
        organiser = hub.accounts.store.create("Organiser", "organiser", None, uuid.uuid4().hex)
        clock_ = {"base": 600, "increment": 5}
        plan = Plan("Cost", "swiss", "proteus", {}, [2], clock_, False, START, rounds=5)
        made = await service.create(organiser, plan)
        ids = field(engine, service, made.id, players)
        rng = random.Random(1)
        results(service, made.id, 300, rng)
        me = ids[len(ids) // 2]
        rows: list[tuple[str, float, int]] = []

        async def whole() -> Any:
            return {"standings": (await service.view(made.id))["standings"]}

        async def page_view_uncached() -> Any:
            service.views = Views()  # as before: built on every poll
            return await service.view_with_bots(made.id)

        rows.append(("before: GET standings (the whole table)", *await cost(whole)))
        rows.append(("before: the page's poll (its whole view)", *await cost(page_view_uncached)))
        first = await service.standings_page(made.id, None, None, me)
        rows.append(
            (
                "after: a page of 50 with me (view kept)",
                *await cost(lambda: service.standings_page(made.id, None, None, me)),
            )
        )
        revision = first["revision"]

        async def unchanged() -> Any:
            clock[0] += 2  # past FRESH: the revision is read each time
            return await service.standings_page(made.id, None, revision, me)

        rows.append(("after: a poll, nothing changed", *await cost(unchanged)))
        changed_costs, changed_sizes = [], []
        for _ in range(RUNS):
            results(service, made.id, 5, rng)
            clock[0] += 2
            before = time.process_time()
            answer = await service.standings_page(made.id, None, revision, me)
            changed_costs.append(1000 * (time.process_time() - before))
            changed_sizes.append(len(json.dumps(answer, separators=(",", ":")).encode()))
            revision = answer["revision"]
        rows.append(
            (
                "after: the first poll after 5 results (rebuilt, changed lines)",
                statistics.median(changed_costs),
                int(statistics.median(changed_sizes)),
            )
        )
        return rows
    finally:
        await hub.close()
        hub.storage.engine.dispose()
        engine.dispose()


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"one poll of a Swiss of {players} players, round 1 paired, 300 results in")
    for name, cpu, size in asyncio.run(measure(players)):
        print(f"{name:66} {cpu:8.1f} CPU-ms {size:10,} bytes")


if __name__ == "__main__":
    main()
