"""Bots playing tournaments on real server processes through the Bot API, as a program would
(docs/bots.md): each bot reads its event stream, opens each game's stream when ``gameStart``
comes and sends a legal move (after ``think`` seconds) to the *other* process. A bot whose
process dies (a transport error) turns to the next live process and goes on: its event stream
there announces the games it is playing (``gameStart`` on connecting), and a game stream
opened again starts with ``gameFull``, the game as it is now.

What a bot saw is kept for the tests' checks: its games in the order they started, and for each
the time its final ``gameState`` came and the next game's ``gameStart``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

PASSWORD = "a tournament password"
GONE = (httpx.TransportError, httpx.RemoteProtocolError)


@dataclass
class Bot:
    """A bot account and what it saw."""

    name: str
    token: str
    bases: list[str]
    """The processes it may speak to, its home first."""
    games: list[str] = field(default_factory=list)
    """Its games in the order their ``gameStart`` came."""
    started: dict[str, float] = field(default_factory=dict)
    ended: dict[str, float] = field(default_factory=dict)
    """When each game's final ``gameState`` came (monotonic)."""
    failovers: int = 0
    moves: int = 0
    refused: list[str] = field(default_factory=list)
    """Moves the server refused (status and text)."""
    faults: list[str] = field(default_factory=list)
    """What broke the Bot API's protocol (a game stream not beginning with ``gameFull``): the
    game is left unplayed, so the tests check there is none."""
    troubles: list[str] = field(default_factory=list)
    """Streams refused or a game's play stopped by an error (with when): each is retried."""
    on_start: Callable[[Bot, str], Any] | None = None

    @property
    def home(self) -> str:
        return self.bases[0]

    @property
    def away(self) -> str:
        return self.bases[1 % len(self.bases)]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def fail_over(self, dead: str) -> None:
        """``dead`` did not answer: speak to the others from now on."""
        if dead in self.bases and len(self.bases) > 1:
            self.bases.remove(dead)
            self.failovers += 1


async def sign_up(http: httpx.AsyncClient, base: str, name: str) -> dict[str, str]:
    """A new account's cookie and CSRF headers."""
    answer = await http.post(
        f"{base}/api/account/signup", json={"name": name, "password": PASSWORD}
    )
    assert answer.status_code == 201, answer.text
    return {
        "Cookie": f"boardplay_session={answer.cookies['boardplay_session']}",
        "X-CSRF-Token": answer.json()["csrf"],
    }


async def make_bot(http: httpx.AsyncClient, bases: Sequence[str], i: int, name: str) -> Bot:
    """Bot ``i``, at home on process ``i % len(bases)``, with a ``bot:play`` token."""
    home = i % len(bases)
    order = [*bases[home:], *bases[:home]]
    headers = await sign_up(http, order[0], name)
    body = {"label": "bots", "scopes": ["bot:play", "tournament:write"]}
    made = await http.post(f"{order[0]}/api/account/tokens", json=body, headers=headers)
    assert made.status_code == 201, made.text
    bot = Bot(name, made.json()["token"], order)
    upgraded = await http.post(f"{bot.home}/api/bot/account/upgrade", headers=bot.auth)
    assert upgraded.status_code == 200, upgraded.text
    return bot


class Refused(Exception):
    """A stream answered other than 200."""


async def lines(http: httpx.AsyncClient, url: str, bot: Bot) -> AsyncIterator[Any]:
    async with http.stream("GET", url, headers=bot.auth) as answer:
        if answer.status_code != 200:
            raise Refused(f"{url} {answer.status_code} {(await answer.aread())[:200]!r}")
        async for line in answer.aiter_lines():
            if line.strip():
                yield json.loads(line)


