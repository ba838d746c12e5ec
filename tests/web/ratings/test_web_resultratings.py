"""What a finished rated game did to its players' ratings (``GET /api/games/{id}/rating``, which
the game page shows as "You won · +12"): nothing for a casual game, not settled while the game
runs, then each seat's rating after the game and its change, the winner's up and the loser's
down by the same points between two new players."""

from __future__ import annotations

from typing import Any

from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient


def rated_game(client: TestClient) -> tuple[Player, Player, str, dict[int, str], Any]:
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = hana.post(
        "/api/games", {"game": "proteus", "seats": seats, "rated": True, "clock": RAPID}
    ).json()
    joined = kenji.post(f"/api/games/{made['id']}/join", {"seat": 1}).json()
    return hana, kenji, made["id"], {0: made["token"], 1: joined["token"]}, joined["game"]


def test_a_rated_game_s_rating_changes_once_settled(registry_client: TestClient) -> None:
    hana, kenji, gid, tokens, view = rated_game(registry_client)
    assert registry_client.get(f"/api/games/{gid}/rating").json() == {
        "rated": True,
        "settled": False,
        "seats": [],
    }
    for _ in range(6):  # three turns each: a game resigned sooner is not rated (rated.py)
        seat = view["current_player"]
        move = {"action": view["legal"][0]["id"], "ply": view["ply"]}
        view = hana.post(f"/api/games/{gid}/actions", move, token=tokens[seat]).json()["game"]
    kenji.post(f"/api/games/{gid}/resign", {}, token=tokens[1])
    answer = registry_client.get(f"/api/games/{gid}/rating").json()
    assert answer["rated"] and answer["settled"], answer
    by_seat = {s["seat"]: s for s in answer["seats"]}
    assert by_seat[0]["change"] > 0 > by_seat[1]["change"]
    assert by_seat[0]["change"] == -by_seat[1]["change"]
    assert by_seat[0]["rating"] == round(1500 + by_seat[0]["change"])
    # The winner's profile lists the game with the points it moved.
    recent = registry_client.get("/api/players/Hana").json()["recent"]
    assert [g["rating_change"] for g in recent if g["id"] == gid] == [by_seat[0]["change"]]
    # So do both players' "My games" in the lobby.
    for player, seat in ((hana, 0), (kenji, 1)):
        mine = player.get("/api/account/games").json()["games"]
        assert [g["rating_change"] for g in mine if g["id"] == gid] == [by_seat[seat]["change"]]


def test_a_casual_game_moves_no_rating(registry_client: TestClient) -> None:
    hana = sign_up(registry_client, "Mio")
    made = hana.post(
        "/api/games", {"game": "proteus", "seats": [{"kind": "me"}, {"kind": "ai", "spec": "easy"}]}
    ).json()
    answer = registry_client.get(f"/api/games/{made['id']}/rating").json()
    assert answer == {"rated": False, "settled": False, "seats": []}
    assert registry_client.get("/api/games/nosuchgame/rating").status_code == 404
