"""The installable app and its notifications in Chromium (issue 52, D9). What a browser here can
and cannot do decides the shape of these tests:

- exercised in Chromium: the manifest is linked and valid and its icons load; the service worker
  (``/sw.js``) registers at the root and controls the page; the account page's switch turns
  notifications on and off through the page's own code (``notify.js``, ``pushpanel.js``) and the
  server keeps the subscription; an in-page notice (a game waiting while the tab is hidden) is
  raised with ``registration.showNotification`` while ``new Notification()`` throws as it does on
  Android; the worker's ``push`` handler shows a push the server really sent (posted to a push
  service on loopback, decrypted here, then delivered to the worker through DevTools'
  ``ServiceWorker.deliverPushMessage``), drops one whose game a visible page shows and a
  challenge while a page is visible; its one-click off and its opening of a page;
- not exercised: the browser's own push service. Chromium's is Google's (FCM), which cannot be
  reached here: ``pushManager.subscribe`` fails at once in Playwright's incognito contexts and
  never answers in a persistent one. So ``PushManager`` is replaced in these pages by a stand-in
  whose subscription is a device of this test (``pushservice.Device``), pointed at the loopback
  push service; the real transport from FCM to the browser is not tested. Nor is a click on a
  system notification (no API clicks one): the worker's handlers are called instead.

``BOARDPLAY_SHOTS=dir`` saves the screens (account page's notification settings in each state,
the "your turn" page's opt-in, the install offer) at 1280×800 and 390×844, in English and
Japanese."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import ARGS, CHROMIUM, check_server_logs, free_port, serve
from pushservice import Device, PushService, push_service
from test_web_a11y import violations  # axe-core's serious and critical findings

from boardplay.web.accounts.service import COOKIE, DEVICE_COOKIE

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ["BOARDPLAY_SHOTS"]) if os.environ.get("BOARDPLAY_SHOTS") else None
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"

STAND_IN = """
(() => {
  if (location.protocol !== "http:") return; // about:blank
  // PushManager with this test's device as the push service's answer (Chromium's own push
  // service, Google's, cannot be reached here). Kept in localStorage across reloads.
  const sub = %s;
  const KEY = "boardplay-test-push";
  const make = (key) => ({
    endpoint: sub.endpoint, expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(key).buffer },
    toJSON: () => sub,
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    const given = options.applicationServerKey;
    const key = Array.from(new Uint8Array(given.buffer || given));
    localStorage.setItem(KEY, JSON.stringify(key));
    return make(key);
  };
  PushManager.prototype.getSubscription = async function () {
    const key = localStorage.getItem(KEY);
    return key ? make(JSON.parse(key)) : null;
  };
})();
"""
ANDROID = """
(() => {
  if (location.protocol !== "http:") return; // about:blank
  // As Chrome on Android: `new Notification()` throws; showNotification is recorded.
  const Real = window.Notification;
  window.Notification = new Proxy(Real, { construct() {
    throw new TypeError("Failed to construct 'Notification': Illegal constructor. "
      + "Use ServiceWorkerRegistration.showNotification() instead.");
  } });
  window.__shown = [];
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    window.__shown.push({ title, body: options && options.body, tag: options && options.tag });
    return show.call(this, title, options);
  };
})();
"""

LANGUAGE = "if (location.protocol === 'http:') localStorage.setItem('boardplay.lang', %s);"


class Web:
    """A player over HTTP (their cookies, their CSRF token)."""

    def __init__(self, origin: str, name: str) -> None:
        self.origin = origin
        self.http = httpx.Client(base_url=origin, timeout=30)
        answer = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf"]

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"X-CSRF-Token": self.csrf}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        answer = self.http.request(method, path, json=body, headers=headers)
        assert answer.status_code < 300, answer.text
        return answer.json()

    def cookies(self) -> list[dict[str, Any]]:
        """The browser's cookies (the sign-in and the device), for a context: a returning
        player."""
        jar = self.http.cookies
        return [
            {"name": name, "value": jar[name], "url": self.origin}
            for name in (COOKIE, DEVICE_COOKIE)
        ]


def correspondence(hana: Web, kenji: Web) -> dict[str, Any]:
    made = hana.call(
        "POST",
        "/api/games",
        {"game": "proteus", "seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"days": 3}},
    )
    joined = kenji.call("POST", f"/api/games/{made['id']}/join", {"seat": 1})
    return {"id": made["id"], 0: made["token"], 1: joined["token"]}


def play_turn(player: Web, game: dict[str, Any], seat: int) -> None:
    """Every decision of ``seat``'s turn, over HTTP."""
    view = player.call("GET", f"/api/games/{game['id']}", token=game[seat])
    while view["current_player"] == seat and not view.get("terminal"):
        body = {"action": view["legal"][0]["id"], "ply": view["ply"]}
        view = player.call("POST", f"/api/games/{game['id']}/actions", body, game[seat])["game"]


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    yield from push_service()


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory, service: PushService) -> Iterator[str]:
    """``boardplay serve`` that posts pushes to the loopback push service."""
    port = free_port()
    db = tmp_path_factory.mktemp("push") / "web.sqlite3"
    process = serve(db, port, {"BOARDPLAY_WEB_PUSH_SERVICES": service.origin})
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (make chromium)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def context_of(
    chromium: Any,
    origin: str,
    player: Web,
    device: Device,
    viewport: dict[str, int],
    lang: str = "en",
    allow: bool = True,
) -> Any:
    context = chromium.new_context(viewport=viewport, service_workers="allow")
    context.add_cookies(player.cookies())
    if allow:
        context.grant_permissions(["notifications"], origin=origin)
    context.add_init_script(STAND_IN % json.dumps(device.subscription()))
    context.add_init_script(LANGUAGE % json.dumps(lang))
    return context


