"""The HTTP API refuses every bad request with a clear 4xx JSON error and changes nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from liveview import Live
from webcalls import HUMANS

from support import games


def create(client: TestClient, seats: list[dict[str, Any]] | None = None, **extra: Any) -> Any:
    body = {"game": "tiny", "seats": seats or [{"kind": "me"}, {"kind": "hotseat"}], **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def state_of(client: TestClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    game: dict[str, Any] = response.json()
    return game


def error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code
    message: str = body["error"]["message"]
    assert message
    return message


def test_create_resolves_opening_chance_and_lists_legal_moves(client: TestClient) -> None:
    created = create(client, reproducible=True, seed=7)
    game = created["game"]
    assert game["ply"] == 1 and game["moves"][0]["player"] == -1
    assert game["moves"][0]["move"].startswith("roll")
    assert game["current_player"] == 0 and game["your_turn"] and game["your_seats"] == [0, 1]
    assert [m["move"] for m in game["legal"]] == ["t1", "t2", "t3"]
    # The same agreed seed rolls the same pile.
    again = create(client, reproducible=True, seed=7)["game"]
    assert again["position"]["pile"] == game["position"]["pile"]


def test_a_move_is_applied_by_notation_or_id(client: TestClient) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    pile = created["game"]["position"]["pile"]
    r = client.post(f"/api/games/{gid}/actions", json={"action": "t2"}, headers=auth(token))
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/actions", json={"action": 0, "ply": 2}, headers=auth(token))
    assert r.status_code == 200, r.text
    game = state_of(client, gid)
    assert game["position"]["pile"] == pile - 3
    assert [m["move"] for m in game["moves"][1:]] == ["t2", "t1"]
    assert game["current_player"] == 1


def test_missing_or_wrong_token_is_403_and_changes_nothing(client: TestClient) -> None:
    created = create(client)
    gid = created["id"]
    before = state_of(client, gid)
    r = client.post(f"/api/games/{gid}/actions", json={"action": "t1"})
    assert "token" in error(r, 403, "token_required")
    r = client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth("nope"))
    error(r, 403, "wrong_token")
    r = client.post(f"/api/games/{gid}/actions", json={"action": "t1", "token": "also-wrong"})
    error(r, 403, "wrong_token")
    # Another game's token holds no seat here.
    other = create(client)
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(other["token"])
    )
    error(r, 403, "wrong_token")
    assert state_of(client, gid)["moves"] == before["moves"]


def test_out_of_turn_is_refused(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "invite"}, {"kind": "me"}])
    gid, token = created["id"], created["token"]
    message = error(
        client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token)),
        409,
        "not_your_turn",
    )
    assert "Invited player" in message
    assert state_of(client, gid)["ply"] == 1


def test_illegal_action_is_422_naming_legal_moves(client: TestClient) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    for bad in ("t9", "P-E", 7, -1, 99999999999):
        r = client.post(f"/api/games/{gid}/actions", json={"action": bad}, headers=auth(token))
        assert "t1" in error(r, 422, "illegal_action")
    assert state_of(client, gid)["ply"] == 1


def test_malformed_requests_are_400(client: TestClient) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    url = f"/api/games/{gid}/actions"
    headers = {**auth(token), "Content-Type": "application/json"}
    assert "JSON" in error(
        client.post(url, content=b"{not json", headers=headers), 400, "bad_request"
    )
    error(client.post(url, content=b"[1, 2]", headers=headers), 400, "bad_request")
    error(client.post(url, content=b"", headers=headers), 400, "bad_request")
    error(client.post(url, content=b"\xff\xfe", headers=headers), 400, "bad_request")
    for body in ({}, {"action": None}, {"action": True}, {"action": [1]}, {"action": " "}):
        error(client.post(url, json=body, headers=headers), 400, "bad_request")
    error(client.post(url, json={"action": "t1", "ply": "x"}, headers=headers), 400, "bad_request")
    assert state_of(client, gid)["ply"] == 1


def test_stale_ply_is_refused(client: TestClient) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": "t1", "ply": 0}, headers=auth(token)
    )
    error(r, 409, "stale")
    assert state_of(client, gid)["ply"] == 1


def test_bad_game_creation_is_400(client: TestClient) -> None:
    cases: list[Any] = [
        {"game": "chess", "seats": [{"kind": "me"}, {"kind": "me"}]},
        {"game": "tiny", "seats": [{"kind": "me"}]},
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "robot"}]},
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "ai"}]},
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "ai", "spec": "nonsense"}]},
        {"game": "tiny", "options": {"bonus": 5}, "seats": [{"kind": "me"}, {"kind": "me"}]},
        {"game": "tiny", "options": {"colour": 1}, "seats": [{"kind": "me"}, {"kind": "me"}]},
        {"game": "tiny", "seats": "me"},
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "me"}], "seed": 3},
        {"game": "tiny", "seats": [{"kind": "me"}] * 2, "reproducible": True, "seed": -3},
        {"game": "tiny", "seats": [{"kind": "me"}] * 2, "reproducible": True, "seed": 2**70},
        {"game": "tiny", "seats": [{"kind": "me"}] * 2, "reproducible": "yes"},
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "ai", "spec": 5}]},
        {"game": "tiny", "options": {"bonus": [1]}, "seats": [{"kind": "me"}, {"kind": "me"}]},
        {"seats": [{"kind": "me"}, {"kind": "me"}]},
    ]
    for body in cases:
        error(client.post("/api/games", json=body), 400, "bad_request")
    assert client.get("/api/games").json()["games"] == []
    error(client.get("/api/games", params={"open": "yes please"}), 400, "bad_request")


def test_unknown_ids_are_404(client: TestClient) -> None:
    for method, url in (
        ("get", "/api/games/nope"),
        ("post", "/api/games/nope/actions"),
        ("post", "/api/games/nope/undo"),
        ("post", "/api/games/nope/join"),
        ("get", "/api/games/nope/record"),
        ("get", "/api/games/nope/replay"),
        ("get", "/api/rules/nope"),
        ("get", "/api/no/such/route"),
    ):
        # A body the route accepts (an unknown field is a 400 before the id is looked up).
        body = {"action": "t1"} if url.endswith("/actions") else {}
        response = getattr(client, method)(url, json=body) if method == "post" else client.get(url)
        error(response, 404, "not_found")


def test_undo_only_own_steps_of_the_current_turn(client: TestClient) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    error(client.post(f"/api/games/{gid}/undo", headers=auth(token)), 409, "cannot_undo")
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token))
    game = state_of(client, gid)
    assert game["ply"] == 2
    r = client.post(f"/api/games/{gid}/undo", headers=auth(token))
    assert r.status_code == 200 and r.json()["game"]["ply"] == 1
    # A finished turn cannot be taken back (the turn has passed to the other seat).
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token))
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token))
    assert state_of(client, gid)["current_player"] == 1
    error(client.post(f"/api/games/{gid}/undo", headers=auth(token)), 409, "cannot_undo")
    error(client.post(f"/api/games/{gid}/undo"), 403, "token_required")
    # Never across the opening chance reveal.
    fresh = create(client)
    r = client.post(f"/api/games/{fresh['id']}/undo", headers=auth(fresh["token"]))
    error(r, 409, "cannot_undo")


def test_invitation_and_open_seats(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "me"}, {"kind": "invite"}])
    gid, host = created["id"], created["token"]
    code = created["invites"]["1"]
    error(client.post(f"/api/games/{gid}/join", json={"invite": "wrong"}), 403, "wrong_invite")
    # Messages name a seat as the page does: its colour and its number counted from 1.
    closed = error(client.post(f"/api/games/{gid}/join", json={"seat": 1}), 403, "not_open")
    assert "(seat 2) is not open" in closed
    joined = client.post(f"/api/games/{gid}/join", json={"invite": code, "name": "Ann"}).json()
    assert joined["seat"] == 1 and joined["game"]["seats"][1]["name"] == "Ann"
    taken = error(client.post(f"/api/games/{gid}/join", json={"invite": code}), 409, "seat_taken")
    assert taken.endswith("(seat 2) is already taken by Ann")
    guest = joined["token"]
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(host))
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(host))
    r = client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(guest))
    assert r.status_code == 200
    # The guest cannot act for the host's seat.
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(guest))
    r = client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(guest))
    error(r, 409, "not_your_turn")

    public = create(client, seats=[{"kind": "open"}, {"kind": "me"}])
    listed = client.get("/api/games", params={"open": 1}).json()["games"]
    assert [g["id"] for g in listed] == [public["id"]]
    taken = client.post(f"/api/games/{public['id']}/join", json={}).json()
    assert taken["seat"] == 0 and taken["game"]["your_turn"]
    assert client.get("/api/games", params={"open": 1}).json()["games"] == []


def play_out(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    game = state_of(client, gid)
    while not game["terminal"]:
        move = game["legal"][-1]["move"]
        r = client.post(f"/api/games/{gid}/actions", json={"action": move}, headers=auth(token))
        assert r.status_code == 200, r.text
        game = r.json()["game"]
    return game


def test_finished_game_refuses_moves_and_exports_a_record(client: TestClient) -> None:
    created = create(client, reproducible=True, seed=3)
    gid, token = created["id"], created["token"]
    game = play_out(client, gid, token)
    assert game["status"] == "finished" and game["result"]["text"]
    error(
        client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token)),
        409,
        "game_over",
    )
    record = client.get(f"/api/games/{gid}/record")
    assert "attachment" in record.headers["content-disposition"]
    data = record.json()
    assert data["format"] == "boardplay-record" and data["moves"] == [
        m["move"] for m in game["moves"]
    ]
    assert data["meta"]["seed"] == 3 and data["meta"]["reproducible"]
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert len(replay["frames"]) == len(game["moves"]) + 1
    assert replay["frames"][-1]["result"] == game["result"]["text"]
    uploaded = client.post("/api/replay", json=data).json()
    assert [f["position"] for f in uploaded["frames"]] == [f["position"] for f in replay["frames"]]


def test_uploaded_record_with_an_illegal_move_is_refused(client: TestClient) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    play_out(client, gid, token)
    data = client.get(f"/api/games/{gid}/record").json()
    extra = {**data, "actions": [*data["actions"], 0], "moves": [*data["moves"], "t1"]}
    extra["seats"] = [*data["seats"], 0]
    message = error(client.post("/api/replay", json=extra), 400, "bad_request")
    assert f"move {len(data['moves']) + 1} ('t1'" in message
    data["moves"][1] = "t2" if data["moves"][1] != "t2" else "t1"
    message = error(client.post("/api/replay", json=data), 400, "bad_request")
    assert "cannot be replayed" in message
    error(client.post("/api/replay", json={"format": "x"}), 400, "bad_request")
    error(client.post("/api/replay", content=b"nope"), 400, "bad_request")


def test_ai_seat_moves_by_itself(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "me"}, {"kind": "ai", "spec": "random"}])
    gid, token = created["id"], created["token"]
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token))
    client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(token))
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        live = Live(ws)
        ws.send_json({"type": "hello", "token": token})
        while True:
            game = live.game()
            if game["current_player"] == 0 or game["terminal"]:
                break
    players = [m["player"] for m in game["moves"]]
    assert players[:3] == [-1, 0, 0] and 1 in players


def test_catalogue_and_rules(client: TestClient) -> None:
    games = client.get("/api/catalogue").json()["games"]
    assert [g["name"] for g in games] == ["tiny"]
    assert games[0]["options"][0]["name"] == "bonus" and "random" in games[0]["ai_levels"]
    rules = client.get("/api/rules/tiny").json()
    assert rules["markdown"].startswith("# Tiny take")
    assert client.get("/").status_code == 200
    assert client.get("/static/app.js").status_code == 200


def test_scripts_travel_compressed_and_api_answers_do_not(client: TestClient) -> None:
    """Static files are gzipped for a browser that accepts it (a quarter of their size); an API
    answer is not, since some carry secrets beside text a visitor chose (the BREACH attack)."""
    plain = client.get("/static/strings.js", headers={"Accept-Encoding": "identity"})
    packed = client.get("/static/strings.js", headers={"Accept-Encoding": "gzip"})
    assert plain.headers.get("content-encoding") is None
    assert packed.headers["content-encoding"] == "gzip" and packed.text == plain.text
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    created = client.post(
        "/api/games", json={"game": "tiny", "seats": HUMANS}, headers={"Accept-Encoding": "gzip"}
    )
    assert created.status_code == 201 and created.headers.get("content-encoding") is None


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
bodies = (
    st.dictionaries(
        st.sampled_from(
            ["game", "options", "seats", "seed", "action", "ply", "token", "invite", "seat"]
        ),
        json_values,
        max_size=4,
    )
    | json_values
)


@settings(max_examples=games(60, 1000), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies, path=st.sampled_from(["actions", "undo", "join", ""]))
def test_arbitrary_json_never_causes_a_server_error(
    client: TestClient, body: Any, path: str
) -> None:
    created = create(client)
    gid, token = created["id"], created["token"]
    url = "/api/games" if not path else f"/api/games/{gid}/{path}"
    response = client.post(url, json=body, headers=auth(token))
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["error"]["message"]
        assert state_of(client, gid)["ply"] == 1
