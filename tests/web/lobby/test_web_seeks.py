"""Finding an opponent over the HTTP API and the lobby socket: seeks (post, list, cancel,
accept, quick games, rating ranges, the race of several acceptors), challenges to a named
player, the ceilings, and seeks that leave with their owner's last lobby socket."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from webcalls import HUMANS, create, refused
from websettings import tiny_settings

from boardplay.web.accounts.service import COOKIE
from boardplay.web.accounts.store import accounts_table
from boardplay.web.app import create_app
from boardplay.web.lobby import challenges
from boardplay.web.ratings.tables import ratings_table

Messages = list[dict[str, Any]]


@pytest.fixture
def quick_grace(tmp_path: Path) -> Iterator[TestClient]:
    """Seeks leave 0.3 s after their owner's last socket; unrenewed ones after 1.5 s."""
    settings = tiny_settings(tmp_path, {"seek_grace": 0.3, "seek_ttl": 1.5})
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def lobby(client: TestClient, player: Player | None = None) -> Any:
    headers = {} if player is None else {"Cookie": f"{COOKIE}={player.cookie}"}
    return client.websocket_connect("/api/lobby/ws", headers=headers)


def drain(ws: WebSocketTestSession) -> Messages:
    """Every message queued for the socket so far (the answer to a ping marks the end)."""
    ws.send_json({"type": "ping", "id": "probe"})
    seen: Messages = []
    while (message := ws.receive_json()) != {"type": "pong", "id": "probe"}:
        seen.append(message)
    return seen


def wait_for(
    ws: WebSocketTestSession, check: Callable[[Messages], bool], timeout: float = 5
) -> Messages:
    """The socket's messages, read until ``check`` holds for them all."""
    seen: Messages = []
    deadline = time.monotonic() + timeout
    while not check(seen):
        assert time.monotonic() < deadline, seen
        seen += drain(ws)
        time.sleep(0.02)
    return seen


def listed(seen: Messages) -> list[str] | None:
    """The seek ids of the last list among ``seen`` (None: no list yet)."""
    lists = [m["seeks"] for m in seen if m["type"] == "seeks"]
    return [s["id"] for s in lists[-1]] if lists else None


def of_type(seen: Messages, kind: str) -> Messages:
    return [m for m in seen if m["type"] == kind]


def seek(player: Player, **body: Any) -> dict[str, Any]:
    response = player.post("/api/seeks", {"game": "tiny", **body})
    assert response.status_code == 201, response.text
    found: dict[str, Any] = response.json()["seek"]
    return found


def open_ids(client: TestClient) -> list[str]:
    response = client.get("/api/seeks")
    assert response.status_code == 200, response.text
    return [s["id"] for s in response.json()["seeks"]]


def my_games(player: Player) -> dict[str, list[int]]:
    games = player.get("/api/account/games").json()["games"]
    return {g["id"]: g["your_seats"] for g in games}


def set_rating(client: TestClient, name: str, rating: float, pool: str = "tiny") -> None:
    engine: sa.Engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        account = conn.execute(
            sa.select(accounts_table.c.id).where(accounts_table.c.name == name)
        ).scalar_one()
        conn.execute(
            ratings_table.insert().values(
                account_id=account,
                pool=pool,
                rating=rating,
                deviation=80.0,
                volatility=0.06,
                games=20,
                updated=time.time(),
            )
        )


