"""The Bot API's conformance on two real server processes over PostgreSQL with Redis between
them (docs/bots.md): the event stream and the game stream, each opened on one process while
the moves, challenges and answers go to the other; a reconnect in mid-game; an illegal move
answered 400 with the legal moves; a bot that stops moving flagged like anyone; a bot at the
table while its game stream is open, and claimable once it closed; a revoked token ending its
open streams on both processes; scopes; and a burst over a token's ceiling held on two
processes at once."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpcalls
import httpx
import pytest
from botcalls import Bot, Person, Stream, make_bot, make_token, sign_up
from test_web_multi import Cluster, fresh_database, server_env
from websockets.sync.client import ClientConnection

PER_MINUTE = 40
"""The servers' ceiling of requests per token and minute (the burst test meets it)."""
STREAMS = 4
"""The servers' ceiling of streams one token holds open on a process."""
ABANDON_AFTER = 3.0
"""Seconds a player must be gone before the opponent may claim (the servers' setting)."""
_names = itertools.count()


@pytest.fixture(scope="module")
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    env = server_env(
        fresh_database(postgres_url),
        redis_url,
        BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE=str(PER_MINUTE),
        BOARDPLAY_WEB_CHALLENGES_PER_HOUR="1000",
        BOARDPLAY_WEB_API_STREAMS_PER_TOKEN=str(STREAMS),
        BOARDPLAY_WEB_ABANDON_AFTER=str(ABANDON_AFTER),
    )
    cluster = Cluster(env, 2)
    try:
        yield cluster
    finally:
        cluster.stop()


def name(prefix: str) -> str:
    return f"{prefix}{next(_names)}_{int(time.time()) % 100000}"


def challenge(person: Person, base: str, bot: Bot, clock: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"to": bot.name, "game": "tiny"}
    if clock:
        body["clock"] = clock
    answer = person.post(base, "/api/challenges", body)
    assert answer.status_code == 201, answer.text
    challenge_id: str = answer.json()["challenge"]["id"]
    return challenge_id


def seat_token(person: Person, base: str, game_id: str) -> tuple[str, int]:
    answer = person.post(base, f"/api/account/games/{game_id}/token")
    assert answer.status_code == 200, answer.text
    return answer.json()["token"], answer.json()["seats"][0]


def person_moves(base: str, game_id: str, token: str, move: str) -> None:
    answer = httpcalls.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": move},
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )
    assert answer.status_code == 200, answer.text


def start(cluster: Cluster, clock: dict[str, Any] | None = None) -> tuple[Person, Bot, Stream]:
    """A person challenges a bot (on process 1) whose event stream is open on process 0; the
    bot hears it and accepts on process 1; returns both and the bot's event stream, at its
    ``gameStart``."""
    a, b = cluster.base
    person = sign_up(b, name("ann"))
    bot = make_bot(a, name("bot"))
    events = bot.stream(a, "/api/stream/event")
    assert events.status == 200
    challenge_id = challenge(person, b, bot, clock)
    heard = events.until("challenge")["challenge"]
    assert heard["id"] == challenge_id
    # boardplay's ``name``/``bot`` and lichess's ``id``/``title``/``rating`` (docs/bots.md)
    assert heard["challenger"] == {
        "id": person.name.lower(),
        "name": person.name,
        "title": None,
        "rating": 1500,
        "bot": False,
    }
    assert heard["destUser"] == {
        "id": bot.name.lower(),
        "name": bot.name,
        "title": "BOT",
        "rating": 1500,
        "bot": True,
    }
    accepted = bot.post(b, f"/api/challenge/{challenge_id}/accept")
    assert accepted.status_code == 200, accepted.text
    return person, bot, events


