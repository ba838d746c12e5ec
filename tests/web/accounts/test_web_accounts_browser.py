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

import httpcalls
import httpx
import pytest
from accountcalls import RAPID
from browsing import SCREENSHOTS, click_a_move, status, wait_turn

from boardplay.web.ratings.rated import RATED_MIN_TURNS

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


def test_after_signing_out_everywhere_a_browser_signed_in_again_gets_its_seat_back(
    browsers: Any, server: str
) -> None:
    """Signing out everywhere ends every seat token of the account (issue 47), those this very
    browser kept included: signed in again, its page finds its stored token ended and asks the
    account for a new one, and the game goes on."""
    base = local(server)
    first = browsers()
    sign_up_with_password(first.page, base, "Rin", "rin secret 1")
    page = first.page
    page.goto(f"{base}/#/")
    page.select_option("#game-select", "proteus")
    page.wait_for_function(
        "() => document.querySelector('#seats')?.dataset.game === 'proteus'"
        " && document.querySelectorAll('#seats .seat-row').length === 2"
    )
    page.click("#create")
    page.wait_for_url("**/#/game/**")
    game_id = page.url.rsplit("/", 1)[-1]
    lost = browsers(PHONE)  # another device, from which the account signs out everywhere
    lost.page.goto(f"{base}/#/signin")
    lost.page.fill("#signin-name", "rin")
    lost.page.fill("#signin-password", "rin secret 1")
    lost.page.click("#signin-submit")
    signed_in_as(lost.page, "Rin")
    lost.page.goto(f"{base}/#/account")
    lost.page.click("#signout-everywhere")
    lost.page.wait_for_function(
        "() => !document.querySelector('#account-link')?.textContent?.includes('Rin')"
    )
    page.goto(f"{base}/#/signin")
    page.reload()  # the laptop's page comes back later: its session has ended
    page.fill("#signin-name", "rin")
    page.fill("#signin-password", "rin secret 1")
    page.click("#signin-submit")
    signed_in_as(page, "Rin")
    page.goto(f"{base}/#/game/{game_id}")
    page.evaluate("document.querySelector('#tutorial-skip')?.click()")
    view = wait_turn(page)
    assert view.get("yours") == "1"
    click_a_move(page, random.Random(5))
    page.wait_for_function("() => document.querySelector('#status').dataset.ply !== '0'")


def turns_of(view: dict[str, Any]) -> list[int]:
    """The turns each seat has played (runs of its own moves; chance steps do not break one)."""
    turns = [0] * len(view["seats"])
    last = None
    for move in view["moves"]:
        if move["player"] < 0:
            continue
        if move["player"] != last:
            turns[move["player"]] += 1
        last = move["player"]
    return turns


def play_until_each_played(base: str, game_id: str, *pages: Any) -> None:
    """Click moves for whichever page is to move until each seat has played the turns a
    resignation needs to be rated (``rated.RATED_MIN_TURNS``)."""
    rng = random.Random(7)
    for page in pages:
        page.evaluate("document.querySelector('#tutorial-skip')?.click()")
    deadline = time.monotonic() + 120
    while min(turns_of(httpcalls.get(f"{base}/api/games/{game_id}").json())) < RATED_MIN_TURNS:
        assert time.monotonic() < deadline, "the players did not get to play their turns"
        for page in pages:
            seen = status(page)
            if seen.get("yours") == "1" and seen.get("terminal") != "1":
                click_a_move(page, rng)
                page.wait_for_function(
                    "ply => document.querySelector('#status').dataset.ply !== ply",
                    arg=seen["ply"],
                )
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


def test_two_players_find_each_other_through_a_seek_and_their_rated_game_reaches_both_profiles(
    browsers: Any, server: str
) -> None:
    base = local(server)
    hana, kenji = browsers(), browsers()
    sign_up_with_password(hana.page, base, "Haru", "first secret")
    sign_up_with_password(kenji.page, base, "Kenji", "second secret")
    # Haru posts a rated Proteus seek; it appears in Kenji's lobby without a reload.
    kenji.page.goto(f"{base}/#/")
    kenji.page.wait_for_selector("#seek-list")
    page = hana.page
    page.goto(f"{base}/#/")
    page.select_option("#game-select", "proteus")
    page.check("#rated")
    page.click("#post-seek")
    page.wait_for_selector("#seek-list tr[data-seek] .cancel-seek")
    seek = kenji.page.locator("#seek-list tr[data-seek]")
    seek.wait_for()
    assert "Haru" in seek.inner_text() and "rated" in seek.inner_text()
    # Kenji plays it: the game starts for both at once.
    seek.locator(".accept-seek").click()
    kenji.page.wait_for_url("**/#/game/**")
    game_id = kenji.page.url.rsplit("/", 1)[-1]
    hana.page.wait_for_url(f"**/#/game/{game_id}")
    for player in (hana.page, kenji.page):
        player.wait_for_selector("#seats a.player-link")
        assert sorted(player.locator("#seats a.player-link").all_inner_texts()) == ["Haru", "Kenji"]
        # Both pages are open: each shows both players at the table (a filled dot per seat).
        player.wait_for_function(
            "() => document.querySelectorAll('#seats li[data-here=\"true\"]').length === 2"
        )
    assert hana.page.locator("#seek-list").count() == 0  # the seek is gone with the lobby
    # Both have played their first turns (a resignation before them is not rated), then Kenji
    # resigns.
    play_until_each_played(base, game_id, hana.page, kenji.page)
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


