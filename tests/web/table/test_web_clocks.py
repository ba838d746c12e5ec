"""Clocks (``clocks.py``, ``timeouts.py``): time controls checked, the server's accounting of
each seat's time over real games' turns, flags with and without anyone connected, across a
restart, aborts and abandonment claims. Time is the hub's injectable clock, moved by hand: no
test waits for a clock to fall."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from webcalls import HUMANS, auth, create, refused
from websettings import TEST_LIMITS, tiny_settings

from boardplay.core.registry import load
from boardplay.web.app import create_app
from boardplay.web.config import Settings
from support import games

START = 1_800_000_000.0


class FakeClock:
    """The server's time, standing still until a test moves it."""

    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def timed(client: TestClient) -> FakeClock:
    clock = FakeClock()
    client.app.state.hub.now = clock  # type: ignore[attr-defined]
    return clock


@pytest.fixture
def tiny(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        yield client, timed(client)


def flag_due(client: TestClient) -> None:
    """One sweep of the server (fallen clocks, AI jobs), now (it also runs every second)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.portal.call(hub.sweep)  # type: ignore[union-attr]


def view(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    response = client.get(f"/api/games/{gid}", headers=headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def move(client: TestClient, gid: str, token: str, game: dict[str, Any]) -> dict[str, Any]:
    action = game["legal"][0]["id"]
    response = client.post(
        f"/api/games/{gid}/actions",
        json={"action": action, "ply": game["ply"]},
        headers=auth(token),
    )
    assert response.status_code == 200, response.text
    played: dict[str, Any] = response.json()["game"]
    return played


def both_moved(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    """Play the first seat's whole turn and one step of the other's (both seats have then
    moved, so a flag is a loss, not an abort); the view after it."""
    gid, token, game = made["id"], made["token"], made["game"]
    first = game["current_player"]
    while game["current_player"] == first:
        game = move(client, gid, token, game)
    return move(client, gid, token, game)


# ----- time controls ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"days": 4}, "days must be one of 1, 2, 3, 5, 7, 14"),
        ({"base": 99_999}, "base"),
        ({"base": 5}, "at least 15 seconds"),
        ({"base": 60, "days": 1}, "'days' alone"),
        ({"base": True}, "clock.base"),
        ({"minutes": 5}, "minutes"),
        ({"increment": 5}, "base"),
        ("5+3", "clock"),
    ],
)
def test_a_time_control_outside_the_offer_is_refused_with_what_is_allowed(
    tiny: tuple[TestClient, FakeClock], clock: Any, words: str
) -> None:
    client, _ = tiny
    body = {"game": "tiny", "seats": HUMANS, "clock": clock}
    assert words in refused(client.post("/api/games", json=body))


def test_untimed_games_have_no_clock(tiny: tuple[TestClient, FakeClock]) -> None:
    client, _ = tiny
    assert create(client)["game"]["clock"] is None


def test_fischer_time_is_charged_to_the_mover_and_the_increment_comes_once_a_turn(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    made = create(client, clock={"base": 60, "increment": 5})
    gid, token = made["id"], made["token"]
    game = made["game"]
    seat = game["current_player"]
    assert game["clock"]["label"] == "1+5"
    assert game["clock"]["running"] == seat and game["clock"]["since"] == START
    assert game["clock"]["left"] == [60, 60] and game["clock"]["deadline"] == START + 60
    clock.advance(3)
    game = move(client, gid, token, game)  # first step of a two-step turn: no increment
    assert game["clock"]["left"][seat] == 57 and game["clock"]["running"] == seat
    clock.advance(4)
    game = move(client, gid, token, game)  # the turn ends: charged 4 s, then +5 once
    assert game["clock"]["left"][seat] == 58
    other = 1 - seat
    assert game["clock"]["running"] == other and game["clock"]["since"] == clock.t
    clock.advance(10.5)
    game = move(client, gid, token, game)
    assert game["clock"]["left"] == pytest.approx([58, 49.5] if seat == 0 else [49.5, 58])


def test_undoing_a_step_gives_no_time_back(tiny: tuple[TestClient, FakeClock]) -> None:
    client, clock = tiny
    made = create(client, clock={"base": 60, "increment": 5})
    gid, token, seat = made["id"], made["token"], made["game"]["current_player"]
    clock.advance(8)
    game = move(client, gid, token, made["game"])
    undone = client.post(f"/api/games/{gid}/undo", json={"ply": game["ply"]}, headers=auth(token))
    assert undone.status_code == 200, undone.text
    clock.advance(2)
    again = view(client, gid, token)
    assert again["clock"]["running"] == seat and again["clock"]["left"][seat] == 52
    assert again["clock"]["deadline"] == START + 60


def test_a_seat_whose_time_runs_out_loses_whether_or_not_anyone_is_connected(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    made = create(client, clock={"base": 30, "increment": 0})
    gid, token = made["id"], made["token"]
    game = both_moved(client, made)
    late = game["current_player"]
    revision = game["version"][1]
    clock.advance(29.9)
    flag_due(client)
    assert view(client, gid)["status"] == "active"
    clock.advance(0.2)
    flag_due(client)
    ended = view(client, gid)
    result = ended["result"]
    assert ended["status"] == "finished" and ended["terminal"]
    assert result["ended"] == "time" and result["winners"] == [1 - late]
    assert "ran out of time" in result["text"] and result["resigned"] == [late]
    assert ended["clock"]["running"] is None and ended["clock"]["flagged"] == [late]
    assert ended["clock"]["left"][late] == 0
    assert ended["version"][1] == revision + 1
    flag_due(client)  # a second sweep finds nothing to do
    assert view(client, gid)["version"][1] == revision + 1
    refused(
        client.post(
            f"/api/games/{gid}/actions",
            json={"action": 0, "ply": ended["ply"]},
            headers=auth(token),
        ),
        409,
    )


def test_a_move_that_arrives_after_the_flag_fell_is_not_played(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    made = create(client, clock={"base": 20, "increment": 0})
    gid, token = made["id"], made["token"]
    game = both_moved(client, made)
    clock.advance(25)  # no sweep has run yet: the move itself finds the flag
    late = client.post(
        f"/api/games/{gid}/actions",
        json={"action": game["legal"][0]["id"], "ply": game["ply"]},
        headers=auth(token),
    )
    assert "ran out of time" in refused(late, 409)
    ended = view(client, gid)
    assert ended["result"]["ended"] == "time" and ended["ply"] == game["ply"]


def test_a_flag_before_the_seats_first_move_aborts_the_game(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    made = create(client, clock={"base": 20, "increment": 0})
    clock.advance(21)
    flag_due(client)
    result = view(client, made["id"])["result"]
    assert result["ended"] == "aborted" and result["winners"] == []
    assert "aborted" in result["text"]


def test_no_clock_runs_until_every_seat_is_taken(tiny: tuple[TestClient, FakeClock]) -> None:
    client, clock = tiny
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = create(client, seats=seats, clock={"base": 60, "increment": 0})
    assert made["game"]["clock"]["running"] is None
    clock.advance(500)
    flag_due(client)
    assert view(client, made["id"])["status"] == "active"
    joined = client.post(f"/api/games/{made['id']}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.text
    started = joined.json()["game"]["clock"]
    assert started["since"] == clock.t and started["running"] is not None
    assert started["left"] == [60, 60]


def test_a_correspondence_deadline_that_passed_while_the_server_was_stopped(
    tmp_path: Path,
) -> None:
    settings = tiny_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        clock = timed(client)
        made = create(client, clock={"days": 3})
        gid, token = made["id"], made["token"]
        game = made["game"]
        first = game["current_player"]
        while game["current_player"] == first:
            clock.advance(3600)
            game = move(client, gid, token, game)
        # Each move gets the whole allowance again (the clock is not a bank).
        assert game["clock"]["left"][1 - first] == 259_200
        assert game["clock"]["left"][first] == 259_200 - 2 * 3600
        assert game["clock"]["deadline"] == clock.t + 3 * 86_400
        clock.advance(2 * 86_400)
        game = move(client, gid, token, game)
        waiting = game["current_player"]
        stopped_at = clock.t
    # The server is down for four days; the deadline passes meanwhile.
    with TestClient(create_app(settings)) as client:
        clock = timed(client)
        clock.t = stopped_at + 4 * 86_400
        flag_due(client)
        ended = view(client, gid)
        assert ended["result"]["ended"] == "time"
        assert ended["result"]["winners"] == [1 - waiting]


# ----- clock accounting over real games -------------------------------------------------------
@pytest.fixture
def real(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'real.sqlite3'}", ai_workers=0, limits=TEST_LIMITS
    )
    with TestClient(create_app(settings)) as client:
        yield client, timed(client)


GAMES = [
    ("potlatch", {}, 2, 400),
    ("passtally", {"players": 3}, 3, 120),
    ("proteus", {}, 2, 400),
    ("montana", {"players": 3}, 3, 260),
]


@pytest.mark.parametrize("seed", range(games(1, 8)))
@pytest.mark.parametrize(("name", "options", "seats", "plies"), GAMES)
def test_every_seat_pays_its_own_thinking_and_the_turns_owner_the_increment(
    real: tuple[TestClient, FakeClock],
    name: str,
    options: dict[str, Any],
    seats: int,
    plies: int,
    seed: int,
) -> None:
    """Random play at random speeds, each accepted move checked against the rule: the seat that
    decided pays the time since its clock started; when the turn passes on (``State.turn``), its
    owner gets the increment once; the next seat to decide starts at the move's own time, so
    the chance steps the server applies with it cost nobody anything. In Montana's City auction
    the other players answer inside the active player's turn: their own clocks run, and no
    increment is theirs."""
    client, clock = real
    rng = random.Random(f"{name}-clock-{seed}")
    increment = 2.0
    body = {
        "game": name,
        "options": options,
        "seats": [{"kind": "me"}] + [{"kind": "hotseat"}] * (seats - 1),
        "clock": {"base": 3 * 3600, "increment": increment},
        "reproducible": True,  # the same luck every run (the Montana board, the tiles drawn)
        "seed": seed,
    }
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    gid, token, game = created.json()["id"], created.json()["token"], created.json()["game"]
    engine = load(name, **options)
    state = engine.new_initial_state()
    for stored in game["moves"]:
        state.apply_action(stored["action"])
    answers = chance_steps = 0
    while not game["terminal"] and game["ply"] < plies:
        before = state.turn()
        mover = state.current_player()
        assert game["clock"]["running"] == mover
        answers += before[0] != mover
        left, since = list(game["clock"]["left"]), game["clock"]["since"]
        clock.advance(rng.choice([0.5, 1.25, 7.0, 30.0]))
        action = rng.choice(state.legal_actions())
        response = client.post(
            f"/api/games/{gid}/actions",
            json={"action": action, "ply": game["ply"]},
            headers=auth(token),
        )
        assert response.status_code == 200, response.text
        game = response.json()["game"]
        state.apply_action(action)
        for stored in game["moves"][len(state.history()) :]:
            state.apply_action(stored["action"])
            chance_steps += 1
        left[mover] -= clock.t - since
        if state.turn() != before:
            left[before[0]] += increment
        assert game["clock"]["left"] == pytest.approx(left, abs=0.002)
        if not game["terminal"]:
            assert game["clock"]["since"] == clock.t
    assert chance_steps > 0 or engine.max_chance_outcomes == 0
    if name == "montana":
        assert answers > 0, "no City auction answer was met: play longer"


# ----- abandonment ---------------------------------------------------------------------------
def two_players(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = create(client, seats=seats, **body)
    joined = client.post(f"/api/games/{made['id']}/join", json={"seat": 1}).json()
    return made["id"], {0: made["token"], 1: joined["token"]}


def test_a_claim_waits_until_the_opponent_has_been_gone_long_enough(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    gid, tokens = two_players(client, clock={"base": 600, "increment": 5})
    game = view(client, gid, tokens[0])
    for _ in range(6):  # both seats move
        seat = game["current_player"]
        game = move(client, gid, tokens[seat], game)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[0], "id": 1, "presence": True})
        while ws.receive_json().get("id") != 1:
            pass
        clock.advance(10)
        early = client.post(f"/api/games/{gid}/claim", json={}, headers=auth(tokens[0]))
        assert "has not left" in refused(early, 409)
        clock.advance(25)  # seat 1 never had a page open here: gone since the table was seen
        claimed = client.post(f"/api/games/{gid}/claim", json={}, headers=auth(tokens[0]))
        assert claimed.status_code == 200, claimed.text
        result = claimed.json()["game"]["result"]
        assert result["ended"] == "abandoned" and result["winners"] == [0]
        assert "left the game" in result["text"]


def test_no_claim_against_a_player_who_is_there_nor_in_a_correspondence_game(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    gid, tokens = two_players(client, clock={"base": 600, "increment": 5})
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[1], "id": 1, "presence": True})
        while ws.receive_json().get("id") != 1:
            pass
        clock.advance(120)
        here = client.post(f"/api/games/{gid}/claim", json={}, headers=auth(tokens[0]))
        assert "has not left" in refused(here, 409)
    postal, postal_tokens = two_players(client, clock={"days": 1})
    clock.advance(120)
    refused(client.post(f"/api/games/{postal}/claim", json={}, headers=auth(postal_tokens[0])), 409)
    spectator = client.post(f"/api/games/{gid}/claim", json={})
    refused(spectator, 403)


def test_a_game_left_before_the_opponent_moved_is_aborted_not_won(
    tiny: tuple[TestClient, FakeClock],
) -> None:
    client, clock = tiny
    gid, tokens = two_players(client, clock={"base": 600, "increment": 5})
    clock.advance(60)
    claimed = client.post(f"/api/games/{gid}/claim", json={}, headers=auth(tokens[0]))
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["game"]["result"]["ended"] == "aborted"


def test_in_a_three_player_game_the_ai_plays_out_a_flagged_seat(
    real: tuple[TestClient, FakeClock],
) -> None:
    client, clock = real
    body = {
        "game": "passtally",
        "options": {"players": 3},
        "seats": [{"kind": "me"}, {"kind": "hotseat"}, {"kind": "hotseat"}],
        "clock": {"base": 60, "increment": 0},
    }
    made = client.post("/api/games", json=body).json()
    gid, token = made["id"], made["token"]
    flagged = made["game"]["current_player"]
    clock.advance(61)
    flag_due(client)
    game = view(client, gid, token)
    assert game["status"] == "active" and game["resigned"] == [flagged]
    assert game["seats"][flagged]["kind"] == "ai" and game["clock"]["flagged"] == [flagged]
    assert game["clock"]["left"][flagged] == 0
    # The AI moves for the seat (its clock stopped); then a person's clock runs again.
    for _ in range(200):
        game = view(client, gid, token)
        if game["current_player"] != flagged and game["clock"]["running"] is not None:
            break
        client.portal.call(anyio_sleep)  # type: ignore[union-attr]
    assert game["clock"]["running"] == game["current_player"] != flagged
    assert game["clock"]["since"] == clock.t and game["clock"]["left"][game["current_player"]] == 60


async def anyio_sleep() -> None:
    """Let the server's loop run a moment (the AI's move is a background job)."""
    await anyio.sleep(0.05)
