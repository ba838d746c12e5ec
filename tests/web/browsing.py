"""Helpers of the browser tests: a ``boardplay serve`` process whose log is read for failures,
Debian's Chromium through Playwright, and playing a game by clicking its board as a person
would. The fixtures that use them (``server``, ``browser``, ``page``) are in conftest.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpcalls
import httpx
import pytest
from websettings import TEST_LIMITS, start_migrated

from boardplay.core.records import Record
from boardplay.web.catalogue import REGISTRY

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
GAMES = REGISTRY.names()
MAX_CLICKS = 3000
SWALLOWED = ("could not describe", "could not build a view field")
"""What the server logs when a describer or a view's extra fails: the page then shows the game
without the words (or the board without a clickable move), so a test must not pass over it."""


class ServerLog:
    """The log (stderr) of one test server, read for what the server kept to itself: every
    traceback it logged (an exception a request or a background task met, a describer's
    included) and every swallowed presentation failure. A browser test would otherwise pass
    over them, seeing only a board without words or an unclickable move."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.read = 0

    def failures(self) -> list[str]:
        """The failures logged since the last call, each as its message and exception line."""
        with self.path.open("rb") as log:
            log.seek(self.read)
            text = log.read()
        self.read += len(text)
        return failures_in(text.decode(errors="replace"))


SERVER_LOGS: list[ServerLog] = []
"""The logs of the servers this session started (``serve``), checked after every page."""


def failures_in(text: str) -> list[str]:
    """The tracebacks (as the line before each, the message, and the exception that ends it)
    and the swallowed failures in a log's ``text``."""
    lines = text.splitlines()
    found: list[str] = []
    for index, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last)"):
            end = index + 1
            while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
                end += 1
            message = lines[index - 1] if index else ""
            found.append(f"{message} ... {lines[end] if end < len(lines) else '(cut off)'}")
        elif line.startswith(SWALLOWED) and not (
            index + 1 < len(lines) and lines[index + 1].startswith("Traceback")
        ):
            found.append(line)
    return found