def test_a_challenge_by_name_is_accepted_from_the_other_players_page(
    browsers: Any, server: str
) -> None:
    base = local(server)
    ayu, ren = browsers(), browsers(PHONE)
    sign_up_with_password(ayu.page, base, "Ayu", "ayu secret 1")
    sign_up_with_password(ren.page, base, "Ren", "ren secret 1")
    ren.page.goto(f"{base}/#/ratings")  # any page: the notice comes under the header
    ayu.page.goto(f"{base}/#/")
    ayu.page.select_option("#game-select", "proteus")
    ayu.page.fill("#challenge-name", "ren")
    ayu.page.click("#challenge-form button[type=submit]")
    ayu.page.wait_for_selector("#my-challenges .cancel-challenge")
    notice = ren.page.locator("#challenge-bar .challenge")
    notice.wait_for()
    assert "Ayu" in notice.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ren.page.screenshot(path=str(SCREENSHOTS / "challenge-phone.png"))
    notice.locator(".accept-challenge").click()
    ren.page.wait_for_url("**/#/game/**")
    game_id = ren.page.url.rsplit("/", 1)[-1]
    ayu.page.wait_for_url(f"**/#/game/{game_id}")
    for page in (ayu.page, ren.page):
        page.wait_for_function("() => document.querySelector('#status')?.dataset.ply !== undefined")
        page.wait_for_selector("#seats a.player-link")
    assert sorted(ren.page.locator("#seats a.player-link").all_inner_texts()) == ["Ayu", "Ren"]
    assert "1" in {status(ayu.page).get("yours"), status(ren.page).get("yours")}


def test_a_game_goes_on_in_a_fresh_browser_signed_in_to_the_same_account(
    browsers: Any, server: str
) -> None:
    base = local(server)
    first = browsers()
    sign_up_with_password(first.page, base, "Mio", "mio secret 1")
    page = first.page
    page.goto(f"{base}/#/")
    page.select_option("#game-select", "proteus")
    page.wait_for_function(
        "() => document.querySelector('#seats')?.dataset.game === 'proteus'"
        " && document.querySelectorAll('#seats .seat-row').length === 2"
    )
    page.click("#create")
    page.wait_for_url("**/#/game/**")
    game_id = page.url.rsplit("/", 1)[-1]
    fresh = browsers(PHONE)
    fresh.page.goto(f"{base}/#/signin")
    fresh.page.fill("#signin-name", "mio")
    fresh.page.fill("#signin-password", "mio secret 1")
    fresh.page.click("#signin-submit")
    signed_in_as(fresh.page, "Mio")
    mine = fresh.page.locator(f"#my-games tr[data-game='{game_id}'] a[href^='#/game/']")
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
    """A rated Proteus game: the turns a resignation needs to be rated, then seat ``loser``
    resigns."""
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = sora.post(
        "/api/games", json={"game": "proteus", "seats": seats, "rated": True, "clock": RAPID}
    ).json()
    joined = riku.post(f"/api/games/{made['id']}/join", json={"seat": 1}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    view = joined["game"]
    rng = random.Random(loser)
    while min(turns_of(view)) < RATED_MIN_TURNS:
        seat = view["current_player"]
        move = rng.choice(view["legal"])["id"]
        view = sora.post(
            f"/api/games/{made['id']}/actions",
            json={"action": move, "ply": view["ply"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        ).json()["game"]
        assert view["status"] == "active", "the game ended before the turns a rating needs"
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
    page.wait_for_selector("#seats .seat-row")
    page.wait_for_selector("#turns-link:not([hidden])")
    page.screenshot(path=str(SCREENSHOTS / f"lobby-signed-in{suffix}.png"))
    # Riku looks for a rated Proteus game: the seek appears in Sora's lobby as it is posted.
    riku = httpx.Client(base_url=base)
    signed = riku.post("/api/account/signin", json={"name": "Riku", "password": "seed secret"})
    riku.headers["X-CSRF-Token"] = signed.json()["csrf"]
    seek = riku.post("/api/seeks", json={"game": "proteus", "rated": True, "clock": RAPID}).json()[
        "seek"
    ]
    try:
        page.locator(f"#seek-list tr[data-seek='{seek['id']}']").wait_for()
        page.locator("#seeks-panel").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"seeks{suffix}.png"))
    finally:
        riku.delete(f"/api/seeks/{seek['id']}")
    page.goto(f"{base}/#/player/Sora")
    page.wait_for_selector("#profile-history .rating-chart")
    assert page.locator("#profile-results td").all_inner_texts()[1:5] == ["2", "1", "0", "1"]
    page.screenshot(path=str(SCREENSHOTS / f"profile{suffix}.png"), full_page=True)
    page.goto(f"{base}/#/ratings/proteus")
    page.wait_for_selector("#leaderboard")
    page.screenshot(path=str(SCREENSHOTS / f"ratings{suffix}.png"), full_page=True)
