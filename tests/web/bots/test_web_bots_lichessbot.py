"""The requests lichess-bot (lichess-bot-devs/lichess-bot, ``lib/lichess.py``) sends, replayed
with ``requests`` as it sends them, against a real server: the token test with the token as a
bare body and no ``Content-Type``; the profile, the games playing, the bots online; the event
stream and the game stream read as ndjson; ``decline`` with ``reason=…`` form-encoded (its
header set by hand), ``accept`` with no body; ``chat`` as a form (``data={"room", "text"}``) in
both rooms; every move with ``?offeringDraw=false``; a challenge sent as its matchmaking sends it
(JSON with lichess's dotted keys) and as lichess documents it (a form). A bad value is a clear
400 that changes nothing."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from botcalls import SERVER_ENV, Person, make_bot, sign_up
from browsing import free_port, serve

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("lichessbot") / "lichessbot.sqlite3"
    port = free_port()
    server = serve(db, port, SERVER_ENV)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


class Lines:
    """An ndjson stream read as lichess-bot reads it (``iter_lines``, empty lines skipped)."""

    def __init__(self, response: requests.Response) -> None:
        assert response.status_code == 200, response.text
        self.response = response
        self.lines = response.iter_lines()

    def until(self, kind: str, check: Any = None, seconds: float = 60) -> dict[str, Any]:
        """The next line of ``kind`` (meeting ``check``); the keep-alive lines, every 4 s, let
        a wait that finds none end."""
        deadline = time.monotonic() + seconds
        for raw in self.lines:
            assert time.monotonic() < deadline, f"no {kind} within {seconds:g} s"
            if raw:
                event: dict[str, Any] = json.loads(raw)
                if event.get("type") == kind and (check is None or check(event)):
                    return event
        raise AssertionError(f"the stream ended before a {kind}")


def challenge(person: Person, base: str, **fields: Any) -> str:
    sent = person.post(base, "/api/challenges", {"to": "lbot", "game": "tiny", **fields})
    assert sent.status_code == 201, sent.text
    challenge_id: str = sent.json()["challenge"]["id"]
    return challenge_id


def status_of(person: Person, base: str, challenge_id: str) -> str:
    mine = person.get(base, "/api/challenges").json()
    found = [c for c in mine["outgoing"] + mine["incoming"] if c["id"] == challenge_id]
    return str(found[0]["status"]) if found else "none"


def test_lichess_bots_requests_are_answered_as_lichess_answers_them(base: str) -> None:
    bot = make_bot(base, "lbot")
    person = sign_up(base, "lia")
    li = requests.Session()
    li.headers.update({"Authorization": f"Bearer {bot.token}", "User-Agent": "lichess-bot/x"})

    # Its constructor: the token test, the token as a bare body (requests sets no type).
    tested = li.post(f"{base}/api/token/test", data=bot.token, timeout=2)
    assert tested.status_code == 200, tested.text
    assert "Content-Type" not in tested.request.headers
    info = tested.json()[bot.token]
    assert set(info) == {"scopes", "userId", "expires"} and info["userId"] == "lbot"
    assert "bot:play" in info["scopes"].split(",")
    unknown = "bp_" + "x" * 40
    both = li.post(f"{base}/api/token/test", data=f"{bot.token},{unknown}", timeout=2).json()
    assert both[unknown] is None and both[bot.token] == info
    profile = li.get(f"{base}/api/account", timeout=2).json()
    assert profile["username"] == "lbot" and profile["title"] == "BOT"
    assert li.get(f"{base}/api/account/playing", timeout=2).json() == {"nowPlaying": []}

    events = Lines(li.get(f"{base}/api/stream/event", stream=True, timeout=15))
    online = li.get(f"{base}/api/bot/online", params={"nb": "512"}, timeout=2)
    bots = [json.loads(line) for line in online.text.split("\n") if line]
    assert {"id": "lbot", "username": "lbot", "title": "BOT"}.items() <= bots[0].items()

    # decline: ``reason=…`` as a form, its header set by hand; a reason lichess does not know
    # is a 400 that leaves the challenge open.
    declined = challenge(person, base)
    events.until("challenge", lambda e: e["challenge"]["id"] == declined)
    path = f"{base}/api/challenge/{declined}/decline"
    bad = li.post(path, data="reason=whatever", headers=FORM, timeout=2)
    assert bad.status_code == 400 and "reason" in bad.json()["error"]["message"], bad.text
    assert status_of(person, base, declined) == "open"
    assert li.post(path, data="reason=tooFast", headers=FORM, timeout=2).status_code == 200
    assert status_of(person, base, declined) == "declined"

    # accept, no body: the game has the challenge's id.
    accepted = challenge(person, base, clock={"base": 600, "increment": 5})
    events.until("challenge", lambda e: e["challenge"]["id"] == accepted)
    assert li.post(f"{base}/api/challenge/{accepted}/accept", timeout=2).status_code == 200
    start = events.until("gameStart")
    game_id = start["game"]["gameId"]
    assert game_id == accepted
    playing = li.get(f"{base}/api/account/playing", timeout=2).json()["nowPlaying"]
    assert [g["gameId"] for g in playing] == [game_id]

    game = Lines(li.get(f"{base}/api/bot/game/stream/{game_id}", stream=True, timeout=15))
    full = game.until("gameFull")
    assert isinstance(full["createdAt"], int) and abs(full["createdAt"] / 1000 - time.time()) < 600
    chat = f"{base}/api/bot/game/{game_id}/chat"
    for room in ("player", "spectator"):
        said = li.post(chat, data={"room": room, "text": f"hi {room}"}, timeout=2)
        assert said.status_code == 201, said.text
    assert li.post(chat, data={"room": "lobby", "text": "x"}, timeout=2).status_code == 400
    # The spectators' chat is written by the bot, never read by it while it plays: neither its
    # own line there nor a watcher's comes on its stream, only the players' lines.
    watcher = sign_up(base, "wes")
    heckle = watcher.post(
        base, f"/api/games/{game_id}/chat", {"channel": "spectators", "text": "boo"}
    )
    assert heckle.status_code == 201, heckle.text
    time.sleep(1.1)  # a sender's chat lines are a second apart at least
    again = li.post(chat, data={"room": "player", "text": "still here"}, timeout=2)
    assert again.status_code == 201, again.text
    lines = [game.until("chatLine") for _ in range(2)]
    assert [line["text"] for line in lines] == ["hi player", "still here"]

    # The game played out: the bot moves with ``?offeringDraw=false``, the person through the
    # site, each a random legal move.
    seats, state = full["yourSeats"], full["state"]
    token = person.post(base, f"/api/account/games/{game_id}/token").json()["token"]
    person_headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 60
    while state["status"] == "started" and time.monotonic() < deadline:
        if state["turn"] in seats:
            move = random.choice(state["legal"])
            made = li.post(
                f"{base}/api/bot/game/{game_id}/move/{move}",
                params={"offeringDraw": "false"},
                timeout=2,
            )
            assert made.status_code == 200, made.text
        elif state["turn"] is not None:
            pick = random.choice(state["legal"])
            acted = requests.post(
                f"{base}/api/games/{game_id}/actions",
                json={"action": pick, "ply": state["ply"]},
                headers=person_headers,
                timeout=2,
            )
            assert acted.status_code == 200, acted.text
        state = game.until(
            "gameState", lambda s, ply=state["ply"]: s["ply"] > ply or s["status"] != "started"
        )
    assert state["status"] == "finished", state
    events.response.close()


def test_a_challenge_in_lichess_fields_as_json_and_as_a_form(base: str) -> None:
    bot = make_bot(base, "lchal")
    sign_up(base, "lena")
    li = requests.Session()
    li.headers.update({"Authorization": f"Bearer {bot.token}"})
    url = f"{base}/api/challenge/lena"
    # lichess-bot's matchmaking: JSON, dotted keys.
    payload: dict[str, Any] = {
        "rated": False,
        "variant": "tiny",
        "clock.limit": 60,
        "clock.increment": 1,
    }
    sent = li.post(url, json=payload, timeout=2)
    assert sent.status_code == 201, sent.text
    made = sent.json()
    assert made["id"] and made["game"] == "tiny" and made["clock"]["base"] == 60
    assert made["challenge"]["id"] == made["id"] and made["color"] == "random"
    # lichess's documented form, with a colour and the options as JSON text.
    form = "rated=false&variant=tiny&clock.limit=120&clock.increment=2&color=black&options=%7B%7D"
    sent = li.post(url, data=form, headers=FORM, timeout=2)
    assert sent.status_code == 201, sent.text
    assert sent.json()["seat"] == 1 and sent.json()["clock"]["increment"] == 2
    correspondence = li.post(url, data={"variant": "tiny", "days": "3"}, timeout=2)
    assert correspondence.json()["clock"]["days"] == 3, correspondence.text
    # Bad values: a clear 400 each, and no challenge made.
    count = len(li.get(f"{base}/api/challenge", timeout=2).json()["out"])
    for bad in (
        "variant=tiny&clock.limit=abc",
        "variant=tiny&color=green",
        "variant=tiny&clock.limit=60&days=3",
        "variant=chess",
        "rated=false",
        "variant=tiny&variant=tiny",
        "variant=tiny&surprise=1",
    ):
        refused = li.post(url, data=bad, headers=FORM, timeout=2)
        assert refused.status_code == 400, (bad, refused.text)
        assert refused.json()["error"]["message"], bad
    assert len(li.get(f"{base}/api/challenge", timeout=2).json()["out"]) == count
