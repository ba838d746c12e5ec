"""Tournaments of bots on two real server processes over PostgreSQL with Redis between them
(issue 49's acceptance), every bot playing through the Bot API (``botplay.py``): reading its
events and game streams on one process and moving through the other.

- A Swiss of 8 bots over 3 rounds, one bot withdrawing in round 1 (so rounds 2 and 3 give a
  bye), one process killed with SIGKILL during round 2 while the bots go on through the other:
  every round paired once, nobody twice in a round, no pair repeated, no second bye, and the
  standings with their tie-breaks equal to a computation of this file's own from the games'
  results read over the API.
- An arena of 6 bots for 2 minutes (soak): each bot paired again soon after each game, never
  against the opponent of its last game, and every bot's points and sheet equal to this
  file's own reckoning of lichess's arena points (2 a win, 1 a draw, doubled on fire)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import botplay as bp
import devservices as ds
import pytest
import sqlalchemy as sa
import test_web_tournament_montana as montana
from test_web_multi import Cluster, fresh_database, server_env

from boardplay.web.table.schema import games_table

CLOCK = {"base": 60, "increment": 1}
_runs = itertools.count()


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    env = server_env(
        fresh_database(postgres_url), redis_url, BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE="100000"
    )
    made = Cluster(env, 2)
    try:
        yield made
    finally:
        made.stop()


def with_logs(cluster: Cluster, scenario: Any) -> Any:
    """Run ``scenario(cluster, bots)``; if it fails, print the servers' logs (those still open)
    and what each bot in ``bots`` saw."""
    bots: list[bp.Bot] = []
    try:
        return asyncio.run(scenario(cluster, bots))
    except BaseException:
        for process in cluster.processes:
            with contextlib.suppress(Exception):
                print(f"----- server {process.pid}:\n{ds.server_log(process)[-20000:]}")
        for bot in bots:
            print(
                f"----- {bot.name}: games {bot.games}, ended {sorted(bot.ended)}, moves "
                f"{bot.moves}, refused {bot.refused[-5:]}, troubles {bot.troubles[-5:]}, "
                f"faults {bot.faults}"
            )
        raise


def prefix() -> str:
    return f"r{next(_runs)}{int(time.time()) % 100000}"


# ----- the Swiss --------------------------------------------------------------------------------
def swiss_reckoning(
    rounds: list[dict[str, Any]], results: dict[str, dict[str, int]], seeds: list[str]
) -> list[dict[str, Any]]:
    """The standings as docs/tournaments.md defines them, from the rounds' tables and byes and
    each game's result: 1 a win, ½ a draw, 1 a bye; Buchholz the sum of the final points of
    every opponent met; Sonneborn–Berger those of the opponents beaten plus half those drawn
    with; a bye adds to neither; ranked by points, Buchholz, Sonneborn–Berger, seed."""
    halves = dict.fromkeys(seeds, 0)
    met: dict[str, list[tuple[str, int]]] = {name: [] for name in seeds}
    byes = dict.fromkeys(seeds, 0)
    for entry in rounds:
        for table in entry["tables"]:
            got = results[table["game"]]
            a, b = table["players"]
            halves[a] += got[a]
            halves[b] += got[b]
            met[a].append((b, got[a]))
            met[b].append((a, got[b]))
        for name in entry["byes"]:
            halves[name] += 2
            byes[name] += 1
    lines = []
    for name in seeds:
        buchholz = sum(halves[other] for other, _ in met[name]) / 2
        berger = sum(halves[other] * mine / 2 for other, mine in met[name]) / 2
        lines.append(
            {
                "name": name,
                "points": halves[name] / 2,
                "buchholz": buchholz,
                "sonneborn_berger": berger,
                "byes": byes[name],
                "games": len(met[name]),
            }
        )
    return sorted(
        lines,
        key=lambda x: (
            -x["points"],
            -x["buchholz"],
            -x["sonneborn_berger"],
            seeds.index(x["name"]),
        ),
    )


async def entered(
    http: Any,
    cluster: Cluster,
    seen_bots: list[bp.Bot],
    letter: str,
    count: int,
    body: dict[str, Any],
    lead: float = 3.0,
) -> tuple[list[bp.Bot], str]:
    """``count`` new bot accounts (named with ``letter``) entered one by one (the seeds follow
    the order of joining) in a tournament of ``body`` that a person makes on the first process,
    starting ``lead`` seconds after it is made; the bots and the tournament's id."""
    first = cluster.base[0]
    tag = prefix()
    bots = await asyncio.gather(
        *(bp.make_bot(http, cluster.base, i, f"{tag}{letter}{i}") for i in range(count))
    )
    seen_bots.extend(bots)
    owner = await bp.sign_up(http, first, f"{tag}owner")
    made = {**body, "starts": time.time() + lead}
    tournament_id = await bp.create_tournament(http, first, owner, made)
    http.cookies.clear()
    for bot in bots:
        await bp.join(http, bot, tournament_id)
    return bots, tournament_id