async def play(
    http: httpx.AsyncClient, bot: Bot, game_id: str, rng: random.Random, think: float
) -> None:
    """Play ``game_id`` to its end, on whichever process answers."""
    sent: set[int] = set()
    while True:
        base = bot.home
        seats: list[int] | None = None  # each stream names them first, in its gameFull
        try:
            async for event in lines(http, f"{base}/api/bot/game/stream/{game_id}", bot):
                if event["type"] == "gameFull":
                    seats, event = event["yourSeats"], event["state"]
                if event["type"] != "gameState":
                    continue
                if seats is None:  # named, not an UnboundLocalError lost in a task
                    bot.faults.append(f"{game_id}: its stream began with a gameState")
                    return
                if event["status"] != "started":
                    bot.ended[game_id] = time.monotonic()
                    return
                ply = event["ply"]
                if event["turn"] not in seats or not event["legal"] or ply in sent:
                    continue
                sent.add(ply)
                if think:
                    await asyncio.sleep(think)
                move = quote(rng.choice(event["legal"]), safe="")
                away = bot.away
                try:
                    answer = await http.post(
                        f"{away}/api/bot/game/{game_id}/move/{move}", headers=bot.auth
                    )
                except GONE:
                    bot.fail_over(away)
                    sent.discard(ply)
                    raise
                if answer.status_code == 200:
                    bot.moves += 1
                else:  # a state moved on meanwhile: the next gameState says what is so
                    bot.refused.append(f"{answer.status_code} {answer.text[:100]}")
                    sent.discard(ply)
            return  # the stream ended after a final state
        except GONE as exc:
            bot.troubles.append(f"{time.time():.2f} {base} {type(exc).__name__}")
            bot.fail_over(base)
            await asyncio.sleep(0.2)
        except Refused as exc:
            bot.troubles.append(f"{time.time():.2f} {exc}")
            await asyncio.sleep(0.5)


async def run(http: httpx.AsyncClient, bot: Bot, rng: random.Random, think: float = 0.0) -> None:
    """Read the bot's events and play every game it is given until cancelled."""
    tasks: dict[str, asyncio.Task[None]] = {}
    try:
        while True:
            base = bot.home
            try:
                async for event in lines(http, f"{base}/api/stream/event", bot):
                    game_id = event.get("game", {}).get("id")
                    if event["type"] != "gameStart" or game_id in tasks:
                        continue
                    bot.games.append(game_id)
                    bot.started[game_id] = time.monotonic()
                    if bot.on_start is not None:
                        await bot.on_start(bot, game_id)
                    tasks[game_id] = asyncio.create_task(play(http, bot, game_id, rng, think))
            except GONE as exc:
                bot.troubles.append(f"{time.time():.2f} {base} {type(exc).__name__}")
                bot.fail_over(base)
                await asyncio.sleep(0.2)
            except Refused as exc:
                bot.troubles.append(f"{time.time():.2f} {exc}")
                await asyncio.sleep(0.5)
    finally:
        for task in tasks.values():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def create_tournament(
    http: httpx.AsyncClient, base: str, owner: dict[str, str], body: dict[str, Any]
) -> str:
    made = await http.post(f"{base}/api/tournaments", json=body, headers=owner)
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["tournament"]["id"]
    return tournament_id


async def join(http: httpx.AsyncClient, bot: Bot, tournament_id: str) -> None:
    joined = await http.post(f"{bot.home}/api/tournaments/{tournament_id}/join", headers=bot.auth)
    assert joined.status_code == 200, joined.text


STALLED = 15.0
"""Seconds of silence after which a bot takes a process for stalled and turns to the next: a
stream sends a keep-alive line every 4 s (``bots/streams.py``), so a live one is never this
quiet, and an answer this late is from a process in trouble (lichess-bot does the same)."""


def client() -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    return httpx.AsyncClient(timeout=httpx.Timeout(20.0, read=STALLED), limits=limits)


async def view(http: httpx.AsyncClient, base: str, tournament_id: str) -> Any:
    answer = await http.get(f"{base}/api/tournaments/{tournament_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


async def game(http: httpx.AsyncClient, base: str, game_id: str) -> Any:
    answer = await http.get(f"{base}/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def halves_of(game_view: Any) -> dict[str, int]:
    """Each seat's name and half-points (2 a win, 1 a draw) in a finished tournament game of
    two, read from its result as the game's page shows it: its winners, alone or shared; a game
    aborted because a player left or never moved (a no-show) is theirs lost, as a tournament
    counts it (docs/tournaments.md), though the game's own page names no winner."""
    result = game_view["result"]
    names = [seat["name"] for seat in game_view["seats"]]
    if result.get("left") is not None:
        return {name: 0 if seat == result["left"] else 2 for seat, name in enumerate(names)}
    winners = set(result.get("winners") or [])
    if len(winners) == 1:
        return {name: 2 if seat in winners else 0 for seat, name in enumerate(names)}
    return dict.fromkeys(names, 1)
