"""Accounts over the HTTP API: sign-up and sign-in, sessions and their cookie, CSRF, the
throttle, seats that follow their account to any browser, rated games and their ratings."""

from __future__ import annotations

import sqlalchemy as sa
from accountcalls import PASSWORD, RAPID, Player, sign_in, sign_up
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from webcalls import auth, create, refused

from boardplay.web.accounts.service import COOKIE
from boardplay.web.accounts.store import accounts_table
from boardplay.web.config import Limits
from boardplay.web.database import metadata


def storage_of(client: TestClient) -> sa.Engine:
    engine: sa.Engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
    return engine


def play_out(client: TestClient, game: dict, tokens: dict[int, str]) -> dict:
    """Take one counter at a time until the tiny game ends, each seat with its own token."""
    view = game
    while view["status"] == "active":
        seat = view["current_player"]
        response = client.post(
            f"/api/games/{view['id']}/actions",
            json={"action": "t1", "ply": view["ply"]},
            headers=auth(tokens[seat]),
        )
        assert response.status_code == 200, response.text
        view = response.json()["game"]
    return view


def rated_game(client: TestClient, first: Player, second: Player) -> tuple[dict, dict[int, str]]:
    made = first.post(
        "/api/games",
        {
            "game": "tiny",
            "seats": [{"kind": "me"}, {"kind": "open"}],
            "rated": True,
            "clock": RAPID,
        },
    )
    assert made.status_code == 201, made.text
    joined = second.post(f"/api/games/{made.json()['id']}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    return joined.json()["game"], {0: made.json()["token"], 1: joined.json()["token"]}


def test_the_migrations_make_exactly_the_tables_the_code_declares(client: TestClient) -> None:
    with storage_of(client).connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []


def test_sign_up_sets_a_safe_cookie_and_stores_only_an_argon2id_hash(client: TestClient) -> None:
    response = client.post("/api/account/signup", json={"name": "Hana", "password": PASSWORD})
    assert response.status_code == 201, response.text
    cookie = response.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http on loopback; https sets it
    assert PASSWORD not in response.text and "argon2" not in response.text
    assert response.json()["account"] == {
        "name": "Hana",
        "password": True,
        "passkeys": [],
        "language": None,
    }
    with storage_of(client).connect() as conn:
        stored = conn.execute(sa.select(accounts_table.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    client.cookies.clear()
    assert client.get("/api/account/me").json() == {"account": None, "csrf": None}


def test_names_are_unique_ignoring_case_and_reserved_words_are_refused(client: TestClient) -> None:
    sign_up(client, "Hana")
    taken = client.post("/api/account/signup", json={"name": "hANA", "password": PASSWORD})
    assert "taken" in refused(taken, 409)
    assert "reserved" in refused(
        client.post("/api/account/signup", json={"name": "Admin", "password": PASSWORD}), 409
    )
    for bad in ("ab", "x" * 21, "has space", "ハナ"):
        refused(client.post("/api/account/signup", json={"name": bad, "password": PASSWORD}))
    refused(client.post("/api/account/signup", json={"name": "Kenji", "password": "short"}))


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "Hana")
    wrong = client.post("/api/account/signin", json={"name": "Hana", "password": "not it at all"})
    unknown = client.post("/api/account/signin", json={"name": "Nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert COOKIE not in wrong.headers.get("set-cookie", "")


def test_sign_in_is_throttled_per_account(client: TestClient) -> None:
    sign_up(client, "Hana")
    for _ in range(Limits().signin_per_account):
        refused(client.post("/api/account/signin", json={"name": "hana", "password": "x" * 9}), 401)
    throttled = client.post("/api/account/signin", json={"name": "Hana", "password": PASSWORD})
    assert "too many" in refused(throttled, 429)
    assert throttled.headers["retry-after"]
    sign_up(client, "Kenji")  # another account is not held up by Hana's attacker...
    sign_in(client, "Kenji")


def test_the_session_changes_at_sign_in_and_the_old_one_ends(client: TestClient) -> None:
    first = sign_up(client, "Hana")
    client.cookies.set(COOKIE, first.cookie)
    again = client.post("/api/account/signin", json={"name": "Hana", "password": PASSWORD})
    assert again.status_code == 200
    assert again.cookies[COOKIE] != first.cookie
    client.cookies.clear()
    assert first.get("/api/account/me").json()["account"] is None


def test_a_cookie_change_without_the_csrf_token_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    hana = sign_up(client, "Hana")
    body = {"old": PASSWORD, "new": "a brand new secret"}
    assert "CSRF" in refused(hana.post("/api/account/password", body, csrf=False), 403)
    forged = dict(hana.headers(), **{"X-CSRF-Token": "guess"})
    assert client.post("/api/account/password", json=body, headers=forged).status_code == 403
    sign_in(client, "Hana")  # the password is unchanged
    game = {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "ai", "spec": "random"}]}
    refused(hana.post("/api/games", game, csrf=False), 403)
    assert hana.post("/api/games", game).status_code == 201


def test_sign_up_and_sign_in_only_take_json(client: TestClient) -> None:
    form = client.post(
        "/api/account/signin",
        content=b'{"name":"a","password":"b"}',
        headers={"Content-Type": "text/plain"},
    )
    assert form.status_code in (400, 415)


def test_a_rated_game_rates_both_players_once_and_shows_on_profiles(client: TestClient) -> None:
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    game, tokens = rated_game(client, hana, kenji)
    assert game["rated"] and [s["name"] for s in game["seats"]] == ["Hana", "Kenji"]
    assert all(s["player"] for s in game["seats"])
    final = play_out(client, game, tokens)
    assert final["status"] == "finished"
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.ratings.store.settle(final["id"], "tiny", [(1, 1), (2, 2)]) is False  # already done
    hana_profile = client.get("/api/players/hana").json()
    kenji_profile = client.get("/api/players/KENJI").json()
    winners = final["result"]["winners"]
    for profile, seat in ((hana_profile, 0), (kenji_profile, 1)):
        (rating,) = profile["ratings"]
        assert rating["pool"] == "tiny" and rating["games"] == 1 and rating["provisional"]
        won = seat in winners
        assert (rating["rating"] > 1500) == won or not winners
        assert profile["results"]["tiny"]["played"] == 1
        assert profile["recent"][0]["id"] == final["id"]
        assert len(profile["history"]["tiny"]) == 1
    board = client.get("/api/ratings/tiny").json()["players"]
    assert {p["name"] for p in board} == {"Hana", "Kenji"}
    assert client.get("/api/ratings").json()["pools"] == ["tiny"]
    refused(client.get("/api/ratings/nothing"), 404)
    refused(client.get("/api/players/nobody"), 404)


def test_ratings_are_recomputable_from_the_stored_results(client: TestClient) -> None:
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    for _ in range(3):
        play_out(client, *rated_game(client, hana, kenji))
    before = client.get("/api/ratings/tiny").json()["players"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.ratings.store.recompute() == 3
    assert client.get("/api/ratings/tiny").json()["players"] == before


def test_rated_games_seat_only_signed_in_people_each_once(client: TestClient) -> None:
    hana = sign_up(client, "Hana")
    base = {"game": "tiny", "rated": True, "clock": RAPID}
    refused(
        client.post("/api/games", json={**base, "seats": [{"kind": "me"}, {"kind": "open"}]}), 401
    )
    for seats in (
        [{"kind": "me"}, {"kind": "ai", "spec": "random"}],
        [{"kind": "me"}, {"kind": "hotseat"}],
    ):
        assert "rated" in refused(hana.post("/api/games", {**base, "seats": seats}))
    open_seat = [{"kind": "me"}, {"kind": "open"}]
    refused(hana.post("/api/games", {**base, "seats": open_seat, "private": True}))
    refused(hana.post("/api/games", {**base, "seats": open_seat, "reproducible": True}))
    untimed = {"game": "tiny", "rated": True, "seats": open_seat}
    assert "clock" in refused(hana.post("/api/games", untimed))
    made = hana.post("/api/games", {**base, "seats": open_seat}).json()
    refused(client.post(f"/api/games/{made['id']}/join", json={"seat": 1}), 401)
    refused(hana.post(f"/api/games/{made['id']}/join", {"seat": 1}), 409)


def test_a_game_abandoned_before_everyone_moved_is_not_rated(client: TestClient) -> None:
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    game, tokens = rated_game(client, hana, kenji)
    seat = game["current_player"]
    resigned = client.post(f"/api/games/{game['id']}/resign", json={}, headers=auth(tokens[seat]))
    assert resigned.json()["game"]["status"] == "finished"
    assert client.get("/api/ratings/tiny").json()["players"] == []
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.ratings.store.is_settled(game["id"])


def test_a_seat_follows_its_account_to_another_browser(client: TestClient) -> None:
    hana = sign_up(client, "Hana")
    made = hana.post("/api/games", {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "hotseat"}]})
    game_id = made.json()["id"]
    laptop = sign_in(client, "Hana")  # another browser: no token, only the account
    (listed,) = laptop.get("/api/account/games").json()["games"]
    assert listed["id"] == game_id and listed["your_seats"] == [0, 1] and listed["your_turn"]
    given = laptop.post(f"/api/account/games/{game_id}/token").json()
    view = given["game"]
    moved = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": "t1", "ply": view["ply"]},
        headers=auth(given["token"]),
    )
    assert moved.status_code == 200, moved.text
    kenji = sign_up(client, "Kenji")
    assert "no seat" in refused(kenji.post(f"/api/account/games/{game_id}/token"), 403)
    assert kenji.get("/api/account/games").json()["games"] == []
    # Signing out everywhere takes back every token of the account's seats: those it gave its
    # browsers and the one the game was created with (issue 47); signed in again, a browser
    # is given a new one.
    laptop.post("/api/account/signout-everywhere")
    for token in (given["token"], made.json()["token"]):
        again = client.post(
            f"/api/games/{game_id}/actions", json={"action": "t1"}, headers=auth(token)
        )
        refused(again, 403)
    assert hana.get("/api/account/me").json()["account"] is None
    back = sign_in(client, "Hana").post(f"/api/account/games/{game_id}/token").json()
    moved = client.post(
        f"/api/games/{game_id}/actions", json={"action": "t1"}, headers=auth(back["token"])
    )
    assert moved.status_code == 200, moved.text


