"""Arena: seeded round robins between agents, played in parallel processes.

Every combination of ``min(agents, players)`` agents meets at a table; each table plays
``games`` games cycling through every seat assignment that uses each of its agents at least once
(for two agents in a two-player game: A–B then B–A), so seat advantage cancels out. Game ``i``
of a run has its own seed derived from the run seed, so a run replays exactly whatever the number
of worker processes (with iteration budgets; time budgets depend on machine load).

Scoring: in each game an agent's *points* are the summed ``returns()`` of its seats (1 for a
win, a share for a shared win or draw, 0 for a loss). ``win_rate`` is mean points, with a 95%
Wilson interval. Head-to-head, agent A beats B in a game when A's points exceed B's; these
pairwise results feed the Bradley–Terry fit (Elo scale) and, for 3–4 player games, openskill.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardplay.ai.agents import agent_analysis
from boardplay.ai.cluster import run_on_ray
from boardplay.ai.specs import make_agent
from boardplay.ai.stats import bradley_terry, openskill_ratings, wilson_interval
from boardplay.ai.tasks import GameResult, GameTask, Thinking
from boardplay.core.errors import RecordError
from boardplay.core.game import Game, sample_chance
from boardplay.core.records import Player, Record, read_jsonl


def lineups(table: Sequence[int], players: int) -> list[tuple[int, ...]]:
    """Every seat assignment of ``players`` seats that uses each agent of ``table`` at least
    once, in a fixed order (for a full table: all permutations)."""
    out = [seats for seats in itertools.product(table, repeat=players) if set(seats) == set(table)]
    # Interleave so that a run cut short still has every agent in every seat about equally:
    # order by the position of the first agent, rotating through the table.
    return sorted(out, key=lambda seats: tuple(table.index(a) for a in seats))


def schedule(
    agent_count: int,
    players: int,
    games: int,
    seed: int,
    max_actions: int | None = None,
    opening: int = 0,
) -> list[GameTask]:
    """The games of a round robin: ``games`` per table of agents, seats cycled."""
    size = min(agent_count, players)
    tasks: list[GameTask] = []
    for table in itertools.combinations(range(agent_count), size):
        options = lineups(table, players)
        # Alternate through the lineups so that consecutive games swap seats.
        for g in range(games):
            seats = options[g % len(options)]
            index = len(tasks)
            game_seed = random.Random(f"arena/{seed}/{index}").getrandbits(32)
            tasks.append(GameTask(index, seats, game_seed, max_actions, opening))
    return tasks


def play_game(
    game: Game, specs: Sequence[str], task: GameTask, keep_record: bool = True
) -> GameResult:
    """Play one seeded game. Each seat gets its own agent (seeded from the game seed and the
    seat); chance is sampled from the game seed, and so are the first ``task.opening``
    decisions, uniformly; every agent is told every action."""
    rng = random.Random(task.seed)
    opening = random.Random(f"opening/{task.seed}")
    decisions = 0
    agents = [
        make_agent(specs[agent], game, seed=task.seed * 8 + seat)
        for seat, agent in enumerate(task.seats)
    ]
    state = game.new_initial_state()
    record = Record.begin(
        game, [Player(name=specs[a], kind="agent", spec=specs[a]) for a in task.seats]
    )
    start = time.perf_counter()
    limit = game.max_game_length
    length = 0
    first_player: int | None = None
    thinking = [Thinking() for _ in task.seats]
    adjudicated = False
    while not state.is_terminal():
        if task.max_actions is not None and length >= task.max_actions:
            adjudicated = True
            break
        if length > limit:
            raise RuntimeError(f"{game} did not end within its max_game_length of {limit} actions")
        player = state.current_player()
        if player < 0:
            action = sample_chance(state, rng)
        else:
            if first_player is None:
                first_player = player
            decisions += 1
            if decisions <= task.opening:
                action = opening.choice(state.legal_actions())
            else:
                began = time.perf_counter()
                action = agents[player].step(state)
                spent = time.perf_counter() - began
                analysis = agent_analysis(agents[player])
                thinking[player].add(spent, analysis.iterations if analysis is not None else 0)
        record.play(state, action)
        for agent in agents:
            agent.inform(action)
        length += 1
    record.finish(state)
    returns = tuple(state.returns())
    if adjudicated:
        returns = (1.0 / len(task.seats),) * len(task.seats)
        record.result = {
            **(record.result or {}),
            "returns": list(returns),
            "text": f"adjudicated a draw: still running after {task.max_actions} actions",
        }
    seconds = time.perf_counter() - start
    record.meta = {
        "arena": {
            "index": task.index,
            "seed": task.seed,
            "seats": list(task.seats),
            "specs": list(specs),
            "seconds": round(seconds, 4),
            "first_player": first_player or 0,
            "thinking": [t.to_row() for t in thinking],
            **({} if task.max_actions is None else {"max_actions": task.max_actions}),
            **({"opening": task.opening} if task.opening else {}),
            **({"adjudicated": True} if adjudicated else {}),
        }
    }
    scores = state.scores()
    return GameResult(
        index=task.index,
        seats=task.seats,
        returns=returns,
        scores=tuple(scores) if scores is not None else None,
        length=length,
        seconds=seconds,
        record=record.to_json() if keep_record else None,
        first_player=first_player or 0,
        thinking=tuple(thinking),
        adjudicated=adjudicated,
    )


def result_from_record(data: dict[str, Any]) -> GameResult:
    """The ``GameResult`` of a game saved by an earlier run (``--resume``), read back from its
    record's ``meta.arena`` block and result."""
    meta = data.get("meta", {}).get("arena")
    result = data.get("result")
    if not isinstance(meta, dict) or not isinstance(result, dict) or "thinking" not in meta:
        raise RecordError("the record was not written by boardplay arena (no meta.arena block)")
    scores = result.get("scores")
    return GameResult(
        index=int(meta["index"]),
        seats=tuple(meta["seats"]),
        returns=tuple(result["returns"]),
        scores=tuple(scores) if scores is not None else None,
        length=len(data.get("moves", [])),
        seconds=float(meta["seconds"]),
        record=data,
        first_player=int(meta["first_player"]),
        thinking=tuple(Thinking.from_row(row) for row in meta["thinking"]),
        adjudicated=bool(meta.get("adjudicated", False)),
    )


