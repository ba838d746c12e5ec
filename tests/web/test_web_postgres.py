"""The same storage on PostgreSQL (``BOARDPLAY_DATABASE_URL``): a throwaway cluster on loopback
(``devservices``), used when the PostgreSQL server binaries are installed (``make services``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import devservices as ds
import pytest
from fastapi.testclient import TestClient

from boardplay.web.app import create_app
from boardplay.web.config import Settings


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    try:
        with ds.postgres() as url:
            yield url
    except ds.ServiceUnavailable as exc:
        pytest.skip(str(exc))


def app_on(url: str) -> TestClient:
    return TestClient(
        create_app(Settings(database_url=url, catalogue="webtiny:CATALOGUE", ai_workers=0))
    )


def test_games_live_and_survive_a_restart_on_postgresql(postgres_url: str) -> None:
    auth: dict[str, str]
    with app_on(postgres_url) as client:
        created = client.post(
            "/api/games", json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}]}
        ).json()
        gid = created["id"]
        auth = {"Authorization": f"Bearer {created['token']}"}
        assert gid in [
            g["id"] for g in client.get("/api/games", params={"open": 1}).json()["games"]
        ]
        joined = client.post(f"/api/games/{gid}/join", json={"name": "Bo"}).json()
        guest = {"Authorization": f"Bearer {joined['token']}"}
        assert (
            client.post(
                f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth
            ).status_code
            == 200
        )
        assert client.post(f"/api/games/{gid}/undo", headers=auth).status_code == 200
        for move in ("t2", "t1"):
            assert (
                client.post(
                    f"/api/games/{gid}/actions", json={"action": move}, headers=auth
                ).status_code
                == 200
            )
        refused = client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth)
        assert refused.status_code == 409
        assert (
            client.post(
                f"/api/games/{gid}/actions", json={"action": "t9"}, headers=guest
            ).status_code
            == 422
        )
        before: dict[str, Any] = client.get(f"/api/games/{gid}", headers=guest).json()
    with app_on(postgres_url) as client:
        after = client.get(f"/api/games/{gid}", headers=guest).json()
        assert after["moves"] == before["moves"] and after["position"] == before["position"]
        assert after["your_turn"] and after["seats"][1]["name"] == "Bo"
        assert (
            client.post(
                f"/api/games/{gid}/actions", json={"action": "t1"}, headers=guest
            ).status_code
            == 200
        )


def test_a_long_valid_ai_spec_is_stored_on_postgresql(postgres_url: str) -> None:
    """The default seat name of an AI seat ("AI (spec)") once overflowed PostgreSQL's 64-character
    name column and gave a 500; a spec too long for its column is refused with a 400."""
    spec = "mcts(iterations=50,c=0.7000000000000000000000000000000000000000000000001)"
    with app_on(postgres_url) as client:
        seats = [{"kind": "me"}, {"kind": "ai", "spec": spec}]
        created = client.post("/api/games", json={"game": "tiny", "seats": seats})
        assert created.status_code == 201, created.text
        name = created.json()["game"]["seats"][1]["name"]
        assert len(name) <= 64 and name.startswith("AI (mcts")
        too_long = [{"kind": "me"}, {"kind": "ai", "spec": "mcts(" + "c=0.5," * 40 + "c=1)"}]
        refused = client.post("/api/games", json={"game": "tiny", "seats": too_long})
        assert refused.status_code == 400 and "spec" in refused.json()["error"]["message"]
