"""The moderation in a real Chromium, each page from a cold load: a player reports another from
their profile; a moderator opens the queue, sees the report with the games between the two
(named by game, day and players), warns the reported player on one report and marks them for
engine help on another; the player sees both decisions on their next page, in English or
Japanese, and a notice is gone once read. The profile's report form and the moderation page
are checked for English left on the Japanese page and by axe-core (no serious or critical
violation). Screenshots of the queue, desktop and phone, English and Japanese, and of the
notices go to docs/screenshots/."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from browsing import check_server_logs, free_port, serve
from japanese import english_left, shown
from test_web_a11y import violations
from test_web_accounts_browser import DESKTOP, PHONE
from typer.testing import CliRunner

from boardplay.cli.main import app as cli
from boardplay.web.accounts import COOKIE

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
NAMES = re.compile(r"Ana|Rude|Moddy|called me names all game|instant moves all game")
"""What a Japanese page may show in Latin letters here: the players' names, their words."""


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
    answer = httpcalls.post(
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
    offered = httpcalls.get(f"{base}/api/catalogue").json()["games"]
    name = next(g["name"] for g in offered if g["name"] in ("proteus", "potlatch"))
    made = httpcalls.post(
        f"{base}/api/games",
        json={"game": name, "seats": [{"kind": "me"}, {"kind": "open"}]},
        cookies={COOKIE: ana},
        headers={"X-CSRF-Token": ana_csrf},
    )
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    joined = httpcalls.post(
        f"{base}/api/games/{game}/join",
        json={"seat": 1},
        cookies={COOKIE: rude},
        headers={"X-CSRF-Token": rude_csrf},
    )
    assert joined.status_code == 200, joined.text

    # The report form, open on a Japanese phone: in Japanese, and nothing serious for axe.
    page = opened(browser, base, ana, PHONE, "ja")
    page.goto(f"{base}/#/player/Rude")
    page.reload()
    page.click("#report summary")
    page.wait_for_selector("#report-send")
    assert not english_left(shown(page), NAMES), english_left(shown(page), NAMES)
    assert not violations(page, "report form (phone, ja)")
    page.context.close()

    # Ana reports Rude from Rude's profile, and again for cheating from the game.
    page = opened(browser, base, ana, DESKTOP, "en")
    page.goto(f"{base}/#/player/Rude")
    page.reload()
    page.click("#report summary")
    page.select_option("#report-reason", "abuse")
    page.fill("#report-text", "called me names all game")
    page.click("#report-send")
    page.wait_for_selector("#note:not([hidden])")
    assert "moderators" in page.inner_text("#note")
    assert not violations(page, "report form (desktop, en)")
    page.context.close()
    cheated = httpcalls.post(
        f"{base}/api/players/Rude/report",
        json={"reason": "cheating", "note": "instant moves all game", "game": game},
        cookies={COOKIE: ana},
        headers={"X-CSRF-Token": ana_csrf},
    )
    assert cheated.status_code == 201, cheated.text

    # The moderator opens the queue from a cold load: each report with its evidence, the games
    # between the two named by game, day and players.
    for viewport, lang, suffix in (
        (DESKTOP, "en", ""),
        (DESKTOP, "ja", "-ja"),
        (PHONE, "en", "-phone"),
        (PHONE, "ja", "-phone-ja"),
    ):
        page = opened(browser, base, mod, viewport, lang)
        page.goto(f"{base}/#/moderation")
        page.reload()
        page.wait_for_selector("#moderation")
        assert page.is_visible("#moderation-link")
        report = page.locator("#mod-players .mod-report", has_text="called me names all game")
        evidence = report.locator(".mod-games li").first.inner_text()
        assert "Ana, Rude" in evidence and game not in evidence, evidence
        assert report.locator(f".mod-games a[href='#/game/{game}']").count() == 1
        page.locator(".decide-action").first.select_option("mark")
        assert page.locator(".decide-grounds").first.is_visible()
        page.locator(".decide-action").first.select_option("dismiss")
        if lang == "ja":
            assert not english_left(shown(page), NAMES), english_left(shown(page), NAMES)
        assert not violations(page, f"moderation ({viewport['width']}, {lang})")
        page.screenshot(path=str(SHOTS / f"moderation-queue{suffix}.png"), full_page=True)
        assert not page.errors
        page.context.close()
    page = opened(browser, base, mod, DESKTOP, "en")
    page.goto(f"{base}/#/moderation")
    page.reload()
    report = page.locator("#mod-players .mod-report", has_text="called me names all game")
    report.locator(".decide-action").select_option("warn")
    report.locator(".decide-why").fill("Please keep the chat friendly.")
    report.locator("button[type=submit]").click()
    page.wait_for_selector("#mod-log tr[data-action=warn]")
    report = page.locator("#mod-players .mod-report", has_text="instant moves all game")
    report.locator(".decide-action").select_option("mark")
    report.locator(".decide-grounds").select_option("engine")
    report.locator(".decide-why").fill("Moves matched an engine's.")
    report.locator("button[type=submit]").click()
    page.wait_for_selector("#mod-log tr[data-action=mark]")
    assert "Engine help" in page.inner_text("#mod-log tr[data-action=mark]")
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
        notice = page.wait_for_selector("#notices .notice[data-action=warn]")
        said = notice.inner_text()
        assert "Please keep the chat friendly." in said
        assert ("警告" if lang == "ja" else "warned you") in said
        marked = page.inner_text("#notices .notice[data-action=mark]")
        assert "Moves matched an engine's." in marked
        assert ("エンジン" if lang == "ja" else "casual games only") in marked
        assert not page.is_visible("#moderation-link")
        page.screenshot(path=str(SHOTS / f"moderation-notice{suffix}.png"))
        if suffix == "":
            for _ in range(2):
                page.locator("#notices .notice button").first.click()
            page.wait_for_selector("#notices", state="hidden")
            page.reload()
            page.wait_for_selector("#main .panel, #main section, #main div")
            assert page.locator("#notices .notice").count() == 0
        assert not page.errors
        page.context.close()