def _play_packed(args: tuple[Game, tuple[str, ...], GameTask, bool]) -> GameResult:
    return play_game(*args)


Progress = Callable[[GameResult], None]


def run_games(
    game: Game,
    specs: Sequence[str],
    tasks: Sequence[GameTask],
    workers: int = 1,
    keep_records: bool = True,
    progress: Progress | None = None,
    ray: str | None = None,
) -> list[GameResult]:
    """Play ``tasks`` (in ``workers`` processes when more than one, or as tasks on the Ray
    cluster at address ``ray``) and return the results in task order."""
    frozen = tuple(specs)
    results: list[GameResult] = []
    if ray is not None:
        return run_on_ray(ray, play_game, game, frozen, tasks, keep_records, progress)
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            result = play_game(game, frozen, task, keep_records)
            results.append(result)
            if progress is not None:
                progress(result)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_play_packed, (game, frozen, task, keep_records)) for task in tasks
            ]
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if progress is not None:
                    progress(result)
    results.sort(key=lambda r: r.index)
    return results


# ----- results ------------------------------------------------------------------------------
@dataclass
class Tally:
    """Games, wins (all the points), draws (a share of them) and total points."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    points: float = 0.0

    def add(self, points: float) -> None:
        self.games += 1
        self.points += points
        if points >= 1.0 - 1e-9:
            self.wins += 1
        elif points > 1e-9:
            self.draws += 1

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.points, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.games - self.wins - self.draws,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
        }


@dataclass
class ArenaResult:
    game: str
    specs: list[str]
    players: int
    seed: int
    results: list[GameResult]
    agents: list[Tally] = field(default_factory=list)
    seats: list[list[Tally]] = field(default_factory=list)
    seat_totals: list[Tally] = field(default_factory=list)
    pairs: dict[tuple[int, int], Tally] = field(default_factory=dict)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    thinking: list[Thinking] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """Agent names, with ``#2``, ``#3`` added to repeated specs so each is distinct."""
        seen: dict[str, int] = {}
        out = []
        for spec in self.specs:
            seen[spec] = seen.get(spec, 0) + 1
            out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
        return out

    def to_json(self) -> dict[str, Any]:
        labels = self.labels
        agents = []
        for i, tally in enumerate(self.agents):
            agents.append(
                {
                    "spec": labels[i],
                    **tally.to_json(),
                    "rating": round(self.ratings[i]["rating"], 1),
                    "rating_ci95": [
                        round(self.ratings[i]["low"], 1),
                        round(self.ratings[i]["high"], 1),
                    ],
                    **(
                        {"openskill": self.ratings[i]["openskill"]}
                        if "openskill" in self.ratings[i]
                        else {}
                    ),
                    "by_seat": [self.seats[i][s].to_json() for s in range(self.players)],
                    "thinking": self.thinking[i].to_json(),
                }
            )
        pairings = []
        for (a, b), tally in sorted(self.pairs.items()):
            pairings.append(
                {
                    "spec": f"{labels[a]} vs {labels[b]}",
                    "agents": [labels[a], labels[b]],
                    **tally.to_json(),
                    "rating": round(self.ratings[a]["rating"] - self.ratings[b]["rating"], 1),
                }
            )
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "games": len(self.results),
            "agents": agents,
            "pairings": pairings,
            "seats": [t.to_json() for t in self.seat_totals],
            "adjudicated": sum(r.adjudicated for r in self.results),
            "mean_length": round(
                sum(r.length for r in self.results) / max(1, len(self.results)), 1
            ),
            "mean_seconds": round(
                sum(r.seconds for r in self.results) / max(1, len(self.results)), 3
            ),
        }


