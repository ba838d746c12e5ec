"""``make bench-web``'s bot row: ``--bots`` bot accounts in an arena on two server processes over
a throwaway PostgreSQL (fsync on) with Redis between them, each playing through the Bot API as a
program would (docs/bots.md); ``--processes 1``: on one process.

Every bot signs up, makes a token, becomes a bot and joins the arena before it starts; then it
reads its event stream on one process (bot i on process i % 2), opens each game's stream there
when ``gameStart`` comes, and sends its moves (a random legal one, at once or ``--think``
seconds after its turn comes: the latency a bot meets, not the most moves the servers take) to
the *other*
process, so every move crosses between the processes (with one process, everything goes to
it). It measures, from the bot's side:

- **pairing latency**: from the end of a bot's game, as the bot first hears of it (the final
  ``gameState`` on the game's stream or ``gameFinish`` on the event stream, whichever comes
  first), to the ``gameStart`` of its next one (the arena pairs a player as soon as it is free;
  a ``gameStart`` heard before the end it follows counts as no wait), and from the arena's start
  to each bot's first game. Reckoned per game after the run: a bot's streams are two
  connections, and a next game's ``gameStart`` can come before the last ``gameState`` of the
  one whose end freed the bot (an earlier reckoning kept one "last end" per bot and, so, timed
  such a pairing from the end of the game before: the 6-24 s p99s it printed were that);
- **move latency**: from sending a move to the ``gameState`` that carries it, on the mover's
  own game stream and (``opponent_…``) on its opponent's, where the opponent learns it is to
  move;
- **CPU per move**: all the servers' CPU time while the window is open (``/proc``), divided by
  the moves made in it; and, with ``--floor``, the same load of ``loadbench.py`` on the floor
  server (``floorserver.py``, as many processes: the same stack storing and relaying each move
  with no game), whose CPU per move is the machine's own reference: the row gives both and
  their ratio.

The run lasts the arena's ``--minutes``; numbers are printed, never asserted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import devservices as ds
import httpx
import loadbench
from loadbench import percentile

PASSWORD = "a bench password"


@dataclass
class Tally:
    pairings: list[float] = field(default_factory=list)
    first_pairings: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    opponent_moves: list[float] = field(default_factory=list)
    posted: dict[tuple[str, int], tuple[str, float]] = field(default_factory=dict)
    """Moves sent and not yet seen by the opponent: (game, ply) → (the mover, when sent)."""
    games: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class Bot:
    name: str
    token: str
    home: str
    away: str
    games: list[str] = field(default_factory=list)
    """Its games in the order their ``gameStart`` came."""
    started: dict[str, float] = field(default_factory=dict)
    ended: dict[str, float] = field(default_factory=dict)
    """When the bot first heard that each game ended (monotonic)."""

    def heard_end(self, game_id: str) -> None:
        self.ended.setdefault(game_id, time.monotonic())

    def waits(self) -> tuple[list[float], int]:
        """The waits from each game's end to the next game's start, and how many of those
        starts came before the end was heard (counted as no wait)."""
        waits, early = [], 0
        for before, after in zip(self.games, self.games[1:], strict=False):
            if before not in self.ended or after not in self.started:
                continue
            wait = self.started[after] - self.ended[before]
            early += wait < 0
            waits.append(max(0.0, wait))
        return waits, early


async def _make_bot(http: httpx.AsyncClient, bases: Sequence[str], i: int) -> Bot:
    base = bases[i % len(bases)]
    name = f"bench_bot_{i}"
    signed = await http.post(
        f"{base}/api/account/signup", json={"name": name, "password": PASSWORD}
    )
    signed.raise_for_status()
    cookie = {"Cookie": f"boardplay_session={signed.cookies['boardplay_session']}"}
    headers = {**cookie, "X-CSRF-Token": signed.json()["csrf"]}
    body = {"label": "bench", "scopes": ["bot:play", "tournament:write"]}
    made = await http.post(f"{base}/api/account/tokens", json=body, headers=headers)
    made.raise_for_status()
    token = made.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    (await http.post(f"{base}/api/bot/account/upgrade", headers=auth)).raise_for_status()
    return Bot(name, token, base, bases[(i + 1) % len(bases)])


async def _lines(http: httpx.AsyncClient, url: str, token: str) -> Any:
    async with http.stream("GET", url, headers={"Authorization": f"Bearer {token}"}) as answer:
        answer.raise_for_status()
        async for line in answer.aiter_lines():
            if line.strip():
                yield json.loads(line)


async def _play(
    http: httpx.AsyncClient,
    bot: Bot,
    game_id: str,
    tally: Tally,
    rng: random.Random,
    think: float = 0.0,
) -> None:
    seats: list[int] = []
    sent: dict[int, float] = {}
    auth = {"Authorization": f"Bearer {bot.token}"}
    async for event in _lines(http, f"{bot.home}/api/bot/game/stream/{game_id}", bot.token):
        if event["type"] == "gameFull":
            seats, event = event["yourSeats"], event["state"]
        if event["type"] != "gameState":
            continue
        if event["ply"] in sent:
            tally.moves.append(time.monotonic() - sent.pop(event["ply"]))
        mover, at = tally.posted.get((game_id, event["ply"]), (bot.name, 0.0))
        if mover != bot.name:
            tally.opponent_moves.append(time.monotonic() - at)
            del tally.posted[(game_id, event["ply"])]
        if event["status"] != "started":
            bot.heard_end(game_id)
            tally.games += 1
            return
        if event["turn"] in seats and event["legal"]:
            if think:
                await asyncio.sleep(think)
            move = quote(rng.choice(event["legal"]), safe="")
            sent[event["ply"] + 1] = time.monotonic()
            tally.posted[(game_id, event["ply"] + 1)] = (bot.name, sent[event["ply"] + 1])
            answer = await http.post(f"{bot.away}/api/bot/game/{game_id}/move/{move}", headers=auth)
            if answer.status_code != 200:
                tally.errors.append(f"{answer.status_code} {answer.text[:120]}")


async def _run_bot(
    http: httpx.AsyncClient,
    bot: Bot,
    starts: float,
    tally: Tally,
    rng: random.Random,
    think: float = 0.0,
) -> None:
    playing: set[str] = set()
    tasks: set[asyncio.Task[None]] = set()
    try:
        async for event in _lines(http, f"{bot.home}/api/stream/event", bot.token):
            if event["type"] == "gameFinish":
                bot.heard_end(event["game"]["id"])
            if event["type"] != "gameStart" or event["game"]["id"] in playing:
                continue
            now = time.monotonic()
            if not bot.games:
                tally.first_pairings.append(now - starts)
            bot.games.append(event["game"]["id"])
            bot.started[event["game"]["id"]] = now
            playing.add(event["game"]["id"])
            task = asyncio.get_running_loop().create_task(
                _play(http, bot, event["game"]["id"], tally, rng, think)
            )
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    finally:  # the window closed: its games stop with it
        for task in list(tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def _load(
    bases: Sequence[str], servers: Sequence[Any], args: argparse.Namespace
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=None), limits=limits) as http:
        bots = await asyncio.gather(*(_make_bot(http, bases, i) for i in range(args.bots)))
        owner = await http.post(
            f"{bases[0]}/api/account/signup", json={"name": "bench_owner", "password": PASSWORD}
        )
        headers = {
            "Cookie": f"boardplay_session={owner.cookies['boardplay_session']}",
            "X-CSRF-Token": owner.json()["csrf"],
        }
        lead = 8.0
        body = {
            "name": "Bench arena",
            "kind": "arena",
            "game": args.game,
            "clock": {"base": 60, "increment": 1},
            "bots": True,
            "starts": time.time() + lead,
            "minutes": args.minutes,
        }
        made = await http.post(f"{bases[0]}/api/tournaments", json=body, headers=headers)
        made.raise_for_status()
        http.cookies.clear()  # from here on the bots speak with their tokens alone
        arena = made.json()["tournament"]["id"]
        for bot in bots:
            joined = await http.post(
                f"{bot.home}/api/tournaments/{arena}/join",
                headers={"Authorization": f"Bearer {bot.token}"},
            )
            assert joined.status_code == 200, joined.text
        tally = Tally()
        rng = random.Random(1)
        # The arena's start on this clock (the joins took some of the lead: the window opens
        # at the start itself, not a lead after them).
        starts = time.monotonic() + (body["starts"] - time.time())
        runners = [
            asyncio.create_task(_run_bot(http, bot, starts, tally, rng, args.think)) for bot in bots
        ]
        await asyncio.sleep(max(0.0, starts - time.monotonic()))
        cpu_before, moves_before = sum(ds.cpu_seconds(s) for s in servers), len(tally.moves)
        window = time.monotonic()
        await asyncio.sleep(args.minutes * 60)
        cpu = sum(ds.cpu_seconds(s) for s in servers) - cpu_before
        elapsed = time.monotonic() - window
        moved = len(tally.moves) - moves_before
        for runner in runners:
            runner.cancel()
        for runner in runners:
            with contextlib.suppress(BaseException):
                await runner
    early = 0
    for bot in bots:
        waits, before_end = bot.waits()
        tally.pairings += waits
        early += before_end
    ms = [t * 1000 for t in tally.pairings]
    first = [t * 1000 for t in tally.first_pairings]
    move_ms = [t * 1000 for t in tally.moves]
    opponent_ms = [t * 1000 for t in tally.opponent_moves]
    return {
        "server": "boardplay",
        "processes": len(bases),
        "bots": args.bots,
        "game": args.game,
        "minutes": args.minutes,
        "think_s": args.think,
        "games_played": tally.games,
        "moves": len(move_ms),
        "moves_per_s": round(moved / max(elapsed, 1e-9), 1),
        "pairing_p50_ms": round(percentile(ms, 0.50), 1),
        "pairing_p99_ms": round(percentile(ms, 0.99), 1),
        "pairing_max_ms": round(max(ms, default=0.0), 1),
        "pairings": len(ms),
        "paired_before_end_heard": early,
        "first_pairing_p99_ms": round(percentile(first, 0.99), 1),
        "move_p50_ms": round(percentile(move_ms, 0.50), 1),
        "move_p99_ms": round(percentile(move_ms, 0.99), 1),
        "opponent_p50_ms": round(percentile(opponent_ms, 0.50), 1),
        "opponent_p99_ms": round(percentile(opponent_ms, 0.99), 1),
        "server_cpu_ms_per_move": round(cpu * 1000 / moved, 2) if moved else None,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:3],
    }


def run(admin: str, redis: str, args: argparse.Namespace) -> dict[str, Any]:
    db = ds.new_database(admin, f"botbench_{int(time.time())}")
    env = loadbench.bench_env(db, redis, BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE="1000000")
    ports = [ds.free_port() for _ in range(args.processes)]
    servers = [ds.start_server(port, env) for port in ports]
    try:
        return asyncio.run(_load([f"http://127.0.0.1:{p}" for p in ports], servers, args))
    finally:
        for server in servers:
            ds.stop_server(server)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=64)
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--game", default="proteus")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=2)
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a bot waits before each move"
    )
    parser.add_argument("--floor", action="store_true", help="also the floor's CPU per move")
    args = parser.parse_args(argv)
    print(json.dumps({"yardstick_ms": round(loadbench.yardstick(), 2)}))
    with ds.postgres(durable=True) as admin, ds.redis() as redis:
        row = run(admin, redis, args)
        if args.floor:
            floor_args = argparse.Namespace(
                games=args.bots // 2,
                seconds=20,
                pace=0.0,
                accounts=False,
                py_spy=None,
                words=False,
                game="potlatch",
            )
            floor = loadbench.run_setup(admin, redis, args.processes, floor_args, floor=True)
            least = floor["server_cpu_ms_per_move"]
            row["floor_cpu_ms_per_move"] = least
            mine = row["server_cpu_ms_per_move"]
            row["times_floor"] = round(mine / least, 2) if mine and least else None
    print(json.dumps(row))


if __name__ == "__main__":
    main()
