"""``make fairplay`` (``.venv/bin/python tools/fairplay.py``): calibrate the fair-play flag of one
game from the ladder's own games. For each step of the ladder (easy–medium, medium–hard,
hard–expert) an arena of ``--games`` games, seats rotated, ``--seed``; then every seat of every
game is judged (boardplay.ai.fairplay: agreement with the expert's search at a fixed budget and
loss of win chance, forced moves left out). It prints, per level, the distribution of a game's
agreement and mean loss; the flag rule's threshold (the smallest that keeps false alarms among
the seats of easy, medium and hard at or under ``--alarm``), and what that rule flags in each
level, per game, per window of ``--window`` games and over all its games (an account's pool),
each rate with its 95% Wilson interval; then the band rule's margin (the spread of the honest
levels' agreement) and what it flags, each level judged against its own norm and against the
weakest level's.

Resumable: the games go to ``DIR/STEP.jsonl`` as each ends and every game's evidence to
``DIR/STEP.evidence.jsonl`` (DIR is ``runs/fairplay/GAME`` unless ``--dir``); started again
with the same arguments it plays and judges only what is missing. The experts of Potlatch and
Proteus are time-bound, so their games depend on the machine and its load; the judge (an
iteration budget) repeats exactly."""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import boardplay
from boardplay.ai import level_spec
from boardplay.ai.arena import run_arena
from boardplay.ai.fairplay import (
    MIN_MOVES,
    FlagRule,
    Norm,
    SeatEvidence,
    Tally,
    game_evidence,
    judge_iterations,
)
from boardplay.ai.stats import wilson_interval
from boardplay.core.options import parse_game_string
from boardplay.core.records import Record, read_jsonl

STEPS = (("easy", "medium"), ("medium", "hard"), ("hard", "expert"))
OPTIONS = {"proteus": "max_turns=300"}
"""The ladder's game options (docs/ai.md, "The ladder")."""


def judge_one(job: tuple[int, dict[str, Any], int]) -> dict[str, Any]:
    index, data, iterations = job
    record = Record.from_json(data)
    began = time.perf_counter()
    evidence = game_evidence(record, iterations)
    return {
        "index": index,
        "seats": data["meta"]["arena"]["seats"],
        "evidence": [e.to_json() for e in evidence],
        "seconds": round(time.perf_counter() - began, 2),
    }


def step_evidence(
    game_name: str,
    step: tuple[str, str],
    games: int,
    seed: int,
    workers: int,
    out: Path,
    iterations: int,
) -> list[dict[str, Any]]:
    """Play (or resume) one step's arena and judge (or resume judging) its games."""
    game = boardplay.load(
        f"{game_name}({OPTIONS[game_name]})" if game_name in OPTIONS else game_name
    )
    specs = [level_spec(level, game) for level in step]
    records = out / f"{step[0]}-{step[1]}.jsonl"
    run_arena(game, specs, games, seed=seed, workers=workers, records=records, resume=True)
    judged_path = out / f"{step[0]}-{step[1]}.evidence.jsonl"
    done: dict[int, dict[str, Any]] = {}
    if judged_path.exists():
        for line in judged_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["index"]] = row
    todo = [  # a run resumed with fewer games judges no more than those
        (int(r.meta["arena"]["index"]), r.to_json(), iterations)
        for r in read_jsonl(records)
        if int(r.meta["arena"]["index"]) not in done and int(r.meta["arena"]["index"]) < games
    ]
    with judged_path.open("a", encoding="utf-8") as sink:
        rows: Iterator[dict[str, Any]]
        if workers > 1:
            pool = Pool(workers)
            rows = pool.imap_unordered(judge_one, todo)
        else:
            rows = map(judge_one, todo)
        for n, row in enumerate(rows, start=1):
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            done[row["index"]] = row
            if n % 20 == 0:
                print(f"  {step[0]}-{step[1]}: judged {n}/{len(todo)}", flush=True)
        if workers > 1:
            pool.close()
    for row in done.values():
        row["levels"] = [step[s] for s in row["seats"]]
    return [done[i] for i in sorted(done) if i < games]


