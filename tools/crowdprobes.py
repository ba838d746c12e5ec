"""The other visitors of ``crowdbench.py``: a few people who are not in the arena, each timing
what they do while the crowd is there.

Half of them browse: one after another (a think time of 0.25-0.75 s between two) they read the
lobby's seeks (``/api/seeks``), the tournament list (``/api/tournaments``), the arena's page
(``/api/tournament-pages/{id}``) and its first page of standings, over HTTP. The other half
play: each makes a hot-seat game (two seats on one device, a guest's; ``create`` is timed) and
plays its moves over the game's socket, as the page does, timing each from sending ``act`` to
the update that carries it (``move``); a finished game is followed by another. Visitor ``i``
uses process ``i % 2``.

They run in a process of their own (``run``, started by ``crowdbench.py``) so that the bench's
own event loop, busy reading the crowd's thousands of sockets when the wave comes, cannot delay
their clocks: what they time is the servers' answer, not the bench's."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import Any

import httpx
from loadbench import _next_ply
from websockets.asyncio.client import connect

Sample = tuple[float, str, int, float, str | None]
"""One timed request: when it was sent (``time.time()``), its kind, the process asked (0 or 1),
how long its answer took in milliseconds, and its error (None: answered as it should)."""

THINK = (0.25, 0.75)
"""Seconds a visitor waits between two requests (uniform): a person's pace, not a flood."""
TIMEOUT = 30.0
"""Seconds an answer may take before it counts as an error."""


def run(
    bases: Sequence[str], tournament_id: str, visitors: int, game: str, stop: Event, out: Connection
) -> None:
    """``visitors`` visitors until ``stop`` is set; then their samples are sent on ``out``."""
    samples: list[Sample] = []
    asyncio.run(_all(bases, tournament_id, visitors, game, stop, samples))
    out.send(samples)
    out.close()


async def _all(
    bases: Sequence[str],
    tournament_id: str,
    visitors: int,
    game: str,
    stop: Event,
    samples: list[Sample],
) -> None:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(timeout=TIMEOUT, limits=limits) as http:
        await asyncio.gather(
            *(
                (_browse if i % 2 else _play)(
                    http, bases, i, tournament_id, game, stop, samples, random.Random(i)
                )
                for i in range(visitors)
            )
        )


async def _browse(
    http: httpx.AsyncClient,
    bases: Sequence[str],
    index: int,
    tournament_id: str,
    game: str,
    stop: Event,
    samples: list[Sample],
    rng: random.Random,
) -> None:
    process = index % len(bases)
    pages = [
        ("seeks", "/api/seeks"),
        ("tournaments", "/api/tournaments"),
        ("tournament", f"/api/tournament-pages/{tournament_id}"),
        ("standings", f"/api/tournaments/{tournament_id}/standings?page=1"),
    ]
    turn = index
    await asyncio.sleep(rng.uniform(*THINK))  # the visitors do not all start in one instant
    while not stop.is_set():
        kind, path = pages[turn % len(pages)]
        turn += 1
        sent, started = time.time(), time.perf_counter()
        error: str | None = None
        try:
            answer = await http.get(bases[process] + path)
            if answer.status_code != 200:
                error = f"{kind}: {answer.status_code} {answer.text[:80]}"
        except httpx.HTTPError as exc:
            error = f"{kind}: {exc!r}"
        samples.append((sent, kind, process, (time.perf_counter() - started) * 1000, error))
        await asyncio.sleep(rng.uniform(*THINK))


async def _play(
    http: httpx.AsyncClient,
    bases: Sequence[str],
    index: int,
    tournament_id: str,
    game: str,
    stop: Event,
    samples: list[Sample],
    rng: random.Random,
) -> None:
    process = index % len(bases)
    await asyncio.sleep(rng.uniform(*THINK))
    while not stop.is_set():
        try:
            await _one_game(http, bases[process], process, game, stop, samples, rng)
        except Exception as exc:  # counted, and the visitor starts another game
            samples.append((time.time(), "move", process, 0.0, f"game: {exc!r}"))
            await asyncio.sleep(1.0)


async def _one_game(
    http: httpx.AsyncClient,
    base: str,
    process: int,
    game: str,
    stop: Event,
    samples: list[Sample],
    rng: random.Random,
) -> None:
    body = {"game": game, "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
    sent, started = time.time(), time.perf_counter()
    answer = await http.post(f"{base}/api/games", json=body)
    took = (time.perf_counter() - started) * 1000
    if answer.status_code != 201:
        samples.append((sent, "create", process, took, f"create: {answer.status_code}"))
        await asyncio.sleep(1.0)
        return
    samples.append((sent, "create", process, took, None))
    made = answer.json()
    url = base.replace("http://", "ws://") + f"/api/games/{made['id']}/ws"
    async with connect(url, max_size=None, open_timeout=TIMEOUT, ping_interval=None) as socket:
        view: dict[str, Any] = await _next_ply(socket, 0, {})
        await socket.send(json.dumps({"type": "hello", "token": made["token"], "words": False}))
        view = await _next_ply(socket, 0, {})  # the state again, now with the seats' moves
        while not view["terminal"] and not stop.is_set():
            await asyncio.sleep(rng.uniform(*THINK))
            ply = view["ply"]
            action = rng.choice(view["legal"])["id"]
            sent, started = time.time(), time.perf_counter()
            await socket.send(json.dumps({"type": "act", "action": action, "ply": ply}))
            view = await asyncio.wait_for(_next_ply(socket, ply + 1, view), TIMEOUT)
            samples.append((sent, "move", process, (time.perf_counter() - started) * 1000, None))
