"""The standings' pages and the list's "More" in a real Chromium, on a desktop and a phone
(issue 66): a person in a Swiss of 130 finds the page opened on their own page of the standings
(3 of 3), goes to the first page with the page buttons, back with "Jump to me", sees a newcomer's
line arrive on their page without a reload (the poll's changed lines); the tournaments page lists
the first 20 of 26 upcoming tournaments and "More" brings the rest, once each. Entrants and
tournaments past the ceilings are written straight into the server's database, as the service
tests do: what is tested is the page over a large field. Screenshots:
docs/screenshots/tournament-pages.png, tournament-pages-phone.png."""

from __future__ import annotations

import signal
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from accountcalls import RAPID
from botcalls import Person, sign_up
from browsing import SCREENSHOTS, check_server_logs, free_port, serve

from boardplay.web.accounts.service import COOKIE
from boardplay.web.accounts.store import accounts_table
from boardplay.web.tournaments.model import CREATED, Tournament
from boardplay.web.tournaments.rows import add_entrants
from boardplay.web.tournaments.store import TournamentStore

pytestmark = pytest.mark.browser

ABOVE = 120
"""Entrants seeded above the person (rated higher): the person is 121st of 130, on page 3."""
BELOW = 9


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A ``boardplay serve`` whose database file the test writes into too."""
    db = tmp_path_factory.mktemp("paging") / "web.sqlite3"
    port = free_port()
    process = serve(db, port)
    yield f"http://127.0.0.1:{port}", db
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()


def crowd(db: Path, tournament_id: str, tag: str) -> None:
    """``ABOVE`` players rated above a newcomer's 1500 and ``BELOW`` under it, entered."""
    engine = sa.create_engine(f"sqlite:///{db}")
    made = datetime.now(UTC)
    ratings = [1501.0 + i for i in range(ABOVE)] + [1400.0 - i for i in range(BELOW)]
    names = [f"{tag}{i:03d}" for i in range(len(ratings))]
    with engine.begin() as conn:
        conn.execute(
            accounts_table.insert(),
            [
                {"name": n, "name_key": n.lower(), "user_handle": uuid.uuid4().hex, "created": made}
                for n in names
            ],
        )
        ids = dict(
            conn.execute(
                sa.select(accounts_table.c.name, accounts_table.c.id).where(
                    accounts_table.c.name.in_(names)
                )
            ).all()
        )
        add_entrants(
            conn,
            tournament_id,
            [
                {
                    "account_id": ids[n],
                    "name": n,
                    "rating": r,
                    "joined": time.time(),
                    "status": "active",
                }
                for n, r in zip(names, ratings, strict=True)
            ],
        )
    engine.dispose()


def upcoming(db: Path, creator: int, count: int) -> None:
    """``count`` tournaments starting in an hour or more (past one account's ceiling)."""
    engine = sa.create_engine(f"sqlite:///{db}")
    store = TournamentStore(engine)
    for i in range(count):
        store.create(
            Tournament(
                id=f"up{i:02d}{uuid.uuid4().hex[:6]}",
                name=f"Upcoming {i:02d}",
                kind="swiss",
                game="proteus",
                options={},
                sizes=[2],
                clock=RAPID,
                rated=False,
                starts=time.time() + 3600 + 60 * i,
                minutes=None,
                rounds=3,
                status=CREATED,
                round=0,
                creator=creator,
                created=time.time(),
            ),
            10**6,
        )
    engine.dispose()


def account_id(db: Path, name: str) -> int:
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        found = conn.execute(
            sa.select(accounts_table.c.id).where(accounts_table.c.name == name)
        ).scalar_one()
    engine.dispose()
    return int(found)


