"""Numbers at their boundaries, everywhere a visitor can send one (issue 26): every integer
option of every game on preview, create and record upload, and every number of a real position
uploaded as a record's start. The kernels keep these in C ``int`` fields, so 2^31 - 1 is the
last value that may be accepted; whatever is refused is a 400 and stores nothing, and a game is
stored only if it loads (the lobby and the AI sweeper keep working for everyone)."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websettings import TEST_LIMITS

from boardplay.core.registry import load
from boardplay.web.app import create_app
from boardplay.web.catalogue import REGISTRY
from boardplay.web.config import Settings
from support import games

GAMES = REGISTRY.names()
EDGES: list[Any] = [
    2**31 - 1,
    2**31,
    -(2**31),
    -(2**31) - 1,
    2**63,
    10**19,
    -1,
    0,
]
"""Numbers as JSON carries them (the safe-JSON reader refuses integers of more than 20 digits
before any route runs)."""
TEXTS = [str(2**31 - 1), str(2**31), str(2**63), str(10**20), "9" * 5000, "-" + "9" * 30, " 7 "]
"""The same as option strings, as the command line and game strings write them."""


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = tmp_path_factory.mktemp("edges") / "edges.sqlite3"
    settings = Settings(database_url=f"sqlite:///{path}", ai_workers=0, limits=TEST_LIMITS)
    with TestClient(create_app(settings)) as client:
        yield client


def integer_options() -> list[tuple[str, str]]:
    found = []
    for name in GAMES:
        for spec in load(name).option_set.specs:
            if spec.kind is int and spec.choices is None:
                found.append((name, spec.name))
    return found


def seats(api: TestClient, game: str, options: dict[str, Any]) -> list[dict[str, str]]:
    preview = api.post("/api/games/preview", json={"game": game, "options": options})
    count = preview.json()["num_players"] if preview.status_code == 200 else 2
    return [{"kind": "me"}] + [{"kind": "hotseat"}] * (count - 1)


def check_value(api: TestClient, game: str, option: str, value: Any) -> None:
    """Preview, create and upload agree on ``value``: all accept it or all refuse it (400);
    never a 5xx, and an accepted game loads everywhere it is shown."""
    options = {option: value}
    preview = api.post("/api/games/preview", json={"game": game, "options": options})
    body = {"game": game, "options": options, "seats": seats(api, game, options)}
    created = api.post("/api/games", json=body)
    record = {"format": "boardplay-record", "version": 1, "game": game, "options": options}
    uploaded = api.post("/api/replay", json=record)
    statuses = (preview.status_code, created.status_code, uploaded.status_code)
    assert statuses in ((200, 201, 200), (400, 400, 400)), (game, option, value, statuses)
    if created.status_code == 201:
        gid = created.json()["id"]
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/record", f"/api/games/{gid}/replay"):
            assert api.get(path).status_code == 200, path
    else:
        message = created.json()["error"]["message"]
        assert option in message and len(message) < 400, message


@pytest.mark.parametrize(("game", "option"), integer_options())
def test_every_integer_option_at_its_boundaries(api: TestClient, game: str, option: str) -> None:
    for value in [*EDGES, *TEXTS]:
        check_value(api, game, option, value)
    spec = load(game).option_set.by_name()[option]
    if spec.maximum is None:  # the C int bound holds even where the game declares none
        assert (
            api.post(
                "/api/games/preview", json={"game": game, "options": {option: 2**31}}
            ).status_code
            == 400
        )
    assert api.get("/api/games").status_code == 200


@settings(max_examples=games(60, 1000), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    case=st.sampled_from(integer_options()),
    value=st.integers(-(2**64), 2**64)
    | st.integers(2**31 - 3, 2**31 + 3)
    | st.integers(-(2**64), 2**64).map(str),
)
def test_random_integer_options_never_fail(
    api: TestClient, case: tuple[str, str], value: Any
) -> None:
    check_value(api, case[0], case[1], value)


def numbers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every integer (not boolean) inside a JSON value."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in numbers(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in numbers(v, (*path, i))]
    return []


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


def midgame(name: str) -> dict[str, Any]:
    game = load(name)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    position: dict[str, Any] = state.to_json()
    return position


@pytest.mark.parametrize("name", GAMES)
def test_every_number_of_an_uploaded_start_position_at_its_boundaries(
    api: TestClient, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    position = midgame(name)
    record = {"format": "boardplay-record", "version": 1, "game": name, "moves": []}
    assert api.post("/api/replay", json={**record, "start_position": position}).status_code == 200
    paths = numbers(position)
    assert paths, name
    with caplog.at_level(logging.ERROR, logger="boardplay.web"):
        for path in paths:
            for value in (2**31 - 1, 2**31, -(2**31) - 1, 10**19):
                start = replaced(position, path, value)
                answer = api.post("/api/replay", json={**record, "start_position": start})
                assert answer.status_code in (200, 400), (path, value, answer.text)
    assert not caplog.records, caplog.records[0].getMessage()


def test_numbers_of_a_record_at_their_boundaries(api: TestClient) -> None:
    """The record's own numbers: its version, and each move's action id and seat."""
    base = {"format": "boardplay-record", "version": 1, "game": "proteus", "options": {}}
    state = load("proteus").new_initial_state()
    action = state.legal_actions()[0]
    move = {"actions": [action], "moves": [state.action_to_string(action)], "seats": [0]}
    for value in EDGES:
        for body in (
            {**base, "version": value},
            {**base, **move, "actions": [value]},
            {**base, **move, "seats": [value]},
        ):
            answer = api.post("/api/replay", json=body)
            assert answer.status_code in (200, 400), (body, answer.text)
    assert api.post("/api/replay", json={**base, **move}).status_code == 200


def test_the_reports_values_are_refused_before_anything_is_stored(api: TestClient) -> None:
    """The review's reproductions: Passtally and Proteus ``max_turns`` of 2^31 (as a number and
    as text) once stored a game no process could load; Montana's overflowed its tables."""
    before = api.get("/api/games").json()["games"]
    turn_capped = [name for name in GAMES if "max_turns" in load(name).option_set.by_name()]
    assert turn_capped, "no game has a turn limit to overflow"
    for game in turn_capped:
        for value in (2**31, "2147483648", 2**63, "9" * 4300):
            body = {
                "game": game,
                "options": {"max_turns": value},
                "seats": [{"kind": "me"}, {"kind": "hotseat"}],
            }
            answer = api.post("/api/games", json=body)
            assert answer.status_code == 400, answer.text
            assert "max_turns" in answer.json()["error"]["message"]
    assert api.get("/api/games").json()["games"] == before


def test_a_montana_board_chosen_by_the_creator_makes_the_game_reproducible(
    tmp_path: Path,
) -> None:
    """Fixing Montana's board or start seat decides what chance would: the game is labelled
    reproducible and an invited player must agree to it, as with a chosen seed."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'm.sqlite3'}", ai_workers=0, limits=TEST_LIMITS
    )
    with TestClient(create_app(settings)) as api:
        for options in ({"board_seed": 1234}, {"start_player": 0}):
            body = {
                "game": "montana",
                "options": options,
                "seats": [{"kind": "me"}, {"kind": "invite"}],
            }
            created = api.post("/api/games", json=body).json()
            assert created["game"]["reproducible"], options
            join = {"invite": created["invites"]["1"]}
            refused = api.post(f"/api/games/{created['id']}/join", json=join)
            assert refused.status_code == 409 and "reproducible" in refused.text
            agreed = api.post(
                f"/api/games/{created['id']}/join", json={**join, "accept_reproducible": True}
            )
            assert agreed.status_code == 200, agreed.text
        plain = {"game": "montana", "seats": [{"kind": "me"}, {"kind": "invite"}]}
        assert not api.post("/api/games", json=plain).json()["game"]["reproducible"]
