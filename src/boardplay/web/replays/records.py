"""Replays: every position of a record, for stepping and scrubbing in the browser.

A record is never trusted. Every move is pushed through the engine (the first one it rejects,
or whose seat or notation disagrees, becomes a 400 naming it), and every field that follows from
the moves is re-derived and compared: a record whose result, players or finish disagrees with
its own moves is refused, naming the field. The record handed back for download is rebuilt from
the verified moves, so the replay page never returns a forged file."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.core.records import Move, Player, Record, result_of
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.errors import ApiError, bad_request, quote
from boardplay.web.played import FINISHED
from boardplay.web.table import (
    AI,
    ENDINGS,
    NAME_LENGTH,
    SPEC_LENGTH,
    Room,
    check_agreed,
    final_result,
    hints_for,
)
from boardplay.web.words import step_said


def frames_of(
    catalogue: WebCatalogue, record: Record, max_plies: int, keep_meta: bool = False
) -> dict[str, Any]:
    """Every position of ``record`` with the rebuilt record; ``keep_meta`` for the server's own
    records (an uploaded record's ``meta`` is dropped: nothing checks it).

    One pass over the moves, each position exported once and none kept but as its frame, so
    time and memory grow with the record's length, not its square; a record longer than
    ``max_plies`` is refused before anything is replayed (413)."""
    check_length(len(record.moves), max_plies)
    if record.game not in catalogue.names():
        raise bad_request(f"this server cannot show {quote(record.game)} games")
    game = catalogue.build(record.game, record.options, "the record's options are not valid: ")
    if len(record.moves) > game.max_game_length:
        raise bad_request(
            f"the record has {len(record.moves)} moves; a {game.name} game has at most "
            f"{game.max_game_length}"
        )
    frames: list[dict[str, Any]] = []
    before: dict[str, Any] = {}
    state: State | None = None
    for move, state in walk(game, record):
        position = state.to_json()
        frames.append(
            {
                "ply": len(frames),
                "move": move.notation if move else None,
                "player": move.player if move else None,
                "current_player": state.current_player(),
                "position": position,
                "text": state.render(),
                "scores": state.scores(),
                "result": state.result_text() if state.is_terminal() else None,
                # The move that led here, in words and as the struct its highlight is drawn by.
                **(
                    step_said(game, before, move.notation, move.player, state, position)
                    if move
                    else {}
                ),
            }
        )
        before = position
    assert state is not None
    rebuilt = rebuild(game, record, state, keep_meta)
    return {
        "game": rebuilt.game,
        "title": getattr(game, "title", record.game),
        "options": rebuilt.options,
        "players": [p.to_json() for p in rebuilt.players],
        "frames": frames,
        "hints": hints_for(game, state),
        "record": rebuilt.to_json(),
    }


def check_length(plies: int, max_plies: int) -> None:
    """The replay ceiling: a 413 naming it for a record of more than ``max_plies`` moves."""
    if plies > max_plies:
        raise ApiError(
            413,
            "too_long",
            f"the record has {plies:,} moves; this server replays at most {max_plies:,} "
            "(BOARDPLAY_WEB_REPLAY_MAX_PLIES)",
        )


def walk(game: Game, record: Record) -> Iterator[tuple[Move | None, State]]:
    """``(None, start)``, then ``(move, position after it)`` for each move of ``record``, through
    the catalogue's engine: one ``State`` advanced in place (copy it to keep it). The first move
    the engine rejects (or whose seat or notation disagrees) becomes a 400 naming it."""
    try:
        state = (
            game.new_initial_state()
            if record.start_position is None
            else game.state_from_json(record.start_position)
        )
    except BoardplayError as exc:
        raise bad_request(f"the record's start position is invalid: {exc}") from None
    yield None, state
    yield from steps(state, record.moves, "the record cannot be replayed: move")


def steps(state: State, moves: Iterable[Move], what: str) -> Iterator[tuple[Move, State]]:
    """``(move, position after it)`` for each of ``moves`` applied to ``state`` in place: the
    one check of a recorded move, for a record's moves and for a variation's
    (``analysis/variations.py``). The first move the engine rejects, or whose seat or notation
    disagrees, becomes a 400 naming it as ``what`` and its number."""
    for index, move in enumerate(moves, start=1):
        where = f"{what} {index} ({quote(move.notation)}, id {quote(move.action)})"
        if move.action not in state.legal_actions():
            raise bad_request(f"{where} is not legal there")
        if state.current_player() != move.player:
            raise bad_request(f"{where} is recorded for seat {quote(move.player)}")
        if state.action_to_string(move.action) != move.notation:
            raise bad_request(f"{where} is written {state.action_to_string(move.action)!r}")
        state.apply_action(move.action)
        yield move, state


def checked_states(game: Game, record: Record) -> list[State]:
    """Every position of ``record`` (``walk``'s, copied), for a review's judgements."""
    return [state.clone() for _, state in walk(game, record)]


def rebuild(game: Game, record: Record, final: State, keep_meta: bool) -> Record:
    """The record as its verified moves make it; a field that disagrees is a 400 naming it."""
    if record.players and len(record.players) != game.num_players:
        raise bad_request(
            f"field 'players' lists {len(record.players)} players but the game has "
            f"{game.num_players} seats"
        )
    derived = result_of(final)
    given = record.result if isinstance(record.result, dict) else None
    agreed = given is not None and given.get("ended") in ENDINGS
    if agreed:
        # A resignation or an agreed draw: the moves stop before the rules end the game.
        problem = check_agreed(game, given, final.is_terminal())
        if problem is not None:
            raise bad_request(f"field 'result' cannot stand: {problem}")
        derived = dict(given)  # type: ignore[arg-type]
    elif given is not None and given.get("resigned") and final.is_terminal():
        derived = final_result(game, derived, _seats(given["resigned"], game))
    if given is not None and "end" not in given:
        derived.pop("end", None)  # written before results carried their end code: still true
    if record.result is not None and record.result != derived:
        raise bad_request(f"field 'result' disagrees with the moves, which give: {derived['text']}")
    if record.finished is not None and record.result is None and not final.is_terminal():
        raise bad_request("field 'finished' is set but the moves do not finish the game")
    for name in ("started", "finished"):
        value = getattr(record, name)
        if value is not None and not _is_date(value):
            raise bad_request(f"field {name!r} must be a date and time (ISO 8601)")
    return Record(
        game=game.name,
        options=dict(game.options),
        players=[_player(p) for p in record.players],
        moves=[Move(m.action, m.notation, m.player) for m in record.moves],
        start_position=record.start_position,
        result=derived if record.result is not None or final.is_terminal() else None,
        started=record.started,
        finished=record.finished,
        meta=dict(record.meta) if keep_meta else {},
    )


def _seats(value: Any, game: Game) -> list[int]:
    """A record's list of resigned seats, or a 400 naming what is wrong with it."""
    if not isinstance(value, list) or any(
        not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < game.num_players
        for s in value
    ):
        raise bad_request(f"field 'result.resigned' must list seats 0..{game.num_players - 1}")
    return list(value)


def _player(player: Player) -> Player:
    kind = player.kind if player.kind in ("human", "agent") else "human"
    spec = player.spec[:SPEC_LENGTH] if isinstance(player.spec, str) else None
    return Player(player.name[:NAME_LENGTH], kind, spec)


def _is_date(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def record_of(room: Room) -> Record:
    """The game of ``room`` as a record (its players, moves and result so far)."""
    row = room.row
    players = [Player(s.name, "agent" if s.kind == AI else "human", s.spec) for s in row.seats]
    finished = row.status == FINISHED
    record = Record(
        game=row.game,
        options=dict(room.game.options) if room.broken is None else row.options,
        players=players,
        moves=list(room.moves),
        start_position=row.start_position,
        result=row.result,
        started=row.created.isoformat(timespec="seconds"),
        finished=row.updated.isoformat(timespec="seconds") if finished else None,
        meta={"server_game_id": row.id},
    )
    if row.seed is not None:
        record.meta.update(reproducible=True, seed=row.seed)
    return record
