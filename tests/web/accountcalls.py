"""Signed-in players for the API tests: one test client, several identities. Each ``Player``
sends its own session cookie and CSRF token explicitly, and the client's cookie jar is emptied
after every sign-in, so requests of one player never carry another's cookie."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

from boardplay.web.accounts.service import COOKIE

PASSWORD = "correct horse battery"
RAPID = {"base": 600, "increment": 5}
"""A time control for rated games (they need one): ten minutes and five seconds a turn."""


@dataclass
class Player:
    client: TestClient
    name: str
    cookie: str
    csrf: str

    def headers(self, csrf: bool = True, token: str | None = None) -> dict[str, str]:
        out = {"Cookie": f"{COOKIE}={self.cookie}"}
        if csrf:
            out["X-CSRF-Token"] = self.csrf
        if token:
            out["Authorization"] = f"Bearer {token}"
        return out

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers())

    def post(self, path: str, body: Any = None, csrf: bool = True, token: str | None = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers(csrf, token))


def session_of(client: TestClient, response: Any, name: str) -> Player:
    """The player a sign-up or sign-in ``response`` started a session for."""
    assert response.status_code in (200, 201), response.text
    cookie = response.cookies.get(COOKIE)
    assert cookie, response.headers
    client.cookies.clear()
    return Player(client, name, cookie, response.json()["csrf"])


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> Player:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    return session_of(client, response, name)


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> Player:
    response = client.post("/api/account/signin", json={"name": name, "password": password})
    return session_of(client, response, name)
