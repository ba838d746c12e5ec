"""The tournament list and a tournament's standings a page at a time (issue 66,
``tournaments/listing.py`` and ``tournaments/paging.py``), through the routes on an app of their
own (``test_web_tournament_routes.Site``): a Swiss of a thousand players whose every player
appears once across the pages in the standings' own order, the caller found (``me``) on their
page, a poll with ``since`` answered with only the lines changed (which, written over the old
page, make the new one), ``unchanged`` or a 304 while nothing changed; the list's pages cover
every tournament once, a repeat is a 304 by its ``ETag``, and a limit past 50 or a cursor no page
gave is a 400."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa
from test_web_tournament_routes import SWISS, Site
from tournamentcalls import START

from boardplay.web.accounts import Account
from boardplay.web.accounts.store import accounts_table
from boardplay.web.tournaments.listing import LIST_MOST, Page, PageCache
from boardplay.web.tournaments.model import CREATED, DONE, STARTED, Tournament
from boardplay.web.tournaments.paging import STANDINGS_PAGE
from boardplay.web.tournaments.rows import add_entrants, set_tournament_status, store_round

FIELD = 1000


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = Site(tmp_path)
    with made.client:
        yield made
        made.client.portal.call(made.process.close)


def field(site: Site, size: int) -> tuple[str, list[Account]]:
    """A Swiss of ``size`` players (seeded by random ratings), round 1 paired (seed i against
    seed i + size/2) and its tables stored; no result yet. Accounts and entries are written in
    bulk: what is tested is the reading of a large field, not a thousand joins."""
    engine = site.process.hub.storage.engine
    names = [f"P{i:04d}" for i in range(size)]
    made = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            accounts_table.insert(),
            [
                {"name": n, "name_key": n.lower(), "user_handle": uuid.uuid4().hex, "created": made}
                for n in names
            ],
        )
        rows = conn.execute(
            sa.select(accounts_table.c.id, accounts_table.c.name).where(
                accounts_table.c.name.in_(names)
            )
        ).all()
    people = [Account(int(r.id), r.name, made.timestamp()) for r in rows]
    site.me = site.people["Ana"]
    answer = site.client.post("/api/tournaments", json={**SWISS, "rounds": 5})
    assert answer.status_code == 201, answer.text
    tid = answer.json()["tournament"]["id"]
    rng = random.Random(size)
    with engine.begin() as conn:
        add_entrants(
            conn,
            tid,
            [
                {
                    "account_id": a.id,
                    "name": a.name,
                    "rating": float(rng.randint(1200, 1800)),
                    "joined": START - 1000 + i,
                    "status": "active",
                }
                for i, a in enumerate(people)
            ],
        )

    def pair(conn: sa.Connection, snap: Any) -> None:
        seeds = snap.seeds
        half = len(seeds) // 2
        set_tournament_status(conn, snap.tournament, STARTED, START)
        tables = [(seeds[i], seeds[i + half]) for i in range(half)]
        store_round(conn, snap, tables, [], lambda: uuid.uuid4().hex[:12])

    site.process.store.step(tid, pair)
    return tid, people


def results(site: Site, tid: str, count: int, seed: int) -> None:
    """``count`` games of the round not ended yet end (a win either way or a draw), as the
    director copies them (``record_results``)."""
    rng = random.Random(seed)
    snap = site.process.store.snapshot(tid)
    open_ = [b.game_id for b in snap.boards if b.table.places is None]
    ended = {
        game: SimpleNamespace(result={"winners": rng.choice([[0], [1], []])}, resigned=[])
        for game in rng.sample(open_, count)
    }
    assert site.process.store.record_results(tid, ended, START) == count


def whole(site: Site, tid: str) -> list[dict[str, Any]]:
    """The standings as the tournament's view has them (every line: today's order)."""
    lines: list[dict[str, Any]] = site.client.get(f"/api/tournament-pages/{tid}").json()[
        "standings"
    ]
    return lines


def every_page(site: Site, tid: str) -> tuple[int, list[dict[str, Any]]]:
    first = site.client.get(f"/api/tournaments/{tid}/standings").json()
    lines = list(first["standings"])
    for page in range(2, first["pages"] + 1):
        answer = site.client.get(f"/api/tournaments/{tid}/standings?page={page}").json()
        assert answer["revision"] == first["revision"] and answer["page"] == page
        lines += answer["standings"]
    return first["revision"], lines


def applied(old: list[dict[str, Any]], answer: dict[str, Any]) -> list[dict[str, Any]]:
    """What the page (``tournament.js``) does with an answer to ``since``: the changed lines
    written over its own by rank, cut to the page's length."""
    start = (answer["page"] - 1) * answer["size"]
    length = max(0, min(answer["size"], answer["total"] - start))
    shown: list[Any] = [*old[:length], *[None] * (length - len(old))]
    for line in answer["changed"]:
        shown[line["rank"] - 1 - start] = line
    assert None not in shown
    return shown


