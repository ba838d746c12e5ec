"""``make bench-web``: a bounded load generator on loopback, comparing one server process with two.

For each setup it starts fresh servers on a throwaway PostgreSQL (fsync on) with Redis between
them, opens ``--games`` hot-seat games at once and, for each, a player socket on one process and
a spectator socket on another (the same one with a single process). Every game then plays
moves as fast as its answers come (``--pace 0``, a closed loop: what the servers can take at
most) or after a think time of about ``--pace`` seconds (people playing): the player sends
``act`` over its socket and waits for the update that carries the move. It measures the move's
round trip at the player (send to update) and its arrival at the spectator on the other
process, moves per second overall, errors, and the servers' CPU time per move (all their work
while the window is open, read from ``/proc`` when it opens and when it closes, divided by the
moves that came back in it).
A finished game is replaced by a new one. With ``--accounts`` every table is a signed-in player:
it signs up (a password account) and signs in before the window opens, creates its games with
its session cookie and CSRF token, and its sockets carry the cookie; the sign-up and sign-in
latencies are reported too (argon2id is their cost). With ``--floor`` each setup is followed by
the same load on the floor server (``floorserver.py``: the same stack storing and relaying each
move with no game), and each row's CPU per move is also given as a multiple of the floor's, the
machine's own reference. The tables' sockets send no pings, as a browser's never do (the server
still pings them, as it pings every page). The run is bounded by ``--seconds`` per setup (and a
ceiling on moves); numbers are printed, never asserted: the machine may be shared."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import devservices as ds
import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

MAX_MOVES = 200_000
"""Upper bound on moves per setup, whatever ``--seconds`` says."""


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    spectator: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    elapsed: float = 0.0
    cpu: float = 0.0
    """CPU seconds the servers used while the window was open."""
    moves_in_window: int = 0
    """Moves whose update came back before the window closed (what ``cpu`` is divided by)."""
    sign_ups: list[float] = field(default_factory=list)
    sign_ins: list[float] = field(default_factory=list)
    quiet_sign_ins: list[float] = field(default_factory=list)


def bench_env(db: str, redis: str, **extra: str) -> dict[str, str]:
    """A bench server's settings: ``db`` and ``redis``, no AI workers, and the per-visitor
    ceilings out of the way (every simulated player comes from loopback: 200 tables signing in
    at once from one address were 8-41 sign-ins refused by the address's throttle, which
    counts each attempt before its check); ``extra`` besides."""
    return {
        "BOARDPLAY_DATABASE_URL": db,
        "BOARDPLAY_REDIS_URL": redis,
        "BOARDPLAY_WEB_AI_WORKERS": "0",
        "BOARDPLAY_WEB_RATE_PER_SECOND": "1000000",
        "BOARDPLAY_WEB_RATE_BURST": "1000000",
        "BOARDPLAY_WEB_GAMES_PER_VISITOR": "1000000",
        "BOARDPLAY_WEB_SIGNUPS_PER_NETWORK": "1000000",
        "BOARDPLAY_WEB_SIGNIN_PER_ADDRESS": "1000000",
        **extra,
    }


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _next_ply(socket: ClientConnection, ply: int, view: dict[str, Any]) -> dict[str, Any]:
    """Read ``socket`` until its view reaches ``ply`` (merging updates as the page does)."""
    while view.get("ply", -1) < ply:
        message = json.loads(await socket.recv())
        if message["type"] == "state":
            view = message["game"]
        elif message["type"] == "update":
            merged = {k: v for k, v in view.items() if k not in message["removed"]}
            merged.update(message["game"])
            moves = message["moves"]
            merged["moves"] = view["moves"][: moves["keep"]] + moves["add"]
            view = merged
        elif message["type"] == "error":
            raise RuntimeError(message["error"]["message"])
    return view


async def _one_table(
    http: httpx.AsyncClient,
    ports: Sequence[int],
    index: int,
    args: argparse.Namespace,
    ready: Gate,
    tally: Tally,
) -> None:
    """One table: a game after another until the window closes (a finished game is replaced by
    a new one, so the load stays at ``--games`` games)."""
    first = True
    session: dict[str, str] = {}
    if args.accounts:
        session = await _sign_in(http, ports[index % len(ports)], f"bench{index}", tally)
    while await _one_game(http, ports, index, args, ready, tally, first, session):
        first = False
        if time.monotonic() >= ready.window[1] or len(tally.round_trips) >= MAX_MOVES:
            return


async def _sign_in(http: httpx.AsyncClient, port: int, name: str, tally: Tally) -> dict[str, str]:
    """Sign up and then sign in as ``name``; the headers that carry the session after that."""
    base = f"http://127.0.0.1:{port}/api/account"
    body = {"name": name, "password": "bench password"}
    started = time.perf_counter()
    answer = await _post(http, f"{base}/signup", body)
    tally.sign_ups.append(time.perf_counter() - started)
    started = time.perf_counter()
    answer = await _post(http, f"{base}/signin", body)
    tally.sign_ins.append(time.perf_counter() - started)
    http.cookies.clear()  # one client serves every table: each sends its own cookie
    if answer.status_code != 200:
        tally.errors.append(f"sign-in: {answer.status_code} {answer.text[:80]}")
        return {}
    cookie = answer.cookies["boardplay_session"]
    return {"Cookie": f"boardplay_session={cookie}", "X-CSRF-Token": answer.json()["csrf"]}


async def _one_game(
    http: httpx.AsyncClient,
    ports: Sequence[int],
    index: int,
    args: argparse.Namespace,
    ready: Gate,
    tally: Tally,
    first: bool,
    session: dict[str, str],
) -> bool:
    """Set up one game and its two sockets (the first game of each table then waits for every
    table), then play until the window closes; True if the game came to its end."""
    mover_port = ports[index % len(ports)]
    watcher_port = ports[(index + 1) % len(ports)]
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    try:
        answer = await _create(http, mover_port, args.game, seats, session)
    except httpx.TransportError as exc:
        tally.errors.append(f"create: {exc!r}")
        if first:
            await ready.wait()
        return False
    if answer.status_code != 201:
        tally.errors.append(f"create: {answer.status_code} {answer.text[:80]}")
        if first:
            await ready.wait()
        return False
    created = answer.json()
    gid, token = created["id"], created["token"]
    tally.games += 1
    base = "ws://127.0.0.1:{}/api/games/" + gid + "/ws"
    pace = random.Random(index * 1_000_003 + tally.games)
    async with (
        connect(
            base.format(mover_port),
            max_size=None,
            open_timeout=60,
            ping_interval=None,
            additional_headers={"Cookie": session["Cookie"]} if session else None,
        ) as mover,
        connect(
            base.format(watcher_port), max_size=None, open_timeout=60, ping_interval=None
        ) as watcher,
    ):
        view = await _next_ply(mover, 0, {})
        seen = await _next_ply(watcher, 0, {})
        await mover.send(json.dumps({"type": "hello", "token": token, "words": args.words}))
        view = await _next_ply(mover, 0, {})
        if first:
            await ready.wait()
            # Paced tables start spread over one think time, not all in the same instant.
            await asyncio.sleep(pace.uniform(0, args.pace))
        while not view["terminal"] and time.monotonic() < ready.window[1]:
            if len(tally.round_trips) >= MAX_MOVES:
                return False
            ply = view["ply"]
            move = view["legal"][0]["id"]
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "act", "action": move, "ply": ply}))
            try:
                view = await asyncio.wait_for(_next_ply(mover, ply + 1, view), 10)
                tally.round_trips.append(time.perf_counter() - sent)
                seen = await asyncio.wait_for(_next_ply(watcher, ply + 1, seen), 10)
                tally.spectator.append(time.perf_counter() - sent)
            except (TimeoutError, RuntimeError, ConnectionClosed) as exc:
                tally.errors.append(f"move: {exc!r}")
                return False
            if args.pace:
                await asyncio.sleep(pace.uniform(0.5, 1.5) * args.pace)
        return bool(view["terminal"])


async def _create(
    http: httpx.AsyncClient,
    port: int,
    game: str,
    seats: list[dict[str, str]],
    session: dict[str, str],
) -> httpx.Response:
    return await _post(
        http, f"http://127.0.0.1:{port}/api/games", {"game": game, "seats": seats}, session
    )


async def _post(
    http: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> httpx.Response:
    """POST; once more on a connection the server closed as idle just as it was reused
    (keep-alive expiring between two requests of a table, as between sign-up and sign-in when
    every table signs up at once: the client's race, not a refusal)."""
    for attempt in range(2):
        try:
            return await http.post(url, json=body, headers=headers)
        except httpx.ReadError:
            if attempt:
                raise
    raise AssertionError("unreachable")


class Gate:
    """Holds every table until all are set up; the measured window opens when the last one is."""

    def __init__(self, parties: int, seconds: float) -> None:
        self.parties = parties
        self.seconds = seconds
        self.arrived = 0
        self.opened = asyncio.Event()
        self.window = (0.0, float("inf"))

    async def wait(self) -> None:
        self.arrived += 1
        if self.arrived == self.parties:
            now = time.monotonic()
            self.window = (now, now + self.seconds)
            self.opened.set()
            print(f"{self.parties} tables ready; measuring for {self.seconds:g} s", flush=True)
        await self.opened.wait()


async def _load(
    ports: Sequence[int],
    args: argparse.Namespace,
    cpu: Callable[[], float],
    spy: Callable[[], None],
) -> Tally:
    tally = Tally()
    gate = Gate(args.games, args.seconds)
    limits = httpx.Limits(max_connections=args.games * 2)
    opened = asyncio.get_running_loop().create_task(_at_opening(gate, cpu, spy))
    closed = asyncio.get_running_loop().create_task(_at_closing(gate, cpu, tally))
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        if args.accounts:  # what one sign-in costs on a quiet server, before the crowd
            quiet = Tally()
            for probe in range(10):
                await _sign_in(http, ports[0], f"probe{probe}", quiet)
            tally.quiet_sign_ins = quiet.sign_ins
        await asyncio.gather(
            *(_one_table(http, ports, i, args, gate, tally) for i in range(args.games))
        )
    tally.elapsed = min(time.monotonic(), gate.window[1]) - gate.window[0]
    tally.cpu = await closed - await opened
    return tally


async def _at_opening(gate: Gate, cpu: Callable[[], float], spy: Callable[[], None]) -> float:
    """The servers' CPU time when the measured window opens (and start the profiler then)."""
    await gate.opened.wait()
    spy()
    return cpu()


async def _at_closing(gate: Gate, cpu: Callable[[], float], tally: Tally) -> float:
    """The servers' CPU time when the window closes, and the moves back by then. Read at the
    close, not when the last table has left: a paced table sleeps up to 1.5 think times after
    its last move before it sees the window closed, and then its sockets close, so reading
    later would charge the moves with seconds of idle sockets and the goodbyes (at --pace 5,
    a third more time than the window's)."""
    await gate.opened.wait()
    await asyncio.sleep(max(0.0, gate.window[1] - time.monotonic()))
    tally.moves_in_window = len(tally.round_trips)
    return cpu()


def _spy_on(
    server: subprocess.Popen[bytes], path: str | None, seconds: float
) -> Callable[[], subprocess.Popen[bytes] | None]:
    """A starter of py-spy (``pip install py-spy``) sampling ``server`` for ``seconds`` into
    ``path`` as collapsed stacks (one line per stack and its sample count), or of nothing."""

    def start() -> subprocess.Popen[bytes] | None:
        if path is None:
            return None
        command = ["py-spy", "record", "--format", "raw", "--idle", "--threads"]
        command += ["-d", str(max(1, int(seconds))), "-o", path, "-p", str(server.pid)]
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    return start


def run_setup(
    admin: str, redis: str, processes: int, args: argparse.Namespace, floor: bool = False
) -> dict[str, Any]:
    """One setup: fresh servers (``floor``: the floor server, ``floorserver.py``, whose tables
    are never signed in) on a fresh database, the load, and the row of numbers."""
    if floor:
        args = argparse.Namespace(**{**vars(args), "accounts": False, "py_spy": None})
    db = ds.new_database(
        admin, f"bench_{'floor' if floor else 'server'}_{processes}_{int(time.time())}"
    )
    env = bench_env(db, redis, BOARDPLAY_WEB_RATED_FRESH_ACCOUNT="0.001")
    ports = [ds.free_port() for _ in range(processes)]
    app = "floorserver:app" if floor else None
    servers = [ds.start_server(port, env, app=app) for port in ports]
    spying: list[subprocess.Popen[bytes]] = []
    path = f"{args.py_spy}.{processes}" if args.py_spy else None
    start_spy = _spy_on(servers[0], path, args.seconds)

    def spy() -> None:
        started = start_spy()
        if started is not None:
            spying.append(started)

    try:
        tally = asyncio.run(
            _load(ports, args, lambda: sum(ds.cpu_seconds(server) for server in servers), spy)
        )
        elapsed = max(tally.elapsed, 1e-9)
        for profiler in spying:
            profiler.wait(timeout=60)
    finally:
        for server in servers:
            ds.stop_server(server)
    ms = [t * 1000 for t in tally.round_trips]
    spectator = [t * 1000 for t in tally.spectator]
    return {
        "server": "floor" if floor else "boardplay",
        "processes": processes,
        "games": args.games,
        "pace_s": args.pace,
        "moves": len(ms),
        "moves_per_s": round(len(ms) / elapsed, 1),
        "p50_ms": round(percentile(ms, 0.50), 1),
        "p95_ms": round(percentile(ms, 0.95), 1),
        "p99_ms": round(percentile(ms, 0.99), 1),
        "mean_ms": round(statistics.fmean(ms), 1) if ms else None,
        "spectator_p99_ms": round(percentile(spectator, 0.99), 1),
        "server_cpu_ms_per_move": (
            round(tally.cpu * 1000 / tally.moves_in_window, 2) if tally.moves_in_window else None
        ),
        "server_cpu_ms_per_s": round(tally.cpu * 1000 / elapsed, 1),
        "errors": len(tally.errors),
        "first_errors": tally.errors[:3],
        "games_played": tally.games,
        "accounts": bool(args.accounts),
        "sign_up_ms_p50_p99": _spread(tally.sign_ups),
        "sign_in_ms_p50_p99": _spread(tally.sign_ins),
        "quiet_sign_in_ms_p50_p99": _spread(tally.quiet_sign_ins),
    }


def _against_floor(rows: list[dict[str, Any]]) -> None:
    """Give each server row its CPU per move as a multiple of the floor row that ran right
    after it (same processes, same load), the machine's own reference for what a move costs."""
    for row, floor in zip(rows[::2], rows[1::2], strict=True):
        mine, least = row["server_cpu_ms_per_move"], floor["server_cpu_ms_per_move"]
        row["times_floor"] = round(mine / least, 2) if mine and least else None


def yardstick() -> float:
    """Milliseconds of CPU a fixed pure-Python workload takes here (the best of five): what the
    same server code costs per move swings with the machine (one kind of machine here ran it
    twice as fast as another), so each run prints this beside its rows, and rows of two runs
    compare once divided by it. The workload is the standard library's alone, never this
    project's code, so it does not move when the server does."""
    document = {"moves": [{"ply": i, "move": f"t{i % 7}", "player": i % 2} for i in range(60)]}
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for _ in range(300):
            text = json.dumps(document)
            total = sum(m["ply"] for m in json.loads(text)["moves"])
            assert total == 1770
        best = min(best, time.process_time() - started)
    return best * 1000


def _spread(seconds: Sequence[float]) -> list[float] | None:
    if not seconds:
        return None
    ms = [s * 1000 for s in seconds]
    return [round(percentile(ms, 0.5), 1), round(percentile(ms, 0.99), 1)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=10, help="length of each setup's run")
    parser.add_argument("--game", default="potlatch", help="game played (default potlatch)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="mean think time in seconds between a table's moves (0: move again at once, a "
        "closed loop that measures the most the servers can take)",
    )
    parser.add_argument(
        "--py-spy",
        metavar="PATH",
        help="profile the first server with py-spy while measuring (collapsed stacks written "
        "to PATH.<processes>; needs py-spy on the PATH)",
    )
    parser.add_argument(
        "--accounts",
        action="store_true",
        help="every table is a signed-in player (sign-up and sign-in timed before the window)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="after each setup, run the same load against the floor server (floorserver.py: "
        "the same stack storing and relaying each move with no game) and print each row's CPU "
        "per move as a multiple of the floor's",
    )
    parser.add_argument(
        "--words",
        action="store_true",
        help="every table's socket asks for the legal moves' words, as a browser page does "
        "(by default the tables are bots that act by id)",
    )

    args = parser.parse_args(argv)
    before = yardstick()
    with ds.postgres(durable=True) as admin, ds.redis() as redis:
        rows = []
        for n in args.processes:
            rows.append(run_setup(admin, redis, n, args))
            if args.floor:
                rows.append(run_setup(admin, redis, n, args, floor=True))
    if args.floor:
        _against_floor(rows)
    stick = min(before, yardstick())
    print(f"yardstick: {stick:.1f} ms of CPU for a fixed pure-Python workload on this machine")
    print(
        f"{'server':>9} {'processes':>9} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'spect p99':>9} {'moves':>7} {'errors':>6} {'cpu ms/move':>11}"
        + (f" {'x floor':>7}" if args.floor else "")
    )
    for row in rows:
        print(
            f"{row['server']:>9} {row['processes']:>9} {row['moves_per_s']:>8} "
            f"{row['p50_ms']:>7} {row['p95_ms']:>7} {row['p99_ms']:>7} "
            f"{row['spectator_p99_ms']:>9} {row['moves']:>7} {row['errors']:>6} "
            f"{row['server_cpu_ms_per_move']:>11}"
            + (f" {row.get('times_floor') or '':>7}" if args.floor else "")
        )
        for error in row["first_errors"]:
            print(f"{'':>9} error: {error[:160]}")
        if row["accounts"]:
            print(
                f"{'':>9} sign-up ms p50/p99 {row['sign_up_ms_p50_p99']}, "
                f"sign-in ms p50/p99 {row['sign_in_ms_p50_p99']} (all tables at once); "
                f"one sign-in alone {row['quiet_sign_in_ms_p50_p99']}"
            )
    for row in rows:
        row["yardstick_ms"] = round(stick, 1)
    with contextlib.suppress(Exception):
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