async def finished(http: Any, base: str, tournament_id: str, seconds: float, what: str) -> Any:
    """The tournament's view once it has finished, looked at every half second."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, f"the {what} never finished"
        seen = await bp.view(http, base, tournament_id)
        if seen["tournament"]["status"] == "finished":
            return seen
        await asyncio.sleep(0.5)


async def stopped(runners: list[asyncio.Task[Any]]) -> None:
    """The bots' tasks cancelled and awaited."""
    for runner in runners:
        runner.cancel()
    for runner in runners:
        with contextlib.suppress(BaseException):
            await runner


async def _swiss(cluster: Cluster, seen_bots: list[bp.Bot]) -> dict[str, Any]:
    second = cluster.base[1]
    async with bp.client() as http:
        body = {"name": "Bots' Swiss", "kind": "swiss", "game": "tiny", "clock": CLOCK}
        body |= {"bots": True, "rounds": 3}
        bots, tournament_id = await entered(http, cluster, seen_bots, "b", 8, body)
        quitter = bots[-1]

        async def withdraw(bot: bp.Bot, _game_id: str) -> None:
            """The last bot withdraws in round 1, its game in play (and plays it out)."""
            if len(bot.games) == 1:
                gone = await http.post(
                    f"{bot.home}/api/tournaments/{tournament_id}/withdraw", headers=bot.auth
                )
                assert gone.status_code == 200, gone.text

        quitter.on_start = withdraw
        rng = random.Random(49)
        runners = [asyncio.create_task(bp.run(http, bot, rng, think=0.25)) for bot in bots]
        killed_at: dict[str, Any] = {}
        try:
            start = time.monotonic()
            deadline = start + 150  # a no-show holds its table up to the arrival grace (20 s)
            views: list[Any] = []
            trace: list[tuple[float, ...]] = []  # (seconds in, what a look saw), for a failure
            while True:  # round 2 paired and its games in play: process 0 dies
                assert time.monotonic() < deadline, f"round 2 never came: {trace[-20:]}"
                asked = time.monotonic()
                seen = await bp.view(http, second, tournament_id)
                took = time.monotonic() - asked
                trace.append((round(asked - start, 2), round(took, 2), len(seen["rounds"])))
                if len(seen["rounds"]) >= 2:
                    break
                await asyncio.sleep(0.05)
            while True:  # ... with moves played in its games, and games still in play
                assert time.monotonic() < deadline, f"round 2's games never began: {trace[-20:]}"
                seen = await bp.view(http, second, tournament_id)
                views = []
                for table in seen["rounds"][1]["tables"]:  # a game not made yet is a 404
                    answer = await http.get(f"{second}/api/games/{table['game']}")
                    trace.append((round(time.monotonic() - start, 2), answer.status_code))
                    if answer.status_code == 200:
                        views.append(answer.json())
                if any(v["ply"] >= 3 for v in views):
                    break
                await asyncio.sleep(0.05)
            ds.stop_server(cluster.processes[0], signal.SIGKILL)
            killed_at = {
                "round": len(seen["rounds"]),
                "ended": sum(len(bot.ended) for bot in bots),
                "in_play": sum(not v["terminal"] for v in views),
            }
            while True:
                assert time.monotonic() < deadline, "the Swiss never finished"
                seen = await bp.view(http, second, tournament_id)
                if seen["tournament"]["status"] == "finished":
                    break
                await asyncio.sleep(0.2)
        finally:
            await stopped(runners)
        games = {
            table["game"]: await bp.game(http, second, table["game"])
            for entry in seen["rounds"]
            for table in entry["tables"]
        }
    return {
        "view": seen,
        "games": games,
        "bots": bots,
        "quitter": quitter.name,
        "killed_at": killed_at,
        "tournament": tournament_id,
    }


