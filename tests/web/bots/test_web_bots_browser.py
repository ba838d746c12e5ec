"""Bots in a real Chromium: a bot's challenge reaches a person's page marked BOT and is accepted
there; the game page's seats, the bots' own leaderboard and the bot's profile mark it BOT; the
account page makes an API token (its secret shown once), lists it and revokes it; axe-core finds
nothing serious on the leaderboards or the tokens. Screenshots of both go to docs/screenshots/."""

from __future__ import annotations

import random
import time
from typing import Any
from urllib.parse import quote

import httpcalls
import httpx
import pytest
from accountcalls import RAPID
from botcalls import make_bot
from browsing import SCREENSHOTS
from test_web_a11y import violations

from boardplay.web.accounts.service import COOKIE
from boardplay.web.ratings.rated import RATED_MIN_TURNS

pytestmark = pytest.mark.browser


def turns_of(view: dict[str, Any]) -> list[int]:
    turns, last = [0] * len(view["seats"]), None
    for move in view["moves"]:
        if move["player"] >= 0 and move["player"] != last:
            turns[move["player"]] += 1
        last = move["player"] if move["player"] >= 0 else last
    return turns


def test_a_bot_is_marked_everywhere_and_tokens_are_made_and_revoked_on_the_page(
    page: Any, server: str
) -> None:
    page.goto(f"{server}/#/signin")
    page.fill("#signup-name", "Hana_b")
    page.fill("#signup-password", "correct horse battery")
    page.click("#signup-submit")
    page.wait_for_function("document.querySelector('#account-link')?.textContent === 'Hana_b'")
    bot = make_bot(server, "Robo_b")
    page.goto(f"{server}/#/")
    sent = bot.post(
        server, "/api/challenge/Hana_b", {"game": "proteus", "rated": True, "clock": RAPID}
    )
    assert sent.status_code == 201, sent.text
    bar = page.locator(".challenge[data-challenge]")
    bar.wait_for()
    assert bar.locator(".bot-tag").inner_text() == "BOT"
    bar.locator(".accept-challenge").click()
    page.wait_for_url("**/#/game/*")
    game_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector("#seats .bot-tag")
    assert page.locator("#seats .bot-tag").count() == 1

    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)
    hana = httpx.Client(base_url=server, cookies={COOKIE: cookie}, timeout=20)
    hana.headers["X-CSRF-Token"] = hana.get("/api/account/me").json()["csrf"]
    token = hana.post(f"/api/account/games/{game_id}/token").json()["token"]
    rng = random.Random(3)
    view = hana.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
    while min(turns_of(view)) < RATED_MIN_TURNS:
        if view["your_turn"]:
            move = rng.choice(view["legal"])["id"]
            answer = hana.post(
                f"/api/games/{game_id}/actions",
                json={"action": move, "ply": view["ply"]},
                headers={"Authorization": f"Bearer {token}"},
            )
        else:
            move = quote(rng.choice(view["legal"])["move"], safe="")
            answer = bot.post(server, f"/api/bot/game/{game_id}/move/{move}")
        assert answer.status_code == 200, answer.text
        view = hana.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        view = view.json()
        assert view["status"] == "active"
    assert bot.post(server, f"/api/bot/game/{game_id}/resign").status_code == 200
    for _ in range(100):
        if httpcalls.get(f"{server}/api/ratings/proteus?bots=true").json()["players"]:
            break
        time.sleep(0.1)

    page.goto(f"{server}/#/ratings/proteus")
    page.wait_for_selector("#bot-leaderboard")
    assert "Robo_b" in page.locator("#bot-leaderboard").inner_text()
    assert page.locator("#bot-leaderboard .bot-tag").count() == 1
    assert "Robo_b" not in page.locator("#leaderboard").inner_text()
    assert page.locator("#leaderboard .bot-tag").count() == 0
    page.screenshot(path=str(SCREENSHOTS / "bots-ratings.png"), full_page=True)
    found = violations(page, "ratings with bots")
    page.goto(f"{server}/#/player/Robo_b")
    page.wait_for_selector("#profile h2 .bot-tag")

    page.goto(f"{server}/#/account")
    page.wait_for_selector("#token-form")
    assert page.locator("#bot-upgrade").count() == 1  # a person's account may not: it played
    page.fill("#token-label", "my engine")
    page.click("#make-token")
    shown = page.locator("#new-token-value")
    shown.wait_for()
    secret = shown.inner_text()
    assert secret.startswith("bp_")
    assert page.locator("#tokens li").count() == 1
    me = httpcalls.get(f"{server}/api/account", headers={"Authorization": f"Bearer {secret}"})
    assert me.json()["username"] == "Hana_b" and me.json()["title"] is None
    page.screenshot(path=str(SCREENSHOTS / "bots-tokens.png"), full_page=True)
    found += violations(page, "account tokens")
    assert not found, found
    page.locator(".revoke-token").click()
    page.wait_for_selector("p#tokens")
    assert page.locator("#new-token-value").count() == 0  # shown once: gone on the redraw
    gone = httpcalls.get(f"{server}/api/account", headers={"Authorization": f"Bearer {secret}"})
    assert gone.status_code == 401