def test_every_player_of_a_thousand_once_across_the_pages_in_the_standings_order(
    site: Site,
) -> None:
    tid, people = field(site, FIELD)
    results(site, tid, 300, 1)
    _, lines = every_page(site, tid)
    assert len(lines) == FIELD
    assert lines == whole(site, tid), "the pages are not the standings in their own order"
    assert [line["rank"] for line in lines] == list(range(1, FIELD + 1))
    assert sorted(line["player"] for line in lines) == sorted(a.id for a in people)
    answer = site.client.get(f"/api/tournaments/{tid}/standings?page=999").json()
    assert answer["page"] == answer["pages"] == FIELD // STANDINGS_PAGE  # past the end: the last


def test_me_finds_the_caller_and_their_page(site: Site) -> None:
    tid, people = field(site, FIELD)
    results(site, tid, 400, 2)
    lines = whole(site, tid)
    someone = people[737]
    site.people[someone.name] = someone
    site.as_(someone.name)
    answer = site.client.get(f"/api/tournaments/{tid}/standings?page=me").json()
    mine = next(line for line in lines if line["player"] == someone.id)
    assert answer["me"]["rank"] == mine["rank"] and answer["me"]["line"] == mine
    assert answer["page"] == answer["me"]["page"] == (mine["rank"] - 1) // STANDINGS_PAGE + 1
    assert mine in answer["standings"]
    assert site.client.get(f"/api/tournaments/{tid}/standings").json()["me"] == answer["me"]
    # Not in it (the organiser), or signed out: no line of one's own, page 1.
    site.as_("Ana")
    assert site.client.get(f"/api/tournaments/{tid}/standings?page=me").json()["me"] is None
    site.as_(None)
    signed_out = site.client.get(f"/api/tournaments/{tid}/standings?page=me").json()
    assert signed_out["me"] is None and signed_out["page"] == 1


