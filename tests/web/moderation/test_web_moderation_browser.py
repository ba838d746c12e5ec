"""The moderation in a real Chromium, each page from a cold load: a player reports another from
their profile; a moderator opens the queue, sees the report with the games between the two,
and warns the reported player; the player sees the warning on their next page, in English or
Japanese, and it is gone once read. Screenshots of the queue and the notice, desktop and phone,
English and Japanese, go to docs/screenshots/."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import check_server_logs, free_port, serve
from test_web_accounts_browser import DESKTOP, PHONE
from typer.testing import CliRunner

from boardplay.cli.main import app as cli
from boardplay.web.accounts import COOKIE

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = tmp_path_factory.mktemp("modbrowser") / "web.sqlite3"
    port = free_port()
    process = serve(db, port)
    yield f"http://127.0.0.1:{port}", f"sqlite:///{db}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()


def account(base: str, name: str) -> tuple[str, str]:
    """A new account's session cookie and CSRF token."""
    answer = httpx.post(
        f"{base}/api/account/signup", json={"name": name, "password": "correct horse battery"}
    )
    assert answer.status_code == 201, answer.text
    return answer.cookies[COOKIE], answer.json()["csrf"]


def opened(browser: Any, base: str, cookie: str, viewport: dict[str, int], lang: str) -> Any:
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-GB")
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(f"{base}/#/")
    page.evaluate("lang => localStorage.setItem('boardplay.lang', lang)", lang)
    return page


def test_a_report_decided_by_a_moderator_reaches_the_player(
    browser: Any, site: tuple[str, str]
) -> None:
    base, url = site
    (ana, ana_csrf), (rude, rude_csrf), (mod, _) = (
        account(base, name) for name in ("Ana", "Rude", "Moddy")
    )
    assert CliRunner().invoke(cli, ["db", "role", "Moddy", "moderator", "--db", url]).exit_code == 0
    offered = httpx.get(f"{base}/api/catalogue").json()["games"]
    name = next(g["name"] for g in offered if g["name"] in ("proteus", "potlatch"))
    made = httpx.post(
        f"{base}/api/games",
        json={"game": name, "seats": [{"kind": "me"}, {"kind": "open"}]},
        cookies={COOKIE: ana},
        headers={"X-CSRF-Token": ana_csrf},
    )
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    joined = httpx.post(
        f"{base}/api/games/{game}/join",
        json={"seat": 1},
        cookies={COOKIE: rude},
        headers={"X-CSRF-Token": rude_csrf},
    )
    assert joined.status_code == 200, joined.text

    # Ana reports Rude from Rude's profile.
    page = opened(browser, base, ana, DESKTOP, "en")
    page.goto(f"{base}/#/player/Rude")
    page.reload()
    page.click("#report summary")
    page.select_option("#report-reason", "abuse")
    page.fill("#report-text", "called me names all game")
    page.click("#report-send")
    page.wait_for_selector("#note:not([hidden])")
    assert "moderators" in page.inner_text("#note")
    page.context.close()

    # The moderator opens the queue from a cold load, and warns Rude.
    for viewport, lang, suffix in ((DESKTOP, "en", ""), (PHONE, "ja", "-phone-ja")):
        page = opened(browser, base, mod, viewport, lang)
        page.goto(f"{base}/#/moderation")
        page.reload()
        page.wait_for_selector("#moderation")
        assert page.is_visible("#moderation-link")
        report = page.locator("#mod-players .mod-report").first
        assert "called me names all game" in report.inner_text()
        assert report.locator(f"a[href='#/game/{game}']").count() >= 1
        page.screenshot(path=str(SHOTS / f"moderation-queue{suffix}.png"), full_page=True)
        assert not page.errors
        page.context.close()
    page = opened(browser, base, mod, DESKTOP, "en")
    page.goto(f"{base}/#/moderation")
    page.reload()
    report = page.locator("#mod-players .mod-report").first
    report.locator(".decide-action").select_option("warn")
    report.locator(".decide-why").fill("Please keep the chat friendly.")
    report.locator("button[type=submit]").click()
    page.wait_for_selector("#mod-log tr[data-action=warn]")
    assert page.locator("#mod-players .mod-report").count() == 0
    page.screenshot(path=str(SHOTS / "moderation-log.png"), full_page=True)
    assert not page.errors
    page.context.close()

    # Rude sees the decision on the next page they load, in their language.
    for viewport, lang, suffix in (
        (PHONE, "ja", "-phone-ja"),
        (DESKTOP, "ja", "-ja"),
        (PHONE, "en", "-phone"),
        (DESKTOP, "en", ""),
    ):
        page = opened(browser, base, rude, viewport, lang)
        page.reload()
        notice = page.wait_for_selector("#notices .notice")
        said = notice.inner_text()
        assert "Please keep the chat friendly." in said
        assert ("警告" if lang == "ja" else "warned you") in said
        assert not page.is_visible("#moderation-link")
        page.screenshot(path=str(SHOTS / f"moderation-notice{suffix}.png"))
        if suffix == "":
            notice.query_selector("button").click()
            page.wait_for_selector("#notices", state="hidden")
            page.reload()
            page.wait_for_selector("#main .panel, #main section, #main div")
            assert page.locator("#notices .notice").count() == 0
        assert not page.errors
        page.context.close()
