"""The tournament routes (``web/tournaments/routes.py``) through the test client, on an app of
their own (the router, the service as the wiring will hand it over, a signed-in player chosen
per request, and ``ApiError`` answered as the app answers it): listing, creating, entering,
pausing and withdrawing, the page's data with standings, rounds and byes, and refusals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from tournamentcalls import RAPID, START, HandClock, Process, lose, players

from boardplay.web.accounts import Account
from boardplay.web.api.deps import get_session
from boardplay.web.api.tournaments import router
from boardplay.web.errors import ApiError


class Site:
    """The app, its process and who is signed in for the next request."""

    def __init__(self, tmp_path: Path) -> None:
        self.clock = HandClock()
        self.process = Process(f"sqlite:///{tmp_path / 'routes.sqlite3'}", self.clock)
        self.people = {a.name: a for a in players(self.process, ["Ana", "Bo", "Cy"])}
        self.me: Account | None = None
        app = FastAPI()
        app.include_router(router)
        hub = self.process.hub
        app.state.hub = SimpleNamespace(tournaments=self.process.tournaments, bots=hub.bots)

        async def answer(_request: Request, exc: Exception) -> JSONResponse:
            assert isinstance(exc, ApiError)
            return JSONResponse(exc.to_json(), status_code=exc.status)

        app.add_exception_handler(ApiError, answer)

        def session() -> SimpleNamespace | None:
            return None if self.me is None else SimpleNamespace(account=self.me)

        app.dependency_overrides[get_session] = session
        self.client = TestClient(app)

    def as_(self, name: str | None) -> TestClient:
        self.me = None if name is None else self.people[name]
        return self.client


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = Site(tmp_path)
    with made.client:
        yield made
        made.client.portal.call(made.process.close)


SWISS: dict[str, Any] = {
    "name": "Tiny Swiss",
    "kind": "swiss",
    "game": "tiny",
    "clock": RAPID,
    "starts": START,
    "rounds": 2,
}


def test_a_swiss_from_the_list_to_its_standings(site: Site) -> None:
    assert site.client.get("/api/tournaments").json() == {"tournaments": [], "next": None}
    assert site.client.post("/api/tournaments", json=SWISS).status_code == 401
    made = site.as_("Ana").post("/api/tournaments", json=SWISS)
    assert made.status_code == 201, made.text
    tournament = made.json()["tournament"]
    assert tournament["status"] == "created" and tournament["clock"] == RAPID
    listed = site.client.get("/api/tournaments").json()["tournaments"]
    assert [t["id"] for t in listed] == [tournament["id"]]
    base = f"/api/tournaments/{tournament['id']}"
    for name in ("Ana", "Bo", "Cy"):
        joined = site.as_(name).post(f"{base}/join")
        assert joined.status_code == 200, joined.text
    assert [line["name"] for line in site.client.get(f"{base}/standings").json()["standings"]] == [
        "Ana",
        "Bo",
        "Cy",
    ]
    site.clock.t = START
    site.client.portal.call(site.process.tournaments.tick)
    view = site.client.get(base).json()
    assert view["tournament"]["status"] == "started"
    (first,) = view["rounds"]
    assert len(first["tables"]) == 1 and len(first["byes"]) == 1
    game = first["tables"][0]
    # The bye's taker withdraws, then the game ends: round 2 pairs the other two at once.
    site.as_(first["byes"][0]).post(f"{base}/withdraw")
    loser = site.people[game["players"][1]].id
    site.client.portal.call(lose, site.process, game["game"], loser)
    view = site.client.get(base).json()
    second = view["rounds"][1]
    assert second["byes"] == [] and set(second["tables"][0]["players"]) == set(game["players"])
    lines = {line["name"]: line for line in view["standings"]}
    assert lines[first["byes"][0]]["status"] == "withdrawn"
    assert lines[first["byes"][0]]["points"] == 1.0 and lines[first["byes"][0]]["byes"] == 1
    assert lines[game["players"][0]]["points"] == 1.0


def test_refusals_name_the_problem(site: Site) -> None:
    client = site.as_("Ana")
    assert client.post("/api/tournaments", json={**SWISS, "kind": "knockout"}).status_code == 422
    assert client.post("/api/tournaments", json={**SWISS, "extra": 1}).status_code == 422
    short = client.post("/api/tournaments", json={**SWISS, "rated": True, "clock": {"base": 15}})
    assert short.status_code == 400 and "rated" in short.json()["error"]["message"]
    arena = client.post("/api/tournaments", json={**SWISS, "kind": "arena", "rounds": None})
    assert arena.status_code == 400 and "minutes" in arena.json()["error"]["message"]
    assert client.get("/api/tournaments/nothing").status_code == 404
    made = client.post("/api/tournaments", json=SWISS).json()["tournament"]
    assert site.as_("Bo").post(f"/api/tournaments/{made['id']}/pause").status_code == 409


def test_bots_enter_with_a_token_at_lichess_paths_only_where_bots_may(site: Site) -> None:
    hub = site.process.hub
    cy = site.people["Cy"]
    site.client.portal.call(hub.bots.upgrade, cy)
    scoped, _ = site.client.portal.call(hub.bots.create_token, cy, "t", ["tournament:write"])
    other, _ = site.client.portal.call(hub.bots.create_token, cy, "t", ["challenge:read"])
    client = site.as_("Ana")
    refused = client.post("/api/tournaments", json={**SWISS, "bots": True, "rated": True})
    assert refused.status_code == 400 and "casual" in refused.json()["error"]["message"]
    open_to_bots = client.post("/api/tournaments", json={**SWISS, "bots": True}).json()
    people_only = client.post("/api/tournaments", json=SWISS).json()
    client = site.as_(None)
    for_bots, for_people = open_to_bots["tournament"]["id"], people_only["tournament"]["id"]
    assert client.post(f"/api/swiss/{for_bots}/join").status_code == 401
    bearer = {"Authorization": f"Bearer {scoped}"}
    joined = client.post(f"/api/swiss/{for_bots}/join", headers=bearer)
    assert joined.status_code == 200, joined.text
    assert [line["name"] for line in joined.json()["standings"]] == ["Cy"]
    unscoped = client.post(
        f"/api/tournament/{for_bots}/withdraw", headers={"Authorization": f"Bearer {other}"}
    )
    assert unscoped.status_code == 403 and unscoped.json()["error"]["code"] == "missing_scope"
    kept_out = client.post(f"/api/tournament/{for_people}/join", headers=bearer)
    assert kept_out.status_code == 403 and kept_out.json()["error"]["code"] == "bots_not_allowed"
    left = client.post(f"/api/swiss/{for_bots}/withdraw", headers=bearer)
    assert left.json()["standings"][0]["status"] == "withdrawn"