def test_the_changes_since_a_revision_make_the_new_standings(site: Site) -> None:
    tid, _ = field(site, FIELD)
    results(site, tid, 100, 3)
    before_revision, before = every_page(site, tid)
    unchanged = site.client.get(f"/api/tournaments/{tid}/standings?since={before_revision}")
    assert unchanged.json() == {
        "revision": before_revision,
        "since": before_revision,
        "unchanged": True,
    }
    tag = unchanged.headers["etag"]
    again = site.client.get(
        f"/api/tournaments/{tid}/standings?since={before_revision}",
        headers={"If-None-Match": tag},
    )
    assert again.status_code == 304 and not again.content
    results(site, tid, 5, 4)  # five games end: ten players move, and those they pass
    site.clock.t += 2  # past FRESH: the process reads the revision again
    after_revision, after = every_page(site, tid)
    assert after_revision > before_revision and after != before
    rebuilt: list[dict[str, Any]] = []
    sent = 0
    pages = -(-FIELD // STANDINGS_PAGE)
    for page in range(1, pages + 1):
        old = before[(page - 1) * STANDINGS_PAGE : page * STANDINGS_PAGE]
        url = f"/api/tournaments/{tid}/standings?page={page}&since={before_revision}"
        answer = site.client.get(url).json()
        assert answer["revision"] == after_revision and "standings" not in answer
        new = after[(page - 1) * STANDINGS_PAGE : page * STANDINGS_PAGE]
        assert all(line in new and line not in old for line in answer["changed"]), "unchanged sent"
        sent += len(answer["changed"])
        rebuilt += applied(old, answer)
    assert rebuilt == after
    assert 10 <= sent < FIELD, sent  # only what changed, not the whole table
    # A revision this process does not hold (another's, or long gone): the whole page.
    full = site.client.get(f"/api/tournaments/{tid}/standings?page=2&since=0").json()
    assert full["standings"] == after[STANDINGS_PAGE : 2 * STANDINGS_PAGE]


def test_a_change_raises_the_revision_and_a_poll_reads_one_row_until_then(site: Site) -> None:
    tid, people = field(site, 60)
    first = site.client.get(f"/api/tournaments/{tid}/standings").json()
    reads = []
    store = site.process.store
    original = store.snapshot

    def counted(tournament_id: str) -> Any:
        reads.append(tournament_id)
        return original(tournament_id)

    store.snapshot = counted  # type: ignore[method-assign]
    for _ in range(5):
        site.clock.t += 2
        site.client.get(f"/api/tournaments/{tid}/standings?since={first['revision']}")
    assert reads == [], "an unchanged tournament was read whole"
    site.people[people[0].name] = people[0]
    site.as_(people[0].name)
    assert site.client.post(f"/api/tournaments/{tid}/pause").status_code == 200
    reads.clear()  # at once, without waiting for FRESH: the one who paused sees it
    answer = site.client.get(f"/api/tournaments/{tid}/standings?since={first['revision']}").json()
    assert answer["revision"] > first["revision"]
    assert [line["status"] for line in answer["changed"]] == ["paused"]
    assert len(reads) == 1


def make_tournaments(site: Site, count: int) -> dict[str, set[str]]:
    """``count`` tournaments stored directly (past the per-account ceiling), several sharing a
    start so the order falls to the id, a third of them finished; their ids by status."""
    made: dict[str, set[str]] = {CREATED: set(), DONE: set()}
    for i in range(count):
        status = DONE if i % 3 == 0 else CREATED
        tournament = Tournament(
            id=f"t{i:03d}x",
            name=f"T{i}",
            kind="swiss",
            game="tiny",
            options={},
            sizes=[2],
            clock={"base": 600, "increment": 5},
            rated=False,
            starts=START + 60 * (i // 4),
            minutes=None,
            rounds=3,
            status=status,
            round=0,
            creator=site.people["Ana"].id,
            created=START,
            finished=START + (i // 2) if status == DONE else None,
        )
        site.process.store.create(tournament, 10**6)
        made[status].add(tournament.id)
    return made


def walk(site: Site, path: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    answer = site.client.get(path).json()
    while True:
        found += answer["tournaments"]
        if answer["next"] is None:
            return found
        joiner = "&" if "?" in path else "?"
        answer = site.client.get(f"{path}{joiner}cursor={answer['next']}").json()


def test_the_list_pages_cover_every_tournament_once_in_order(site: Site) -> None:
    made = make_tournaments(site, 130)
    listed = walk(site, "/api/tournaments?limit=7")
    assert [t["id"] for t in listed] == sorted(made[CREATED], key=lambda i: int(i[1:4]))
    starts = [(t["starts"], t["id"]) for t in listed]
    assert starts == sorted(starts)
    done = walk(site, "/api/tournaments?status=finished&limit=9")
    assert len(done) == len(made[DONE]) and {t["id"] for t in done} == made[DONE]
    keys = [(t["finished"], t["id"]) for t in done]
    assert keys == sorted(keys, reverse=True)
    first = site.client.get("/api/tournaments").json()
    assert len(first["tournaments"]) == 20 and first["next"]  # an old client: the first page
    site_first = site.client.get("/api/tournament-pages").json()
    assert [t["id"] for t in site_first["tournaments"]] == [t["id"] for t in listed[:20]]
    assert all(t["players"] == 0 for t in site_first["tournaments"])
    assert len(site_first["finished"]) == 10
    more = walk(site, "/api/tournament-pages?limit=50")
    assert [t["id"] for t in more] == [t["id"] for t in listed]


def test_the_list_is_a_304_while_unchanged_and_bounded(site: Site) -> None:
    make_tournaments(site, 30)
    assert "max-age=3" in site.client.get("/api/tournaments").headers["cache-control"]
    first = site.client.get("/api/tournament-pages")
    assert first.headers["cache-control"] == "public, no-cache"  # the site reads its own writes
    tag = first.headers["etag"]
    again = site.client.get("/api/tournament-pages", headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.content
    site.as_("Bo")
    tid = site.client.get("/api/tournaments").json()["tournaments"][0]["id"]
    assert site.client.post(f"/api/tournaments/{tid}/join").status_code == 200
    changed = site.client.get("/api/tournament-pages", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag
    assert changed.json()["tournaments"][0]["players"] == 1
    for bad in (f"limit={LIST_MOST + 1}", "limit=0", "cursor=nonsense", "status=all"):
        for path in ("/api/tournaments", "/api/tournament-pages"):
            answer = site.client.get(f"{path}?{bad}")
            assert answer.status_code == 400, (path, bad, answer.text)
    assert len(site.client.get(f"/api/tournaments?limit={LIST_MOST}").json()["tournaments"]) == 20


def test_a_page_read_while_the_list_changed_is_not_kept() -> None:
    """A poll whose reading was on its way while this process created a tournament (and
    cleared the pages) must not put its stale page back: its creator would not find it in the
    list for seconds (seen in the browser test before ``generation``)."""
    cache = PageCache()
    before = cache.generation
    cache.clear()  # a tournament created meanwhile
    cache.put(("open",), Page.of({"tournaments": []}, 10.0), 0.0, before)
    assert cache.get(("open",), 0.0) is None
    cache.put(("open",), Page.of({"tournaments": []}, 10.0), 0.0, cache.generation)
    assert cache.get(("open",), 0.0) is not None
    assert cache.get(("open",), 10.0) is None  # past its time