def summarize(
    game: Game, specs: Sequence[str], seed: int, results: Sequence[GameResult]
) -> ArenaResult:
    """Tally results per agent, per agent and seat, per seat and per pairing; fit ratings."""
    count = len(specs)
    players = game.num_players
    out = ArenaResult(
        game=str(game), specs=list(specs), players=players, seed=seed, results=list(results)
    )
    out.agents = [Tally() for _ in range(count)]
    out.seats = [[Tally() for _ in range(players)] for _ in range(count)]
    out.seat_totals = [Tally() for _ in range(players)]
    out.thinking = [Thinking() for _ in range(count)]
    wins = [[0.0] * count for _ in range(count)]
    tables: list[list[tuple[int, float]]] = []
    for result in results:
        points: dict[int, float] = {}
        for seat, agent in enumerate(result.seats):
            points[agent] = points.get(agent, 0.0) + result.returns[seat]
            out.seats[agent][seat].add(result.returns[seat])
            out.seat_totals[seat].add(result.returns[seat])
        for seat, spent in enumerate(result.thinking):
            out.thinking[result.seats[seat]].merge(spent)
        for agent, value in points.items():
            out.agents[agent].add(value)
        present = sorted(points)
        for a, b in itertools.combinations(present, 2):
            tally = out.pairs.setdefault((a, b), Tally())
            if abs(points[a] - points[b]) < 1e-9:
                tally.add(0.5)
                wins[a][b] += 0.5
                wins[b][a] += 0.5
            elif points[a] > points[b]:
                tally.add(1.0)
                wins[a][b] += 1.0
            else:
                tally.add(0.0)
                wins[b][a] += 1.0
        tables.append([(agent, points[agent]) for agent in present])
    fitted = bradley_terry(wins)
    out.ratings = [{"rating": r.rating, "low": r.low, "high": r.high} for r in fitted]
    if players > 2 and count > 1:
        for rating, skill in zip(out.ratings, openskill_ratings(tables, count), strict=True):
            rating["openskill"] = skill
    return out