def test_a_guest_keeps_their_games_on_signing_up(client: TestClient) -> None:
    guest = create(client)
    hana = sign_up(client, "Hana")
    kept = hana.post(
        "/api/account/adopt", {"seats": [{"game": guest["id"], "token": guest["token"]}]}
    )
    assert kept.json()["games"] == [guest["id"]]
    (listed,) = hana.get("/api/account/games").json()["games"]
    assert listed["id"] == guest["id"]
    assert [s["name"] for s in listed["seats"]] == ["Hana", "Hana"]
    kenji = sign_up(client, "Kenji")  # the same token cannot move the seats to another account
    again = kenji.post(
        "/api/account/adopt", {"seats": [{"game": guest["id"], "token": guest["token"]}]}
    )
    assert again.json()["games"] == []


def test_deleting_an_account_keeps_its_finished_games(client: TestClient) -> None:
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    final = play_out(client, *rated_game(client, hana, kenji))
    refused(hana.post("/api/account/delete", {"confirm": "hana!"}))
    assert hana.post("/api/account/delete", {"confirm": "Hana"}).json()["account"] is None
    assert hana.get("/api/account/me").json()["account"] is None
    seats = client.get(f"/api/games/{final['id']}").json()["seats"]
    assert seats[0]["name"] == "deleted player"
    refused(client.get("/api/players/Hana"), 404)
    refused(client.post("/api/account/signin", json={"name": "Hana", "password": PASSWORD}), 401)
    sign_up(client, "Hana")  # the name is free again
    assert [p["name"] for p in client.get("/api/ratings/tiny").json()["players"]] == ["Kenji"]