def notifications(page: Any) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = page.evaluate(
        """async () => (await (await navigator.serviceWorker.ready).getNotifications())
             .map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data,
                            actions: n.actions.map((a) => a.action) }))"""
    )
    return shown


def shown_with(page: Any, tag: str, timeout: float = 15.0) -> dict[str, Any]:
    """The notification with ``tag``, once the worker has shown it."""
    end = time.monotonic() + timeout
    while True:
        found = [n for n in notifications(page) if n["tag"] == tag]
        if found:
            return found[0]
        assert time.monotonic() < end, f"no notification {tag}: {notifications(page)}"
        time.sleep(0.2)


def forget_notifications(page: Any) -> None:
    page.evaluate(
        "async () => (await (await navigator.serviceWorker.ready).getNotifications())"
        ".forEach((n) => n.close())"
    )
    end = time.monotonic() + 10
    while notifications(page):
        assert time.monotonic() < end, notifications(page)
        time.sleep(0.1)


def language_is(player: Web, lang: str, timeout: float = 10.0) -> None:
    """The account's language (its mails' and pushes') becomes ``lang``."""
    end = time.monotonic() + timeout
    while player.call("GET", "/api/account/me")["account"]["language"] != lang:
        assert time.monotonic() < end, f"the account's language is not {lang}"
        time.sleep(0.1)