def run_arena(
    game: Game,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    records: str | Path | None = None,
    progress: Progress | None = None,
    resume: bool = False,
    max_actions: int | None = None,
    ray: str | None = None,
    opening: int = 0,
) -> ArenaResult:
    """Validate the specs, play the round robin and summarise it. With ``records`` every game is
    appended to that JSON Lines file (boardplay.core.records) as soon as it ends, so a long run
    that is interrupted loses nothing; ``resume`` keeps the games already in the file (they must
    come from the same agents, game seeds and seats) and plays only the missing ones.
    ``max_actions`` adjudicates a game still running after that many actions a draw; ``opening``
    plays each game's first decisions at random (``GameTask.opening``). ``ray``
    plays the games on that Ray cluster (``"local"``: a small one started here) instead of
    ``workers`` local processes, with the same seeds and results."""
    if len(specs) < 2:
        raise ValueError("an arena needs at least two agents")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    for spec in specs:
        make_agent(spec, game, 0)  # raises OptionError for a bad spec before any game starts
    if max_actions is not None and max_actions < 1:
        raise ValueError(f"max_actions must be at least 1, got {max_actions}")
    if opening < 0:
        raise ValueError(f"opening must be 0 or more, got {opening}")
    tasks = schedule(len(specs), game.num_players, games, seed, max_actions, opening)
    results = play_tasks(game, specs, tasks, workers, records, resume, progress, ray)
    return summarize(game, specs, seed, results)


def play_tasks(
    game: Game,
    specs: Sequence[str],
    tasks: Sequence[GameTask],
    workers: int = 1,
    records: str | Path | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    ray: str | None = None,
) -> list[GameResult]:
    """Play ``tasks`` (locally, or on the Ray cluster at ``ray``), appending each finished game
    to ``records`` (if given) at once; with ``resume`` the games already in ``records`` are kept
    and only the missing ones are played. Returns every result in task order."""
    if resume and records is None:
        raise ValueError("resume needs the records file of the run to continue")
    done = _earlier_results(game, specs, tasks, Path(records)) if resume and records else []
    finished = {result.index for result in done}
    todo = [task for task in tasks if task.index not in finished]
    if records is None:
        results = run_games(game, specs, todo, workers, False, progress, ray)
    else:
        with Path(records).open("a" if resume else "w", encoding="utf-8") as out:

            def save(result: GameResult) -> None:
                out.write(json.dumps(result.record, separators=(",", ":")) + "\n")
                out.flush()
                if progress is not None:
                    progress(result)

            results = run_games(game, specs, todo, workers, True, save, ray)
    return sorted([*done, *results], key=lambda r: r.index)


def _drop_partial_line(path: Path) -> None:
    """Cut an unfinished last line (the run was killed while writing it), so the games appended
    next start on a line of their own."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as out:
            out.truncate(data.rfind(b"\n") + 1)


def _earlier_results(
    game: Game, specs: Sequence[str], tasks: Sequence[GameTask], path: Path
) -> list[GameResult]:
    """The games of this run already in ``path``; a record from another run is an error."""
    if not path.exists():
        return []
    _drop_partial_line(path)
    by_index = {task.index: task for task in tasks}
    results: dict[int, GameResult] = {}
    for number, record in enumerate(read_jsonl(path), start=1):
        data = record.to_json()
        try:
            result = result_from_record(data)
        except (RecordError, KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"{path} line {number}: {exc}") from None
        task = by_index.get(result.index)
        meta = data["meta"]["arena"]
        if (
            record.game != game.name
            or record.options != dict(game.options)
            or meta.get("specs") != list(specs)
            or task is None
            or task.seed != meta["seed"]
            or task.seats != result.seats
            or task.max_actions != meta.get("max_actions")
            or task.opening != meta.get("opening", 0)
        ):
            raise RecordError(
                f"{path} line {number} is not a game of this run (game, options, agents, seed, "
                "opening, --games and --max-actions must be the same to resume)"
            )
        results[result.index] = result
    return list(results.values())
