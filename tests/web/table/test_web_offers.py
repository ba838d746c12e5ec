"""Resign, draw offers, play again and private games over the HTTP API: who may ask, what is
stored and shown to everyone, and refusals that change nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from webcalls import auth, create

Game = dict[str, Any]


def error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


def view(client: TestClient, gid: str, token: str | None = None) -> Game:
    headers = auth(token) if token else {}
    game: Game = client.get(f"/api/games/{gid}", headers=headers).json()
    return game


def duel(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A tiny game between the creator (seat 0) and an invited player (seat 1): id, tokens."""
    created = create(client, seats=[{"kind": "me"}, {"kind": "invite"}], **body)
    gid = created["id"]
    joined = client.post(f"/api/games/{gid}/join", json={"invite": created["invites"]["1"]})
    assert joined.status_code == 200, joined.text
    return gid, created["token"], joined.json()["token"]


def test_resign_ends_a_two_player_game_for_everyone(client: TestClient) -> None:
    gid, host, guest = duel(client)
    before = view(client, gid)
    error(client.post(f"/api/games/{gid}/resign", json={}), 403, "token_required")
    error(
        client.post(f"/api/games/{gid}/resign", json={}, headers=auth("nope")), 403, "wrong_token"
    )
    error(
        client.post(f"/api/games/{gid}/resign", json={"seat": 0}, headers=auth(guest)),
        403,
        "not_your_seat",
    )
    error(
        client.post(f"/api/games/{gid}/resign", json={"seat": "1"}, headers=auth(guest)),
        400,
        "bad_request",
    )
    assert view(client, gid)["version"] == before["version"]  # refusals changed nothing

    # The guest resigns although it is not their turn: the host wins at once.
    done = client.post(f"/api/games/{gid}/resign", json={}, headers=auth(guest))
    assert done.status_code == 200, done.text
    assert done.json()["seat"] == 1
    game = view(client, gid)  # as a spectator sees it
    assert game["terminal"] and game["status"] == "finished" and game["legal"] == []
    assert game["result"]["ended"] == "resignation" and game["result"]["winners"] == [0]
    assert game["result"]["resigned"] == [1] and game["resigned"] == [1]
    assert "South resigns" in game["result"]["text"] and "North wins" in game["result"]["text"]
    error(client.post(f"/api/games/{gid}/resign", json={}, headers=auth(host)), 409, "game_over")
    error(
        client.post(f"/api/games/{gid}/actions", json={"action": "t1"}, headers=auth(host)),
        409,
        "game_over",
    )
    # Recorded: the record carries the result, and its replay (and an upload of it) accept it.
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["result"]["ended"] == "resignation" and record["finished"]
    replay = client.get(f"/api/games/{gid}/replay")
    assert replay.status_code == 200, replay.text
    uploaded = client.post("/api/replay", json=record)
    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json()["record"]["result"]["winners"] == [0]
    # A forged agreed result is refused, naming why.
    forged = dict(record, result=dict(record["result"], winners=[7]))
    assert "seats" in error(client.post("/api/replay", json=forged), 400, "bad_request")


def test_a_hot_seat_player_names_the_seat_that_resigns(client: TestClient) -> None:
    created = create(client)  # seats 0 and 1 held by one token
    gid, token = created["id"], created["token"]
    done = client.post(f"/api/games/{gid}/resign", json={"seat": 0}, headers=auth(token))
    assert done.status_code == 200, done.text
    assert done.json()["game"]["result"]["winners"] == [1]


