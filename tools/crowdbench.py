"""``make bench-web``'s crowd row: a ``--players`` arena starting on two server processes while
``--sockets`` lobby sockets are open, timing what other visitors meanwhile ask of the servers.

Two ``boardplay serve`` processes share a throwaway PostgreSQL (fsync on) and Redis. Then:

1. **Players.** ``--players`` accounts sign up through the API (``/api/account/signup``, player
   ``i`` on process ``i % 2``), each answer carrying the session a browser keeps. Real sign-ups,
   argon2id and all: one costs about 40 ms of a core, hashed one at a time per process, so a
   thousand take some 20-40 s of the setup and nothing of the windows measured.
2. **Sockets.** Every player opens the lobby page's socket with its session, on its own
   process: that is what a player waiting for an arena has open, and where the site tells them
   of their game (``{"type": "started", "tournament": …}``, ``lobby/sockets.py``). Guests' lobby
   sockets make up the rest of ``--sockets``, alternating between the processes. Every socket
   is read until the end (one never read would be dropped by the server's send queue), and
   none sends anything (the server pings them, as it does every page).
3. **The arena.** A casual arena of ``--game`` on a 1+0 clock (an account that is not a player
   creates it) that every player joins, on its own process, before it starts. An arena pairs
   every entrant who is in it, not paused and not at a game (``tournaments/steps.py``): a
   player needs no page open to be paired, so the sockets are there for the load they are and
   for timing when each player hears of their game.
4. **Other visitors** (``crowdprobes.py``, a process of its own): ``--visitors`` people not in
   the arena browse the lobby and the arena's pages and play hot-seat games over their game's
   socket, half on each process, each request timed.

Two windows are reported, one JSON row each: **baseline**, from the joins' end (and the
visitors' ``WARM_UP``) to the arena's start (the crowd connected and quiet), and **wave**, from
the arena's start until every player has heard of their first game, plus ``--after`` seconds.
Each gives the visitors' p50, p99 and maximum (all requests; the p99 of each kind and of each
process) and their errors; the wave's row adds the servers' CPU seconds in it (``/proc``), how
long the wave took to be made (from the start to the first and to the last player told of
their game), its games, and the lobby sockets dropped. The arena starts at a director's tick
(every 2 s), so up to two seconds of the wave's time is the tick's wait. Numbers are printed,
never asserted: the machine may be shared (its load average is printed beside them)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import crowdprobes
import devservices as ds
import httpx
from loadbench import bench_env, percentile
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

PASSWORD = "a crowd password"
SETUP = 8
"""Sign-ups and joins sent at once (the servers queue the hashing anyway)."""
OPENING = 64
"""Lobby sockets being opened at once."""
WARM_UP = 3.0
"""Seconds of the visitors' first requests left out of the baseline: each process's first game
of its kind and first page are slower once (imports, caches), which is no visitor's lot."""
WAVE_TIMEOUT = 180.0
SPY = 15
"""Seconds ``--py-spy`` samples each server from the arena's start."""
"""Seconds after the start past which a wave not yet fully told is reported as it is."""


@dataclass
class Player:
    name: str
    process: int
    cookie: str
    csrf: str

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"boardplay_session={self.cookie}", "X-CSRF-Token": self.csrf}


@dataclass
class Crowd:
    """What the lobby sockets heard: when each player was first told of a game of the arena."""

    arena: str = ""
    told: dict[str, float] = field(default_factory=dict)
    """Player → when (``time.time()``) their socket was told of their first arena game."""
    games: set[str] = field(default_factory=set)
    opened: int = 0
    dropped: list[str] = field(default_factory=list)
    """Sockets the server closed before the end, and why."""
    everyone_told: asyncio.Event = field(default_factory=asyncio.Event)
    expected: int = 0
    """Players the first wave pairs: all of them (an arena leaves at most one out, here none
    when the field is even, since no one has a last opponent yet)."""