def check_server_logs() -> None:
    """Fail the test if a server of this session logged a failure since the last check."""
    failures = [failure for log in SERVER_LOGS for failure in log.failures()]
    if failures:
        pytest.fail(f"the server logged {len(failures)} failure(s): {failures[:3]}")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve(db: Path, port: int, env: Mapping[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``boardplay serve`` on a loopback port (with ``env`` added to its environment),
    answering once it is up; its stderr goes to ``<db>.log``, read by ``check_server_logs``."""
    # A test clicks far faster than a person: the per-address ceilings of the security tests
    # (websettings.TEST_LIMITS), not the production ones, so a long click-through never meets
    # a 429 meant for a flooding visitor. That includes the budget of heavy reads, which counts
    # CPU seconds: a whole Montana game's replay costs 1.2-1.8 s of it on a slow machine of this
    # kind, and the endings test's third upload of one was refused there (never on a fast one).
    ceilings = {
        "BOARDPLAY_WEB_RATE_PER_SECOND": str(TEST_LIMITS.rate_per_second),
        "BOARDPLAY_WEB_RATE_BURST": str(TEST_LIMITS.rate_burst),
        "BOARDPLAY_WEB_GAMES_PER_VISITOR": str(TEST_LIMITS.games_per_visitor),
        "BOARDPLAY_WEB_SIGNUPS_PER_NETWORK": str(TEST_LIMITS.signups_per_network),
        "BOARDPLAY_WEB_CHAT_ACCOUNT_AGE": str(TEST_LIMITS.chat_account_age),
        "BOARDPLAY_WEB_RATED_FRESH_ACCOUNT": str(TEST_LIMITS.rated_fresh_account),
        "BOARDPLAY_WEB_HEAVY_SHARE": str(TEST_LIMITS.heavy_share),
        "BOARDPLAY_WEB_HEAVY_BURST": str(TEST_LIMITS.heavy_burst),
    }
    if "BOARDPLAY_DATABASE_URL" not in (env or {}):
        start_migrated(db)  # the schema the server would first make itself
    environment = {
        **os.environ,
        "BOARDPLAY_DATABASE_URL": f"sqlite:///{db}",
        **ceilings,
        **(env or {}),
    }
    path = db.with_name(db.name + ".log")
    with path.open("ab") as log:  # a restarted server writes after its first life
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "boardplay"), "serve", "--port", str(port)],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    if not any(known.path == path for known in SERVER_LOGS):
        SERVER_LOGS.append(ServerLog(path))
    for _ in range(600):
        try:
            if (
                httpcalls.get(f"http://127.0.0.1:{port}/api/catalogue", timeout=5).status_code
                == 200
            ):
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("the server did not start")


def create_game(
    page: Any,
    base: str,
    game: str,
    others: tuple[str, str | None] = ("ai", "medium"),
    options: dict[str, str] | None = None,
) -> str:
    """Fill in the lobby form (seat 0: me, every other seat: ``others``; the game options
    named in ``options``) and create the game; returns its id."""
    page.goto(f"{base}/#/")
    page.wait_for_selector("#game-select")
    page.select_option("#game-select", game)
    page.wait_for_selector(f"#seats[data-game='{game}'] .seat-row")
    if options:  # the rule variants sit behind "More options"
        page.evaluate("document.querySelector('#more-options').open = true")
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", value)
    count = len(page.query_selector_all("#seats .seat-row"))
    for seat in range(count):
        kind, level = ("me", None) if seat == 0 else others
        page.select_option(f"select[name=seat-{seat}]", kind)
        if level is not None:
            page.select_option(f"select[name=level-{seat}]", level)
    page.click("#create")
    page.wait_for_function("location.hash.startsWith('#/game/')")
    page.wait_for_selector("#status[data-ply]")
    game_id: str = page.evaluate("location.hash.split('/')[2]")
    return game_id


def status(page: Any) -> dict[str, str]:
    info: dict[str, str] = page.eval_on_selector(
        "#status",
        "el => ({ply: el.dataset.ply, terminal: el.dataset.terminal, yours: el.dataset.yourTurn})",
    )
    return info


def wait_turn(page: Any) -> dict[str, str]:
    """Waits until the game is over or it is our decision, with no forced move (the only legal
    one) about to be taken for us (pages/forced.js marks the status line while one waits)."""
    page.wait_for_function(
        "() => { const s = document.querySelector('#status');"
        " return s && !s.dataset.forced"
        " && (s.dataset.terminal === '1' || s.dataset.yourTurn === '1'); }",
        timeout=120_000,
    )
    return status(page)


def _click(page: Any, selector: str, attribute: str, value: str | None) -> None:
    """Click the element by its attribute value through a locator, which re-resolves if the
    page redraws the board between choosing and clicking (a late live update may do that)."""
    page.locator(f"{selector}[{attribute}={json.dumps(value)}]").first.click()


def click_a_move(page: Any, rng: random.Random) -> str:
    """Click one legal move on the board (first selecting a piece or tile where the board asks
    for it), or in the list of moves not drawn on it; returns which of the two it used."""
    ply = status(page)["ply"]
    targets = page.query_selector_all("#board [data-moves], #board [data-select]")
    if targets:
        for _ in range(3):
            chosen = rng.choice(targets)
            moves = chosen.get_attribute("data-moves")
            if moves is not None:
                break
            key = chosen.get_attribute("data-select")
            _click(page, "#board [data-select]", "data-select", key)
            page.wait_for_function(
                "key => document.querySelector('#board').dataset.selected === key", arg=key
            )
            targets = page.query_selector_all("#board [data-moves]")
            assert targets, f"selecting {key} offers no move"
        _click(page, "#board [data-moves]", "data-moves", chosen.get_attribute("data-moves"))
        choices = page.query_selector_all(".chooser button[data-move]")
        if choices:
            move = rng.choice(choices).get_attribute("data-move")
            _click(page, ".chooser button", "data-move", move)
        how = "board"
    else:
        buttons = page.query_selector_all("#legal-list button[data-move]")
        assert buttons, "no legal move is offered although it is our turn"
        move = rng.choice(buttons).get_attribute("data-move")
        _click(page, "#legal-list button", "data-move", move)
        how = "list"
    page.wait_for_function(
        "ply => document.querySelector('#status').dataset.ply !== ply", arg=ply, timeout=120_000
    )
    return how


def play_to_end(page: Any, rng: random.Random, shot: Path | None = None) -> dict[str, int]:
    counts = {"board": 0, "list": 0}
    for _ in range(MAX_CLICKS):
        if wait_turn(page)["terminal"] == "1":
            return counts
        counts[click_a_move(page, rng)] += 1
        if shot is not None and counts["board"] + counts["list"] == 6:
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.locator("#board").screenshot(path=str(shot))
    raise AssertionError("the game did not end")


def played_over_api(server: str, record: Record) -> str:
    """A hot-seat game on the server (one token holds every seat) played through ``record``'s
    moves (a game without chance) over the API; its id."""
    seats = [{"kind": "me"}] + [{"kind": "hotseat"}] * (len(record.players) - 1)
    created = httpcalls.post(
        f"{server}/api/games",
        json={"game": record.game, "options": record.options, "seats": seats},
    )
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    for ply, move in enumerate(record.moves):
        answer = httpcalls.post(
            f"{server}/api/games/{game_id}/actions",
            json={"action": move.action, "ply": ply},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
    return str(game_id)


def hold_seat(context: Any, game_id: str, token: str, lang: str, game: str) -> None:
    """Every page of ``context`` holds the seat's ``token`` (as the browser that created the
    game would), reads in ``lang`` and has seen ``game``'s walk-through (so no card stands over
    the board)."""
    context.add_init_script(
        f"localStorage.setItem('boardplay.tokens', JSON.stringify({{'{game_id}': '{token}'}}));"
        f"localStorage.setItem('boardplay.lang', '{lang}');"
        f"localStorage.setItem('boardplay.tutorials', JSON.stringify({{{game}: true}}));"
    )