def test_draw_offer_accept_and_decline(client: TestClient) -> None:
    gid, host, guest = duel(client)
    error(
        client.post(f"/api/games/{gid}/draw", json={"answer": "accept"}, headers=auth(guest)),
        409,
        "no_draw_offer",
    )
    error(
        client.post(f"/api/games/{gid}/draw", json={"answer": "maybe"}, headers=auth(guest)),
        400,
        "bad_request",
    )
    error(client.post(f"/api/games/{gid}/draw", json={"answer": "offer"}), 403, "token_required")

    offered = client.post(f"/api/games/{gid}/draw", json={"answer": "offer"}, headers=auth(host))
    assert offered.status_code == 200, offered.text
    assert offered.json()["game"]["draw_offer"] == {"by": 0, "agreed": [0]}
    assert view(client, gid, guest)["draw_to_answer"] == [1]
    assert view(client, gid, host)["draw_to_answer"] == []
    error(
        client.post(f"/api/games/{gid}/draw", json={"answer": "offer"}, headers=auth(guest)),
        409,
        "draw_offered",
    )
    error(
        client.post(f"/api/games/{gid}/draw", json={"answer": "accept"}, headers=auth(host)),
        409,
        "already_agreed",
    )
    # Declined: the offer is gone and play goes on.
    declined = client.post(
        f"/api/games/{gid}/draw", json={"answer": "decline"}, headers=auth(guest)
    )
    assert declined.status_code == 200 and declined.json()["game"]["draw_offer"] is None
    assert not view(client, gid)["terminal"]

    client.post(f"/api/games/{gid}/draw", json={"answer": "offer"}, headers=auth(guest))
    accepted = client.post(f"/api/games/{gid}/draw", json={"answer": "accept"}, headers=auth(host))
    assert accepted.status_code == 200, accepted.text
    game = view(client, gid)
    assert game["terminal"] and game["result"]["ended"] == "agreement"
    assert game["result"]["winners"] == [] and game["result"]["returns"] == [0.5, 0.5]
    assert game["result"]["text"] == "draw by agreement" and game["draw_offer"] is None
    assert client.get(f"/api/games/{gid}/replay").status_code == 200


def test_a_draw_is_never_offered_to_an_ai(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "me"}, {"kind": "ai", "spec": "random"}])
    gid, token = created["id"], created["token"]
    message = error(
        client.post(f"/api/games/{gid}/draw", json={"answer": "offer"}, headers=auth(token)),
        409,
        "ai_plays_on",
    )
    assert "AI" in message and view(client, gid)["draw_offer"] is None


def test_no_draw_where_the_rules_always_have_a_winner(registry_client: TestClient) -> None:
    client = registry_client
    created = client.post(
        "/api/games", json={"game": "passtally", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
    ).json()
    gid, token = created["id"], created["token"]
    assert created["game"]["can_draw"] is False
    message = error(
        client.post(f"/api/games/{gid}/draw", json={"answer": "offer"}, headers=auth(token)),
        409,
        "no_draw",
    )
    assert "always has a winner" in message
    potlatch = client.post(
        "/api/games", json={"game": "potlatch", "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
    ).json()
    assert potlatch["game"]["can_draw"] is True


def test_resigning_from_a_three_player_game_hands_the_seat_to_the_ai(
    registry_client: TestClient,
) -> None:
    client = registry_client
    seats = [{"kind": "me"}, {"kind": "hotseat"}, {"kind": "hotseat"}]
    created = client.post(
        "/api/games", json={"game": "montana", "options": {"players": 3}, "seats": seats}
    )
    assert created.status_code == 201, created.text
    gid, token = created.json()["id"], created.json()["token"]
    current = created.json()["game"]["current_player"]
    other = (current + 1) % 3
    done = client.post(f"/api/games/{gid}/resign", json={"seat": other}, headers=auth(token))
    assert done.status_code == 200, done.text
    game = done.json()["game"]
    assert not game["terminal"] and game["resigned"] == [other]
    assert game["seats"][other]["kind"] == "ai" and other not in game["your_seats"]
    again = client.post(f"/api/games/{gid}/resign", json={"seat": other}, headers=auth(token))
    error(again, 403, "not_your_seat")
    # A second resignation leaves one seat: it wins.
    last = client.post(f"/api/games/{gid}/resign", json={"seat": current}, headers=auth(token))
    assert last.status_code == 200, last.text
    result = last.json()["game"]["result"]
    left = ({0, 1, 2} - {other, current}).pop()
    assert result["winners"] == [left] and result["resigned"] == sorted([other, current])


def test_play_again_swaps_seats_and_keeps_each_players_token(client: TestClient) -> None:
    gid, host, guest = duel(client)
    error(
        client.post(f"/api/games/{gid}/rematch", json={}, headers=auth(host)), 409, "not_finished"
    )
    client.post(f"/api/games/{gid}/resign", json={}, headers=auth(host))
    error(client.post(f"/api/games/{gid}/rematch", json={}), 403, "token_required")
    offered = client.post(f"/api/games/{gid}/rematch", json={}, headers=auth(guest))
    assert offered.status_code == 200, offered.text
    # Nothing starts until the other player agrees; the offer is in the game's view.
    assert offered.json()["id"] is None and view(client, gid)["rematch"] is None
    guest_seat = view(client, gid, guest)["your_seats"][0]
    assert view(client, gid)["rematch_offer"] == {"by": guest_seat, "agreed": [guest_seat]}
    again = client.post(f"/api/games/{gid}/rematch", json={}, headers=auth(guest))
    assert again.json()["id"] is None  # offering twice agrees no one else
    made = client.post(f"/api/games/{gid}/rematch", json={"answer": "accept"}, headers=auth(host))
    assert made.status_code == 200, made.text
    new = made.json()["id"]
    assert new and new != gid and view(client, gid)["rematch"] == new
    assert view(client, gid)["rematch_offer"] is None
    # Asked again (by either player): the same rematch.
    asked = client.post(f"/api/games/{gid}/rematch", json={}, headers=auth(guest))
    assert asked.json()["id"] == new
    assert view(client, new, host)["your_seats"] == [1]
    assert view(client, new, guest)["your_seats"] == [0]
    seats = view(client, new)["seats"]
    assert [s["name"] for s in seats] == ["North", "South"] and all(s["claimed"] for s in seats)


def test_a_rematch_offer_can_be_declined_or_withdrawn(client: TestClient) -> None:
    gid, host, guest = duel(client)
    client.post(f"/api/games/{gid}/resign", json={}, headers=auth(host))

    def answer(token: str | None, said: str) -> Any:
        headers = auth(token) if token else {}
        return client.post(f"/api/games/{gid}/rematch", json={"answer": said}, headers=headers)

    error(answer(host, "accept"), 409, "no_rematch_offer")
    error(answer(host, "decline"), 409, "no_rematch_offer")
    assert "'offer', 'accept' or 'decline'" in error(answer(host, "maybe"), 400, "bad_request")
    answer(host, "offer")
    declined = answer(guest, "decline")
    assert declined.status_code == 200 and declined.json()["game"]["rematch_offer"] is None
    error(answer(host, "accept"), 409, "no_rematch_offer")
    # The one who offered may withdraw; a spectator may not answer at all.
    answer(guest, "offer")
    error(answer(None, "accept"), 403, "token_required")
    assert answer(guest, "decline").json()["game"]["rematch_offer"] is None
    assert view(client, gid)["rematch"] is None


def test_play_again_keeps_ai_seats(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "me"}, {"kind": "ai", "spec": "random"}], private=True)
    gid, token = created["id"], created["token"]
    client.post(f"/api/games/{gid}/resign", json={}, headers=auth(token))
    new = client.post(f"/api/games/{gid}/rematch", json={}, headers=auth(token)).json()["id"]
    game = view(client, new, token)
    assert game["seats"][0]["kind"] == "ai" and game["seats"][0]["spec"] == "random"
    assert game["your_seats"] == [1] and game["private"] is True


