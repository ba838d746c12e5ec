"""The floor of ``botbench.py``: a server that does only the I/O a bot's move needs, with no game.

``botbench.py --floor`` runs the very same bots (the same load generator, arena and all) against
it after the real server, in the same run, so a bot move's CPU can be read against what the Bot
API's own transport costs with no game at all: ``floorserver.py`` is the floor of the game
page's WebSocket, whose one message a move is far cheaper than an HTTP request and a line on
two streams. The stack is the real server's: uvicorn (uvloop, httptools), FastAPI's routing,
one psycopg asynchronous connection per process with autocommit, and the server's Redis relay
(``boardplay.web.broker``) between processes. Per move it does what any server must:

- read the bot's ``POST .../move/{move}`` and its bearer token (a token first seen on this
  process is read from the database once, as the real server keeps a bot's token);
- store the move durably: one ``INSERT`` committed on PostgreSQL (fsync on in the bench), its
  key ``(game, ply)`` refusing a second move for the same ply (409) before anything is answered;
- send a ``gameState`` line to the game stream of each of the game's two bots, relayed once over
  Redis when the move came to another process than the game's streams.

A line is padded to ``BOARDPLAY_FLOOR_LINE`` characters and a game ends after
``BOARDPLAY_FLOOR_PLIES`` moves, both measured on the real server in the same run (the mean
``gameState`` line and game length its bots saw), so the floor carries the same bytes and pairs
as often. Pairing is the least an arena can do: the two bots free longest on a process are
paired as soon as both are free, with no rating, history or database. It speaks just enough of
the real server's protocol for ``botbench.py``: sign-up, token, upgrade, the arena's creation
and joins, the event and game streams, moves. Never part of the product."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from boardplay.web.broker import Broker, Notice

PLIES = int(os.environ.get("BOARDPLAY_FLOOR_PLIES", "19"))
"""Moves after which a floor game ends (the real server's mean game length in the run)."""
LINE = int(os.environ.get("BOARDPLAY_FLOOR_LINE", "1500"))
"""Characters of a ``gameState`` line (the real server's mean in the run)."""
KEEPALIVE = 4.0
NDJSON = "application/x-ndjson"


@dataclass
class Game:
    """A game whose streams this process serves (both its bots' event streams are here)."""

    id: str
    bots: tuple[str, str]
    ply: int = 0
    streams: dict[str, asyncio.Queue[str | None]] = field(default_factory=dict)


def state_line(ply: int) -> str:
    """A ``gameState`` with the members a bot reads, padded to ``LINE`` characters."""
    over = ply >= PLIES
    head = json.dumps(
        {
            "type": "gameState",
            "ply": ply,
            "turn": ply % 2,
            "legal": [] if over else ["a"],
            "status": "ended" if over else "started",
            "pad": "",
        }
    )
    return head[:-2] + "x" * max(0, LINE - len(head)) + '"}\n'


class BotFloor:
    """One process's bots, games, streams, database connection and relay."""

    def __init__(self) -> None:
        self.tokens: dict[str, str] = {}
        """Tokens this process has read, and whose they are."""
        self.events: dict[str, asyncio.Queue[str | None]] = {}
        """The event stream of each bot whose stream is on this process."""
        self.free: deque[str] = deque()
        """Bots with an event stream here and no game, longest free first."""
        self.games: dict[str, Game] = {}
        self.starts: float | None = None
        self.database: psycopg.AsyncConnection[Any] | None = None
        self.broker: Broker | None = None
        self._pairing: asyncio.Task[None] | None = None

    async def start(self) -> None:
        url = os.environ["BOARDPLAY_DATABASE_URL"].replace("postgresql+psycopg", "postgresql")
        self.database = await psycopg.AsyncConnection.connect(url, autocommit=True)
        for table in (
            "floor_bot_moves (game text, ply integer, move text, PRIMARY KEY (game, ply))",
            "floor_bot_tokens (token text PRIMARY KEY, name text NOT NULL)",
            "floor_bot_arena (id text PRIMARY KEY, starts double precision NOT NULL)",
        ):
            with contextlib.suppress(psycopg.errors.UniqueViolation):  # the other process's
                await self.database.execute(f"CREATE TABLE IF NOT EXISTS {table}")
        redis = os.environ.get("BOARDPLAY_REDIS_URL")
        if redis:
            self.broker = Broker(redis, self.heard, self.reconnected)
            await self.broker.start()

    async def stop(self) -> None:
        if self.broker is not None:
            await self.broker.close()
        if self.database is not None:
            await self.database.close()

    async def query(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        assert self.database is not None
        cursor = await self.database.execute(sql, args)
        return await cursor.fetchall() if cursor.description else []

    async def bot_of(self, request: Request) -> str | None:
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        name = self.tokens.get(token)
        if name is None:
            rows = await self.query("SELECT name FROM floor_bot_tokens WHERE token = %s", token)
            if rows:
                name = self.tokens[token] = rows[0][0]
        return name

    # ----- games ----------------------------------------------------------------------------
    def pair(self) -> None:
        """Pair the bots free longest, two by two, once the arena has started."""
        if self.starts is None or time.time() < self.starts:
            return
        while len(self.free) >= 2:
            bots = (self.free.popleft(), self.free.popleft())
            game = Game(secrets.token_hex(6), bots)
            self.games[game.id] = game
            start = json.dumps({"type": "gameStart", "game": {"id": game.id}}) + "\n"
            for bot in bots:
                self.events[bot].put_nowait(start)

    def moved(self, game_id: str, ply: int) -> None:
        """The game reached ``ply``: its bots' streams are told, and freed if it is over."""
        game = self.games.get(game_id)
        if game is None or ply <= game.ply:
            return
        game.ply = ply
        line = state_line(ply)
        for stream in game.streams.values():
            stream.put_nowait(line)
        if ply >= PLIES:
            del self.games[game_id]
            finish = json.dumps({"type": "gameFinish", "game": {"id": game_id}}) + "\n"
            for bot in game.bots:
                if bot in self.events:
                    self.events[bot].put_nowait(finish)
                    self.free.append(bot)
            for stream in game.streams.values():
                stream.put_nowait(None)
            self.pair()

    async def move(self, game_id: str, ply: int, move: str) -> bool:
        """Store the move; False if that ply already has one."""
        try:
            await self.query(
                "INSERT INTO floor_bot_moves (game, ply, move) VALUES (%s, %s, %s)",
                game_id,
                ply,
                move,
            )
        except psycopg.errors.UniqueViolation:
            return False
        if game_id in self.games:
            self.moved(game_id, ply + 1)
        elif self.broker is not None:
            self.broker.publish(game_id, Notice(ply + 1, self.broker.me))
        return True

    def heard(self, game_id: str, revision: int, _notice: Notice) -> None:
        """Another process stored a move of a game whose streams may be here."""
        self.moved(game_id, revision)

    async def reconnected(self) -> None:
        """Redis came back: nothing to catch up (a floor game is never read back)."""

    async def wait_for_start(self, arena: str) -> None:
        rows = await self.query("SELECT starts FROM floor_bot_arena WHERE id = %s", arena)
        if rows and self.starts is None:
            self.starts = float(rows[0][0])
            self._pairing = asyncio.get_running_loop().create_task(self._pair_at_start())

    async def _pair_at_start(self) -> None:
        """Pair the bots waiting at the start. The loop's sleep keeps its own clock, not the
        wall clock ``starts`` is on, and can end a hair before it: ``pair`` would then find the
        arena not started and nothing would pair the bots already waiting (half the bench's
        floor runs played no game)."""
        assert self.starts is not None
        while (left := self.starts - time.time()) > 0:
            await asyncio.sleep(left)
        self.pair()


floor = BotFloor()


@contextlib.asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    await floor.start()
    yield
    await floor.stop()


app = FastAPI(lifespan=lifespan)


async def lines(queue: asyncio.Queue[str | None]) -> AsyncIterator[str]:
    while True:
        try:
            line = await asyncio.wait_for(queue.get(), KEEPALIVE)
        except TimeoutError:
            yield "\n"
            continue
        if line is None:
            return
        yield line


def refused(status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": "refused", "message": "refused"}}, status)


@app.get("/api/catalogue")
async def catalogue() -> list[str]:
    """Answers once the process is up (what the bench waits for)."""
    return []


@app.post("/api/account/signup")
async def signup() -> JSONResponse:
    answer = JSONResponse({"csrf": "floor"})
    answer.set_cookie("boardplay_session", secrets.token_hex(8))
    return answer


@app.post("/api/account/tokens")
async def make_token(request: Request) -> dict[str, str]:
    token = secrets.token_hex(16)
    name = request.cookies.get("boardplay_session", token)
    await floor.query("INSERT INTO floor_bot_tokens (token, name) VALUES (%s, %s)", token, name)
    return {"token": token}


@app.post("/api/bot/account/upgrade")
async def upgrade() -> dict[str, bool]:
    return {"ok": True}


@app.post("/api/tournaments")
async def create_arena(request: Request) -> dict[str, Any]:
    arena = secrets.token_hex(6)
    starts = float((await request.json())["starts"])
    await floor.query("INSERT INTO floor_bot_arena (id, starts) VALUES (%s, %s)", arena, starts)
    return {"tournament": {"id": arena}}


@app.post("/api/tournaments/{arena}/join")
async def join(arena: str) -> dict[str, bool]:
    await floor.wait_for_start(arena)
    return {"ok": True}


@app.get("/api/stream/event", response_model=None)
async def event_stream(request: Request) -> StreamingResponse | JSONResponse:
    bot = await floor.bot_of(request)
    if bot is None:
        return refused(401)
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    floor.events[bot] = queue
    floor.free.append(bot)
    floor.pair()
    return StreamingResponse(lines(queue), media_type=NDJSON)


@app.get("/api/bot/game/stream/{game_id}", response_model=None)
async def game_stream(game_id: str, request: Request) -> StreamingResponse | JSONResponse:
    bot = await floor.bot_of(request)
    game = floor.games.get(game_id)
    if bot is None or game is None or bot not in game.bots:
        return refused(404)
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    game.streams[bot] = queue
    full = {"type": "gameFull", "id": game_id, "yourSeats": [game.bots.index(bot)]}
    queue.put_nowait(json.dumps({**full, "state": json.loads(state_line(game.ply))}) + "\n")
    return StreamingResponse(lines(queue), media_type=NDJSON)


@app.post("/api/bot/game/{game_id}/move/{move}", response_model=None)
async def move(game_id: str, move: str, ply: int, request: Request) -> Any:
    if await floor.bot_of(request) is None:
        return refused(401)
    if not await floor.move(game_id, ply, move):
        return refused(409)
    return {"ok": True, "ply": ply + 1}
