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
from boardplay.web.deps import get_account
from boardplay.web.errors import ApiError
from boardplay.web.tournaments.routes import router


class Site:
    """The app, its process and who is signed in for the next request."""

    def __init__(self, tmp_path: Path) -> None:
        self.clock = HandClock()
        self.process = Process(f"sqlite:///{tmp_path / 'routes.sqlite3'}", self.clock)
        self.people = {a.name: a for a in players(self.process, ["Ana", "Bo", "Cy"])}
        self.me: Account | None = None
        app = FastAPI()
        app.include_router(router)
        app.state.hub = SimpleNamespace(tournaments=self.process.tournaments)

        async def answer(_request: Request, exc: Exception) -> JSONResponse:
            assert isinstance(exc, ApiError)
            return JSONResponse(exc.to_json(), status_code=exc.status)

        app.add_exception_handler(ApiError, answer)

        def signed_in() -> Account:
            if self.me is None:
                raise ApiError(401, "sign_in_required", "sign in first")
            return self.me

        app.dependency_overrides[get_account] = signed_in
        self.client = TestClient(app)

    def as_(self, name: str) -> TestClient:
        self.me = self.people[name]
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
    assert site.client.get("/api/tournaments").json() == {"tournaments": []}
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
    loser = site.people[game["players"][1]].id
    site.client.portal.call(lose, site.process, game["game"], loser)
    # The bye's taker withdraws: round 2 pairs the other two.
    site.as_(first["byes"][0]).post(f"{base}/withdraw")
    site.client.portal.call(site.process.tournaments.tick)
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
