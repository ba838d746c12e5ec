"""``boardplay bot`` cannot lose to a limit (``cli/botclient.py``): a move refused for the rate
(429), by a server error (5xx) or lost on the network is sent again while the clock allows, never
played twice (the ply it carries); a challenge it cannot accept is declined with lichess's
reason; a server that is not up yet at the start is waited for. Against fake servers: httpx's
mock transport, and a real socket opened after the client started."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

import boardplay
from boardplay.cli.botclient import DECLINE, BotClient, agent_factory

Handler = Callable[[httpx.Request], httpx.Response]
START = {"moves": [], "legal": [], "ply": 0, "turn": 0, "times": [60_000, 60_000]}


def bot_with(handler: Handler) -> BotClient:
    bot = BotClient("http://bots.test", "bp_x", agent_factory("random"), seed=1)
    bot.name = "robot"
    bot.client = httpx.Client(base_url="http://bots.test", transport=httpx.MockTransport(handler))
    return bot


def error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    body = {"error": {"code": code, "message": code}}
    return httpx.Response(status, json=body, headers=headers)


def move_once(bot: BotClient, line: dict[str, Any] | None = None) -> None:
    game = boardplay.load("proteus")
    agent = bot.make_agent(game, 1)
    agent.reset()
    bot._move("g1", game, agent, {**START, **(line or {})})


def test_a_move_refused_for_the_rate_or_by_an_error_is_sent_again_until_taken() -> None:
    answers = [
        error(429, "move_rate", {"Retry-After": "0"}),
        error(503, "unavailable"),
        None,  # the network drops
        error(502, "bad_gateway", {"Retry-After": "0.1"}),
        httpx.Response(200, json={"ok": True, "ply": 1}),
    ]
    sent: list[httpx.Request] = []

    def serve(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        answer = answers[len(sent) - 1]
        if answer is None:
            raise httpx.ConnectError("the network dropped", request=request)
        return answer

    bot = bot_with(serve)
    began = time.monotonic()
    move_once(bot)
    assert len(sent) == 5 and bot.retries == 4  # 429, 503, network, 502, then taken
    assert {r.url.params["ply"] for r in sent} == {"0"}  # every try is for the same ply
    assert len({r.url.path for r in sent}) == 1  # the same move each time
    assert time.monotonic() - began < 6  # the backoff's ½ s and 1 s, the server's 0 and 0.1 s


def test_a_move_whose_answer_was_lost_is_never_played_twice() -> None:
    taken: list[str] = []

    def serve(request: httpx.Request) -> httpx.Response:
        ply = int(request.url.params["ply"])
        if ply != len(taken):
            return error(409, "stale")  # the game has moved on: the move was taken
        taken.append(request.url.path)
        raise httpx.ReadTimeout("the answer was lost", request=request)

    bot = bot_with(serve)
    move_once(bot)
    assert len(taken) == 1 and bot.retries == 1


def test_a_move_is_sent_again_only_while_the_clock_allows() -> None:
    sent: list[float] = []

    def serve(request: httpx.Request) -> httpx.Response:
        sent.append(time.monotonic())
        return error(429, "move_rate", {"Retry-After": "30"})

    bot = bot_with(serve)
    began = time.monotonic()
    move_once(bot, {"times": [2_000, 60_000]})  # 2 s left: waiting 30 s would lose anyway
    assert len(sent) == 1 and time.monotonic() - began < 2


def decline_server(accept: Callable[[int], httpx.Response]) -> tuple[Handler, list[Any]]:
    """A fake server answering accepts with ``accept(n)`` and recording the declines."""
    seen: list[Any] = []

    def serve(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/accept"):
            seen.append("accept")
            return accept(len(seen))
        seen.append(json.loads(request.content)["reason"])
        return httpx.Response(200, json={"ok": True})

    return serve, seen


def offer(**fields: Any) -> dict[str, Any]:
    base = {"id": "c1", "from": "hana", "to": "robot", "status": "open", "game": "proteus"}
    return {**base, "options": {}, "rated": False, "clock": None, **fields}


@pytest.mark.parametrize(
    ("refusal", "rated", "reason"),
    [
        (error(403, "same_person"), True, "casual"),
        (error(429, "too_many_games", {"Retry-After": "3000"}), False, "later"),
        (error(409, "something_else"), False, "generic"),
    ],
)
def test_a_challenge_the_server_will_not_let_it_accept_is_declined_with_a_reason(
    refusal: httpx.Response, rated: bool, reason: str
) -> None:
    serve, seen = decline_server(lambda n: refusal)
    bot = bot_with(serve)
    bot.answer(offer(rated=rated))
    attempts = [s for s in seen if s == "accept"]
    assert seen[-1] == reason and reason in DECLINE
    assert len(attempts) == 1  # a refusal for a quota (not the rate) is not asked again


def test_a_challenge_the_filter_refuses_is_declined_and_a_rate_refusal_asked_again() -> None:
    serve, seen = decline_server(lambda n: httpx.Response(200, json={"ok": True}))
    bot = bot_with(serve)
    bot.wanted = type(bot.wanted)(frozenset({"potlatch"}))
    bot.answer(offer())
    assert seen == ["variant"]
    rate = [error(429, "api_rate", {"Retry-After": "0"}), httpx.Response(200, json={"ok": 1})]
    serve, seen = decline_server(lambda n: rate[n - 1])
    bot = bot_with(serve)
    bot.answer(offer())
    assert seen == ["accept", "accept"] and bot.retries == 1  # accepted on the second ask


class _Account(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"id": "robot", "username": "robot", "title": "BOT"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def test_a_server_that_is_down_at_the_start_is_waited_for() -> None:
    probe = ThreadingHTTPServer(("127.0.0.1", 0), _Account)
    port = probe.server_address[1]
    probe.server_close()  # the port is free: nothing answers there yet
    bot = BotClient(f"http://127.0.0.1:{port}", "bp_x", agent_factory("random"))
    found: list[dict[str, Any]] = []
    asking = threading.Thread(target=lambda: found.append(bot.whoami()), daemon=True)
    asking.start()
    time.sleep(1.6)  # refused at least twice meanwhile (½ s, 1 s)
    assert not found
    server = ThreadingHTTPServer(("127.0.0.1", port), _Account)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        asking.join(timeout=10)
        assert found and found[0]["title"] == "BOT" and bot.name == "robot"
    finally:
        server.shutdown()
        server.server_close()


def test_a_bot_told_to_stop_while_it_waits_for_the_server_stops() -> None:
    bot = bot_with(lambda r: (_ for _ in ()).throw(httpx.ConnectError("down", request=r)))
    threading.Timer(0.3, bot.stop.set).start()
    with pytest.raises(httpx.HTTPError):
        bot.whoami()
