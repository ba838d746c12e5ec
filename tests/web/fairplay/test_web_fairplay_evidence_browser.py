"""The fair-play evidence in a real Chromium, from a cold load: the fair-play check's report is
in the moderators' queue with the player's evidence beside it (the pool, the agreement and its
lower bound, the rating band, the flag, the games that stand out), and any player's evidence is
found by name.
Screenshots, English and Japanese, go to docs/screenshots/."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from browsing import check_server_logs, free_port, serve
from test_web_accounts_browser import DESKTOP, PHONE
from test_web_moderation_browser import account, opened
from typer.testing import CliRunner

from boardplay.ai.fairplay import SeatEvidence, flag_rule
from boardplay.cli.main import app as cli
from boardplay.web.fairplay.store import FairPlayStore
from boardplay.web.moderation.store import ModerationStore
from boardplay.web.ratings.tables import ratings_table

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = tmp_path_factory.mktemp("fairbrowser") / "web.sqlite3"
    port = free_port()
    process = serve(db, port)
    yield f"http://127.0.0.1:{port}", f"sqlite:///{db}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()


def test_the_fair_play_checks_report_shows_the_evidence(
    browser: Any, site: tuple[str, str]
) -> None:
    base, url = site
    account(base, "Suspect")
    mod, _ = account(base, "Judge")
    assert CliRunner().invoke(cli, ["db", "role", "Judge", "moderator", "--db", url]).exit_code == 0
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        suspect = conn.execute(sa.text("SELECT id FROM accounts WHERE name = 'Suspect'")).scalar()
    # What the background judging stores for ten rated Potlatch games, one of them
    # ("g9") agreeing everywhere, and the report the flag files.
    store = FairPlayStore(engine)
    for n in range(10):
        agreed = 26 if n == 9 else 22
        store.save(f"g{n}", "potlatch", [(suspect, SeatEvidence(n % 2, 26, agreed, 3, 0.05))])
    ModerationStore(engine).system_report(
        suspect, "cheating", "fair-play check: 224 of 260 judged moves agreed", "g9"
    )
    # An established rating (as thirty games would give), in a band with no norm yet.
    with engine.begin() as conn:
        conn.execute(
            ratings_table.insert().values(
                account_id=suspect,
                pool="potlatch",
                rating=1512.0,
                deviation=60.0,
                volatility=0.06,
                games=30,
                updated=0.0,
            )
        )
    engine.dispose()
    rule = flag_rule("potlatch")
    for viewport, lang, suffix in ((DESKTOP, "en", ""), (PHONE, "ja", "-phone-ja")):
        page = opened(browser, base, mod, viewport, lang)
        page.goto(f"{base}/#/moderation")
        page.reload()
        report = page.locator("#mod-players .mod-report[data-system=yes]").first
        report.locator(".mod-fairplay table[data-pool=potlatch]").wait_for()
        said = report.inner_text()
        assert ("フェアプレー検査" if lang == "ja" else "the fair-play check") in said
        assert "86.2%" in said  # 224 of 260
        assert ("レーティング 1512" if lang == "ja" else "Rated 1512: too few players") in said
        assert report.locator("a[href='#/game/g9']").count() == 2  # reported from, stands out
        first = report.locator(".mod-fairplay .mod-games li").first
        assert first.locator("a").inner_text() == "g9"  # the highest agreement first
        if rule is not None:
            flagged = report.locator(".mod-flagged").count() == 1
            assert flagged == (rule.threshold <= 0.81)  # the lower bound of 224/260 is 0.815
        page.screenshot(path=str(SHOTS / f"moderation-fairplay{suffix}.png"), full_page=True)
        assert not page.errors
        page.context.close()
    # Any player's evidence by name; an unknown name is a clear line.
    page = opened(browser, base, mod, DESKTOP, "en")
    page.goto(f"{base}/#/moderation")
    page.reload()
    page.fill(".fairplay-name", "Suspect")
    page.click(".fairplay-lookup button")
    page.wait_for_selector("#fairplay-shown table[data-pool=potlatch]")
    page.fill(".fairplay-name", "nobody-at-all")
    page.click(".fairplay-lookup button")
    page.wait_for_selector("#fairplay-shown .form-error:not([hidden])")
    assert "no player named" in page.inner_text("#fairplay-shown")
    assert not page.errors
    page.context.close()