def seat_rows(rows: list[dict[str, Any]]) -> Iterator[tuple[str, str, SeatEvidence]]:
    """(level, step, evidence) for every seat of every judged game."""
    for row in rows:
        step = "-".join(dict.fromkeys(row["levels_in_step"]))
        for seat, data in enumerate(row["evidence"]):
            yield row["levels"][seat], step, SeatEvidence.from_json(data)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def rate(hits: int, n: int) -> str:
    low, high = wilson_interval(hits, n)
    return f"{hits}/{n} = {100 * hits / max(1, n):.1f}% ({100 * low:.1f}–{100 * high:.1f}%)"


def windows(evidence: list[SeatEvidence], size: int) -> list[Tally]:
    return [Tally.of(evidence[i : i + size]) for i in range(0, len(evidence) - size + 1, size)]


def calibrate(
    samples: list[tuple[str, str, SeatEvidence]], alarm: float, window: int
) -> dict[str, Any]:
    """The distribution per level (and step), the threshold, and the rule's flag rates. The
    threshold is the smallest (in hundredths) that keeps each honest level's flagged games and
    flagged windows within ``alarm``, raised if need be to above the upper end of every honest
    level's agreement over all its games (what it reaches however long it plays)."""
    groups: dict[str, list[SeatEvidence]] = {}
    for level, step, evidence in samples:
        groups.setdefault(f"{level} ({step})", []).append(evidence)
    honest = {key: group for key, group in groups.items() if not key.startswith("expert")}
    threshold = 1.0
    for percent in range(100, -1, -1):
        candidate = FlagRule(percent / 100, MIN_MOVES)
        within = all(
            sum(candidate.fires(Tally.of([e])) for e in group) <= alarm * len(group)
            and sum(candidate.fires(w) for w in windows(group, window))
            <= alarm * len(windows(group, window))
            for group in honest.values()
        )
        if not within:
            break
        threshold = percent / 100
    # Above what an honest level reaches over all its games (the upper end of its pooled
    # agreement's interval), so that no honest account is flagged however long it plays.
    pooled_honest = [Tally.of(group) for group in honest.values()]
    reach = max(wilson_interval(t.agreed, t.judged)[1] for t in pooled_honest)
    threshold = max(threshold, math.ceil(100 * reach) / 100)
    # The band's margin: from the weakest honest level's agreement (its interval's lower end)
    # to what the strongest reaches, so a player rated like the weakest who plays like the
    # strongest is not flagged at the weakest's norm.
    floor = min(wilson_interval(t.agreed, t.judged)[0] for t in pooled_honest)
    rule = FlagRule(threshold, MIN_MOVES, math.ceil(100 * (reach - floor)) / 100)
    rates = [t.agreement or 0.0 for t in pooled_honest]
    weakest, strongest = Norm(0, 0, min(rates)), Norm(0, 0, max(rates))
    table = []
    for key, group in groups.items():
        per_game = [e.agreement for e in group if e.agreement is not None]
        pooled = Tally.of(group)
        wins = windows(group, window)
        # An honest level judged against its own norm (a band of players like it); the expert
        # against the strongest honest level's (an engine user rated like the best players).
        own = strongest if key.startswith("expert") else Norm(0, 0, pooled.agreement or 0.0)
        table.append(
            {
                "level": key,
                "seat_games": len(group),
                "judged": pooled.judged,
                "moves_per_game": round(pooled.judged / max(1, len(group)), 1),
                "agreement": pooled.agreement,
                "agreement_p50": quantile(per_game, 0.5) if per_game else None,
                "agreement_p90": quantile(per_game, 0.9) if per_game else None,
                "agreement_p99": quantile(per_game, 0.99) if per_game else None,
                "mean_loss": pooled.mean_loss,
                "pool_lower_bound": pooled.lower_bound(),
                "pool_flagged": rule.fires(pooled),
                "flagged_games": sum(rule.fires(Tally.of([e])) for e in group),
                "windows": len(wins),
                "flagged_windows": sum(rule.fires(w) for w in wins),
                "band_norm": round(own.agreement, 4),
                "band_flagged_windows": sum(rule.fires(w, own) for w in wins),
                "lag_flagged_windows": sum(rule.fires(w, weakest) for w in wins),
            }
        )
    return {
        "threshold": rule.threshold,
        "min_moves": rule.min_moves,
        "margin": rule.margin,
        "weakest_norm": round(weakest.agreement, 4),
        "honest_reach": round(reach, 4),
        "levels": table,
    }