async def _post(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """POST and check the answer; once more on a kept-alive connection the server closed just
    as it was reused (the client's race, not a refusal)."""
    for attempt in range(2):
        try:
            answer = await http.post(url, **kwargs)
        except httpx.RemoteProtocolError:
            if attempt:
                raise
            continue
        answer.raise_for_status()
        return answer
    raise AssertionError("unreachable")


async def _sign_up(http: httpx.AsyncClient, bases: Sequence[str], name: str, i: int) -> Player:
    body = {"name": name, "password": PASSWORD}
    answer = await _post(http, f"{bases[i % len(bases)]}/api/account/signup", json=body)
    return Player(name, i % len(bases), answer.cookies["boardplay_session"], answer.json()["csrf"])


async def _lobby_socket(
    url: str, player: Player | None, crowd: Crowd, ready: asyncio.Event, stop: asyncio.Event
) -> None:
    """One lobby page: open, then read until ``stop`` (a player's socket marks when its owner
    is told of their first game of the arena)."""
    headers = None if player is None else {"Cookie": f"boardplay_session={player.cookie}"}
    try:
        async with connect(
            url, max_size=None, open_timeout=60, ping_interval=None, additional_headers=headers
        ) as socket:
            crowd.opened += 1
            ready.set()
            reading = asyncio.ensure_future(_read(socket, player, crowd))
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            for task in (reading, stopping):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            if not stop.is_set():
                crowd.dropped.append(f"closed {socket.close_code} {socket.close_reason}")
    except (OSError, TimeoutError, ConnectionClosed) as exc:
        crowd.dropped.append(repr(exc))
        ready.set()


async def _read(socket: Any, player: Player | None, crowd: Crowd) -> None:
    async for text in socket:
        if player is None or player.name in crowd.told:
            continue
        message = json.loads(text)
        if message.get("type") == "started" and message.get("tournament") == crowd.arena:
            crowd.told[player.name] = time.time()
            crowd.games.add(message["game"])
            if len(crowd.told) >= crowd.expected:
                crowd.everyone_told.set()


def _window(samples: Sequence[crowdprobes.Sample], start: float, end: float) -> dict[str, Any]:
    """The visitors' numbers over the requests sent from ``start`` to ``end``."""
    inside = [s for s in samples if start <= s[0] < end]
    ms = [s[3] for s in inside if s[4] is None]
    kinds = sorted({s[1] for s in inside})
    errors = [s[4] for s in inside if s[4] is not None]
    return {
        "seconds": round(end - start, 1),
        "requests": len(inside),
        "p50_ms": round(percentile(ms, 0.50), 1),
        "p99_ms": round(percentile(ms, 0.99), 1),
        "max_ms": round(max(ms, default=0.0), 1),
        "p99_ms_by_kind": {
            k: round(percentile([s[3] for s in inside if s[1] == k and s[4] is None], 0.99), 1)
            for k in kinds
        },
        "p99_ms_by_process": [
            round(percentile([s[3] for s in inside if s[2] == p and s[4] is None], 0.99), 1)
            for p in (0, 1)
        ],
        "errors": len(errors),
        "first_errors": errors[:5],
    }


async def _sign_ups(http: httpx.AsyncClient, bases: Sequence[str], count: int) -> list[Player]:
    gate = asyncio.Semaphore(SETUP)

    async def sign_up(i: int) -> Player:
        async with gate:
            return await _sign_up(http, bases, f"crowd_{i}", i)

    return list(await asyncio.gather(*(sign_up(i) for i in range(count))))


async def _open_sockets(
    bases: Sequence[str], players: Sequence[Player], count: int, crowd: Crowd, stop: asyncio.Event
) -> list[asyncio.Task[None]]:
    """``count`` lobby sockets, the players' first (each on its player's process), the rest
    guests' (socket ``i`` on process ``i % 2``), ``OPENING`` being opened at once; returns
    once all are open (or failed), with their readers, which end after ``stop``."""
    opening = asyncio.Semaphore(OPENING)
    lobbies = [b.replace("http://", "ws://") + "/api/lobby/ws" for b in bases]

    async def socket(i: int) -> None:
        player = players[i] if i < len(players) else None
        ready = asyncio.Event()
        async with opening:
            task = asyncio.ensure_future(
                _lobby_socket(lobbies[i % len(bases)], player, crowd, ready, stop)
            )
            await ready.wait()
        await task

    sockets = [asyncio.create_task(socket(i)) for i in range(count)]
    while crowd.opened + len(crowd.dropped) < count:
        await asyncio.sleep(0.1)
    return sockets


async def _enter_arena(
    http: httpx.AsyncClient,
    bases: Sequence[str],
    players: Sequence[Player],
    args: argparse.Namespace,
    crowd: Crowd,
) -> float:
    """Create the arena (starting ``--lead`` seconds from now) and have every player join it
    on their own process; returns its start (``time.time()``)."""
    owner = await _sign_up(http, bases, "crowd_owner", 0)
    starts: float = time.time() + args.lead
    body = {
        "name": "Crowd arena",
        "kind": "arena",
        "game": args.game,
        "clock": {"base": 60, "increment": 0},
        "starts": starts,
        "minutes": 10,
    }
    made = await _post(http, f"{bases[0]}/api/tournaments", json=body, headers=owner.headers())
    crowd.arena = made.json()["tournament"]["id"]
    gate = asyncio.Semaphore(SETUP)

    async def join(player: Player) -> None:
        async with gate:
            url = f"{bases[player.process]}/api/tournaments/{crowd.arena}/join"
            await _post(http, url, headers=player.headers())

    await asyncio.gather(*(join(p) for p in players))
    return starts


async def _crowd(
    bases: Sequence[str], servers: Sequence[Any], args: argparse.Namespace
) -> list[dict[str, Any]]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))  # every request names its session
    crowd, stop = Crowd(expected=args.players - args.players % 2), asyncio.Event()
    count = max(args.sockets, args.players)
    async with httpx.AsyncClient(timeout=120, limits=limits, cookies=jar) as http:
        began = time.monotonic()
        players = await _sign_ups(http, bases, args.players)
        signed_up = time.monotonic() - began
        print(f"{len(players)} players signed up in {signed_up:.1f} s", flush=True)
        began = time.monotonic()
        sockets = await _open_sockets(bases, players, count, crowd, stop)
        print(f"{crowd.opened} lobby sockets open in {time.monotonic() - began:.1f} s", flush=True)
        began = time.monotonic()
        starts = await _enter_arena(http, bases, players, args, crowd)
        joined = time.time()
        print(f"{len(players)} joined in {time.monotonic() - began:.1f} s", flush=True)
        if joined + WARM_UP + 5 >= starts:
            raise SystemExit("the joins left no baseline before the start: --lead more")

        # The other visitors, in their own process, from the joins' end to the wave's.
        context = multiprocessing.get_context("spawn")
        stopping, (receiving, sending) = context.Event(), context.Pipe(duplex=False)
        probes = context.Process(
            target=crowdprobes.run,
            args=(bases, crowd.arena, args.visitors, args.game, stopping, sending),
        )
        probes.start()
        await asyncio.sleep(max(0.0, starts - time.time()))
        cpu_start = sum(ds.cpu_seconds(s) for s in servers)
        spies = (
            [_spy(s, f"{args.py_spy}.{i}") for i, s in enumerate(servers)] if args.py_spy else []
        )
        print(f"the arena starts ({crowd.opened} sockets open)", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(crowd.everyone_told.wait(), WAVE_TIMEOUT)
        told = time.time()
        await asyncio.sleep(args.after)
        cpu_wave = sum(ds.cpu_seconds(s) for s in servers) - cpu_start
        ended = time.time()
        stopping.set()
        if not await asyncio.to_thread(receiving.poll, 60):
            raise RuntimeError("the visitors' process sent nothing back")
        samples: list[crowdprobes.Sample] = receiving.recv()
        probes.join(30)
        stop.set()
        await asyncio.gather(*sockets)
        for spy in spies:
            await asyncio.to_thread(spy.wait, 60)

    common = {
        "players": args.players,
        "sockets": count,
        "visitors": args.visitors,
        "game": args.game,
        "processes": len(bases),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    first = min(crowd.told.values(), default=float("nan"))
    baseline = {
        "window": "baseline",
        **common,
        **_window(samples, joined + WARM_UP, starts),
        "sign_up_s": round(signed_up, 1),
        "join_s": round(joined - (starts - args.lead), 1),
    }
    wave = {
        "window": "wave",
        **common,
        **_window(samples, starts, ended),
        "server_cpu_s": round(cpu_wave, 1),
        "wave_games": len(crowd.games),
        "players_told": len(crowd.told),
        "first_told_s": round(first - starts, 2),
        "all_told_s": round(told - starts, 2) if crowd.everyone_told.is_set() else None,
        "sockets_dropped": len(crowd.dropped),
        "first_drops": crowd.dropped[:5],
    }
    return [baseline, wave]


def _spy(server: subprocess.Popen[bytes], path: str) -> subprocess.Popen[bytes]:
    """py-spy sampling ``server`` through the wave (``SPY`` seconds) into ``path`` as
    collapsed stacks, the GIL's holder only (what keeps the event loop from its visitors)."""
    command = ["py-spy", "record", "--format", "raw", "--gil", "--subprocesses"]
    command += ["-d", str(SPY), "-o", path, "-p", str(server.pid)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000, help="arena entrants")
    parser.add_argument(
        "--sockets", type=int, default=2000, help="lobby sockets in all (the players' and guests')"
    )
    parser.add_argument("--visitors", type=int, default=20, help="other visitors timed")
    parser.add_argument("--game", default="proteus")
    parser.add_argument(
        "--lead",
        type=float,
        default=None,
        help="seconds from the arena's creation to its start: the joins, then the baseline "
        "window (default: 20 plus 40 ms a player)",
    )
    parser.add_argument(
        "--after", type=float, default=5.0, help="seconds the wave window lasts past its end"
    )
    parser.add_argument(
        "--py-spy",
        metavar="PATH",
        help="profile both servers with py-spy through the wave (collapsed stacks of the GIL's "
        "holder written to PATH.0 and PATH.1; needs py-spy on the PATH)",
    )
    args = parser.parse_args(argv)
    if args.lead is None:
        args.lead = 20 + 0.04 * args.players
    with ds.postgres(durable=True) as admin, ds.redis() as redis:
        db = ds.new_database(admin, f"crowdbench_{int(time.time())}")
        ports = [ds.free_port() for _ in range(2)]
        servers = [ds.start_server(port, bench_env(db, redis)) for port in ports]
        try:
            bases = [f"http://127.0.0.1:{p}" for p in ports]
            rows = asyncio.run(_crowd(bases, servers, args))
        finally:
            for process in servers:
                ds.stop_server(process)
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