def test_both_streams_across_processes_with_a_reconnect_an_illegal_move_and_chat(
    cluster: Cluster,
) -> None:
    a, b = cluster.base
    person, bot, events = start(cluster)
    started = events.until("gameStart")["game"]
    game_id = started["id"]
    assert [p["bot"] for p in started["players"]] == [
        p["name"] == bot.name for p in started["players"]
    ]
    mine = started["yourSeats"][0]
    token, seat = seat_token(person, b, game_id)
    assert seat == 1 - mine

    stream = bot.stream(a, f"/api/bot/game/stream/{game_id}")
    full = stream.next()
    assert full["type"] == "gameFull" and full["id"] == game_id
    assert full["yourSeats"] == [mine] and full["game"] == "tiny"
    assert full["state"]["status"] == "started"
    assert full["state"]["moves"][0].startswith("roll")  # the opening chance roll, seat -1
    moves_seen = list(full["state"]["moves"])

    def my_turn(state: dict[str, Any]) -> bool:
        return bool(state["turn"] == mine)

    reconnected = False
    illegal_checked = False
    state = full["state"]
    while state["status"] == "started":
        if my_turn(state):
            if not illegal_checked:
                refused = bot.post(b, f"/api/bot/game/{game_id}/move/t9")
                assert refused.status_code == 400, refused.text
                body = refused.json()
                assert body["error"]["code"] == "illegal_move"
                assert body["legal"] == state["legal"] and "t1" in body["error"]["message"]
                illegal_checked = True
            played = bot.post(b, f"/api/bot/game/{game_id}/move/{state['legal'][0]}")
            assert played.status_code == 200, played.text
        else:
            person_moves(b, game_id, token, state["legal"][-1])
        state = stream.until("gameState")
        assert state["moves"][: len(moves_seen)] == moves_seen
        moves_seen = list(state["moves"])
        if not reconnected and state["ply"] >= 4 and state["status"] == "started":
            said = httpcalls.post(  # a chat line written on the stream's own process
                f"{a}/api/games/{game_id}/chat",
                json={"channel": "players", "text": "hello"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert said.status_code == 201, said.text
            hello_at = time.monotonic()
            assert stream.until("chatLine")["text"] == "hello"
            stream.close()  # the bot's connection drops mid-game; it comes back on the other
            stream = bot.stream(b, f"/api/bot/game/stream/{game_id}")
            again = stream.next()
            assert again["type"] == "gameFull" and again["state"]["moves"] == moves_seen
            said = person.post(
                a, f"/api/games/{game_id}/chat", {"channel": "players", "text": "good luck"}
            )
            assert said.status_code == 403  # the person's cookie holds no seat token...
            time.sleep(max(0.0, hello_at + 1.05 - time.monotonic()))  # a line a second at most
            said = httpcalls.post(
                f"{a}/api/games/{game_id}/chat",
                json={"channel": "players", "text": "good luck"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert said.status_code == 201, said.text
            backlog = stream.until("chatLine")  # the chat so far comes after gameFull
            assert backlog["text"] == "hello"
            line = stream.until("chatLine")
            assert line["text"] == "good luck" and line["room"] == "player"
            answer = bot.post(a, f"/api/bot/game/{game_id}/chat", {"text": "thanks"})
            assert answer.status_code == 201, answer.text
            reconnected = True
    assert reconnected and illegal_checked
    assert state["status"] == "finished" and state["winners"] is not None
    assert stream.ends_within(5), "the game stream goes on after the end"
    finished = events.until("gameFinish")["game"]
    assert finished["id"] == game_id and finished["status"] == "finished"
    view = httpcalls.get(f"{a}/api/games/{game_id}").json()
    assert [s["bot"] for s in view["seats"]] == [s["name"] == bot.name for s in view["seats"]]
    events.close()
    stream.close()


def test_a_bot_that_stops_moving_loses_on_time(cluster: Cluster) -> None:
    a, b = cluster.base
    person, bot, events = start(cluster, clock={"base": 2, "increment": 1})
    game_id = events.until("gameStart")["game"]["id"]
    token, _seat = seat_token(person, b, game_id)
    stream = bot.stream(a, f"/api/bot/game/stream/{game_id}")
    state = stream.next()["state"]
    mine = 1 - _seat
    moved = False
    while not moved or state["turn"] != mine:  # each plays one turn: a flag then is a loss
        if state["turn"] == mine:
            assert bot.post(b, f"/api/bot/game/{game_id}/move/t1").status_code == 200
            moved = True
        else:
            person_moves(b, game_id, token, "t1")
        state = stream.until("gameState")
    assert state["times"] is not None and state["times"][mine] <= 3000
    final = stream.until("gameState", timeout=15, check=lambda s: s["status"] != "started")
    assert final["status"] == "outoftime" and final["winners"] == [1 - mine]
    assert events.until("gameFinish")["game"]["status"] == "outoftime"
    events.close()
    stream.close()


def presence_becomes(
    socket: ClientConnection, seats: list[int], timeout: float = 10
) -> dict[str, Any]:
    """The presence the socket is told once exactly ``seats`` are at the table (within
    ``timeout``)."""
    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while last.get("seats") != seats:
        left = deadline - time.monotonic()
        assert left > 0, f"the table never showed seats {seats} (last: {last})"
        message = json.loads(socket.recv(timeout=left))
        if message["type"] == "presence":
            last = message
    return last


def claim(base: str, game_id: str, token: str) -> httpx.Response:
    return httpcalls.post(
        f"{base}/api/games/{game_id}/claim",
        json={},
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )


def test_a_bot_with_its_game_stream_open_is_at_the_table_and_its_end_is_leaving(
    cluster: Cluster,
) -> None:
    """The bot's game stream is open on process 0, the person's page on process 1: the page
    shows the bot at the table and no claim against it is taken on either process, however long
    it thinks; once its program stops (the stream closes) it is gone, and after the usual wait
    the person claims the win."""
    a, b = cluster.base
    person, bot, events = start(cluster, clock={"base": 600, "increment": 0})
    game_id = events.until("gameStart")["game"]["id"]
    token, seat = seat_token(person, b, game_id)
    mine = 1 - seat
    stream = bot.stream(a, f"/api/bot/game/stream/{game_id}")
    state = stream.next()["state"]
    while state["turn"] != seat or not any(s == mine for s in state["seats"]):
        if state["turn"] == mine:  # the bot moves once: its leaving is then a loss, no abort
            assert bot.post(b, f"/api/bot/game/{game_id}/move/t1").status_code == 200
        else:
            person_moves(b, game_id, token, "t1")
        state = stream.until("gameState")
    time.sleep(ABANDON_AFTER + 2.5)  # the bot's last move and request are long past
    # Process 1 watches no socket of the game: its claim reads the presence table.
    refused = claim(b, game_id, token)
    assert refused.status_code == 409, refused.text
    with cluster.ws(1, game_id) as page:
        page.send(json.dumps({"type": "hello", "token": token, "id": 1, "presence": True}))
        presence_becomes(page, sorted([seat, mine]))
        for base in (a, b):
            refused = claim(base, game_id, token)
            assert refused.status_code == 409, refused.text
            assert refused.json()["error"]["code"] == "opponent_here"
        assert httpcalls.get(f"{b}/api/games/{game_id}").json()["status"] == "active"
        stream.close()  # the bot's program stops
        # The bot's event stream, still open on process 0 and watching the game for its end,
        # is nobody at the table: not a spectator either.
        assert presence_becomes(page, [seat])["spectators"] == 0
        left_at = time.monotonic()
        assert claim(b, game_id, token).status_code == 409  # not yet: the usual wait
        deadline = left_at + ABANDON_AFTER + 10
        while (answer := claim(b, game_id, token)).status_code == 409:
            assert time.monotonic() < deadline, answer.text
            time.sleep(0.5)
        assert answer.status_code == 200, answer.text
        assert time.monotonic() - left_at >= ABANDON_AFTER - 0.5
        result = answer.json()["game"]["result"]
        assert result["ended"] == "abandoned" and result["winners"] == [seat]
    events.close()


def test_a_revoked_token_ends_its_streams_on_every_process(cluster: Cluster) -> None:
    a, b = cluster.base
    _person, bot, events = start(cluster)
    game_id = events.until("gameStart")["game"]["id"]
    on_a = bot.stream(a, f"/api/bot/game/stream/{game_id}")
    on_b = bot.stream(b, f"/api/bot/game/stream/{game_id}")
    assert on_a.next()["type"] == on_b.next()["type"] == "gameFull"
    revoked = bot.person.delete(b, f"/api/account/tokens/{bot.token_id}")
    assert revoked.status_code == 200, revoked.text
    when = time.monotonic()
    assert on_b.ends_within(2) and on_a.ends_within(3) and events.ends_within(3)
    assert max(s.ended_at or 0 for s in (on_a, on_b, events)) - when < 3
    assert bot.get(a, "/api/account").status_code == 401
    again = bot.stream(a, "/api/stream/event")
    assert again.status == 401
    for s in (on_a, on_b, events, again):
        s.close()
    # Signing out everywhere ends every token of the account, as it ends its sessions.
    fresh = make_token(bot.person, a, ["bot:play"])
    other = Bot(bot.person, fresh["token"], fresh["id"])
    assert other.get(b, "/api/account").json()["title"] == "BOT"
    live = other.stream(b, "/api/stream/event")
    assert bot.person.post(a, "/api/account/signout-everywhere").status_code == 200
    assert live.ends_within(3)
    assert other.get(b, "/api/account").status_code == 401
    live.close()


def test_scopes_are_enforced(cluster: Cluster) -> None:
    a, b = cluster.base
    person = sign_up(a, name("sco"))
    reader = make_token(person, a, ["challenge:read"])
    headers = {"Authorization": f"Bearer {reader['token']}"}
    upgrade = httpcalls.post(f"{b}/api/bot/account/upgrade", headers=headers)
    assert upgrade.status_code == 403 and upgrade.json()["error"]["code"] == "missing_scope"
    send = httpcalls.post(f"{b}/api/challenge/someone", json={"game": "tiny"}, headers=headers)
    assert send.status_code == 403
    assert httpcalls.get(f"{a}/api/challenge", headers=headers).status_code == 200
    player = make_token(person, a, ["bot:play"])
    as_player = {"Authorization": f"Bearer {player['token']}"}
    refused = httpcalls.get(f"{b}/api/bot/game/stream/nosuchgame", headers=as_player)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_a_bot"
    wrong = httpcalls.post(
        f"{a}/api/account/tokens",
        json={"label": "x", "scopes": ["admin"]},
        headers=person.headers(),
    )
    assert wrong.status_code == 400
    assert httpcalls.get(f"{a}/api/account").status_code == 401
    listed = person.get(b, "/api/account/tokens").json()["tokens"]
    assert [t["scopes"] for t in listed] == [["challenge:read"], ["bot:play"]]
    assert all("token" not in t for t in listed)


def test_a_burst_over_the_tokens_ceiling_on_two_processes(cluster: Cluster) -> None:
    a = cluster.base[0]
    bot = make_bot(a, name("fast"))  # the upgrade was one request
    sent = 3 * PER_MINUTE

    def ask(i: int) -> int:
        return bot.get(cluster.base[i % 2], "/api/account").status_code

    with ThreadPoolExecutor(32) as pool:
        codes = list(pool.map(ask, range(sent)))
    assert codes.count(200) == PER_MINUTE - 1, codes
    assert codes.count(429) == sent - PER_MINUTE + 1


def test_a_token_holds_at_most_its_streams_open_on_a_process(cluster: Cluster) -> None:
    a, b = cluster.base
    bot = make_bot(a, name("many"))
    held = [bot.stream(a, "/api/stream/event") for _ in range(STREAMS)]
    assert [s.status for s in held] == [200] * STREAMS
    over = bot.stream(a, "/api/stream/event")
    assert over.status == 429 and over.next()["error"]["code"] == "too_many_streams"
    elsewhere = bot.stream(b, "/api/stream/event")  # each process counts its own
    assert elsewhere.status == 200
    held[0].close()  # the client goes away: its place is free once the server sees it
    deadline = time.monotonic() + 10
    while True:
        again = bot.stream(a, "/api/stream/event")
        if again.status == 200 or time.monotonic() > deadline:
            break
        again.close()
        time.sleep(0.5)
    assert again.status == 200
    for s in [*held, over, elsewhere, again]:
        s.close()
