"""Small HTTP helpers shared by the web tests: a seat's auth header, creating a tiny game,
reading a refusal's message and a client on another address."""

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


def elsewhere(home: TestClient, host: str) -> TestClient:
    """A client of ``home``'s app on another address, on ``home``'s event loop.

    A TestClient that is not entered runs each request on a new event loop; the app's own tasks
    run on ``home``'s, and an asyncio lock both take would be bound to two loops. One server
    process has one loop, so the second address shares ``home``'s portal."""
    client = TestClient(home.app, client=(host, 50000))
    client.portal = home.portal
    return client