def test_private_games_are_not_listed(client: TestClient) -> None:
    hidden = create(client, seats=[{"kind": "me"}, {"kind": "open"}], private=True)
    shown = create(client, seats=[{"kind": "me"}, {"kind": "open"}])
    recent = [g["id"] for g in client.get("/api/games").json()["games"]]
    open_games = [g["id"] for g in client.get("/api/games", params={"open": 1}).json()["games"]]
    assert shown["id"] in recent and hidden["id"] not in recent
    assert shown["id"] in open_games and hidden["id"] not in open_games
    # Whoever has the link still watches it and can take its open seat.
    assert view(client, hidden["id"])["private"] is True
    taken = client.post(f"/api/games/{hidden['id']}/join", json={"seat": 1})
    assert taken.status_code == 200, taken.text
    mine = client.get("/api/games", params={"ids": hidden["id"]}).json()["games"]
    assert [g["id"] for g in mine] == [hidden["id"]]


def test_an_invitation_says_which_seat_it_opens_and_nothing_else(client: TestClient) -> None:
    """The invitation page asks which side its link offers: the seat of that code only, a 403
    for any other code, and the code travels in a body, never a URL."""
    body = {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "invite", "name": "Hana"}]}
    created = client.post("/api/games", json=body).json()
    gid, code = created["id"], created["invites"]["1"]
    answer = client.post(f"/api/games/{gid}/invitation", json={"invite": code})
    assert answer.status_code == 200
    assert answer.json() == {"seat": 1, "name": "Hana", "claimed": False}
    wrong = client.post(f"/api/games/{gid}/invitation", json={"invite": created["token"]})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_invite"
    client.post(f"/api/games/{gid}/join", json={"invite": code})
    assert client.post(f"/api/games/{gid}/invitation", json={"invite": code}).json()["claimed"]
