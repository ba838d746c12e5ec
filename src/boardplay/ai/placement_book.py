"""Proteus's placement book, and the guard that keeps an agent out of placement traps.

The placement (the fifteen turns before anything moves) decides many Proteus games: a trap set
there springs on the opponent's first movement turn, and a search that values its leaves by an
estimate sees it a move too late (issue 67, item 5). ``boardplay.ai.placement`` proves which
placements lose; proving costs about a hundredfold more per two placements left, so late in
the placement the guard asks it while playing, and earlier decisions are read from a book
solved ahead of time (``tools/proteus_book.py``, package data ``books/<game>-placement.json``).

**The book.** Positions are written in the position JSON's words and keyed up to the eight
symmetries of the 3x3 board: every MOVE rule (KING, ROOK, BISHOP/KNIGHT) and every line of
3-IN-LINE is mapped onto itself by a rotation or reflection of the board, so a rotated or
reflected position plays exactly alike. The colours and shapes carry different rules and the
two seats move in turn, so no other symmetry applies. Each entry holds moves (in the key's
frame) and whether the book *proved* them: a proven move does not lose (the opponent has no
forced win within the book's horizon); an unproven one is the book's choice on its opening
line, which counts as proven once every reply to it leads to a proven entry.

**The guard** wraps a searching agent. In the placement, if the book holds the position it
plays the book's move the search likes best; else, with at most ``SOLVE_FROM`` placements
left, it plays the search's favourite among the placements proven not to lose. When every
placement loses, or outside the placement, it plays the search's move unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from boardplay.ai.agents import Agent, agent_analysis
from boardplay.ai.placement import HORIZON, PlacementSolver, in_placement
from boardplay.core.game import Game, State

BOOKS = Path(__file__).parent / "books"
"""The shipped books (package data), ``<game>-placement.json``."""

PLACEMENTS = 15
"""Turns of a placement without passes: nine tiles and six pieces."""

SOLVE_FROM = 9
"""The guard proves while playing once this many placements or fewer are left (Black's fourth
placement, ply 6, onwards): under a second there (0.04-0.8 s for every placement of the
evidence games' positions), milliseconds from ply 8."""

COLUMNS = "abc"
ROWS = "123"
CELL = re.compile(r"[abc][123]")


def _symmetries() -> tuple[dict[str, str], ...]:
    """The eight rotations and reflections of the board as maps of cell names: columns and
    rows each kept or mirrored, then swapped or not."""
    out = []
    for swap in (False, True):
        for mirror_column in (False, True):
            for mirror_row in (False, True):
                mapping = {}
                for c in range(3):
                    for r in range(3):
                        cc = 2 - c if mirror_column else c
                        rr = 2 - r if mirror_row else r
                        if swap:
                            cc, rr = rr, cc
                        mapping[COLUMNS[c] + ROWS[r]] = COLUMNS[cc] + ROWS[rr]
                out.append(mapping)
    return tuple(out)


SYMMETRIES = _symmetries()
"""``SYMMETRIES[0]`` is the identity."""

INVERSES = tuple(
    next(i for i, other in enumerate(SYMMETRIES) if all(other[s[c]] == c for c in s))
    for s in SYMMETRIES
)
"""``SYMMETRIES[INVERSES[i]]`` undoes ``SYMMETRIES[i]``."""

CELLS = tuple(column + row for column in COLUMNS for row in ROWS)


def position_text(position: Mapping[str, Any], symmetry: int = 0) -> str:
    """The position JSON's board (mapped by ``SYMMETRIES[symmetry]``) and side to move as one
    line: each cell's value from a1 to c3, ``-`` for an empty cell, then ``/`` and the mover."""
    mapping = SYMMETRIES[symmetry]
    board = {mapping[cell]: value for cell, value in position["board"].items()}
    return " ".join(board.get(cell) or "-" for cell in CELLS) + f" /{position['to_move']}"


def position_of(text: str) -> dict[str, Any]:
    """The position JSON of a ``position_text`` (the book's keys are such texts)."""
    cells, mover = text.rsplit(" /", 1)
    board = {cell: value for cell, value in zip(CELLS, cells.split(" "), strict=True)}
    return {"board": {c: v for c, v in board.items() if v != "-"}, "to_move": int(mover)}


def canonical(position: Mapping[str, Any]) -> tuple[str, int]:
    """The book's key of a position, the least of its eight images' texts, and the symmetry
    that takes the position to it."""
    return min((position_text(position, i), i) for i in range(len(SYMMETRIES)))


def map_move(move: str, symmetry: int) -> str:
    """A move in notation with its cells mapped by ``SYMMETRIES[symmetry]``."""
    mapping = SYMMETRIES[symmetry]
    return CELL.sub(lambda m: mapping[m.group(0)], move)


def reply_keys(game: Game, state: State, move: str) -> set[str]:
    """The keys of the positions after ``move`` in ``state`` and each reply to it: the book
    proves ``move`` when every one of them holds a proven move (a proof by cases, one per
    reply up to symmetry)."""
    after = state.clone()
    after.apply_action(after.parse_action(move))
    keys = set()
    for reply in after.legal_actions():
        position = after.clone()
        position.apply_action(reply)
        keys.add(canonical(game.export_position(position))[0])
    return keys


def placements_left(position: Mapping[str, Any]) -> int:
    """Tiles in the pool plus pieces in hand: fifteen less the tiles and pieces on the board
    (a cell's value is a tile, ``Rc``, an optional ``*`` and an optional piece, ``Xc``)."""
    placed = sum(1 + (len(value.rstrip("*")) > 2) for value in position["board"].values())
    return PLACEMENTS - placed


@dataclass
class PlacementBook:
    """A book for one game and rule set: key -> ``{"moves": [...], "proven": bool}``."""

    game: str
    rules: str
    horizon: int
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def lookup(self, game: Game, state: State) -> tuple[list[str], bool] | None:
        """The book's moves for ``state`` (notation, mapped back from the key's frame into
        ``state``'s) and whether they are proven, or None when the book does not hold it."""
        key, symmetry = canonical(game.export_position(state))
        entry = self.entries.get(key)
        if entry is None:
            return None
        back = INVERSES[symmetry]
        return [map_move(move, back) for move in entry["moves"]], bool(entry["proven"])

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "horizon": self.horizon,
            "meta": self.meta,
            "entries": dict(sorted(self.entries.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlacementBook:
        return cls(
            data["game"],
            data["rules"],
            data["horizon"],
            dict(data["entries"]),
            dict(data.get("meta", {})),
        )


def book_path(game_name: str) -> Path:
    return BOOKS / f"{game_name}-placement.json"


@cache
def _shipped(game_name: str) -> PlacementBook | None:
    path = book_path(game_name)
    if not path.exists():
        return None
    return PlacementBook.from_json(json.loads(path.read_text()))


def shipped_book(game: Game) -> PlacementBook | None:
    """The shipped book that fits ``game``'s options (its rule set, and no turn cap that could
    end a game before the book's horizon), or None."""
    book = _shipped(game.name)
    if book is None or game.options.get("rules") != book.rules:
        return None
    cap = game.options.get("max_turns")
    if isinstance(cap, int) and cap <= PLACEMENTS * 2 + book.horizon:
        return None
    return book


class PlacementGuard:
    """An agent that plays as ``inner`` except where a placement would walk into a trap (see
    the module's docstring). Every verb but ``step`` passes through, so interfaces read the
    inner search's analysis."""

    def __init__(
        self, inner: Agent, game: Game, book: PlacementBook | None, horizon: int = HORIZON
    ) -> None:
        self.inner = inner
        self.game = game
        self.book = book
        self.solver = PlacementSolver(book.horizon if book is not None else horizon)
        self.name = getattr(inner, "name", "guarded")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def reset(self) -> None:
        self.inner.reset()

    def inform(self, action: int) -> None:
        self.inner.inform(action)

    def step(self, state: State) -> int:
        choice = self.inner.step(state)
        kernel = state.kernel
        if kernel is None or not in_placement(kernel):
            return choice
        ranked = self._ranked(state, choice)
        if self.book is not None:
            found = self.book.lookup(self.game, state)
            if found is not None:
                for action in ranked:
                    if state.action_to_string(action) in found[0]:
                        return action
        if placements_left(self.game.export_position(state)) > SOLVE_FROM:
            return choice
        safe = self.solver.safe_moves(kernel, ranked, limit=1)
        return safe[0] if safe else choice

    def _ranked(self, state: State, choice: int) -> list[int]:
        """The legal actions, the search's choice first, then by its visits (most first)."""
        visits: dict[str, int] = {}
        analysis = agent_analysis(self.inner)
        if analysis is not None:
            visits = {c["move"]: int(c.get("visits", 0)) for c in analysis.candidates}
        legal = state.legal_actions()
        return sorted(
            legal,
            key=lambda a: (a != choice, -visits.get(state.action_to_string(a), 0), a),
        )


GAMES = frozenset({"proteus"})
"""The games whose placement the solver knows (``placement.in_placement`` reads the Proteus
kernel's convention that a placement position has no repetition key)."""


def guard(agent: Agent, game: Game) -> Agent:
    """``agent`` guarded against placement traps in a game of ``GAMES``, with the shipped book
    if one fits the game's options; any other agent unchanged."""
    if game.name not in GAMES:
        return agent
    return PlacementGuard(agent, game, shipped_book(game))