def test_no_route_lets_one_account_act_for_another_accounts_seats(client: TestClient) -> None:
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    game, tokens = rated_game(client, hana, kenji)
    seat = game["current_player"]
    other = hana if seat == 1 else kenji  # signed in, but not the seat to move
    move = {"action": "t1", "ply": game["ply"]}
    assert other.post(f"/api/games/{game['id']}/actions", move).status_code == 403
    assert other.post(f"/api/games/{game['id']}/resign", {"seat": seat}).status_code == 403
    mine = other.post(f"/api/account/games/{game['id']}/token").json()
    assert mine["seats"] == [1 - seat]
    # The account's own token holds its own seat only: moving for the other is not its turn.
    assert "not your turn" in refused(
        client.post(f"/api/games/{game['id']}/actions", json=move, headers=auth(mine["token"])),
        409,
    )
    view = client.get(f"/api/games/{game['id']}", headers=auth(mine["token"])).json()
    assert view["your_seats"] == [1 - seat]
    assert client.get(f"/api/games/{game['id']}", headers=auth(tokens[seat])).json()[
        "your_seats"
    ] == [seat]


def test_the_account_routes_meet_the_servers_ceilings(client: TestClient) -> None:
    """Body size, JSON depth and the length of every field hold here as everywhere."""
    big = client.post(
        "/api/account/signup",
        content=b'{"name": "Hana", "password": "' + b"x" * 600_000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert big.status_code == 413
    deep = "[" * 100 + "]" * 100
    nested = client.post(
        "/api/account/signin",
        content=('{"name": "Hana", "password": ' + deep + "}").encode(),
        headers={"Content-Type": "application/json"},
    )
    assert nested.status_code == 400
    refused(client.post("/api/account/signup", json={"name": "Hana", "password": "y" * 1001}))
    refused(client.post("/api/account/signup", json={"name": "Hana", "password": "z" * 201}))
    assert client.get("/api/account/me").json()["account"] is None


def test_boardplay_db_ratings_rebuilds_them_from_the_stored_results(client: TestClient) -> None:
    from typer.testing import CliRunner

    from boardplay.cli.main import app

    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    play_out(client, *rated_game(client, hana, kenji))
    before = client.get("/api/ratings/tiny").json()["players"]
    url = str(storage_of(client).url)
    with storage_of(client).begin() as conn:
        conn.execute(sa.text("UPDATE ratings SET rating = 0"))
    result = CliRunner().invoke(app, ["db", "ratings", "--db", url])
    assert result.exit_code == 0, result.output
    assert "1 rated game" in result.output
    assert client.get("/api/ratings/tiny").json()["players"] == before
