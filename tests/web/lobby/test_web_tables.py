"""Open tables for three or four players (issue 52): a seek for "Trio take" (three seats) fills
up seat by seat from the lobby and starts for every player when full; seats are left, tables
cancelled, both go with their holder's last lobby socket; the rated rules and the rating range
hold for every seat; of many players taking the last seat at once exactly one starts the game;
quick game sits at the fullest table; the ceilings on seats."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from test_web_seeks import drain, lobby, my_games, of_type, open_ids, set_rating, wait_for
from webcalls import refused
from websettings import tiny_settings

from boardplay.web.app import create_app


def trio_client(tmp_path: Path, **limits: Any) -> TestClient:
    settings = tiny_settings(tmp_path, limits)
    return TestClient(create_app(dataclasses.replace(settings, catalogue="webtiny:TRIO_CATALOGUE")))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with trio_client(tmp_path) as test_client:
        yield test_client


def table(player: Player, **body: Any) -> dict[str, Any]:
    response = player.post("/api/seeks", {"game": "trio", **body})
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()["seek"]
    return found


def sit(player: Player, seek_id: str) -> dict[str, Any]:
    response = player.post(f"/api/seeks/{seek_id}/sit", {})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def listed_tables(seen: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    lists = [m["seeks"] for m in seen if m["type"] == "seeks"]
    return lists[-1] if lists else None


def test_a_table_fills_seat_by_seat_and_starts_for_everyone_when_full(client: TestClient) -> None:
    alice, bob, carol, dan = (sign_up(client, n) for n in ("alice", "bob", "carol", "dan"))
    with lobby(client, alice) as alice_ws, lobby(client, bob) as bob_ws, lobby(client) as guest:
        posted = table(alice)
        assert posted["players"] == 3 and posted["seated"] == []
        assert "take a seat" in refused(bob.post(f"/api/seeks/{posted['id']}/accept"), 409)
        first = sit(bob, posted["id"])
        assert first["started"] is None
        assert first["seek"]["seated"] == [{"player": "bob", "rating": 1500}]
        # Everyone's lobby shows the seat taken, live.
        wait_for(
            guest,
            lambda seen: (
                (listed_tables(seen) or [{}])[0].get("seated")
                == [{"player": "bob", "rating": 1500}]
            ),
        )
        assert "already" in refused(bob.post(f"/api/seeks/{posted['id']}/sit"), 409)
        assert "your own table" in refused(alice.post(f"/api/seeks/{posted['id']}/sit"), 409)
        with lobby(client, carol) as carol_ws:
            drain(carol_ws)
            last = sit(carol, posted["id"])
            assert last["seek"] is None
            started = last["started"]
            gid = started["id"]
            assert started["game"]["your_seats"] == [started["seat"]]
            for ws in (alice_ws, bob_ws, carol_ws):
                seen = wait_for(ws, lambda seen: bool(of_type(seen, "started")))
                assert of_type(seen, "started") == [
                    {"type": "started", "game": gid, "seek": posted["id"]}
                ]
    seats = {
        name: my_games(p)[gid] for name, p in (("alice", alice), ("bob", bob), ("carol", carol))
    }
    assert sorted(s for seat in seats.values() for s in seat) == [0, 1, 2]
    assert open_ids(client) == []
    refused(dan.post(f"/api/seeks/{posted['id']}/sit"), 404)


def test_who_sits_where_is_drawn(client: TestClient) -> None:
    alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
    owner_seats = set()
    for _ in range(10):
        posted = table(alice)
        sit(bob, posted["id"])
        gid = sit(carol, posted["id"])["started"]["id"]
        owner_seats.update(my_games(alice)[gid])
    assert len(owner_seats) >= 2


def test_a_seat_holder_may_leave_and_the_owner_may_cancel(client: TestClient) -> None:
    alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
    posted = table(alice, clock={"days": 1})
    sit(bob, posted["id"])
    assert bob.client.delete(f"/api/seeks/{posted['id']}/sit", headers=bob.headers()).json() == {
        "left": posted["id"]
    }
    assert client.get("/api/seeks").json()["seeks"][0]["seated"] == []
    refused(bob.client.delete(f"/api/seeks/{posted['id']}/sit", headers=bob.headers()), 404)
    sit(carol, posted["id"])
    assert (
        alice.client.delete(f"/api/seeks/{posted['id']}", headers=alice.headers()).status_code
        == 200
    )
    assert open_ids(client) == []
    refused(bob.post(f"/api/seeks/{posted['id']}/sit"), 404)
    # Carol's seat went with the table: she may sit elsewhere as if it never was.
    again = table(alice)
    assert sit(carol, again["id"])["seek"]["seated"][0]["player"] == "carol"


def test_seats_go_with_their_holders_last_socket_and_tables_with_their_owners(
    tmp_path: Path,
) -> None:
    with trio_client(tmp_path, seek_grace=0.3, seek_ttl=1.5) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        with lobby(client, alice) as alice_ws:
            drain(alice_ws)
            posted = table(alice)
            with lobby(client, bob) as bob_ws:
                drain(bob_ws)
                sit(bob, posted["id"])
            with lobby(client, bob) as reload:  # back within the grace: still seated
                time.sleep(2.0)
                assert client.get("/api/seeks").json()["seeks"][0]["seated"] != []
                drain(reload)
            seen = wait_for(
                alice_ws, lambda seen: (listed_tables(seen) or [{}])[0].get("seated") == []
            )
            assert listed_tables(seen)
        deadline = time.monotonic() + 5
        while open_ids(client):  # the owner gone: the table goes too
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_rated_tables_keep_the_rated_rules_and_the_rating_range(tmp_path: Path) -> None:
    with trio_client(tmp_path, rated_fresh_account=3600.0) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        assert "clock" in refused(alice.post("/api/seeks", {"game": "trio", "rated": True}))
        posted = table(alice, rated=True, clock=RAPID)
        # Both made just now from one address: one person's two accounts, for a rated game.
        answer = bob.post(f"/api/seeks/{posted['id']}/sit")
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "same_person"
        casual = table(alice, options={"bonus": 1})
        assert sit(bob, casual["id"])["seek"]["seated"][0]["player"] == "bob"
    with trio_client(tmp_path / "ranged") as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        set_rating(client, "bob", 1900, pool="trio")
        posted = table(alice, rating_min=1300, rating_max=1700)
        assert "1300 to 1700" in refused(bob.post(f"/api/seeks/{posted['id']}/sit"), 403)


def test_of_many_taking_the_last_seat_at_once_exactly_one_starts_the_game(
    client: TestClient,
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    crowd = [sign_up(client, f"taker{i}") for i in range(6)]
    for _ in range(2):
        posted = table(alice)
        sit(bob, posted["id"])
        path = f"/api/seeks/{posted['id']}/sit"
        with ThreadPoolExecutor(len(crowd)) as pool:
            answers = list(pool.map(lambda p, path=path: p.post(path, {}), crowd))
        codes = sorted(a.status_code for a in answers)
        assert codes.count(200) == 1 and set(codes) <= {200, 404, 409}, [a.text for a in answers]
        winner = next(a.json() for a in answers if a.status_code == 200)
        assert winner["started"] is not None
    assert len(my_games(alice)) == len(my_games(bob)) == 2
    assert sum(len(my_games(p)) for p in crowd) == 2


def test_a_game_starting_frees_its_players_other_seats_and_tables(client: TestClient) -> None:
    alice, bob, carol, dan = (sign_up(client, n) for n in ("alice", "bob", "carol", "dan"))
    elsewhere = table(dan)
    sit(bob, elsewhere["id"])
    own = table(carol, options={"bonus": 1})
    posted = table(alice)
    sit(bob, posted["id"])
    assert sit(carol, posted["id"])["started"] is not None
    listed = {s["id"]: s for s in client.get("/api/seeks").json()["seeks"]}
    assert list(listed) == [elsewhere["id"]] and own["id"] not in listed
    assert listed[elsewhere["id"]]["seated"] == []  # bob plays now


def test_quick_game_sits_at_the_fullest_fitting_table_else_opens_one(client: TestClient) -> None:
    alice, bob, carol, dan = (sign_up(client, n) for n in ("alice", "bob", "carol", "dan"))
    empty = table(alice)
    fuller = table(bob)
    sit(dan, fuller["id"])
    answer = carol.post("/api/seeks/quick", {"game": "trio"}).json()
    assert answer["seek"] is None and answer["started"]["id"] in my_games(bob)
    again = dan.post("/api/seeks/quick", {"game": "trio"}).json()  # dan plays now: a new seat
    assert again["started"] is None and again["seek"]["id"] == empty["id"]
    assert dan.post("/api/seeks/quick", {"game": "trio"}).json()["seek"]["id"] == empty["id"]
    other = carol.post("/api/seeks/quick", {"game": "trio", "options": {"bonus": 1}}).json()
    assert other["started"] is None and other["seek"]["player"] == "carol"


def test_seats_held_at_once_have_a_ceiling(client: TestClient) -> None:
    owners = [sign_up(client, f"owner{i}") for i in range(4)]
    sitter = sign_up(client, "sitter")
    tables = [table(owner) for owner in owners]
    for posted in tables[:3]:
        sit(sitter, posted["id"])
    answer = sitter.post(f"/api/seeks/{tables[3]['id']}/sit")
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "too_many_seats"
    assert [s["seated"] for s in client.get("/api/seeks").json()["seeks"]][3] == []


def test_challenges_stay_two_player(client: TestClient) -> None:
    alice, _ = sign_up(client, "alice"), sign_up(client, "bob")
    assert "open a table" in refused(alice.post("/api/challenges", {"to": "bob", "game": "trio"}))
