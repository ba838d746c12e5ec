"""What the Bot API's streams carry (docs/bots.md, "What the streams carry"), on a real server
with the four games: the position in every ``gameFull`` and ``gameState``, the very one the
game route gives anyone (none of the games hides anything from a seat, so a seat's position is
the spectators'; a bot's seat token never leaves the server to ask as the seat), loadable by the
engine with nothing replayed; lichess's members of ``gameStart``, ``challenge``,
``challengeDeclined``, ``gameFull`` and ``gameState``; a person's own open challenge listed when
its stream opens; and ``opponentGone`` when the opponent's game stream closes in a real-time
game."""

from __future__ import annotations

import random
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpcalls
import pytest
from botcalls import Bot, Stream, make_bot
from browsing import free_port, serve

import boardplay
from boardplay.web.bots.wire import speed_of, time_control
from boardplay.web.table import TimeControl

ENV = {
    "BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE": "100000",
    "BOARDPLAY_WEB_CHALLENGES_PER_HOUR": "1000",
    "BOARDPLAY_WEB_ABANDON_AFTER": "30",
}
CLOCK = {"base": 300, "increment": 3}
PLIES = 20
"""Plies each game is played for (or to its end): enough for setups, chance and a few turns."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db, port = tmp_path_factory.mktemp("wire") / "wire.sqlite3", free_port()
    process: subprocess.Popen[bytes] = serve(db, port, ENV)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


_count = iter(range(10_000))


def fresh(prefix: str) -> str:
    return f"{prefix}{next(_count)}_{int(time.time()) % 10000}"


def start_game(
    base: str, game: str, clock: dict[str, Any] | None = CLOCK
) -> tuple[Bot, Bot, Stream, dict[str, Any]]:
    """Bot ``a`` challenges bot ``b``, which accepts; ``a``'s event stream and its
    ``gameStart``."""
    a, b = make_bot(base, fresh("wa")), make_bot(base, fresh("wb"))
    events = a.stream(base, "/api/stream/event")
    body: dict[str, Any] = {"game": game}
    if clock is not None:
        body["clock"] = clock
    sent = a.post(base, f"/api/challenge/{b.name}", body)
    assert sent.status_code == 201, sent.text
    challenge = events.until("challenge")["challenge"]
    accepted = b.post(base, f"/api/challenge/{challenge['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    return a, b, events, events.until("gameStart")["game"]


@pytest.mark.parametrize("game", ["proteus", "potlatch", "passtally", "montana"])
def test_the_position_is_in_the_stream_as_everyone_sees_it(server: str, game: str) -> None:
    a, b, events, started = start_game(server, game)
    game_id = started["id"]
    streams = {bot.name: bot.stream(server, f"/api/bot/game/stream/{game_id}") for bot in (a, b)}
    fulls = {name: s.until("gameFull") for name, s in streams.items()}
    page = httpcalls.get(f"{server}/api/games/{game_id}").json()
    for full in fulls.values():  # the game as its page names it
        assert full["title"] == page["title"] and full["options"] == page["options"]
        assert full["control"] == (page["clock"] or {}).get("control")
    engine = boardplay.load(game, **fulls[a.name]["options"])
    seats_of = {name: full["yourSeats"] for name, full in fulls.items()}
    states = {name: full["state"] for name, full in fulls.items()}
    rng = random.Random(game)
    positions_seen = set()
    while True:
        ply = states[a.name]["ply"]
        assert states[b.name]["ply"] == ply
        for bot in (a, b):
            state = states[bot.name]
            position = state["position"]
            assert position is not None
            anyone = httpcalls.get(f"{server}/api/games/{game_id}").json()
            assert anyone["ply"] == ply
            assert position == anyone["position"]
            # Nothing replayed: the engine loads the position and finds the same legal moves.
            loaded = engine.state_from_json(position)
            legal = [loaded.action_to_string(x) for x in loaded.legal_actions()]
            if not loaded.is_chance_node() and state["status"] == "started":
                assert legal == state["legal"]
        positions_seen.add(repr(states[a.name]["position"]))
        mover = next((x for x in (a, b) if states[a.name]["turn"] in seats_of[x.name]), None)
        if states[a.name]["status"] != "started" or ply >= PLIES or mover is None:
            break
        move = quote(rng.choice(states[a.name]["legal"]), safe="")
        played = mover.post(server, f"/api/bot/game/{game_id}/move/{move}")
        assert played.status_code == 200, played.text
        after = played.json()["ply"]
        for bot in (a, b):
            states[bot.name] = streams[bot.name].until(
                "gameState", check=lambda s, after=after: s["ply"] >= after
            )
    assert len(positions_seen) > 1
    for s in [*streams.values(), events]:
        s.close()


def test_hidden_information_never_reaches_a_seat_through_the_stream(server: str) -> None:
    """Passtally's face-down tiles are counted, never listed (their order is nobody's: each
    reveal is drawn when it comes, docs/formats/passtally.md), and a game whose chance the
    server draws has no seed anywhere in its lines."""
    a, _b, events, started = start_game(server, "passtally")
    stream = a.stream(server, f"/api/bot/game/stream/{started['id']}")
    full = stream.until("gameFull")
    for pile in full["state"]["position"]["piles"]:
        assert set(pile) == {"face_up", "hidden"} and isinstance(pile["hidden"], int)
    assert "seed" not in full and "seed" not in full["state"]
    assert "seed" not in httpcalls.get(f"{server}/api/games/{started['id']}").json()
    stream.close()
    events.close()


def test_lichess_members_of_the_event_and_game_streams(server: str) -> None:
    a, b = make_bot(server, fresh("la")), make_bot(server, fresh("lb"))
    events_b = b.stream(server, "/api/stream/event")
    sent = a.post(server, f"/api/challenge/{b.name}", {"game": "proteus", "clock": CLOCK})
    assert sent.status_code == 201, sent.text
    challenge = events_b.until("challenge")["challenge"]
    assert challenge["variant"] == {"key": "proteus", "name": "Proteus"}
    assert challenge["timeControl"] == {
        "type": "clock",
        "limit": 300,
        "increment": 3,
        "show": "5+3",
    }
    assert challenge["speed"] == "blitz" and challenge["perf"] == {"name": "Proteus"}
    assert challenge["color"] == "random" and challenge["rated"] is False
    assert challenge["challenger"]["id"] == a.name.lower()
    assert challenge["challenger"]["title"] == "BOT" and challenge["status"] == "open"
    assert challenge["game"] == "proteus" and challenge["clock"] == CLOCK  # boardplay's kept

    # Defect 16: the sender's stream, opened after it sent the challenge, lists it.
    events_a = a.stream(server, "/api/stream/event")
    mine = events_a.until("challenge")["challenge"]
    assert mine["id"] == challenge["id"] and mine["from"] == a.name
    declined = b.post(server, f"/api/challenge/{challenge['id']}/decline")
    assert declined.status_code == 200, declined.text
    said = events_a.until("challengeDeclined")["challenge"]
    assert said["declineReasonKey"] == "generic" and said["declineReason"]

    sent = a.post(server, f"/api/challenge/{b.name}", {"game": "proteus", "clock": CLOCK})
    challenge_id = sent.json()["challenge"]["id"]
    assert b.post(server, f"/api/challenge/{challenge_id}/accept").status_code == 200
    start = events_a.until("gameStart")["game"]
    assert start["gameId"] == start["id"] and start["source"] == "friend"
    assert start["variant"] == {"key": "proteus", "name": "Proteus"}
    assert start["opponent"] == {
        "id": b.name.lower(),
        "username": b.name,
        "rating": 1500,
        "ai": False,
    }
    assert start["hasMoved"] is False and start["lastMove"] == ""
    assert 295 <= start["secondsLeft"] <= 300 and start["speed"] == "blitz"
    assert start["isMyTurn"] == (start["yourSeats"] == [0])

    stream_a = a.stream(server, f"/api/bot/game/stream/{start['id']}")
    full = stream_a.until("gameFull")
    assert full["variant"] == {"key": "proteus", "name": "Proteus"}
    assert full["clock"] == {"initial": 300_000, "increment": 3_000}
    assert full["control"] == CLOCK and full["speed"] == "blitz"
    assert full["perf"] == {"key": "proteus", "name": "Proteus"}
    state = full["state"]
    assert state["winc"] == state["binc"] == 3_000
    assert [state["wtime"], state["btime"]] == state["times"]

    # The opponent's game stream closes: opponentGone, with the claim's wait; back: not gone.
    stream_b = b.stream(server, f"/api/bot/game/stream/{start['id']}")
    stream_b.until("gameFull")
    time.sleep(0.5)  # a's stream, opened first, saw b come: that is no news
    early = []
    while not stream_a.lines.empty():
        early.append(stream_a.lines.get_nowait())
    assert not [e for e in early if isinstance(e, dict) and e["type"] == "opponentGone"], early
    stream_b.close()
    gone = stream_a.until("opponentGone")
    assert gone["gone"] is True and 0 < gone["claimWinInSeconds"] <= 30
    stream_b = b.stream(server, f"/api/bot/game/stream/{start['id']}")
    assert stream_a.until("opponentGone") == {"type": "opponentGone", "gone": False}
    for s in (stream_a, stream_b, events_a, events_b):
        s.close()


def test_an_untimed_game_says_so_as_lichess_does(server: str) -> None:
    a, _b, events, start = start_game(server, "potlatch", clock=None)
    assert start["secondsLeft"] is None and start["speed"] == "correspondence"
    stream = a.stream(server, f"/api/bot/game/stream/{start['id']}")
    full = stream.until("gameFull")
    assert full["clock"] is None and full["control"] is None
    state = full["state"]
    assert state["times"] is None and state["wtime"] == state["btime"] == 2_147_483_647
    assert state["winc"] == state["binc"] == 0
    stream.close()
    events.close()


def test_speeds_and_time_controls_as_lichess_counts_them() -> None:
    assert [
        speed_of(TimeControl(base, increment))
        for base, increment in ((15, 0), (60, 1), (180, 0), (300, 3), (600, 0), (900, 15))
    ] == ["ultraBullet", "bullet", "blitz", "blitz", "rapid", "classical"]
    assert speed_of(TimeControl(days=3)) == speed_of(None) == "correspondence"
    assert time_control({"days": 3}) == {"type": "correspondence", "daysPerTurn": 3}
    assert time_control(None) == {"type": "unlimited"}
    assert time_control({"base": 90, "increment": 0})["show"] == "1.5+0"