# ----- seeks ---------------------------------------------------------------------------------
def test_a_seek_is_listed_until_its_owner_cancels_it(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    posted = seek(alice, options={"bonus": 1}, rating_min=1200, rating_max=1800)
    assert posted["player"] == "alice" and posted["rating"] == 1500
    assert posted["options"] == {"bonus": 1} and posted["players"] == 2
    assert not posted["rated"] and (posted["rating_min"], posted["rating_max"]) == (1200, 1800)
    client.cookies.clear()
    assert client.get("/api/seeks").json()["seeks"] == [posted]  # guests may look
    assert "only the player who posted" in refused(
        client.delete(f"/api/seeks/{posted['id']}", headers=bob.headers()), 403
    )
    gone = client.delete(f"/api/seeks/{posted['id']}", headers=alice.headers())
    assert gone.status_code == 200, gone.text
    assert open_ids(client) == []
    refused(client.delete(f"/api/seeks/{posted['id']}", headers=alice.headers()), 404)


def test_accepting_a_seek_starts_one_game_for_both_and_tells_both_sockets(
    client: TestClient,
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    with lobby(client, alice) as alice_ws, lobby(client, bob) as bob_ws:
        posted = seek(alice)
        for ws in (alice_ws, bob_ws):
            wait_for(ws, lambda seen: listed(seen) == [posted["id"]])
        accepted = bob.post(f"/api/seeks/{posted['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        answer = accepted.json()
        gid = answer["id"]
        assert answer["game"]["your_seats"] == [answer["seat"]]
        for ws in (alice_ws, bob_ws):
            seen = wait_for(ws, lambda seen: bool(of_type(seen, "started")) and not listed(seen))
            assert of_type(seen, "started") == [
                {"type": "started", "game": gid, "seek": posted["id"]}
            ]
    assert open_ids(client) == []
    bob_seat = answer["seat"]
    assert my_games(bob) == {gid: [bob_seat]}
    assert my_games(alice) == {gid: [1 - bob_seat]}
    token = alice.post(f"/api/account/games/{gid}/token").json()
    assert token["seats"] == [1 - bob_seat]
    game = token["game"]
    assert {s["name"] for s in game["seats"]} == {"alice", "bob"}
    assert all(s["claimed"] for s in game["seats"])
    assert gid not in [g["id"] for g in client.get("/api/games?open=1").json()["games"]]
    # Gone for everyone else: a late acceptor hears so.
    carol = sign_up(client, "carol")
    refused(carol.post(f"/api/seeks/{posted['id']}/accept"), 404)


def test_a_started_notice_missed_while_reloading_is_sent_again_on_connecting(
    client: TestClient,
) -> None:
    """Issue 52: a seek taken (or a challenge accepted) while its owner's page was reloading
    used to be lost; a socket of the player opened within a minute is told again (``again``),
    while the game is played, and nobody else is."""
    alice, bob, carol = sign_up(client, "alice"), sign_up(client, "bob"), sign_up(client, "carol")
    with lobby(client, alice) as before:  # the page that then reloads
        drain(before)
        posted = seek(alice)
    gid = bob.post(f"/api/seeks/{posted['id']}/accept").json()["id"]
    sent = alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).json()["challenge"]
    accepted = bob.post(f"/api/challenges/{sent['id']}/accept").json()["id"]
    with lobby(client, alice) as reloaded, lobby(client, carol) as other:
        assert of_type(drain(reloaded), "started") == [
            {"type": "started", "game": gid, "seek": posted["id"], "again": True},
            {"type": "started", "game": accepted, "challenge": sent["id"], "again": True},
        ]
        assert of_type(drain(other), "started") == []
    token = alice.post(f"/api/account/games/{gid}/token").json()["token"]
    assert alice.post(f"/api/games/{gid}/resign", {}, token=token).status_code == 200
    with lobby(client, alice) as later:  # a finished game is not news any more
        assert [m["game"] for m in of_type(drain(later), "started")] == [accepted]


def test_a_game_starting_withdraws_both_players_other_seeks(client: TestClient) -> None:
    alice, bob, carol = sign_up(client, "alice"), sign_up(client, "bob"), sign_up(client, "carol")
    taken = seek(alice)
    seek(alice, options={"bonus": 1})
    seek(bob, options={"bonus": 1})
    others = seek(carol, options={"bonus": 1})
    assert bob.post(f"/api/seeks/{taken['id']}/accept").status_code == 200
    assert open_ids(client) == [others["id"]]  # alice's and bob's other seeks went


def test_who_sits_first_is_drawn(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    seats = set()
    for _ in range(12):
        posted = seek(alice)
        seats.add(bob.post(f"/api/seeks/{posted['id']}/accept").json()["seat"])
    assert seats == {0, 1}


def test_accepting_your_own_seek_is_refused_and_changes_nothing(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    posted = seek(alice)
    assert "your own seek" in refused(alice.post(f"/api/seeks/{posted['id']}/accept"), 409)
    assert open_ids(client) == [posted["id"]]
    assert my_games(alice) == {}


def test_of_several_acceptors_at_once_exactly_one_wins(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    others = [sign_up(client, f"taker{i}") for i in range(6)]
    for _ in range(3):
        posted = seek(alice)
        path = f"/api/seeks/{posted['id']}/accept"
        with ThreadPoolExecutor(len(others)) as pool:
            answers = list(pool.map(lambda p, path=path: p.post(path), others))
        codes = sorted(a.status_code for a in answers)
        assert codes.count(200) == 1, [a.text for a in answers]
        assert set(codes) <= {200, 404, 409}, [a.text for a in answers]
        winner = next(a.json() for a in answers if a.status_code == 200)
        assert winner["id"] in my_games(alice)
    assert len(my_games(alice)) == 3
    assert sum(len(my_games(p)) for p in others) == 3


def test_a_seeks_rating_range_is_respected(client: TestClient) -> None:
    alice, bob, carol = sign_up(client, "alice"), sign_up(client, "bob"), sign_up(client, "carol")
    set_rating(client, "carol", 1720.0)
    high = seek(alice, rated=True, clock=RAPID, rating_min=1600)
    message = refused(bob.post(f"/api/seeks/{high['id']}/accept"), 403)
    assert "1600 to any" in message and "1500" in message  # bob is new: 1500
    assert open_ids(client) == [high["id"]] and my_games(bob) == {}
    taken = carol.post(f"/api/seeks/{high['id']}/accept")
    assert taken.status_code == 200, taken.text
    assert taken.json()["game"]["rated"] is True
    low = seek(alice, rating_max=1700)
    refused(carol.post(f"/api/seeks/{low['id']}/accept"), 403)
    assert bob.post(f"/api/seeks/{low['id']}/accept").status_code == 200
    refused(alice.post("/api/seeks", {"game": "tiny", "rating_min": 1800, "rating_max": 1700}))


def test_a_quick_game_pairs_with_the_closest_compatible_seek_else_posts_one(
    client: TestClient,
) -> None:
    names = ("far", "near", "picky", "other", "mine", "late")
    players = {name: sign_up(client, name) for name in names}
    set_rating(client, "far", 1900.0)
    set_rating(client, "near", 1560.0)
    set_rating(client, "picky", 1510.0)
    far = seek(players["far"])
    near = seek(players["near"])
    seek(players["picky"], rating_min=1700)  # closest, but would not have "mine" (1500)
    seek(players["other"], options={"bonus": 1})  # other options
    seek(players["other"], rated=True, clock=RAPID)  # rated, unlike the quick game
    quick = players["mine"].post("/api/seeks/quick", {"game": "tiny"})
    assert quick.status_code == 200, quick.text
    started = quick.json()["started"]
    assert quick.json()["seek"] is None and started["token"]
    assert started["id"] in my_games(players["near"])
    assert near["id"] not in open_ids(client)
    # "mine"'s own range leaves out the one left that fits: a seek is posted, then kept.
    again = players["mine"].post("/api/seeks/quick", {"game": "tiny", "rating_max": 1800})
    assert again.json()["started"] is None
    mine = again.json()["seek"]
    assert mine["player"] == "mine" and mine["rating_max"] == 1800
    same = players["mine"].post("/api/seeks/quick", {"game": "tiny", "rating_max": 1800})
    assert same.json()["seek"] == mine
    assert far["id"] in open_ids(client)
    # The next quick player gets the closest: "mine" (1500), not "far".
    late = players["late"].post("/api/seeks/quick", {"game": "tiny"}).json()["started"]
    assert late["id"] in my_games(players["mine"])
    assert far["id"] in open_ids(client)


def test_two_quick_games_asked_for_at_once_are_paired(client: TestClient) -> None:
    first, second = sign_up(client, "first"), sign_up(client, "second")
    for round_ in range(1, 6):
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda p: p.post("/api/seeks/quick", {"game": "tiny"}).json(), (first, second)
                )
            )
        assert sorted(a["started"] is None for a in answers) == [False, True], answers
        assert open_ids(client) == []
        assert len(my_games(first)) == len(my_games(second)) == round_


def test_seeks_for_chosen_luck_and_challenges_for_more_than_two_are_refused(
    registry_client: TestClient,
) -> None:
    alice = sign_up(registry_client, "alice")
    sign_up(registry_client, "bob")
    assert "two-player" in refused(
        alice.post("/api/challenges", {"to": "bob", "game": "montana", "options": {"players": 3}})
    )
    table = alice.post("/api/seeks", {"game": "montana", "options": {"players": 3}})
    assert table.json()["seek"]["players"] == 3  # a table for three (test_web_tables.py)
    assert "chance" in refused(
        alice.post("/api/seeks", {"game": "montana", "options": {"board_seed": 7}})
    )
    refused(alice.post("/api/seeks", {"game": "nosuchgame"}))
    ok = alice.post("/api/seeks", {"game": "montana", "options": {"players": 2}})
    assert ok.status_code == 201, ok.text


# ----- challenges ------------------------------------------------------------------------------
def test_a_challenge_reaches_the_named_player_and_accepting_starts_the_game(
    client: TestClient,
) -> None:
    alice, bob, carol = sign_up(client, "alice"), sign_up(client, "bob"), sign_up(client, "carol")
    with lobby(client, alice) as alice_ws, lobby(client, bob) as bob_ws, lobby(client) as guest:
        sent = alice.post(
            "/api/challenges", {"to": "BOB", "game": "tiny", "rated": True, "clock": RAPID}
        )
        assert sent.status_code == 201, sent.text
        challenge = sent.json()["challenge"]
        assert (challenge["from"], challenge["to"], challenge["status"]) == ("alice", "bob", "open")
        seen = wait_for(bob_ws, lambda seen: bool(of_type(seen, "challenge")))
        assert of_type(seen, "challenge") == [{"type": "challenge", "challenge": challenge}]
        assert bob.get("/api/challenges").json() == {"incoming": [challenge], "outgoing": []}
        assert alice.get("/api/challenges").json() == {"incoming": [], "outgoing": [challenge]}
        refused(alice.post(f"/api/challenges/{challenge['id']}/accept"), 403)  # her own
        refused(carol.post(f"/api/challenges/{challenge['id']}/accept"), 404)  # not hers
        accepted = bob.post(f"/api/challenges/{challenge['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        gid = accepted.json()["id"]
        assert accepted.json()["challenge"]["status"] == "accepted"
        assert accepted.json()["challenge"]["game_id"] == gid
        for ws in (alice_ws, bob_ws):
            seen = wait_for(ws, lambda seen: bool(of_type(seen, "started")))
            assert of_type(seen, "started") == [
                {"type": "started", "game": gid, "challenge": challenge["id"]}
            ]
        assert not of_type(drain(guest), "challenge")
    assert set(my_games(alice)) == set(my_games(bob)) == {gid}
    assert accepted.json()["game"]["rated"] is True
    refused(bob.post(f"/api/challenges/{challenge['id']}/accept"), 409)
    refused(bob.post(f"/api/challenges/{challenge['id']}/decline"), 409)


def test_an_accepted_challenge_is_listed_open_until_its_game_exists(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader never finds an accepted challenge whose game is missing: while the game is
    being made the challenge is listed open, with no game; then accepted, with its game."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    sent = alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).json()["challenge"]
    made = challenges.start_game
    listed: list[dict[str, Any]] = []

    async def start_game(lobby: Any, *args: Any, **kwargs: Any) -> Any:
        during = lobby.store.challenge(kwargs["game_id"], time.time(), 600.0)
        listed.append(during.to_json())
        return await made(lobby, *args, **kwargs)

    monkeypatch.setattr(challenges, "start_game", start_game)
    accepted = bob.post(f"/api/challenges/{sent['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    assert [(c["status"], c["game_id"]) for c in listed] == [("open", None)]
    (after,) = bob.get("/api/challenges").json()["incoming"]
    assert (after["status"], after["game_id"]) == ("accepted", sent["id"])
    assert bob.get(f"/api/games/{sent['id']}").status_code == 200


def declined_in(seen: Messages) -> bool:
    return any(m["challenge"]["status"] == "declined" for m in of_type(seen, "challenge"))


def test_a_challenge_can_be_declined_or_cancelled(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    with lobby(client, alice) as alice_ws:
        first = alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).json()["challenge"]
        declined = bob.post(f"/api/challenges/{first['id']}/decline")
        assert declined.json()["challenge"]["status"] == "declined"
        seen = wait_for(
            alice_ws,
            lambda seen: any(
                m["challenge"]["status"] == "declined" for m in of_type(seen, "challenge")
            ),
        )
        assert not of_type(seen, "started")
    second = alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).json()["challenge"]
    refused(bob.post(f"/api/challenges/{second['id']}/cancel"), 403)  # only its sender
    cancelled = alice.post(f"/api/challenges/{second['id']}/cancel")
    assert cancelled.json()["challenge"]["status"] == "cancelled"
    refused(bob.post(f"/api/challenges/{second['id']}/accept"), 409)
    statuses = [c["status"] for c in bob.get("/api/challenges").json()["incoming"]]
    assert statuses == ["cancelled", "declined"]
    assert my_games(alice) == my_games(bob) == {}


def test_challenging_nobody_or_yourself_is_refused(client: TestClient) -> None:
    """Each refusal with its own code, which the lobby words in the page's language."""
    alice = sign_up(client, "alice")
    nobody = alice.post("/api/challenges", {"to": "nobody", "game": "tiny"})
    assert "no player named" in refused(nobody, 404)
    assert nobody.json()["error"]["code"] == "no_such_player"
    myself = alice.post("/api/challenges", {"to": "Alice", "game": "tiny"})
    assert "yourself" in refused(myself)
    assert myself.json()["error"]["code"] == "challenge_self"
    refused(alice.post("/api/challenges/nosuchid/accept"), 404)
    assert alice.get("/api/challenges").json() == {"incoming": [], "outgoing": []}


# ----- who may, and how much --------------------------------------------------------------------
def test_guests_may_watch_but_every_change_needs_an_account(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    posted = seek(alice)
    challenge = alice.post("/api/challenges", {"to": "alice", "game": "tiny"})
    refused(challenge)  # (herself)
    bob = sign_up(client, "bob")
    sent = alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).json()["challenge"]
    client.cookies.clear()
    changes = [
        ("post", "/api/seeks", {"game": "tiny"}),
        ("post", "/api/seeks/quick", {"game": "tiny"}),
        ("delete", f"/api/seeks/{posted['id']}", None),
        ("post", f"/api/seeks/{posted['id']}/accept", None),
        ("post", "/api/challenges", {"to": "alice", "game": "tiny"}),
        ("post", f"/api/challenges/{sent['id']}/accept", None),
        ("post", f"/api/challenges/{sent['id']}/decline", None),
        ("post", f"/api/challenges/{sent['id']}/cancel", None),
    ]
    for method, path, body in changes:
        response = client.request(method, path, json=body)
        assert response.status_code == 401, (path, response.text)
    refused(client.get("/api/challenges"), 401)
    assert open_ids(client) == [posted["id"]]
    assert bob.get("/api/challenges").json()["incoming"][0]["status"] == "open"
    with lobby(client) as guest:
        assert listed(wait_for(guest, lambda seen: listed(seen) is not None)) == [posted["id"]]


def test_a_change_without_the_csrf_token_is_refused(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    assert "CSRF" in refused(alice.post("/api/seeks", {"game": "tiny"}, csrf=False), 403)
    assert open_ids(client) == []
    posted = seek(alice)
    refused(bob.post(f"/api/seeks/{posted['id']}/accept", csrf=False), 403)
    refused(client.delete(f"/api/seeks/{posted['id']}", headers=alice.headers(csrf=False)), 403)
    refused(alice.post("/api/challenges", {"to": "bob", "game": "tiny"}, csrf=False), 403)
    assert open_ids(client) == [posted["id"]]
    assert bob.get("/api/challenges").json()["incoming"] == []


def test_the_ceilings_on_seeks_and_challenges(tmp_path: Path) -> None:
    settings = tiny_settings(tmp_path, {"seeks_listed": 4})
    with TestClient(create_app(settings)) as client:
        alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
        ids = [seek(alice)["id"] for _ in range(3)]
        message = refused(alice.post("/api/seeks", {"game": "tiny"}), 429)
        assert "3 open seeks" in message and "BOARDPLAY_WEB_SEEKS_PER_ACCOUNT" in message
        assert open_ids(client) == ids
        ids += [seek(bob)["id"] for _ in range(2)]
        assert open_ids(client) == ids[:4]  # the list's ceiling
        for _ in range(5):
            assert alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).status_code == 201
        message = refused(alice.post("/api/challenges", {"to": "carol", "game": "tiny"}), 429)
        assert "5 open challenges" in message
        assert carol.get("/api/challenges").json()["incoming"] == []
        # An answered challenge no longer counts.
        first = bob.get("/api/challenges").json()["incoming"][0]
        bob.post(f"/api/challenges/{first['id']}/decline")
        assert alice.post("/api/challenges", {"to": "carol", "game": "tiny"}).status_code == 201


def test_accepting_a_seek_counts_against_the_acceptors_quota_a_challenge_does_not(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(tiny_settings(tmp_path, {"games_per_visitor": 1}))) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        create(client)  # this address's one game of the hour
        posted = seek(alice)
        assert "games in the last hour" in refused(
            bob.post(f"/api/seeks/{posted['id']}/accept"), 429
        )
        assert open_ids(client) == [posted["id"]]
        assert my_games(alice) == my_games(bob) == {}
        # A challenge is not: its sender's challenges were counted when sent (a bot answering
        # challenges from its host is bounded by its challengers, docs/bots.md "Limits").
        sent = alice.post("/api/challenges", {"to": "bob", "game": "tiny"}).json()["challenge"]
        assert bob.post(f"/api/challenges/{sent['id']}/accept").status_code == 200
        assert bob.get("/api/challenges").json()["incoming"][0]["status"] == "accepted"
        again = client.post("/api/games", json={"game": "tiny", "seats": HUMANS})
        assert "games in the last hour" in refused(again, 429)  # it counted nothing


# ----- seeks live with their owner's lobby -------------------------------------------------------
def test_seeks_leave_after_their_owners_last_socket_but_survive_a_reload(
    quick_grace: TestClient,
) -> None:
    client = quick_grace
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    with lobby(client, bob) as bob_ws:
        with lobby(client, alice) as first:
            drain(first)
            posted = seek(alice)
            wait_for(bob_ws, lambda seen: listed(seen) == [posted["id"]])
        with lobby(client, alice) as again:  # a reload: back within the grace
            time.sleep(2.0)  # longer than the grace and than a seek lives unrenewed
            assert open_ids(client) == [posted["id"]]
            with lobby(client, alice) as second_tab:
                drain(second_tab)
            time.sleep(0.6)  # one tab of two closed: the seek stays
            assert open_ids(client) == [posted["id"]]
            drain(again)
        wait_for(bob_ws, lambda seen: listed(seen) == [], timeout=5)  # gone: no reload needed
    assert open_ids(client) == []


def test_a_seek_nobody_keeps_alive_expires(quick_grace: TestClient) -> None:
    """No lobby socket renews it (its owner's process died, or it never opened the lobby)."""
    alice = sign_up(quick_grace, "alice")
    posted = seek(alice)
    assert open_ids(quick_grace) == [posted["id"]]
    deadline = time.monotonic() + 5
    while open_ids(quick_grace):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    refused(sign_up(quick_grace, "bob").post(f"/api/seeks/{posted['id']}/accept"), 404)


def test_the_lobby_socket_answers_pings_and_refuses_everything_else(client: TestClient) -> None:
    with lobby(client) as ws:
        assert drain(ws)[0] == {"type": "seeks", "seeks": []}
        ws.send_json({"type": "ping", "id": 7})
        assert ws.receive_json() == {"type": "pong", "id": 7}
        for frame in ('{"type": "act", "action": "t1"}', "not json", "[" * 100 + "]" * 100):
            ws.send_text(frame)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["status"] == 400, answer
        ws.send_bytes(b"\x00")
        assert ws.receive_json()["status"] == 400
        ws.send_text("x" * 70_000)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009


def test_a_socket_from_another_sites_page_is_a_guests(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    headers = {"Cookie": f"{COOKIE}={alice.cookie}", "Origin": "https://evil.example"}
    with client.websocket_connect("/api/lobby/ws", headers=headers) as ws:
        drain(ws)
        bob = sign_up(client, "bob")
        bob.post("/api/challenges", {"to": "alice", "game": "tiny"})
        assert not of_type(drain(ws), "challenge")
    with lobby(client, alice) as ws:  # her own page sees it, sent on connect
        seen = wait_for(ws, lambda seen: bool(of_type(seen, "challenge")))
        assert of_type(seen, "challenge")[0]["challenge"]["from"] == "bob"
