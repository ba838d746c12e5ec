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

With ``--plies N`` a bot to move at ply N or later resigns instead: shorter games, so two runs
(the games' own length and a short one) split a move's CPU into what each move costs and what
each game costs (made, started, ended, paired), which the bench's one ratio mixes.

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
SETUP = 4
"""Bots set up at once: the sign-ups come from one address, under its own ceilings."""


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
    plies: list[int] = field(default_factory=list)
    """Each game's length, once per bot that played it (what the floor's games last)."""
    line_sizes: list[int] = field(default_factory=list)
    """The length of each ``gameState`` line the bots read (what the floor pads its lines to)."""


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


async def _post(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """POST, waiting out a 429 as its Retry-After says: the bench sets its bots up from one
    address under the server's own per-address ceilings."""
    while True:
        try:
            answer = await http.post(url, **kwargs)
        except httpx.RemoteProtocolError:  # a kept-alive connection closed as it was reused
            continue
        if answer.status_code != 429:
            answer.raise_for_status()
            return answer
        await asyncio.sleep(float(answer.headers.get("retry-after", "1")))


async def _move(
    http: httpx.AsyncClient, url: str, ply: int, auth: dict[str, str]
) -> httpx.Response | None:
    """Send a move as ``boardplay bot`` does: with its ply, again if the connection was lost
    (a kept-alive connection the server closed just as it was reused); None when a move sent
    again finds the game past its ply (the first one was taken)."""
    for attempt in range(3):
        try:
            answer = await http.post(url, params={"ply": ply}, headers=auth)
        except httpx.TransportError:
            continue
        if attempt and answer.status_code == 409 and "stale" in answer.text:
            return None
        return answer
    raise RuntimeError(f"a move could not be sent three times: {url}")


async def _make_bot(http: httpx.AsyncClient, bases: Sequence[str], i: int) -> Bot:
    base = bases[i % len(bases)]
    name = f"bench_bot_{i}"
    signed = await _post(
        http, f"{base}/api/account/signup", json={"name": name, "password": PASSWORD}
    )
    cookie = {"Cookie": f"boardplay_session={signed.cookies['boardplay_session']}"}
    headers = {**cookie, "X-CSRF-Token": signed.json()["csrf"]}
    body = {"label": "bench", "scopes": ["bot:play", "tournament:write"]}
    made = await _post(http, f"{base}/api/account/tokens", json=body, headers=headers)
    token = made.json()["token"]
    await _post(
        http, f"{base}/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"}
    )
    return Bot(name, token, base, bases[(i + 1) % len(bases)])


async def _lines(
    http: httpx.AsyncClient, url: str, token: str, sizes: list[int] | None = None
) -> Any:
    """A stream's events; ``sizes`` given, each ``gameState`` line's length added to it."""
    async with http.stream("GET", url, headers={"Authorization": f"Bearer {token}"}) as answer:
        answer.raise_for_status()
        async for line in answer.aiter_lines():
            if line.strip():
                event = json.loads(line)
                if sizes is not None and event.get("type") == "gameState":
                    sizes.append(len(line))
                yield event


async def _play(
    http: httpx.AsyncClient,
    bot: Bot,
    game_id: str,
    tally: Tally,
    rng: random.Random,
    think: float = 0.0,
    plies: int | None = None,
) -> None:
    seats: list[int] = []
    sent: dict[int, float] = {}
    auth = {"Authorization": f"Bearer {bot.token}"}
    stream = f"{bot.home}/api/bot/game/stream/{game_id}"
    async for event in _lines(http, stream, bot.token, tally.line_sizes):
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
            tally.plies.append(event["ply"])
            bot.heard_end(game_id)
            tally.games += 1
            return
        if (
            event["turn"] in seats
            and event["legal"]
            and plies is not None
            and event["ply"] >= plies
        ):
            await _post(http, f"{bot.away}/api/bot/game/{game_id}/resign", headers=auth)
        elif event["turn"] in seats and event["legal"]:
            if think:
                await asyncio.sleep(think)
            move = quote(rng.choice(event["legal"]), safe="")
            sent[event["ply"] + 1] = time.monotonic()
            tally.posted[(game_id, event["ply"] + 1)] = (bot.name, sent[event["ply"] + 1])
            answer = await _move(
                http, f"{bot.away}/api/bot/game/{game_id}/move/{move}", event["ply"], auth
            )
            if answer is not None and answer.status_code != 200:
                tally.errors.append(
                    f"{answer.status_code} {answer.text[:120]} (game {game_id}, ply {event['ply']})"
                )


async def _run_bot(
    http: httpx.AsyncClient,
    bot: Bot,
    starts: float,
    tally: Tally,
    rng: random.Random,
    think: float = 0.0,
    plies: int | None = None,
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
                _play(http, bot, event["game"]["id"], tally, rng, think, plies)
            )
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    finally:  # the window closed: its games stop with it
        for task in list(tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def _load(
    bases: Sequence[str], servers: Sequence[Any], args: argparse.Namespace, server: str
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=None), limits=limits) as http:
        setting_up = asyncio.Semaphore(SETUP)

        async def make(i: int) -> Bot:
            async with setting_up:
                return await _make_bot(http, bases, i)

        bots = await asyncio.gather(*(make(i) for i in range(args.bots)))
        owner = await _post(
            http,
            f"{bases[0]}/api/account/signup",
            json={"name": "bench_owner", "password": PASSWORD},
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
        made = await _post(http, f"{bases[0]}/api/tournaments", json=body, headers=headers)
        http.cookies.clear()  # from here on the bots speak with their tokens alone
        arena = made.json()["tournament"]["id"]
        for bot in bots:
            await _post(
                http,
                f"{bot.home}/api/tournaments/{arena}/join",
                headers={"Authorization": f"Bearer {bot.token}"},
            )
        tally = Tally()
        rng = random.Random(1)
        # The arena's start on this clock (the joins took some of the lead: the window opens
        # at the start itself, not a lead after them).
        starts = time.monotonic() + (body["starts"] - time.time())
        runners = [
            asyncio.create_task(_run_bot(http, bot, starts, tally, rng, args.think, args.plies))
            for bot in bots
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
        "server": server,
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
        "plies_per_game": round(sum(tally.plies) / len(tally.plies), 1) if tally.plies else None,
        "line_chars": round(sum(tally.line_sizes) / len(tally.line_sizes))
        if tally.line_sizes
        else None,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:10],
    }


BOT_ENV = {
    "BOARDPLAY_WEB_AI_WORKERS": "0",
    # Setup only: 64 accounts signed up from one address. Every limit a bot meets while it
    # plays (per token, per address, games per visitor) is the server's default.
    "BOARDPLAY_WEB_SIGNUPS_PER_NETWORK": "1000000",
    "BOARDPLAY_WEB_SIGNIN_PER_ADDRESS": "1000000",
}


def run(
    admin: str, redis: str, args: argparse.Namespace, floor: dict[str, str] | None = None
) -> dict[str, Any]:
    """The bots against fresh servers: boardplay's, or with ``floor`` (its settings) the bot
    floor's (``botfloor.py``)."""
    server = "boardplay" if floor is None else "floor"
    db = ds.new_database(admin, f"botbench_{server}_{int(time.time())}")
    env = {"BOARDPLAY_DATABASE_URL": db, "BOARDPLAY_REDIS_URL": redis, **BOT_ENV, **(floor or {})}
    app = None if floor is None else "botfloor:app"
    ports = [ds.free_port() for _ in range(args.processes)]
    servers = [ds.start_server(port, env, app=app) for port in ports]
    try:
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        return asyncio.run(_load(bases, servers, args, server))
    finally:
        for process in servers:
            ds.stop_server(process)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=64)
    parser.add_argument("--minutes", type=int, default=1)
    parser.add_argument("--game", default="proteus")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=2)
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a bot waits before each move"
    )
    parser.add_argument(
        "--plies", type=int, default=None, help="a bot to move at this ply resigns (short games)"
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="then the same bots against the bot floor (botfloor.py): CPU per move as a multiple",
    )
    args = parser.parse_args(argv)
    if args.plies is not None and args.floor:
        parser.error("--plies is for the server alone: the floor has no resignation")
    print(json.dumps({"yardstick_ms": round(loadbench.yardstick(), 2)}))
    with ds.postgres(durable=True) as admin, ds.redis() as redis:
        row = run(admin, redis, args)
        if args.floor:
            same = {
                "BOARDPLAY_FLOOR_PLIES": str(round(row["plies_per_game"] or 20)),
                "BOARDPLAY_FLOOR_LINE": str(row["line_chars"] or 1500),
            }
            floor = run(admin, redis, args, same)
            print(json.dumps(floor))
            least, mine = floor["server_cpu_ms_per_move"], row["server_cpu_ms_per_move"]
            row["floor_cpu_ms_per_move"] = least
            row["times_floor"] = round(mine / least, 2) if mine and least else None
    print(json.dumps(row))


if __name__ == "__main__":
    main()
