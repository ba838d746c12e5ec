"""Game records: everything needed to replay a game exactly (docs/design.md §3).

A record is the game name, its canonical options, an optional starting position, the players,
and the action list (id, notation and acting seat; chance outcomes included, with seat -1).
Loading a record never trusts it: ``replay`` pushes every action through the engine and stops at
the first entry the engine rejects, naming it."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from boardplay.core.errors import BoardplayError, RecordError
from boardplay.core.files import FileRefused, read_text_limited
from boardplay.core.game import Game, State
from boardplay.core.registry import load

FORMAT = "boardplay-record"
MAX_RECORD_BYTES = 64_000_000
"""Largest record file read (a record of the longest game is a few hundred kilobytes)."""
VERSION = 1


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Player:
    """Who sat in a seat: a person or an agent (with its spec string, e.g. ``mcts(time=1)``)."""

    name: str
    kind: str = "human"
    spec: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.spec is not None:
            out["spec"] = self.spec
        return out


@dataclass(frozen=True)
class Move:
    """One recorded action: its id, its notation at the time, and the seat (-1 for chance)."""

    action: int
    notation: str
    player: int


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    players: list[Player] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    start_position: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    started: str = field(default_factory=_now)
    finished: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # ----- building -------------------------------------------------------------------------
    @classmethod
    def begin(
        cls,
        game: Game,
        players: Iterable[Player] = (),
        start_position: Mapping[str, Any] | None = None,
    ) -> Record:
        return cls(
            game=game.name,
            options=dict(game.options),
            players=list(players),
            start_position=dict(start_position) if start_position is not None else None,
        )

    def play(self, state: State, action: int) -> None:
        """Apply ``action`` to ``state`` and record it (notation taken before applying)."""
        move = Move(action, state.action_to_string(action), state.current_player())
        state.apply_action(action)
        self.moves.append(move)

    def finish(self, state: State) -> None:
        """Store the result of a finished game (or of the position reached)."""
        self.result = result_of(state)
        self.finished = _now()

    # ----- replaying ------------------------------------------------------------------------
    def load_game(self) -> Game:
        try:
            return load(self.game, **self.options)
        except BoardplayError as exc:
            raise RecordError(f"record names a game or option that cannot load: {exc}") from exc

    def initial_state(self) -> State:
        game = self.load_game()
        if self.start_position is None:
            return game.new_initial_state()
        try:
            return game.state_from_json(self.start_position)
        except BoardplayError as exc:
            raise RecordError(f"record's start position is invalid: {exc}") from exc

    def states(self) -> Iterator[State]:
        """The initial state, then a fresh copy after every recorded move. Raises
        ``RecordError`` naming the first move the engine rejects or whose notation disagrees."""
        state = self.initial_state()
        yield state.clone()
        for index, move in enumerate(self.moves, start=1):
            where = f"move {index} ({move.notation!r}, id {move.action})"
            if state.current_player() != move.player:
                raise RecordError(
                    f"{where} is recorded for seat {move.player} but seat "
                    f"{state.current_player()} is to act"
                )
            try:
                notation = state.action_to_string(move.action)
            except (BoardplayError, IndexError, KeyError) as exc:
                raise RecordError(f"{where} is not an action of this game: {exc}") from exc
            if notation != move.notation:
                raise RecordError(f"{where}: the engine writes that action as {notation!r}")
            try:
                state.apply_action(move.action)
            except BoardplayError as exc:
                raise RecordError(f"{where} is illegal: {exc}") from exc
            yield state.clone()

    def replay(self) -> State:
        """The final state after verifying every move."""
        return deque(self.states(), maxlen=1)[0]

    # ----- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": [p.to_json() for p in self.players],
        }
        if self.start_position is not None:
            out["start_position"] = self.start_position
        out["actions"] = [m.action for m in self.moves]
        out["moves"] = [m.notation for m in self.moves]
        out["seats"] = [m.player for m in self.moves]
        out["result"] = self.result
        out["started"] = self.started
        out["finished"] = self.finished
        if self.meta:
            out["meta"] = self.meta
        return out

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record dict; structural problems raise ``RecordError`` naming the field.
        (Call ``replay`` to check the moves themselves.)"""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"field 'format' must be {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"field 'version' must be {VERSION}, got {data.get('version')!r}")
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError("field 'game' must be a game name")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("field 'options' must be an object")
        actions = data.get("actions", [])
        moves = data.get("moves", [])
        seats = data.get("seats", [])
        if not (isinstance(actions, list) and isinstance(moves, list) and isinstance(seats, list)):
            raise RecordError("fields 'actions', 'moves' and 'seats' must be lists")
        if not len(actions) == len(moves) == len(seats):
            raise RecordError("fields 'actions', 'moves' and 'seats' must have the same length")
        parsed: list[Move] = []
        for i, (a, m, s) in enumerate(zip(actions, moves, seats, strict=True), start=1):
            if not isinstance(a, int) or isinstance(a, bool) or not isinstance(m, str):
                raise RecordError(f"move {i}: id must be an integer and notation a string")
            if not isinstance(s, int) or isinstance(s, bool):
                raise RecordError(f"move {i}: seat must be an integer")
            parsed.append(Move(a, m, s))
        players_raw = data.get("players", [])
        if not isinstance(players_raw, list):
            raise RecordError("field 'players' must be a list")
        players: list[Player] = []
        for i, p in enumerate(players_raw):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise RecordError(f"players[{i}] must be an object with a 'name'")
            players.append(Player(p["name"], str(p.get("kind", "human")), p.get("spec")))
        start = data.get("start_position")
        if start is not None and not isinstance(start, dict):
            raise RecordError("field 'start_position' must be an object")
        meta = data.get("meta", {})
        return cls(
            game=game,
            options=options,
            players=players,
            moves=parsed,
            start_position=start,
            result=data.get("result"),
            started=str(data.get("started") or _now()),
            finished=data.get("finished"),
            meta=meta if isinstance(meta, dict) else {},
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from exc
        return cls.from_json(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = read_text_limited(path, MAX_RECORD_BYTES, "record")
        except FileRefused as exc:
            raise RecordError(str(exc)) from None
        return cls.loads(text)


def result_of(state: State) -> dict[str, Any]:
    """The result block of a record: returns, scores, winners and a sentence."""
    return {
        "terminal": state.is_terminal(),
        "returns": state.returns(),
        "scores": state.scores(),
        "winners": state.winners(),
        "text": state.result_text(),
        "end": state.end_code(),
    }


def write_jsonl(path: str | Path, records: Iterable[Record]) -> int:
    """Write a JSON Lines corpus (one record per line); returns the count written."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
            count += 1
    return count


def read_jsonl(path: str | Path) -> Iterator[Record]:
    with Path(path).open(encoding="utf-8") as source:
        for number, line in enumerate(source, start=1):
            if not line.strip():
                continue
            try:
                yield Record.from_json(json.loads(line))
            except json.JSONDecodeError as exc:
                raise RecordError(f"line {number}: not valid JSON: {exc}") from exc
