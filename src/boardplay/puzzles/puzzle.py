"""A puzzle, how one is found at a position, and how a deeper search confirms it.

A puzzle is a position (the game's position JSON, with the game's options), the side to move,
the turn that wins or saves (``solution``, in the game's notation; with the other turns that share
its deciding action in ``answers``, ``judge.verdict``), the continuation the
search expects after it (``line``), its kind and themes, the values that made it a puzzle, and
where it came from. The file format is docs/formats/puzzles.md.

Finding and verifying run the same test (``boardplay.puzzles.judge``) on the position *as the
file holds it*: the state is rebuilt from its position JSON before it is judged, so what was
mined is exactly what a later ``verify`` reads (a position JSON leaves out some history, such as
Proteus's turn counter).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.core.registry import load
from boardplay.puzzles.judge import SCREEN_SHARE, Judge, score, verdict
from boardplay.puzzles.themes import Scene, themes_of
from boardplay.puzzles.turns import TooManyChoices, position_key, turn_choices

FORMAT = "boardplay-puzzle"
VERSION = 1
DEPTH = 4
"""Verification searches this many times the mining budget."""
VERIFY_SEED = 7919
"""Added to the mining seed for the verifying search, so its simulations are its own."""


class PuzzleError(BoardplayError):
    """A puzzle file or entry that cannot be read, named with what is wrong."""


@dataclass
class Puzzle:
    game: str
    options: dict[str, Any]
    position: dict[str, Any]
    to_move: int
    kind: str
    solution: list[str]
    line: list[str]
    themes: list[str]
    value: float
    runner_up: float
    choices: int
    iterations: int
    seed: int
    source: dict[str, Any] = field(default_factory=dict)
    verified: dict[str, Any] | None = None
    answers: list[list[str]] = field(default_factory=list)
    """Every turn of the answer group (``judge.verdict``), ``solution`` first; empty or just
    the solution when it is the one turn that passes."""

    def answer_turns(self) -> list[list[str]]:
        """The turns that solve the puzzle: the answer group, at least the solution."""
        return self.answers or [self.solution]

    @property
    def id(self) -> str:
        """Game name and a digest of the position: the same position is the same puzzle."""
        text = json.dumps([self.options, self.position], sort_keys=True)
        return f"{self.game}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "players": 2,
            "position": self.position,
            "to_move": self.to_move,
            "kind": self.kind,
            "solution": self.solution,
            **({"answers": self.answers} if len(self.answers) > 1 else {}),
            "line": self.line,
            "themes": self.themes,
            "value": round(self.value, 4),
            "runner_up": round(self.runner_up, 4),
            "choices": self.choices,
            "search": {"iterations": self.iterations, "seed": self.seed},
            "source": self.source,
            "verified": self.verified,
        }

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """Read a puzzle object; a missing or mistyped field raises ``PuzzleError``."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PuzzleError(f"a puzzle must be a JSON object with format {FORMAT!r}")
        if data.get("version") != VERSION:
            raise PuzzleError(f"field 'version' must be {VERSION}, got {data.get('version')!r}")
        try:
            search = data["search"]
            return cls(
                game=str(data["game"]),
                options=dict(data["options"]),
                position=dict(data["position"]),
                to_move=int(data["to_move"]),
                kind=str(data["kind"]),
                solution=[str(m) for m in data["solution"]],
                line=[str(m) for m in data.get("line", [])],
                themes=[str(t) for t in data.get("themes", [])],
                value=float(data["value"]),
                runner_up=float(data["runner_up"]),
                choices=int(data["choices"]),
                iterations=int(search["iterations"]),
                seed=int(search["seed"]),
                source=dict(data.get("source") or {}),
                verified=data.get("verified"),
                answers=[[str(m) for m in turn] for turn in data.get("answers", [])],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PuzzleError(f"puzzle field missing or of the wrong type: {exc}") from None

    def load(self) -> tuple[Game, State]:
        """The game and the puzzle's position (``PuzzleError`` if either cannot load)."""
        try:
            game = load(self.game, **self.options)
            state = game.state_from_json(self.position)
        except BoardplayError as exc:
            raise PuzzleError(f"puzzle {self.id}: {exc}") from None
        if state.current_player() != self.to_move:
            raise PuzzleError(f"puzzle {self.id}: seat {state.current_player()} is to move")
        return game, state


def exported(game: Game, state: State) -> State:
    """``state`` rebuilt from its position JSON: what a puzzle file holds of it."""
    return game.state_from_json(state.to_json())


def find(
    game: Game, state: State, iterations: int, seed: int, source: Mapping[str, Any]
) -> Puzzle | None:
    """The puzzle at ``state`` (a turn start of a two-seat game), or None when the test fails
    (``boardplay.puzzles.judge``). ``iterations`` is the search budget per scored position."""
    state = exported(game, state)
    mover = state.current_player()
    judge = Judge(game, iterations, seed)
    if not judge.screen(state):
        return None
    try:
        choices = turn_choices(state)
    except TooManyChoices:
        return None
    cheap = Judge(game, max(1, iterations // SCREEN_SHARE), seed + 1)
    values = score(judge, choices, mover, cheap, state)
    found = verdict(values, [choice.moves for choice in choices])
    if found is None:
        return None
    answer = choices[found.index]
    scene = Scene(state, answer.after, answer.moves, mover)
    return Puzzle(
        game=game.name,
        options=dict(game.options),
        position=state.to_json(),
        to_move=mover,
        kind=found.kind,
        solution=list(answer.moves),
        line=list(values[found.index].line),
        themes=themes_of(game.name, scene, found.kind),
        value=found.value,
        runner_up=found.runner_up,
        choices=len(choices),
        iterations=iterations,
        seed=seed,
        source=dict(source),
        answers=[list(choices[i].moves) for i in found.group] if len(found.group) > 1 else [],
    )


def solution_key(state: State, moves: Iterable[str]) -> str:
    """The position the solution's moves leave, played from ``state`` by the mover alone
    (``PuzzleError`` if a move is illegal or not the mover's)."""
    walker = state.clone()
    mover = walker.current_player()
    for move in moves:
        if walker.current_player() != mover:
            raise PuzzleError(f"the solution's {move!r} comes after the mover's turn has passed")
        try:
            walker.apply_move(move)
        except BoardplayError as exc:
            raise PuzzleError(f"the solution's {move!r} is not legal: {exc}") from None
    return position_key(walker)


def verify(puzzle: Puzzle, depth: int = DEPTH, offset: int = VERIFY_SEED) -> dict[str, Any]:
    """Re-run the test with ``depth`` times the budget and another seed, every turn searched
    at that budget (a first action's turns through their best completion where it loses,
    ``judge.score``). Returns the check: ``ok`` when the same answer group passes as the same
    kind, with the deeper values, or the reason it does not. ``offset`` is added to the mining
    seed: a later check (the shipped sets' soak test) takes another, so its searches are its
    own too."""
    game, state = puzzle.load()
    iterations, seed = puzzle.iterations * depth, puzzle.seed + offset
    check: dict[str, Any] = {"iterations": iterations, "seed": seed}
    try:
        expected = {solution_key(state, turn) for turn in puzzle.answer_turns()}
        solution = solution_key(state, puzzle.solution)
    except PuzzleError as exc:
        return {**check, "ok": False, "reason": str(exc)}
    try:
        choices = turn_choices(state)
    except TooManyChoices as exc:
        return {**check, "ok": False, "reason": str(exc)}
    keys = {choice.key for choice in choices}
    if not expected <= keys or solution not in expected:
        return {**check, "ok": False, "reason": "the solution does not complete a turn"}
    values = score(Judge(game, iterations, seed), choices, puzzle.to_move, start=state)
    found = verdict(values, [choice.moves for choice in choices])
    if found is None:
        best = max(values, key=lambda v: v.worst)
        reason = f"no single answer passes at the deeper search (best {best.worst:.3f})"
        return {**check, "ok": False, "reason": reason}
    check.update(value=round(found.value, 4), runner_up=round(found.runner_up, 4))
    if {choices[i].key for i in found.group} != expected:
        answer = " ".join(choices[found.index].moves)
        group = f" and {len(found.group) - 1} more" if len(found.group) > 1 else ""
        return {**check, "ok": False, "reason": f"the deeper search's answer is {answer}{group}"}
    if found.kind != puzzle.kind:
        return {**check, "ok": False, "reason": f"the deeper search finds a {found.kind}"}
    return {**check, "ok": True}


def write_puzzles(path: str | Path, puzzles: Iterable[Puzzle], append: bool = True) -> int:
    """Write puzzles as JSON Lines (one per line); returns the count."""
    count = 0
    with Path(path).open("a" if append else "w", encoding="utf-8") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle.to_json(), separators=(",", ":")) + "\n")
            count += 1
    return count


def read_puzzles(path: str | Path) -> Iterator[Puzzle]:
    """The puzzles of a JSON Lines file, in order (``PuzzleError`` names a bad line)."""
    with Path(path).open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise PuzzleError(f"{path}, line {number}: not valid JSON: {exc}") from None
            try:
                yield Puzzle.from_json(data)
            except PuzzleError as exc:
                raise PuzzleError(f"{path}, line {number}: {exc}") from None