def shot(page: Any, name: str) -> None:
    """What the player sees with the notification settings scrolled into view (the note that
    a change worked, which fades after 6 s, gone already)."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("document.getElementById('note').hidden = true")
        page.locator("#push-section").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_the_app_installs_and_its_service_worker_shows_every_notification(
    chromium: Any, origin: str, service: PushService
) -> None:
    hana, kenji = Web(origin, "Hana"), Web(origin, "Kenji")
    phone = Device(service.origin, "kenji-browser")
    context = context_of(chromium, origin, kenji, phone, DESKTOP)
    context.add_init_script(ANDROID)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    devtools = context.new_cdp_session(page)
    registrations: list[str] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(
            r["registrationId"] for r in e["registrations"] if not r["isDeleted"]
        ),
    )
    devtools.send("ServiceWorker.enable")
    page.clock.install()
    page.goto(f"{origin}/#/account")

    # The manifest is linked and valid; its icons load.
    assert page.locator("link[rel=manifest]").get_attribute("href") == "/manifest.webmanifest"
    manifest = page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] == "boardplay" and manifest["theme_color"] == "#2c2a26"
    for icon in manifest["icons"]:
        kind = page.evaluate(
            f"fetch({json.dumps(icon['src'])}).then((r) => r.ok && r.headers.get('content-type'))"
        )
        assert kind and kind.startswith("image/"), icon
    # The service worker registers at the root and controls the page from its next load.
    scope, script = page.evaluate(
        "navigator.serviceWorker.ready.then((r) => [r.scope, r.active.scriptURL])"
    )
    assert (scope, script) == (f"{origin}/", f"{origin}/sw.js")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{origin}/sw.js"
    assert [w.url for w in context.service_workers] == [f"{origin}/sw.js"]
    worker = context.service_workers[0]

    # Turned on from the account page: the server keeps this device's subscription.
    page.wait_for_selector("#push-section[data-state=off] #push-on")
    page.click("#push-on")
    page.wait_for_selector("#push-section[data-state=on]")
    assert kenji.call("GET", "/api/push")["endpoint"] == phone.endpoint

    # Hana moves; Kenji has no page of the game open: the server pushes "your turn".
    game = correspondence(hana, kenji)
    play_turn(hana, game, 0)
    push = service.wait(phone.path, 1)[0]
    message = phone.read(push)
    assert message["kind"] == "turn" and message["title"] == "Your turn"
    assert message["body"] == "Proteus against Hana"

    # The worker shows it, with its "Turn off" button, while no page of the site is open.
    rid = registrations[-1]
    page.goto("about:blank")
    devtools.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": rid, "data": json.dumps(message)},
    )
    page.goto(f"{origin}/#/account")
    shown = shown_with(page, message["tag"])
    assert shown["title"] == "Your turn" and shown["actions"] == ["off"]
    assert shown["data"]["url"] == f"/#/game/{game['id']}"

    # ... but not while a visible page shows that game, nor a challenge while a page is visible.
    forget_notifications(page)
    page.goto(f"{origin}/#/game/{game['id']}")
    page.wait_for_selector("svg")
    challenge = {**message, "kind": "challenge", "tag": "boardplay-challenge-x", "game": None}
    other = {**message, "game": "another", "tag": "boardplay-turn-another"}
    for each in (message, challenge, other):  # handled in turn: the last one shows
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": rid, "data": json.dumps(each)},
        )
    shown_with(page, other["tag"])
    assert [n["tag"] for n in notifications(page)] == [other["tag"]]

    # An in-page notice: a game newly waiting while the tab is hidden is told through the
    # service worker; `new Notification()` (which throws here, as on Android) is never called.
    page.goto(f"{origin}/#/")
    page.wait_for_selector("#turns-count:not([hidden])")
    second = correspondence(hana, kenji)
    play_turn(hana, second, 0)
    page.evaluate(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => true })"
    )
    page.clock.fast_forward(25_000)  # the "your turn" list is looked at every 20 s
    page.wait_for_function("window.__shown.length > 0")
    told = page.evaluate("window.__shown")
    assert told[0]["title"] == "Your turn" and told[0]["tag"] == f"boardplay-turn-{second['id']}"
    assert "Hana" in told[0]["body"]
    assert page.evaluate("Notification.permission") == "granted"

    # The worker opens a notification's page, and its "Turn off" forgets this device on the
    # server with the subscription's own secret (no cookie) and says so.
    worker.evaluate("openPage('/#/turns')")
    page.wait_for_url(f"{origin}/#/turns")
    keys = phone.subscription()["keys"]
    worker.evaluate(
        """(sub) => {
          self.registration.pushManager.getSubscription = async () => ({
            toJSON: () => sub, unsubscribe: async () => true });
          return turnOff("Notifications are off on this device.");
        }""",
        {"endpoint": phone.endpoint, "keys": keys},
    )
    assert kenji.call("GET", "/api/push")["device"] is False
    assert shown_with(page, "boardplay-off")["body"] == "Notifications are off on this device."
    assert not errors, errors
    context.close()
    check_server_logs()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_notification_settings_in_every_state_desktop_and_phone(
    chromium: Any, origin: str, service: PushService, lang: str
) -> None:
    hana = Web(origin, f"Mika{lang}")
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        player = Web(origin, f"Ren{lang}{size[0]}")
        device = Device(service.origin, f"{lang}-{size}")
        context = context_of(chromium, origin, player, device, viewport, lang)
        page = context.new_page()
        page.goto(f"{origin}/#/account")
        page.wait_for_selector("#push-section[data-state=off] #push-on")
        assert page.locator("html").get_attribute("lang") == lang
        # The account takes the page's language for its mails and pushes, and follows the menu.
        language_is(player, lang)
        if size == "desktop":
            other = "en" if lang == "ja" else "ja"
            page.select_option("#language", other)
            language_is(player, other)
            page.select_option("#language", lang)
            language_is(player, lang)
            page.wait_for_selector("#push-section[data-state=off] #push-on")
        shot(page, f"account-push-off-{lang}-{size}")
        page.click("#push-on")
        page.wait_for_selector("#push-section[data-state=on] #push-off")
        shot(page, f"account-push-on-{lang}-{size}")
        assert violations(page, f"notification settings, {lang}, {size}") == []
        # The browser offers to install the app (headless Chromium never does by itself).
        page.evaluate(
            """() => { const offer = new Event("beforeinstallprompt");
                       offer.prompt = async () => {};
                       offer.userChoice = Promise.resolve({ outcome: "dismissed" });
                       window.dispatchEvent(offer); }"""
        )
        page.wait_for_selector("#install-app")
        shot(page, f"account-install-{lang}-{size}")
        # The "your turn" page: the games waiting and the same switch.
        game = correspondence(hana, player)
        play_turn(hana, game, 0)
        page.goto(f"{origin}/#/turns")
        page.wait_for_selector(f"#turns-list tr[data-game='{game['id']}']")
        page.wait_for_selector("#push-section[data-state=on]")
        shot(page, f"turns-push-on-{lang}-{size}")
        page.click("#push-off")
        page.wait_for_selector("#push-section[data-state=off] #push-on")
        assert player.call("GET", "/api/push")["device"] is False
        shot(page, f"turns-push-off-{lang}-{size}")
        context.close()
        # Notifications blocked in the browser's settings; and a browser whose push service
        # cannot be reached (here: Chromium's own, in an incognito context).
        context = chromium.new_context(viewport=viewport, service_workers="allow")
        context.add_cookies(player.cookies())
        context.add_init_script(LANGUAGE % json.dumps(lang))
        context.add_init_script(
            "Object.defineProperty(Notification, 'permission', { get: () => 'denied' });"
        )
        page = context.new_page()
        page.goto(f"{origin}/#/account")
        page.wait_for_selector("#push-section[data-state=blocked]")
        assert not page.locator("#push-on").count()
        shot(page, f"account-push-blocked-{lang}-{size}")
        context.close()
        context = chromium.new_context(viewport=viewport, service_workers="allow")
        context.add_cookies(player.cookies())
        context.grant_permissions(["notifications"], origin=origin)
        context.add_init_script(LANGUAGE % json.dumps(lang))
        page = context.new_page()
        page.goto(f"{origin}/#/account")
        page.click("#push-section[data-state=off] #push-on")
        page.wait_for_selector("#push-error:not([hidden])")
        assert violations(page, f"push service unreachable, {lang}, {size}") == []
        assert page.locator("#push-section").get_attribute("data-state") == "off"
        shot(page, f"account-push-unreachable-{lang}-{size}")
        context.close()
    check_server_logs()
