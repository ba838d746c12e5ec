"""Helpers of the Bot API tests against real server processes: a person signed in with a
cookie, a bot with a personal API token, and an ndjson stream read in a thread (its lines
handed over as JSON objects, the keep-alive empty lines counted)."""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpcalls
import httpx

import boardplay
from boardplay.web.accounts.service import COOKIE

HERE = Path(__file__).parent
SOURCE = Path(boardplay.__file__).resolve().parents[1]
SERVER_ENV = {
    "BOARDPLAY_WEB_CATALOGUE": "webtiny:CATALOGUE",
    "PYTHONPATH": f"{SOURCE}{os.pathsep}{HERE}",
}
"""A bot test's server: the package under test first on its path (a worktree's, not the
installed one), the test catalogue's module after it."""

PASSWORD = "correct horse battery"
ALL_SCOPES = ["bot:play", "challenge:read", "challenge:write"]
_END = object()


@dataclass
class Person:
    """A signed-in account (its session cookie and CSRF token), asking any process."""

    name: str
    cookie: str
    csrf: str

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.cookie}", "X-CSRF-Token": self.csrf}

    def post(self, base: str, path: str, body: Any = None) -> httpx.Response:
        return httpcalls.post(f"{base}{path}", json=body, headers=self.headers(), timeout=20)

    def get(self, base: str, path: str) -> httpx.Response:
        return httpcalls.get(f"{base}{path}", headers=self.headers(), timeout=20)

    def delete(self, base: str, path: str) -> httpx.Response:
        return httpcalls.delete(f"{base}{path}", headers=self.headers(), timeout=20)


def sign_up(base: str, name: str) -> Person:
    answer = httpcalls.post(
        f"{base}/api/account/signup", json={"name": name, "password": PASSWORD}, timeout=20
    )
    assert answer.status_code == 201, answer.text
    return Person(name, answer.cookies[COOKIE], answer.json()["csrf"])


@dataclass
class Bot:
    """A bot account: its person (for the account page) and a token with ``scopes``."""

    person: Person
    token: str
    token_id: int

    @property
    def name(self) -> str:
        return self.person.name

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, base: str, path: str, body: Any = None) -> httpx.Response:
        return httpcalls.post(f"{base}{path}", json=body, headers=self.headers(), timeout=20)

    def get(self, base: str, path: str) -> httpx.Response:
        return httpcalls.get(f"{base}{path}", headers=self.headers(), timeout=20)

    def stream(self, base: str, path: str) -> Stream:
        return Stream(f"{base}{path}", self.headers())


def make_token(person: Person, base: str, scopes: list[str], label: str = "test") -> Any:
    answer = person.post(base, "/api/account/tokens", {"label": label, "scopes": scopes})
    assert answer.status_code == 201, answer.text
    return answer.json()


def make_bot(base: str, name: str, scopes: list[str] | None = None) -> Bot:
    person = sign_up(base, name)
    made = make_token(person, base, scopes or ALL_SCOPES)
    bot = Bot(person, made["token"], made["id"])
    upgraded = bot.post(base, "/api/bot/account/upgrade")
    assert upgraded.status_code == 200, upgraded.text
    return bot


@dataclass
class Stream:
    """An ndjson stream read in a thread; ``next`` hands its objects over one by one."""

    url: str
    headers: dict[str, str]
    lines: queue.Queue[Any] = field(default_factory=queue.Queue)
    status: int | None = None
    keepalives: int = 0
    ended_at: float | None = None

    def __post_init__(self) -> None:
        self.client = httpx.Client(timeout=httpx.Timeout(10, read=60))
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.opened.wait(20), f"{self.url} did not answer"

    def _read(self) -> None:
        try:
            with self.client.stream("GET", self.url, headers=self.headers) as response:
                self.status = response.status_code
                self.opened.set()
                if response.status_code != 200:
                    self.lines.put(json.loads(response.read()))
                    return
                for line in response.iter_lines():
                    if line.strip():
                        self.lines.put(json.loads(line))
                    else:
                        self.keepalives += 1
        except httpx.HTTPError:
            pass
        finally:
            self.ended_at = time.monotonic()
            self.opened.set()
            self.lines.put(_END)

    def next(self, timeout: float = 10) -> Any:
        """The next object; None once the stream has ended."""
        item = self.lines.get(timeout=timeout)
        if item is _END:
            self.lines.put(_END)
            return None
        return item

    def until(self, kind: str, timeout: float = 10, check: Any = None) -> Any:
        """The next object of type ``kind`` (meeting ``check``), skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {kind} within {timeout} s on {self.url}"
            item = self.next(left)
            assert item is not None, f"the stream ended before a {kind}"
            if item.get("type") == kind and (check is None or check(item)):
                return item

    def ends_within(self, seconds: float) -> bool:
        """Whether the stream ends within ``seconds`` (what it still sends is skipped)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if self.next(max(0.01, deadline - time.monotonic())) is None:
                    return True
            except queue.Empty:
                return False
        return False

    def close(self) -> None:
        self.client.close()
        self.thread.join(timeout=10)