def test_a_swiss_of_eight_bots_on_two_processes_one_killed_in_round_two(
    cluster: Cluster,
) -> None:
    began = time.monotonic()
    run = with_logs(cluster, _swiss)
    view, games, bots = run["view"], run["games"], run["bots"]
    faults = [f for bot in bots for f in bot.faults]
    assert not faults, faults  # every game stream began with the game whole
    seeds = [bot.name for bot in bots]
    assert run["killed_at"]["round"] == 2  # killed in round 2, before round 3 was paired
    assert run["killed_at"]["in_play"] > 0  # with round 2's games in play
    rounds = view["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3]  # each round paired, once
    pairs: set[frozenset[str]] = set()
    byes: list[str] = []
    for entry in rounds:
        seated = [name for table in entry["tables"] for name in table["players"]]
        everyone = seated + entry["byes"]
        assert len(everyone) == len(set(everyone))  # nobody twice in a round
        expected = set(seeds) if entry["round"] == 1 else set(seeds) - {run["quitter"]}
        assert set(everyone) == expected  # the withdrawn bot is paired no more
        assert len(entry["byes"]) == len(expected) % 2
        byes += entry["byes"]
        for table in entry["tables"]:
            pair = frozenset(table["players"])
            assert pair not in pairs, f"{sorted(pair)} met twice"
            pairs.add(pair)
    assert len(byes) == 2 and len(set(byes)) == 2  # a bye in rounds 2 and 3, never twice
    game_ids = [t["game"] for r in rounds for t in r["tables"]]
    assert len(game_ids) == len(set(game_ids)) == 4 + 3 + 3
    engine = sa.create_engine(cluster.env["BOARDPLAY_DATABASE_URL"])
    try:
        with engine.connect() as conn:  # each pairing's game made once, across the processes
            made = conn.execute(sa.select(games_table.c.id)).scalars().all()
    finally:
        engine.dispose()
    assert sorted(made) == sorted(game_ids)
    results = {}
    for game_id, game in games.items():
        assert game["terminal"], game_id
        results[game_id] = bp.halves_of(game)
        table = next(t for r in rounds for t in r["tables"] if t["game"] == game_id)
        assert [s["name"] for s in game["seats"]] == table["players"]
        assert table["places"] is not None
    mine = swiss_reckoning(rounds, results, seeds)
    theirs = [
        {k: line[k] for k in ("name", "points", "buchholz", "sonneborn_berger", "byes", "games")}
        for line in view["standings"]
    ]
    assert theirs == mine
    assert [line["rank"] for line in view["standings"]] == list(range(1, 9))
    failed = [r for bot in bots for r in bot.refused if r.startswith("5")]
    assert not failed, failed  # a move may meet a state that moved on, never a server fault
    stalls = [t for bot in bots for t in bot.troubles if "Timeout" in t]
    moved_on = [bot for bot in bots if bot.failovers]
    assert moved_on  # the bots at home on the killed process went on through the other
    print(
        f"swiss: {time.monotonic() - began:.1f} s, {sum(b.moves for b in bots)} moves, "
        f"{len(moved_on)} bots failed over, killed after {run['killed_at']['ended']} game ends "
        f"with {run['killed_at']['in_play']} of round 2's games in play; stalls {stalls}"
    )


# ----- the arena --------------------------------------------------------------------------------
def arena_reckoning(results: list[int]) -> tuple[int, str, bool]:
    """A player's points, sheet and fire from their results in order (half-points: 2 a win, 1 a
    draw), as docs/tournaments.md words lichess's arena: a win 2, a draw 1, a loss 0; after two
    wins in a row a win is 4 and a draw 2, until a game that is not a win."""
    points, sheet, wins_in_a_row = 0, "", 0
    for halves in results:
        doubled = wins_in_a_row >= 2
        if halves == 2:
            points += 4 if doubled else 2
            sheet += "w" if doubled else "W"
            wins_in_a_row += 1
        elif halves == 1:
            points += 2 if doubled else 1
            sheet += "d" if doubled else "D"
            wins_in_a_row = 0
        else:
            sheet += "L"
            wins_in_a_row = 0
    return points, sheet, wins_in_a_row >= 2


ARENA_MINUTES = 2


async def _arena(cluster: Cluster, seen_bots: list[bp.Bot]) -> dict[str, Any]:
    second = cluster.base[1]
    lead = 3.0
    async with bp.client() as http:
        body = {"name": "Bots' arena", "kind": "arena", "game": "tiny", "clock": CLOCK}
        body |= {"bots": True, "minutes": ARENA_MINUTES}
        bots, tournament_id = await entered(http, cluster, seen_bots, "a", 6, body, lead)
        rng = random.Random(6)
        runners = [asyncio.create_task(bp.run(http, bot, rng, think=0.05)) for bot in bots]
        try:
            await asyncio.sleep(lead + ARENA_MINUTES * 60)
            seen = await finished(http, second, tournament_id, 60, "arena")
        finally:
            await stopped(runners)
        ids = {t["game"] for r in seen["rounds"] for t in r["tables"]}
        games = {game_id: await bp.game(http, second, game_id) for game_id in ids}
    return {"view": seen, "games": games, "bots": bots}


@pytest.mark.soak
def test_an_arena_of_six_bots_for_two_minutes(cluster: Cluster) -> None:
    run = with_logs(cluster, _arena)
    view, games, bots = run["view"], run["games"], run["bots"]
    faults = [f for bot in bots for f in bot.faults]
    assert not faults, faults  # every game stream began with the game whole
    lines = {line["name"]: line for line in view["standings"]}
    gaps: list[float] = []
    for bot in bots:
        assert set(bot.games) <= set(games)
        assert len(bot.games) == len(set(bot.games)) == lines[bot.name]["games"]
        opponents = []
        results = []
        for game_id in bot.games:
            game = games[game_id]
            assert game["terminal"], game_id
            (opponent,) = [s["name"] for s in game["seats"] if s["name"] != bot.name]
            opponents.append(opponent)
            results.append(bp.halves_of(game)[bot.name])
        rematches = [i for i in range(1, len(opponents)) if opponents[i] == opponents[i - 1]]
        assert not rematches, f"{bot.name} met {opponents[rematches[0]]} twice in a row"
        points, sheet, fire = arena_reckoning(results)
        line = lines[bot.name]
        assert (line["points"], line["sheet"], line["fire"]) == (points, sheet, fire), bot.name
        assert line["wins"] == sheet.upper().count("W")
        for before, after in itertools.pairwise(bot.games):
            gaps.append(bot.started[after] - bot.ended[before])
    every = sum(len(bot.games) for bot in bots)
    assert every == 2 * len(games)
    assert len(games) >= 6 * ARENA_MINUTES * 10  # many waves, not a handful
    gaps.sort()
    median, worst = gaps[len(gaps) // 2], gaps[-1]
    # Free players are paired as soon as their game's end is followed (no tick waited for):
    # the usual wait is a fraction of a second; the longest, a bot whose only free partner
    # was its last opponent, lasts until another game ends.
    failed = [r for bot in bots for r in bot.refused if r.startswith("5")]
    assert not failed, failed
    assert median < 1.0, gaps
    assert worst < 10.0, gaps
    print(
        f"arena: {len(games)} games, {sum(b.moves for b in bots)} moves, pairing gap median "
        f"{median * 1000:.0f} ms, p90 {gaps[int(len(gaps) * 0.9)] * 1000:.0f} ms, "
        f"worst {worst * 1000:.0f} ms"
    )


# ----- Montana pods ------------------------------------------------------------------------------
async def _montana(cluster: Cluster, seen_bots: list[bp.Bot]) -> dict[str, Any]:
    second = cluster.base[1]
    async with bp.client() as http:
        body = {
            "name": "Bots' Montana",
            "kind": "pods",
            "game": "montana",
            "options": {"players": 4},
            "sizes": [4],
            "clock": {"base": 600, "increment": 5},
            "bots": True,
            "rounds": MONTANA_ROUNDS,
        }
        bots, tournament_id = await entered(http, cluster, seen_bots, "m", 4, body)
        rng = random.Random(4)
        runners = [asyncio.create_task(bp.run(http, bot, rng)) for bot in bots]
        try:
            seen = await finished(http, second, tournament_id, 400, "Montana pods")
        finally:
            await stopped(runners)
        games = [
            await bp.game(http, second, entry["tables"][0]["game"]) for entry in seen["rounds"]
        ]
    return {"view": seen, "games": games, "bots": bots}


MONTANA_ROUNDS = 4


@pytest.mark.soak
def test_a_montana_round_robin_of_four_bots_over_the_bot_api(
    postgres_url: str, redis_url: str
) -> None:
    """Four bots play a pods round-robin of real Montana games of four through the Bot API on
    two processes (the real catalogue): one table every round, seats a Latin square, points by
    place and tie-breaks as ``test_web_tournament_montana`` reckons them."""
    env = server_env(
        fresh_database(postgres_url),
        redis_url,
        BOARDPLAY_WEB_API_REQUESTS_PER_MINUTE="100000",
        BOARDPLAY_WEB_CATALOGUE="boardplay.web.catalogue:REGISTRY",
    )
    cluster = Cluster(env, 2)
    try:
        run = with_logs(cluster, _montana)
    finally:
        cluster.stop()
    view, games, bots = run["view"], run["games"], run["bots"]
    faults = [f for bot in bots for f in bot.faults]
    assert not faults, faults  # every game stream began with the game whole
    assert [len(entry["tables"]) for entry in view["rounds"]] == [1] * MONTANA_ROUNDS
    played = []
    for entry, game in zip(view["rounds"], games, strict=True):
        assert game["terminal"] and game["game"] == "montana"
        seated = [seat["name"] for seat in game["seats"]]
        assert seated == entry["tables"][0]["players"]
        played.append((seated, montana.places_of(game["result"]), []))
    montana.check(view, played, [bot.name for bot in bots])
    failed = [r for bot in bots for r in bot.refused if r.startswith("5")]
    assert not failed, failed
    print(f"montana: {sum(b.moves for b in bots)} moves over the Bot API")
