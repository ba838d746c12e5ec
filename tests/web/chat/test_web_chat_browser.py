"""The table chat in a real Chromium: two players and a signed-in spectator at one game. A player's
message appears on the other player's page and never on the spectator's; the spectator's never
on the players'. Text stays text, a refusal is shown, an author can be muted and unmuted, a
message reported; a guest is asked to sign in, and on a phone the chat waits behind its tab.
axe-core finds nothing serious in the chat, on a desktop or a phone."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpcalls
import pytest
from test_web_a11y import violations
from test_web_accounts_browser import DESKTOP, PHONE, Browser, local

pytestmark = pytest.mark.browser


@pytest.fixture
def people(browser: Any) -> Iterator[Any]:
    made: list[Browser] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Browser:
        made.append(Browser(browser, viewport))
        return made[-1]

    yield make
    for person in made:
        person.close()


def open_game(page: Any, base: str, game_id: str, token: str | None) -> None:
    """The game's page, holding ``token`` as the page keeps a seat's token."""
    page.goto(f"{base}/#/")
    if token is not None:
        page.evaluate(
            "([id, token]) => localStorage.setItem("
            "'boardplay.tokens', JSON.stringify({[id]: token}))",
            [game_id, token],
        )
    page.goto(f"{base}/#/game/{game_id}")
    page.wait_for_selector("#status[data-ply]")
    page.evaluate("document.querySelector('#tutorial-skip')?.click()")


def write(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def wait_for_text(page: Any, text: str, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('#chat-log .chat-text')]"
        ".some(e => e.textContent === text)",
        arg=text,
        timeout=timeout,
    )


def chat_texts(page: Any) -> list[str]:
    texts: list[str] = page.locator("#chat-log .chat-text").all_text_contents()
    return texts


def test_players_and_spectators_chat_apart(people: Any, server: str) -> None:
    base = local(server)
    made = httpcalls.post(
        f"{base}/api/games", json={"game": "proteus", "seats": [{"kind": "me"}, {"kind": "open"}]}
    ).json()
    game_id = made["id"]
    joined = httpcalls.post(f"{base}/api/games/{game_id}/join", json={"seat": 1}).json()
    first, second, watcher = people(), people(), people()
    open_game(first.page, base, game_id, made["token"])
    open_game(second.page, base, game_id, joined["token"])
    signed = watcher.page.request.post(
        f"{base}/api/account/signup",
        data=json.dumps({"name": "Mika", "password": "chat secret"}),
        headers={"Content-Type": "application/json"},
    )
    assert signed.status == 201, signed.text()
    open_game(watcher.page, base, game_id, None)
    for person in (first, second, watcher):
        person.page.wait_for_selector("#chat #chat-input")
    assert first.page.inner_text("#chat-tabs") == "Players"
    assert watcher.page.inner_text("#chat-tabs") == "Spectators"

    # A player's message reaches the other player, and not the spectator.
    write(first.page, "good luck!")
    wait_for_text(second.page, "good luck!")
    wait_for_text(first.page, "good luck!")
    # A second message at once is refused (one a second), and the page says why.
    write(first.page, "<b>bold</b> & <img src=x onerror=alert(1)>")
    first.page.wait_for_selector("#chat-error:not([hidden])")
    assert "slow down" in first.page.inner_text("#chat-error")
    time.sleep(1.1)
    first.page.click("#chat-send")
    wait_for_text(second.page, "<b>bold</b> & <img src=x onerror=alert(1)>")
    assert second.page.locator("#chat-log b, #chat-log img").count() == 0  # text, never HTML
    assert first.page.locator("#chat-error").is_hidden()

    # The spectator's message reaches spectators only.
    write(watcher.page, "nice opening")
    wait_for_text(watcher.page, "nice opening")
    time.sleep(2.5)  # past a check of the server's (every 2 s), so nothing is still on its way
    assert "good luck!" not in chat_texts(watcher.page)
    for player in (first, second):
        assert "nice opening" not in chat_texts(player.page)
        assert player.page.locator(".chat-channel[data-channel='spectators']").count() == 0

    found = violations(second.page, "players' chat") + violations(watcher.page, "spectators' chat")

    # Muting hides an author's messages in this browser, with a way back.
    line = second.page.locator("#chat-log .chat-message", has_text="good luck!")
    line.locator(".chat-mute").click()
    second.page.wait_for_selector("#chat-muted .chat-unmute")
    assert chat_texts(second.page) == []
    second.page.click("#chat-muted .chat-unmute")
    wait_for_text(second.page, "good luck!")
    # Reporting asks first (the dialog is accepted), then says it was sent.
    line = second.page.locator("#chat-log .chat-message", has_text="good luck!")
    line.locator(".chat-report").click()
    second.page.wait_for_function(
        "() => document.querySelector('#chat-note').textContent.includes('reported')"
    )
    assert line.locator(".chat-report").inner_text() == "Reported"
    assert line.locator(".chat-report").is_disabled()

    # A guest watching reads the spectators' chat and is asked to sign in to write.
    guest = people()
    open_game(guest.page, base, game_id, None)
    wait_for_text(guest.page, "nice opening")
    assert guest.page.locator("#chat-form").is_hidden()
    assert guest.page.locator("#chat-signin a[href='#/account']").is_visible()

    # On a phone the chat waits behind its tab.
    phone = people(PHONE)
    open_game(phone.page, base, game_id, None)
    phone.page.wait_for_selector("#chat-tab")
    assert phone.page.locator("#chat").is_hidden()
    phone.page.click("#chat-tab")
    phone.page.wait_for_selector("#chat.open")
    # Closed at once: two full runs in CI found the close button no longer shown after the
    # lines and the accessibility check below (cause not found; never here, beside two CPU
    # burners): the sheet's opening and closing are checked first, then its content, open.
    phone.page.click("#chat-close")
    assert phone.page.locator("#chat").is_hidden()
    phone.page.click("#chat-tab")
    phone.page.wait_for_selector("#chat.open")
    wait_for_text(phone.page, "nice opening")
    found += violations(phone.page, "chat on a phone")
    assert not found, "\n".join(found)