def report(game_name: str, result: dict[str, Any], window: int) -> str:
    lines = [
        f"{game_name}: flag when the agreement's 95% lower bound is at least "
        f"{result['threshold']:.2f} over at least {result['min_moves']} judged moves "
        f"(the honest levels reach at most {result['honest_reach']:.3f})",
        "",
        "| level (step) | seat-games | judged moves/game | agreement (pooled) "
        "| per game p50 / p90 / p99 "
        f"| mean loss | games flagged (95% CI) | windows of {window} flagged (95% CI) "
        "| all its games: lower bound, flagged |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    bands = [
        "",
        f"Band rule: flag at a band's norm + {result['margin']:.2f} (never above "
        f"{result['threshold']:.2f}); windows of {window} flagged at the level's own norm (the "
        f"expert: at the strongest honest level's) and at the weakest level's "
        f"({result['weakest_norm']:.3f}, a rating that lags the whole ladder)",
        "",
        "| level (step) | norm | at its norm (95% CI) | at the weakest's norm (95% CI) |",
        "|---|---|---|---|",
    ]
    for row in result["levels"]:
        bands.append(
            f"| {row['level']} | {row['band_norm']:.3f} "
            f"| {rate(row['band_flagged_windows'], row['windows'])} "
            f"| {rate(row['lag_flagged_windows'], row['windows'])} |"
        )
    for row in result["levels"]:
        lines.append(
            f"| {row['level']} | {row['seat_games']} | {row['moves_per_game']} "
            f"| {row['agreement']:.3f} | {row['agreement_p50']:.2f} / {row['agreement_p90']:.2f} / "
            f"{row['agreement_p99']:.2f} | {row['mean_loss']:.4f} "
            f"| {rate(row['flagged_games'], row['seat_games'])} "
            f"| {rate(row['flagged_windows'], row['windows'])} "
            f"| {row['pool_lower_bound']:.3f}, {'yes' if row['pool_flagged'] else 'no'} |"
        )
    return "\n".join(lines + bands)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="potlatch", help="the game (default potlatch)")
    parser.add_argument("--games", type=int, default=200, help="games per step (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the arenas' seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--iterations",
        type=int,
        help="the judge's budget a decision (default: the game's, judge_iterations)",
    )
    parser.add_argument("--alarm", type=float, default=0.01, help="false alarms allowed (0.01)")
    parser.add_argument("--window", type=int, default=10, help="games per account window (10)")
    parser.add_argument("--dir", type=Path, help="where the games and evidence are kept")
    parser.add_argument("--json", type=Path, help="write the calibration here")
    args = parser.parse_args(argv)
    iterations = args.iterations or judge_iterations(parse_game_string(args.game)[0])
    out = args.dir or Path("runs") / "fairplay" / args.game
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    samples: list[tuple[str, str, SeatEvidence]] = []
    for step in STEPS:
        rows = step_evidence(args.game, step, args.games, args.seed, args.workers, out, iterations)
        for row in rows:
            row["levels_in_step"] = list(step)
        samples.extend(seat_rows(rows))
        print(f"{step[0]}-{step[1]}: {len(rows)} games judged", flush=True)
    result = calibrate(samples, args.alarm, args.window)
    result.update(
        game=args.game,
        games=args.games,
        seed=args.seed,
        iterations=iterations,
        wall_seconds=round(time.monotonic() - started, 1),
    )
    print()
    print(report(args.game, result, args.window))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
