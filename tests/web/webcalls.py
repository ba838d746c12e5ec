"""Small HTTP helpers shared by the web tests: a seat's auth header, creating a tiny game and
reading a refusal's message."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

HUMANS = [{"kind": "me"}, {"kind": "hotseat"}]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> Any:
    """A new game (tiny with two of the creator's seats unless ``body`` says otherwise)."""
    response = client.post("/api/games", json={"game": "tiny", "seats": HUMANS, **body})
    assert response.status_code == 201, response.text
    return response.json()


def refused(response: Any, status: int = 400) -> str:
    """The message of a refusal with ``status`` (which must have one)."""
    assert response.status_code == status, response.text
    message: str = response.json()["error"]["message"]
    assert message
    return message
