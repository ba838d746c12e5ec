"""The account page's "E-mail notifications" in a real Chromium, against ``boardplay serve`` with
a real SMTP server (aiosmtpd) on loopback: give an address, open the confirmation link the mail
brings, choose which mails to get; and a server without SMTP says it sends none."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from browsing import SCREENSHOTS, free_port, serve
from test_web_a11y import violations
from test_web_accounts_browser import Browser, sign_up_with_password
from test_web_mail import Inbox, link_in

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def mail_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Inbox]]:
    inbox = Inbox()
    smtp_port, port = free_port(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    base = f"http://127.0.0.1:{port}"
    monkeypatch.setenv("BOARDPLAY_WEB_SMTP_URL", f"smtp://127.0.0.1:{smtp_port}")
    monkeypatch.setenv("BOARDPLAY_WEB_MAIL_FROM", "boardplay@example.org")
    monkeypatch.setenv("BOARDPLAY_WEB_ORIGIN", base)
    process = serve(tmp_path / "mail.sqlite3", port)
    yield base, inbox
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    controller.stop()


def test_an_address_is_given_confirmed_and_its_choices_kept(
    browser: Any, mail_server: tuple[str, Inbox]
) -> None:
    base, inbox = mail_server
    hana = Browser(browser)
    page = hana.page
    sign_up_with_password(page, base, "Hana", "correct horse battery")
    page.goto(f"{base}/#/account")
    page.wait_for_selector("#email-form")
    assert "No address yet" in page.inner_text("#email-state")
    assert violations(page, "account with e-mail") == []
    page.fill("#email-address", "hana@example.org")
    page.uncheck("#email-end")
    page.click("#email-save")
    page.wait_for_function(
        "() => document.querySelector('#email-state')?.textContent.includes('Not confirmed')"
    )
    assert "check your inbox" in page.inner_text("#note")  # news, not the red toast of errors
    mail = inbox.wait("hana@example.org", 1)[0]
    link = link_in(mail)
    page.goto(f"{base}{link}")
    assert "Address confirmed" in page.inner_text("h1")
    assert violations(page, "confirmation page") == []
    page.click("a[href='/#/account']")
    page.wait_for_function(
        "() => document.querySelector('#email-state')?.textContent === 'Confirmed.'"
    )
    assert page.is_checked("#email-turns") and not page.is_checked("#email-end")
    assert page.input_value("#email-address") == "hana@example.org"
    shoot_email_section(page)
    page.click("#email-remove")
    page.wait_for_function(
        "() => document.querySelector('#email-state')?.textContent.startsWith('No address')"
    )
    hana.close()


def test_a_server_without_smtp_says_so(browser: Any, server: str) -> None:
    someone = Browser(browser)
    page = someone.page
    sign_up_with_password(page, server, f"mailless{int(time.time()) % 100_000}", "a password!")
    page.goto(f"{server}/#/account")
    page.wait_for_selector("#email-state")
    assert re.search("sends no e-mail", page.inner_text("#email-section"))
    assert page.query_selector("#email-form") is None
    someone.close()


def shoot_email_section(page: Any) -> None:
    """docs/screenshots/email*.png: the confirmed address's section of the account page, on a
    desktop and a phone, in English and Japanese (the page is drawn again in each)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "ja"):
        page.evaluate(f"localStorage.setItem('boardplay.lang', '{lang}')")
        for size, viewport in (("", {"width": 1200, "height": 900}), ("-phone", PHONE)):
            page.set_viewport_size(viewport)
            page.reload()
            page.wait_for_function(
                "() => document.querySelector('#email-address')?.value === 'hana@example.org'"
            )
            page.locator("#email-form").scroll_into_view_if_needed()
            suffix = ("" if lang == "en" else "-ja") + size
            page.screenshot(path=str(SCREENSHOTS / f"email{suffix}.png"))
    page.evaluate("localStorage.setItem('boardplay.lang', 'en')")
    page.set_viewport_size({"width": 1200, "height": 900})
    page.reload()
    page.wait_for_selector("#email-remove")
