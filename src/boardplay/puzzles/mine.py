"""Mining: where candidate positions come from, and the loop that tests them.

Candidates are the turn starts of finished games: records (a record file or a JSON Lines corpus
written by the site, ``boardplay play --save`` or ``boardplay arena --records``) and the
engine's own games, played on the spot by a level (``hard`` by default) in every seat. A
self-played game opens with a few uniformly random decisions, so that the games differ (a
search with an iteration budget replays the same game from the same seed) and reach positions a
strong player would not steer into but a person might. Everything is seeded: game ``i`` of a
run with seed ``s`` is always the same game, and each position's searches are seeded from ``s``
and the game, so a mining run replays.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from boardplay.ai.arena import play_game
from boardplay.ai.tasks import GameTask
from boardplay.core.game import Game, State
from boardplay.core.records import Record
from boardplay.puzzles.puzzle import Puzzle, find, verify
from boardplay.puzzles.turns import at_turn_start, position_key

OPENING = 4
"""Uniformly random decisions at the start of every self-played game."""
MAX_ACTIONS = 1000
"""A self-played game stops after this many actions (a Proteus game has no end of its own
without ``max_turns``; the positions played so far are still candidates)."""


@dataclass(frozen=True)
class Candidate:
    """A turn start of a game, and where it came from (copied into the puzzle's ``source``)."""

    state: State
    source: dict[str, Any]


def candidates(
    record: Record, source: dict[str, Any], latest: int | None = None
) -> Iterator[Candidate]:
    """Every turn start in ``record`` that is a real decision of a two-seat game, latest first:
    the end of a game is where one turn decides it. With ``latest``, only that many: in Passtally
    and Montana the values of a position's turns separate only in the last rounds, earlier
    every turn is worth about the same and testing it is spent time."""
    states = list(record.states())
    starts: list[Candidate] = []
    last: State | None = None
    for ply, state in enumerate(states):
        if state.is_terminal() or state.is_chance_node():
            continue
        if at_turn_start(state, last) and len(state.legal_actions()) > 1:
            starts.append(Candidate(state, {**source, "ply": ply}))
        last = state
    yield from reversed(starts[-latest:] if latest else starts)


def selfplay(game: Game, spec: str, seed: int) -> Iterator[Record]:
    """Endless games of ``spec`` against itself, game ``i`` seeded from ``seed`` and ``i``."""
    index = 0
    while True:
        game_seed = random.Random(f"puzzles/{seed}/{index}").getrandbits(32)
        task = GameTask(index, (0,) * game.num_players, game_seed, MAX_ACTIONS, OPENING)
        data = play_game(game, [spec], task).record
        assert data is not None
        record = Record.from_json(data)
        record.meta = {"selfplay": {"spec": spec, "seed": game_seed, "opening": OPENING}}
        yield record
        index += 1


def record_source(record: Record, label: str) -> dict[str, Any]:
    """The ``source`` of a record's puzzles: a self-played game's spec and seed, else the
    record's label (its file and index) and players."""
    played = record.meta.get("selfplay")
    if isinstance(played, dict):
        return {"kind": "selfplay", **played}
    return {"kind": "record", "record": label, "players": [p.name for p in record.players]}


@dataclass
class Tally:
    """What a mining run did: games and positions seen, puzzles found and confirmed, and the
    processor time it took."""

    games: int = 0
    positions: int = 0
    found: int = 0
    verified: int = 0
    rejected: int = 0
    seconds: float = 0.0
    puzzles: list[Puzzle] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        minutes = self.seconds / 60 if self.seconds else 0.0
        return {
            "games": self.games,
            "positions": self.positions,
            "found": self.found,
            "verified": self.verified,
            "rejected": self.rejected,
            "cpu_seconds": round(self.seconds, 1),
            "found_per_cpu_minute": round(self.found / minutes, 2) if minutes else None,
            "verified_per_cpu_minute": round(self.verified / minutes, 2) if minutes else None,
        }


Found = Callable[[Puzzle], None]


def mine(
    game: Game,
    records: Iterable[tuple[Record, str]],
    iterations: int,
    seed: int,
    *,
    seconds: float | None = None,
    count: int | None = None,
    check: bool = True,
    found: Found | None = None,
    latest: int | None = None,
) -> Tally:
    """Test the turn starts of ``records`` (each with its label) until ``count`` puzzles pass
    (confirmed ones when ``check``), ``seconds`` of processor time are spent, or the records
    end. ``found`` hears every puzzle kept; a position met twice is tested once; ``latest``
    tests only each game's last turn starts (``candidates``)."""
    tally = Tally()
    seen: set[str] = set()
    start = time.process_time()

    def done() -> bool:
        tally.seconds = time.process_time() - start
        kept = tally.verified if check else tally.found
        if count is not None and kept >= count:
            return True
        return seconds is not None and tally.seconds >= seconds

    for record, label in records:
        if done():
            break
        tally.games += 1
        source = record_source(record, label)
        for candidate in candidates(record, source, latest):
            if done():
                break
            key = position_key(candidate.state)
            if key in seen:
                continue
            seen.add(key)
            tally.positions += 1
            position_seed = random.Random(f"{seed}/{label}/{candidate.source['ply']}")
            puzzle = find(
                game, candidate.state, iterations, position_seed.getrandbits(31), candidate.source
            )
            if puzzle is None:
                continue
            tally.found += 1
            if check:
                puzzle.verified = verify(puzzle)
                if not puzzle.verified["ok"]:
                    tally.rejected += 1
                    continue
                tally.verified += 1
            tally.puzzles.append(puzzle)
            if found is not None:
                found(puzzle)
    done()
    return tally
