"""The pages the lobby does not show come in groups (``static/later/``), each a file of its own
that app.js imports when one of its pages is first opened (docs/web.md, "Page weight"). In a
real Chromium, every such page opened from a cold load, in English and in Japanese, draws; its
group's file is asked for once, ahead of app.js's import (early.js's ``modulepreload``), and no
other group's; nothing fails in the page; the Japanese page shows no English. The lobby asks for
no group's file, and a page of a group opened from it afterwards loads the group then."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Iterator
from typing import Any

import httpcalls
import httpx
import pytest
from browsing import check_server_logs, free_port, serve
from japanese import english_left, shown
from test_web_frontpage import later
from typer.testing import CliRunner

from boardplay.cli.main import app as cli
from boardplay.web.accounts import COOKIE

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
NAMES = re.compile(r"\b(Lena|Spring Cup|Bot API|API)\b|\b[a-z]+:[a-z]+\b")
"""What a Japanese page here may show in Latin letters: the player's and the tournament's names,
and the Bot API's name and token scopes (``game:write``) on the account's page."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A server with a moderator, Lena, a game of hers, and a tournament she made: every page of
    every group has something to show."""
    db = tmp_path_factory.mktemp("later") / "web.sqlite3"
    port = free_port()
    process = serve(db, port)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base) as lena:
        signed = lena.post("/api/account/signup", json={"name": "Lena", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        lena.headers["X-CSRF-Token"] = signed.json()["csrf"]
        role = ["db", "role", "Lena", "moderator", "--db", f"sqlite:///{db}"]
        assert CliRunner().invoke(cli, role).exit_code == 0
        seats = [{"kind": "me"}, {"kind": "ai", "spec": "easy"}]
        game = lena.post("/api/games", json={"game": "potlatch", "seats": seats})
        assert game.status_code == 201, game.text
        cup = {"name": "Spring Cup", "kind": "arena", "game": "proteus", "minutes": 60}
        clock = {"base": 600, "increment": 5}
        made = lena.post(
            "/api/tournaments", json={**cup, "clock": clock, "starts": time.time() + 3600}
        )
        assert made.status_code == 201, made.text
        yield {
            "base": base,
            "cookie": signed.cookies[COOKIE],
            "game": game.json()["id"],
            "tournament": made.json()["tournament"]["id"],
        }
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()


ROUTES = [
    ("game/{game}", "#board svg", "play"),
    ("replay/{game}", "#replay-board[data-ply]", "play"),
    ("rules/potlatch", "#rules-text > *", "play"),
    ("tv/potlatch", "#tv-line:not(:empty)", "play"),
    ("analysis", "#analysis-game", "play"),
    ("signin", "#signin-name", "account"),
    ("account", "#passkeys", "account"),
    ("turns", "#turns", "account"),
    ("tournament/{tournament}", "#tournament-title:not(:empty)", "tournament"),
    ("following", "#following-page", "following"),
    ("moderation", "#moderation", "moderation"),
]
"""Each page of a group: its route, what shows once it is drawn, and its group
(later/routes.js). The signed-in pages are opened as Lena, the moderator; the sign-in page as a
visitor."""


def opened(browser: Any, site: dict[str, str], route: str, ready: str, lang: str) -> Any:
    """A page opened from a cold load of ``route`` in ``lang``, once ``ready`` shows and the
    network is idle; ``page.asked`` holds the addresses asked for, ``page.errors`` what failed
    in the page."""
    context = browser.new_context()
    if route != "signin":
        context.add_cookies([{"name": COOKIE, "value": site["cookie"], "url": site["base"]}])
    context.add_init_script(f"localStorage.setItem('boardplay.lang', '{lang}');")
    context.add_init_script(
        "localStorage.setItem('boardplay.tutorials', JSON.stringify({potlatch: true}));"
    )
    page = context.new_page()
    page.asked, page.errors = [], []
    page.on("request", lambda request: page.asked.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{site['base']}/#/{route.format(**site)}")
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    return page


def groups_asked(page: Any, files: dict[str, list[str]], base: str) -> list[str]:
    """The groups whose files ``page`` asked for, once per file asked."""
    return [g for a in page.asked for g, names in files.items() if a.removeprefix(base) in names]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("route", "ready", "group"), ROUTES, ids=[r[0] for r in ROUTES])
def test_a_page_of_a_group_opened_first_loads_its_group(
    browser: Any, site: dict[str, str], route: str, ready: str, group: str, lang: str
) -> None:
    files = later(httpcalls.get(f"{site['base']}/").text)
    page = opened(browser, site, route, ready, lang)
    try:
        assert page.errors == []
        assert groups_asked(page, files, site["base"]) == [group] * len(files[group])
        preloaded = page.eval_on_selector_all(
            "link[rel=modulepreload]", "links => links.map((l) => l.getAttribute('href'))"
        )
        assert preloaded == files[group]
        assert page.evaluate("document.documentElement.lang") == lang
        if lang == "ja":
            assert english_left(shown(page), NAMES) == [], english_left(shown(page), NAMES)
    finally:
        page.context.close()


def test_the_lobby_loads_a_group_only_when_one_of_its_pages_is_opened(
    browser: Any, site: dict[str, str]
) -> None:
    files = later(httpcalls.get(f"{site['base']}/").text)
    page = opened(browser, site, "", "article.card", "en")
    try:
        assert groups_asked(page, files, site["base"]) == []
        assert page.query_selector("link[rel=modulepreload]") is None
        page.evaluate("location.hash = '#/following'")
        page.wait_for_selector("#following-page")
        page.evaluate("location.hash = '#/tv/potlatch'")
        page.wait_for_selector("#tv-line:not(:empty)")
        page.evaluate("location.hash = '#/following'")  # the group is kept: not asked again
        page.wait_for_selector("#following-page")
        page.wait_for_load_state("networkidle")
        expected = ["following"] * len(files["following"]) + ["play"] * len(files["play"])
        assert groups_asked(page, files, site["base"]) == expected
        assert page.errors == []
    finally:
        page.context.close()
