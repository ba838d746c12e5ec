"""The floor of ``make bench-web``: a server that does only the I/O a move needs, with no game.

``tools/loadbench.py --floor`` runs it beside the real server, under the same load in the same
run, so a row's CPU per move can be read against what the same stack costs with no game at all.
The stack is the real server's: uvicorn (uvloop, httptools, the server's own WebSocket protocol,
``boardplay.web.wsprotocol``), FastAPI's WebSocket, one psycopg asynchronous connection per
process with autocommit, and the server's Redis relay (``boardplay.web.broker``) between
processes. Per move it does what any server that loses no move and tells every watcher must do:

- read the player's ``act`` message (JSON) from its socket;
- store the move durably: one ``INSERT`` committed on PostgreSQL (fsync on in the bench)
  before anything is answered;
- send the update to every socket of the game on this process (the player's, a spectator's),
  and publish it once on Redis for the other processes, which send it to theirs.

The update is padded to the real server's mean size (about 1,770 characters), so the sockets
carry the same bytes. Nothing is checked, rendered or described: the game is a counter that
ends after ``BOARDPLAY_FLOOR_PLIES`` moves (the length of the bench's Potlatch games), so the
floor's closed loop creates games as often as the real one. It speaks just enough of the real
server's protocol for the load generator (``POST /api/games``, the game's socket with ``state``,
``hello``, ``act`` and ``update``) and keeps no state but each game's ply on the process that
created it.

Run by ``loadbench.py`` (``uvicorn floorserver:app`` from ``tools/``, with
``BOARDPLAY_DATABASE_URL`` and, for several processes, ``BOARDPLAY_REDIS_URL``); never part of
the product."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from boardplay.web.broker import Broker, Notice

PLIES = int(os.environ.get("BOARDPLAY_FLOOR_PLIES", "10"))
"""Moves after which a floor game ends."""
PADDING = "x" * 1610
"""Filler that brings an update to the real server's size (its board, words and legal moves)."""
LEGAL = [{"id": 0}]


class Floor:
    """One process's games, sockets, database connection and relay."""

    def __init__(self) -> None:
        self.plies: dict[str, int] = {}
        """The ply of each game created on this process (where its moves are made)."""
        self.sockets: dict[str, set[WebSocket]] = {}
        self.database: psycopg.AsyncConnection[Any] | None = None
        self.broker: Broker | None = None

    async def start(self) -> None:
        url = os.environ["BOARDPLAY_DATABASE_URL"].replace("postgresql+psycopg", "postgresql")
        self.database = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await self.database.execute(
            "CREATE TABLE IF NOT EXISTS floor_moves"
            " (game text NOT NULL, ply integer NOT NULL, action integer NOT NULL,"
            " PRIMARY KEY (game, ply))"
        )
        redis = os.environ.get("BOARDPLAY_REDIS_URL")
        if redis:
            self.broker = Broker(redis, self.heard, self.reconnected)
            await self.broker.start()

    async def stop(self) -> None:
        if self.broker is not None:
            await self.broker.close()
        if self.database is not None:
            await self.database.close()

    def heard(self, game_id: str, _revision: int, notice: Notice) -> None:
        """Another process's move: send its update to this process's sockets of the game."""
        sockets = self.sockets.get(game_id)
        if sockets:
            asyncio.get_running_loop().create_task(self.send(sockets, notice.view_text))

    async def reconnected(self) -> None:
        """Redis came back: nothing to catch up (a floor game is never read back)."""

    @staticmethod
    async def send(sockets: set[WebSocket], text: str) -> None:
        for socket in list(sockets):
            with contextlib.suppress(Exception):  # a socket closing meanwhile
                await socket.send_text(text)

    @staticmethod
    def state(ply: int) -> str:
        return json.dumps({"type": "state", "game": view(ply, [])})

    async def act(self, game_id: str, message: dict[str, Any]) -> str | None:
        """Store the move and tell every socket; an error message when the ply is not current."""
        ply = self.plies.get(game_id)
        if ply is None or message.get("ply") != ply or ply >= PLIES:
            return json.dumps({"type": "error", "error": {"message": "not the current ply"}})
        assert self.database is not None
        await self.database.execute(
            "INSERT INTO floor_moves (game, ply, action) VALUES (%s, %s, %s)",
            (game_id, ply, int(message["action"])),
        )
        self.plies[game_id] = ply + 1
        update = json.dumps(
            {
                "type": "update",
                "game": view(ply + 1, None),
                "removed": [],
                "moves": {"keep": ply, "add": [{"ply": ply, "action": message["action"]}]},
            }
        )
        await self.send(self.sockets.get(game_id, set()), update)
        if self.broker is not None:
            self.broker.publish(game_id, Notice(ply + 1, self.broker.me, update))
        return None


def view(ply: int, moves: list[Any] | None) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "ply": ply,
        "terminal": ply >= PLIES,
        "legal": LEGAL,
        "board": PADDING,
    }
    if moves is not None:
        shown["moves"] = moves
    return shown


floor = Floor()


@contextlib.asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    await floor.start()
    yield
    await floor.stop()


app = FastAPI(lifespan=lifespan)


@app.get("/api/catalogue")
async def catalogue() -> list[str]:
    """Answers once the process is up (what the load generator waits for)."""
    return []


@app.post("/api/games", status_code=201)
async def create() -> JSONResponse:
    game_id = secrets.token_hex(8)
    floor.plies[game_id] = 0
    return JSONResponse({"id": game_id, "token": "floor"}, status_code=201)


@app.websocket("/api/games/{game_id}/ws")
async def game_socket(socket: WebSocket, game_id: str) -> None:
    await socket.accept()
    sockets = floor.sockets.setdefault(game_id, set())
    sockets.add(socket)
    try:
        await socket.send_text(floor.state(floor.plies.get(game_id, 0)))
        while True:
            message = json.loads(await socket.receive_text())
            if message.get("type") == "hello":
                await socket.send_text(floor.state(floor.plies.get(game_id, 0)))
            elif message.get("type") == "act":
                error = await floor.act(game_id, message)
                if error is not None:
                    await socket.send_text(error)
    except WebSocketDisconnect:
        pass
    finally:
        sockets.discard(socket)
        if not sockets:
            floor.sockets.pop(game_id, None)
