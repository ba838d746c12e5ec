"""Where a study begins: a game's start with any options, a position in the game's JSON, a record
(its variations included), or a stored game's moves so far. Each is checked here through the
engine before anything is stored, and each becomes the same thing: a game, its first position
and a first tree of moves (``Opening``).

What a study takes from a stored game is what everyone may see of it: its moves and seat names.
Never its seed (a reproducible game's agreed luck, which fixes the outcomes still to come) nor
anything else of the server's chance: a chance node reached in the study is decided by the
person studying or drawn from the server's secret source (``service.py``), and ``meta`` is not
copied."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boardplay.core.errors import BoardplayError, RecordError
from boardplay.core.game import Game, State
from boardplay.core.records import Record
from boardplay.web.analysis.store import study_full
from boardplay.web.analysis.tree import Node
from boardplay.web.analysis.variations import Builder, Clean, read_line
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.errors import bad_request
from boardplay.web.replays import check_length, record_of
from boardplay.web.table import Room


@dataclass(frozen=True)
class Opening:
    """A study's game, first position (None: the game's initial state), seat names, how it
    began, the stored game it shows (if any) and its first tree."""

    game: Game
    start_position: dict[str, Any] | None
    players: list[str]
    source: dict[str, Any]
    source_game: str | None
    tree: list[Node]


def seat_names(game: Game) -> list[str]:
    return [game.seat_name(s) for s in range(game.num_players)]


def first_state(game: Game, start: Mapping[str, Any] | None, what: str) -> State:
    """The game's initial state, or ``start`` read as its position JSON (a 400 naming ``what``
    if the engine refuses it)."""
    try:
        return game.new_initial_state() if start is None else game.state_from_json(start)
    except BoardplayError as exc:
        raise bad_request(f"{what} is not a valid {game.name} position: {exc}") from None
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise bad_request(f"{what} is not a valid {game.name} position ({exc!r})") from None


def from_start(
    catalogue: WebCatalogue, name: str, options: Mapping[str, Any], position: Any | None
) -> Opening:
    """A game's start with ``options``, or ``position`` of it."""
    game = catalogue.build(name, options, "the options are not valid: ")
    if position is None:
        return Opening(game, None, seat_names(game), {"kind": "start"}, None, [Node(0, None, 0)])
    state = first_state(game, position, "field 'position'")
    return Opening(
        game, state.to_json(), seat_names(game), {"kind": "position"}, None, [Node(0, None, 0)]
    )


def from_record(
    catalogue: WebCatalogue, data: Mapping[str, Any], max_plies: int, most: int, clean: Clean
) -> Opening:
    """A record's mainline and variations, every move checked (400 naming the first refused)."""
    try:
        record = Record.from_json(dict(data))
    except RecordError as exc:
        raise bad_request(f"the record cannot be read: {exc}") from None
    check_length(len(record.moves), max_plies)
    if record.game not in catalogue.names():
        raise bad_request(f"this server cannot study {record.game!r} games")
    game = catalogue.build(record.game, record.options, "the record's options are not valid: ")
    state = first_state(game, record.start_position, "the record's start position")
    builder = Builder(most, study_full)
    read_line(builder, (0, 0, state), record.moves, data, clean)
    names = [p.name for p in record.players][: game.num_players]
    players = names if len(names) == game.num_players else seat_names(game)
    return Opening(game, record.start_position, players, {"kind": "record"}, None, builder.tree())


def from_room(room: Room, most: int) -> Opening:
    """A stored game's moves so far, as its public view shows them (no seed, no ``meta``)."""
    record = record_of(room)
    game = room.game
    builder = Builder(most, study_full)
    node = 0
    for move in record.moves:
        node = builder.child(node, move)
    players = [p.name for p in record.players]
    source = {"kind": "game", "game_id": room.row.id, "ply": len(record.moves)}
    return Opening(game, record.start_position, players, source, room.row.id, builder.tree())