def swiss_of(server: str, db: Path, person: Person, tag: str) -> str:
    """A Swiss starting in an hour: the crowd entered, then ``person`` (121st of 130)."""
    body = {
        "name": f"Big Swiss {tag}",
        "kind": "swiss",
        "game": "proteus",
        "clock": RAPID,
        "starts": time.time() + 3600,
        "rounds": 5,
    }
    made = person.post(server, "/api/tournaments", body)
    assert made.status_code == 201, made.text
    tid: str = made.json()["tournament"]["id"]
    crowd(db, tid, tag)
    assert person.post(server, f"/api/tournaments/{tid}/join", {}).status_code == 200
    return tid


def opened(browser: Any, server: str, person: Person, phone: bool) -> Any:
    viewport = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": COOKIE, "value": person.cookie, "url": server}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def ranks(page: Any) -> list[int]:
    return [
        int(r)
        for r in page.eval_on_selector_all(
            "#standings tbody tr", "rs => rs.map(r => r.dataset.rank)"
        )
    ]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_standings_open_on_my_page_and_jump_to_me(
    browser: Any, served: tuple[str, Path], phone: bool
) -> None:
    server, db = served
    tag = "P" if phone else "D"
    person = sign_up(server, f"Me{tag}")
    tid = swiss_of(server, db, person, f"{tag}x")
    page = opened(browser, server, person, phone)
    page.goto(f"{server}/#/tournament/{tid}")
    page.wait_for_selector("#standings tr.me")
    assert page.text_content("#standings tr.me th").startswith(person.name)
    assert page.text_content("#standings-page") == "Page 3 of 3"
    assert ranks(page) == list(range(101, 131))
    assert page.is_disabled("#standings-next") and not page.is_visible("#standings-me")
    width = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert width <= 0, f"the page is {width}px wider than the screen"
    page.screenshot(
        path=str(SCREENSHOTS / f"tournament-pages{'-phone' if phone else ''}.png"), full_page=True
    )

    page.click("#standings-first")
    page.wait_for_function(
        "document.querySelector('#standings-page')?.textContent === 'Page 1 of 3'"
    )
    assert ranks(page) == list(range(1, 51)) and page.query_selector("#standings tr.me") is None
    assert page.text_content("#standings-me") == "Jump to me (#121)"
    page.click("#standings-next")
    page.wait_for_function(
        "document.querySelector('#standings-page')?.textContent === 'Page 2 of 3'"
    )
    assert ranks(page) == list(range(51, 101))
    page.click("#standings-me")
    page.wait_for_selector("#standings tr.me")
    assert page.text_content("#standings-page") == "Page 3 of 3"

    # A newcomer (rated 1500, joined after the person) lands just under them, on this page:
    # the poll brings the changed lines, without a reload.
    other = sign_up(server, f"New{tag}")
    assert other.post(server, f"/api/tournaments/{tid}/join", {}).status_code == 200
    page.wait_for_selector(f"#standings tr[data-player='{other.name}']", timeout=15_000)
    assert ranks(page) == list(range(101, 132))
    assert page.text_content(f"#standings tr[data-player='{other.name}'] td.col-rank") == "122"
    assert not page.errors, page.errors
    page.context.close()


def test_more_lists_every_tournament_once(browser: Any, served: tuple[str, Path]) -> None:
    server, db = served
    person = sign_up(server, "Lister")
    before = len([t for t in person.get(server, "/api/tournaments?limit=50").json()["tournaments"]])
    upcoming(db, account_id(db, person.name), 26 - before)
    page = opened(browser, server, person, False)
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#tournaments-upcoming .tournament-row")
    rows = "#tournaments-upcoming .tournament-row"
    assert len(page.query_selector_all(rows)) == 20
    page.click("#tournaments-more")
    page.wait_for_function(f"document.querySelectorAll('{rows}').length === 26")
    ids = page.eval_on_selector_all(rows, "rs => rs.map(r => r.dataset.tournament)")
    assert len(set(ids)) == 26
    assert page.is_hidden("#tournaments-more")
    assert not page.errors, page.errors
    page.context.close()
