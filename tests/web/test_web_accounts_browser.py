"""Accounts in a real Chromium: a passkey made and used through Chromium's virtual authenticator
(the CDP ``WebAuthn`` domain, so no person touches a key), a password account, a rated Proteus
game between two signed-in players that ends on both profiles, and a game continued from a fresh
browser signed in to the same account. Screenshots of the sign-up page, a profile and the ratings
go to docs/screenshots/ (desktop and phone, English and Japanese)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsing import SCREENSHOTS, click_a_move, status, wait_turn

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}


def local(server: str) -> str:
    """Browsers refuse passkeys on an IP address: the same server as ``localhost``."""
    return server.replace("127.0.0.1", "localhost")


class Browser:
    """A fresh browser context (its own cookies and storage), failing on any script error."""

    def __init__(self, chromium: Any, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = chromium.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("dialog", self._dialog)
        self.answer: str | None = None

    def _dialog(self, dialog: Any) -> None:
        dialog.accept(self.answer) if self.answer is not None else dialog.accept()

    def authenticator(self) -> str:
        """A virtual platform authenticator that holds discoverable passkeys and verifies the
        user at once."""
        cdp = self.context.new_cdp_session(self.page)
        cdp.send("WebAuthn.enable")
        added = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )
        self.cdp = cdp
        return str(added["authenticatorId"])

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def browsers(browser: Any) -> Iterator[list[Browser]]:
    made: list[Browser] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Browser:
        made.append(Browser(browser, viewport))
        return made[-1]

    yield make  # type: ignore[misc]
    for b in made:
        b.close()


def signed_in_as(page: Any, name: str) -> None:
    page.wait_for_function(
        "name => document.querySelector('#account-link')?.textContent === name", arg=name
    )


def sign_up_with_password(page: Any, base: str, name: str, password: str) -> None:
    page.goto(f"{base}/#/signin")
    page.fill("#signup-name", name)
    page.fill("#signup-password", password)
    page.click("#signup-submit")
    signed_in_as(page, name)


def play_until_both_moved(*pages: Any) -> None:
    """Click moves for whichever page is to move until each has made one."""
    rng = random.Random(7)
    for page in pages:
        page.evaluate("document.querySelector('#tutorial-skip')?.click()")
    moved: set[int] = set()
    deadline = time.monotonic() + 90
    while len(moved) < len(pages):
        assert time.monotonic() < deadline, "the players did not both get to move"
        for number, page in enumerate(pages):
            seen = status(page)
            if seen.get("yours") == "1" and seen.get("terminal") != "1":
                click_a_move(page, rng)
                page.wait_for_function(
                    "ply => document.querySelector('#status').dataset.ply !== ply",
                    arg=seen["ply"],
                )
                moved.add(number)
        time.sleep(0.1)


def test_a_passkey_signs_up_signs_out_and_signs_in_again(browsers: Any, server: str) -> None:
    base = local(server)
    hana = browsers()
    authenticator = hana.authenticator()
    page = hana.page
    page.goto(f"{base}/#/signin")
    page.fill("#signup-name", "Hana")
    page.click("#signup-passkey")
    signed_in_as(page, "Hana")
    credentials = hana.cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(credentials["credentials"]) == 1
    assert credentials["credentials"][0]["isResidentCredential"]
    page.goto(f"{base}/#/account")
    page.wait_for_selector("#passkeys li")
    page.click("#signout")
    signed_in_as(page, "Sign in")
    page.goto(f"{base}/#/signin")
    page.click("#signin-passkey")
    signed_in_as(page, "Hana")
    page.goto(f"{base}/#/account")
    assert "Hana" in page.inner_text("#account-page h2")


def test_a_rated_game_between_two_signed_in_players_reaches_both_profiles(
    browsers: Any, server: str
) -> None:
    base = local(server)
    hana, kenji = browsers(), browsers()
    sign_up_with_password(hana.page, base, "Haru", "first secret")
    # Hana's rated Proteus game with an open seat; Kenji takes it from the lobby.
    page = hana.page
    page.goto(f"{base}/#/")
    page.select_option("#game-select", "proteus")
    page.check("#rated")
    page.wait_for_function("() => document.querySelector('select[name=seat-1]')?.value === 'open'")
    page.click("#create")
    page.wait_for_url("**/#/game/**")
    game_id = page.url.rsplit("/", 1)[-1]
    sign_up_with_password(kenji.page, base, "Kenji", "second secret")
    kenji.page.goto(f"{base}/#/")
    kenji.page.click(f"#open-games tr[data-game='{game_id}'] button.join")
    kenji.page.wait_for_url(f"**/#/game/{game_id}")
    kenji.page.wait_for_selector("#seats a.player-link")
    assert kenji.page.locator("#seats a.player-link").all_inner_texts() == ["Haru", "Kenji"]
    # Both have made a move (a game nobody played is not rated), then Kenji resigns.
    play_until_both_moved(hana.page, kenji.page)
    kenji.page.click("#resign")
    kenji.page.wait_for_function("() => document.querySelector('#status').dataset.terminal === '1'")
    for page, name in ((hana.page, "Haru"), (kenji.page, "Kenji")):
        page.goto(f"{base}/#/player/{name}")
        page.wait_for_selector("#profile-ratings tr[data-pool='proteus']", timeout=15_000)
        row = page.inner_text("#profile-ratings tr[data-pool='proteus']")
        assert "?" in row  # provisional after one game
        assert game_id in page.inner_html("#profile-recent")
    page.goto(f"{base}/#/ratings/proteus")
    page.wait_for_selector("#leaderboard")
    assert [x.strip() for x in page.locator("#leaderboard a.player-link").all_inner_texts()] == [
        "Haru",
        "Kenji",
    ]


def test_a_game_goes_on_in_a_fresh_browser_signed_in_to_the_same_account(
    browsers: Any, server: str
) -> None:
    base = local(server)
    first = browsers()
    sign_up_with_password(first.page, base, "Mio", "mio secret 1")
    page = first.page
    page.goto(f"{base}/#/")
    page.select_option("#game-select", "proteus")
    page.click("#create")
    page.wait_for_url("**/#/game/**")
    game_id = page.url.rsplit("/", 1)[-1]
    fresh = browsers(PHONE)
    fresh.page.goto(f"{base}/#/signin")
    fresh.page.fill("#signin-name", "mio")
    fresh.page.fill("#signin-password", "mio secret 1")
    fresh.page.click("#signin-submit")
    signed_in_as(fresh.page, "Mio")
    mine = fresh.page.locator(f"#my-games tr[data-game='{game_id}'] a")
    mine.click()
    fresh.page.wait_for_url(f"**/#/game/{game_id}")
    fresh.page.evaluate("document.querySelector('#tutorial-skip')?.click()")
    view = wait_turn(fresh.page)
    assert view.get("yours") == "1"
    click_a_move(fresh.page, random.Random(3))
    fresh.page.wait_for_function("() => document.querySelector('#status').dataset.ply !== '0'")


def seeded_rated_games(base: str) -> None:
    """Two players (Sora, Riku) and two finished rated Proteus games between them, through the
    API, so the profile (with its chart) and the leaderboard have something to show."""
    players = []
    for name in ("Sora", "Riku"):
        client = httpx.Client(base_url=base)
        answer = client.post("/api/account/signup", json={"name": name, "password": "seed secret"})
        if answer.status_code == 409:  # made by an earlier parametrisation
            return
        client.headers["X-CSRF-Token"] = answer.json()["csrf"]
        players.append(client)
    for loser in (1, 0):
        rated_proteus(*players, loser)


def rated_proteus(sora: httpx.Client, riku: httpx.Client, loser: int) -> None:
    """A rated Proteus game: a move each, then seat ``loser`` resigns."""
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = sora.post("/api/games", json={"game": "proteus", "seats": seats, "rated": True}).json()
    joined = riku.post(f"/api/games/{made['id']}/join", json={"seat": 1}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    view = joined["game"]
    for _ in range(2):
        seat = view["current_player"]
        move = view["legal"][0]["id"]
        view = sora.post(
            f"/api/games/{made['id']}/actions",
            json={"action": move, "ply": view["ply"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        ).json()["game"]
    resigned = sora.post(
        f"/api/games/{made['id']}/resign",
        json={},
        headers={"Authorization": f"Bearer {tokens[loser]}"},
    )
    assert resigned.json()["game"]["status"] == "finished", resigned.text


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_sign_up_profile_and_ratings(
    browsers: Any, server: str, lang: str, size: str
) -> None:
    base = local(server)
    seeded_rated_games(base)
    viewer = browsers(PHONE if size == "phone" else DESKTOP)
    page = viewer.page
    page.add_init_script(f"localStorage.setItem('boardplay.lang', '{lang}')")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    suffix = ("" if lang == "en" else "-ja") + ("" if size == "desktop" else "-phone")
    page.goto(f"{base}/#/signin")
    page.wait_for_selector("#signup-form")
    page.screenshot(path=str(SCREENSHOTS / f"signup{suffix}.png"), full_page=True)
    page.fill("#signin-name", "Sora")
    page.fill("#signin-password", "seed secret")
    page.click("#signin-submit")
    signed_in_as(page, "Sora")
    page.wait_for_selector("#rated")
    page.screenshot(path=str(SCREENSHOTS / f"lobby-signed-in{suffix}.png"))
    page.goto(f"{base}/#/player/Sora")
    page.wait_for_selector("#profile-ratings .rating-chart")
    assert page.locator("#profile-results td").all_inner_texts()[1:5] == ["2", "1", "0", "1"]
    page.screenshot(path=str(SCREENSHOTS / f"profile{suffix}.png"), full_page=True)
    page.goto(f"{base}/#/ratings/proteus")
    page.wait_for_selector("#leaderboard")
    page.screenshot(path=str(SCREENSHOTS / f"ratings{suffix}.png"), full_page=True)
