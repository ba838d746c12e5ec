"""Position JSON (spec §12): export, and loading with every validation rule of §12.3.

Loading never trusts the input: placements are replayed one by one through the placement rules
(so heights, top tiles and levels are derived, never stated), tile counts are checked against
the 42-tile box, and the setup, turn and end-of-game fields must describe a position the rules
can reach. Every rejection is a ``PositionError`` whose message names the offending item.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boardplay.core.errors import PositionError
from boardplay.core.game import Game, require
from boardplay.games.passtally import access
from boardplay.games.passtally.access import FIELDS
from boardplay.games.passtally.state import (
    END_FINAL_ROUND,
    END_MAX_TURNS,
    END_NO_PLACEMENT,
    END_NONE,
    PasstallyState,
    setup_order,
)
from boardplay.games.passtally.tables import (
    CELL_INDEX,
    CELL_NAMES,
    DESIGN_INDEX,
    DESIGNS,
    FINAL_ROUND_SCORE,
    NUM_CELLS,
    NUM_DESIGNS,
    NUM_PILES,
    NUM_SLOTS,
    ORIENT_NAMES,
    OTHER_CELL,
    PILE_NAMES,
    PLACED_SHAPES,
    SIDE_NAMES,
    SIZE,
    SYMMETRIC,
    TILES_PER_DESIGN,
    TILES_PER_PILE,
    TOTAL_TILES,
)

_REQUIRED = ("players", "placements", "markers", "piles", "scores", "to_move", "actions_left")
_OPTIONAL = ("setup", "final_round", "game_over")
_TURNS = "turns"
"""Engine-guard key: completed turns, present exactly when the ``max_turns`` option is set."""


def export_position(state: PasstallyState) -> dict[str, Any]:
    """The canonical position JSON: keys in the spec's order, optional flags only when true,
    markers by slot, placements in canonical spelling."""
    f = access.snapshot(state.kernel)
    face_up, hidden = f["face_up"], f["hidden"]
    out: dict[str, Any] = {
        "players": state.num_players,
        "placements": [
            [DESIGNS[d], CELL_NAMES[anchor], ORIENT_NAMES[k]] for d, anchor, k in f["placements"]
        ],
        "markers": {str(s): seat for s, seat in enumerate(f["ring"]) if seat >= 0},
        "piles": [
            {"face_up": DESIGNS[face_up[p]] if face_up[p] >= 0 else None, "hidden": hidden[p]}
            for p in range(NUM_PILES)
        ],
        "scores": f["points"],
        "to_move": None if f["game_over"] else f["to_move"],
        "actions_left": f["actions_left"],
    }
    if f["setup"]:
        out["setup"] = True
    if f["final_round"]:
        out["final_round"] = True
    if f["game_over"]:
        out["game_over"] = True
    if state.game.options["max_turns"] is not None:
        out[_TURNS] = f["turns"]
    return out


@dataclass
class _Draft:
    """The position being loaded, in the kernel's fields (``access.FIELDS``), built and checked
    in Python before it is written into a kernel."""

    n: int
    height: list[int] = field(default_factory=lambda: [0] * NUM_CELLS)
    tid: list[int] = field(default_factory=lambda: [-1] * NUM_CELLS)
    shape: list[int] = field(default_factory=lambda: [0] * NUM_CELLS)
    ring: list[int] = field(default_factory=lambda: [-1] * NUM_SLOTS)
    placements: list[tuple[int, int, int]] = field(default_factory=list)
    face_up: list[int] = field(default_factory=lambda: [-1] * NUM_PILES)
    hidden: list[int] = field(default_factory=lambda: [0] * NUM_PILES)
    unrevealed: list[int] = field(default_factory=lambda: [0] * NUM_DESIGNS)
    points: list[int] = field(default_factory=list)
    pending: int = -1
    to_move: int = 0
    actions_left: int = 2
    turns: int = 0
    side1: int = -1
    side3: int = -1
    end: int = END_NONE
    setup: bool = False
    final_round: bool = False
    game_over: bool = False

    def pile_exhausted(self, pile: int) -> bool:
        return self.face_up[pile] < 0 and self.hidden[pile] == 0

    def write(self, state: PasstallyState) -> PasstallyState:
        """Make ``state``'s kernel hold this position."""
        access.restore(state.kernel, {name: getattr(self, name) for name in FIELDS})
        return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    require(isinstance(value, bool), f"field {key!r} must be true or false, not {value!r}")
    return bool(value)


def load_position(game: Game, data: Any) -> PasstallyState:
    """Build a state from position JSON, or raise ``PositionError`` naming what is wrong."""
    require(isinstance(data, Mapping), "a Passtally position must be a JSON object")
    allowed = _REQUIRED + _OPTIONAL
    uses_turns = game.options["max_turns"] is not None
    for key in data:
        if key == _TURNS:
            require(
                uses_turns,
                "field 'turns' is only used with the max_turns option (an engine guard)",
            )
            continue
        require(
            key in allowed,
            f"unknown field {key!r}; a Passtally position has: {', '.join(allowed)}",
        )
    for key in _REQUIRED:
        require(key in data, f"field {key!r} is missing")

    n = game.num_players
    players = data["players"]
    require(
        _is_int(players) and players == n,
        f"field 'players' is {players!r} but this game has players={n}",
    )
    setup = _flag(data, "setup")
    final_round = _flag(data, "final_round")
    game_over = _flag(data, "game_over")

    state = _Draft(n)
    _load_placements(state, data["placements"])
    _load_markers(state, data["markers"], n)
    _load_piles(state, data["piles"])

    scores = data["scores"]
    require(
        isinstance(scores, list) and len(scores) == n,
        f"field 'scores' must be a list of {n} integers",
    )
    for seat, value in enumerate(scores):
        require(
            _is_int(value) and value >= 0,
            f"scores[{seat}] must be an integer >= 0, not {value!r}",
        )
    state.points = list(scores)

    to_move = data["to_move"]
    require(
        to_move is None or (_is_int(to_move) and 0 <= to_move < n),
        f"field 'to_move' must be a seat 0-{n - 1} or null, not {to_move!r}",
    )
    actions_left = data["actions_left"]
    require(
        _is_int(actions_left) and 0 <= actions_left <= 2,
        f"field 'actions_left' must be 0, 1 or 2, not {actions_left!r}",
    )
    state.actions_left = actions_left
    if uses_turns:
        turns = data.get(_TURNS, 0)
        require(_is_int(turns) and turns >= 0, "field 'turns' must be an integer >= 0")
        state.turns = turns

    _check_tile_counts(state)
    state.setup = setup
    state.final_round = final_round
    state.game_over = game_over
    markers = NUM_SLOTS - state.ring.count(-1)

    # §12.3 rule 8: the setup flag.
    if setup:
        require(markers < 4 * n, f"'setup' is true but all {4 * n} markers are placed")
        require(not state.placements, "no tile can be placed during setup")
        require(all(s == 0 for s in state.points), "all scores must be 0 during setup")
        require(actions_left == 2, "'actions_left' must be 2 during setup")
        require(not final_round, "'final_round' cannot be set during setup")
        require(not game_over, "'game_over' cannot be set during setup")
    # §12.3 rule 6: pending reveals.
    awaiting = [p for p in range(NUM_PILES) if state.face_up[p] < 0 and state.hidden[p] > 0]
    if setup and markers == 0:
        require(
            awaiting == list(range(NUM_PILES - len(awaiting), NUM_PILES)),
            "during setup the piles awaiting their first reveal must be the last ones "
            f"(A, B, C order); awaiting: {', '.join(PILE_NAMES[p] for p in awaiting)}",
        )
        for p in awaiting:
            require(
                state.hidden[p] == TILES_PER_PILE,
                f"pile {PILE_NAMES[p]} awaits its first reveal, so it must hold "
                f"{TILES_PER_PILE} face-down tiles",
            )
    elif awaiting:
        names = ", ".join(PILE_NAMES[p] for p in awaiting)
        require(not setup, f"pile {names} has no face-up tile although markers are being placed")
        require(len(awaiting) == 1, f"only one pile can await a reveal; awaiting: {names}")
        require(not game_over, f"pile {names} awaits a reveal but the game is over")
        require(
            actions_left in (0, 1),
            f"pile {names} awaits a reveal, so 'actions_left' must be 0 or 1 (a placement "
            "has just been made)",
        )
    state.pending = awaiting[0] if awaiting else -1
    # §12.3 rule 7: markers.
    if setup:
        _check_setup_markers(state, to_move)
    else:
        for seat in range(n):
            count = state.ring.count(seat)
            require(count == 4, f"seat {seat} has {count} markers on the ring; it must have 4")
    # §12.3 rule 9: turn state.
    if game_over:
        require(to_move is None, "'to_move' must be null once the game is over")
        require(actions_left == 0, "'actions_left' must be 0 once the game is over")
    else:
        require(to_move is not None, "'to_move' must be a seat while the game is live")
        require(
            actions_left > 0 or state.pending >= 0,
            "'actions_left' can be 0 only while a reveal is pending",
        )
    state.to_move = -1 if to_move is None else to_move
    # §12.3 rule 10: the final-round flag.
    if final_round and not game_over:
        require(
            to_move != 0,
            "'final_round' cannot be set with seat 0 to move: the final round ends with "
            f"seat {n - 1}",
        )
    # §12.3 rule 11: trigger consistency (the legality questions asked of a kernel).
    kernel_state = state.write(PasstallyState(game))
    if not game_over and not setup:
        for seat, value in enumerate(state.points):
            require(
                value < FINAL_ROUND_SCORE or final_round,
                f"seat {seat} has {value} VP (>= {FINAL_ROUND_SCORE}) so 'final_round' must be "
                "true",
            )
        if actions_left == 2:
            for p in range(NUM_PILES):
                require(
                    not state.pile_exhausted(p) or final_round,
                    f"pile {PILE_NAMES[p]} is exhausted so 'final_round' must be true",
                )
            require(
                kernel_state.any_placement(),
                "no legal placement exists, so the game would already be over",
            )
        if state.pending < 0 and not kernel_state.legal_actions():
            raise PositionError(
                f"seat {to_move} has no legal action (no placement, every marker blocked), so "
                "the rest of the turn would already have been forfeited"
            )
        if uses_turns:
            limit = game.options["max_turns"]
            assert isinstance(limit, int)
            require(
                state.turns < limit,
                f"{state.turns} turns are completed, so the max_turns={limit} game is over",
            )
    if game_over:
        if not kernel_state.any_placement():
            state.end = END_NO_PLACEMENT
        elif final_round:
            state.end = END_FINAL_ROUND
        else:
            state.end = END_MAX_TURNS
    return state.write(kernel_state)


def _load_placements(state: _Draft, raw: Any) -> None:
    """Replay each placement through §5 rules 2-4 on the board built so far."""
    require(isinstance(raw, list), "field 'placements' must be a list")
    for index, item in enumerate(raw):
        where = f"placement {index}"
        require(
            isinstance(item, list)
            and len(item) == 3
            and all(isinstance(part, str) for part in item),
            f'{where} must be [design, cell, orientation], e.g. ["XX", "b3", "E"]',
        )
        design_name, cell_text, orient_text = item
        require(
            design_name in DESIGN_INDEX,
            f"{where}: unknown design {design_name!r}; designs are {', '.join(DESIGNS)}",
        )
        require(cell_text in CELL_INDEX, f"{where}: unknown cell {cell_text!r} (a1-f6)")
        require(
            len(orient_text) == 1 and orient_text in ORIENT_NAMES,
            f"{where}: unknown orientation {orient_text!r} (E, S, W or N)",
        )
        design = DESIGN_INDEX[design_name]
        anchor = CELL_INDEX[cell_text]
        k = ORIENT_NAMES.index(orient_text)
        label = f"{where} `{design_name} {cell_text}{orient_text}`"
        other = OTHER_CELL[anchor * 4 + k]
        require(other >= 0, f"{label}: part of the tile is off the board")
        ha, hb = state.height[anchor], state.height[other]
        require(
            ha == hb,
            f"{label}: different heights ({cell_text} is {ha}, {CELL_NAMES[other]} is {hb})",
        )
        require(
            ha == 0 or state.tid[anchor] != state.tid[other],
            f"{label}: rests exactly on one tile (placement {state.tid[anchor]})",
        )
        if SYMMETRIC[design] and k >= 2:
            anchor, other, k = other, anchor, k - 2  # canonical spelling, same board
        shape_a, shape_b = PLACED_SHAPES[design * 4 + k]
        tile = len(state.placements)
        state.placements.append((design, anchor, k))
        for cell, shape in ((anchor, shape_a), (other, shape_b)):
            state.height[cell] += 1
            state.tid[cell] = tile
            state.shape[cell] = shape


def _load_markers(state: _Draft, raw: Any, n: int) -> None:
    require(isinstance(raw, Mapping), "field 'markers' must be an object slot -> seat")
    for key, seat in raw.items():
        require(
            isinstance(key, str) and key.isdigit() and str(int(key)) == key and int(key) < 24,
            f'markers: {key!r} is not a slot; slots are "0"-"23"',
        )
        require(
            _is_int(seat) and 0 <= seat < n,
            f"markers: slot {key} holds {seat!r}, which is not a seat 0-{n - 1}",
        )
        state.ring[int(key)] = seat


def _load_piles(state: _Draft, raw: Any) -> None:
    require(isinstance(raw, list) and len(raw) == NUM_PILES, "field 'piles' must list 3 piles")
    for p, pile in enumerate(raw):
        name = f"pile {PILE_NAMES[p]}"
        require(
            isinstance(pile, Mapping) and set(pile) == {"face_up", "hidden"},
            f"{name} must be an object with exactly 'face_up' and 'hidden'",
        )
        face_up, hidden = pile["face_up"], pile["hidden"]
        require(
            face_up is None or (isinstance(face_up, str) and face_up in DESIGN_INDEX),
            f"{name}: face_up {face_up!r} is not a design ({', '.join(DESIGNS)}) or null",
        )
        require(
            _is_int(hidden) and hidden >= 0,
            f"{name}: hidden must be an integer >= 0, not {hidden!r}",
        )
        state.face_up[p] = -1 if face_up is None else DESIGN_INDEX[face_up]
        state.hidden[p] = hidden
        size = hidden + (face_up is not None)
        require(
            size <= TILES_PER_PILE,
            f"{name} holds {size} tiles; a pile has at most {TILES_PER_PILE}",
        )


def _check_tile_counts(state: _Draft) -> None:
    """§12.3 rules 3-4: the 42 tiles, 7 per design, are all accounted for."""
    placed = [0] * NUM_DESIGNS
    for design, _, _ in state.placements:
        placed[design] += 1
    face = [0] * NUM_DESIGNS
    for design in state.face_up:
        if design >= 0:
            face[design] += 1
    for d in range(NUM_DESIGNS):
        require(
            placed[d] + face[d] <= TILES_PER_DESIGN,
            f"design {DESIGNS[d]}: {placed[d]} placed + {face[d]} face up is more than the "
            f"{TILES_PER_DESIGN} tiles of that design",
        )
        state.unrevealed[d] = TILES_PER_DESIGN - placed[d] - face[d]
    total = len(state.placements) + sum(face) + sum(state.hidden)
    require(
        total == TOTAL_TILES,
        f"the tiles do not add up: {len(state.placements)} placed + {sum(face)} face up + "
        f"{sum(state.hidden)} face down = {total}, not {TOTAL_TILES}",
    )


def _check_setup_markers(state: _Draft, to_move: int | None) -> None:
    """§12.3 rule 7 during setup: the markers are a prefix of the snake order, and
    ``to_move`` is the next placer. Sets the chosen sides (``side1``, ``side3``)."""
    n = state.n
    placed = NUM_SLOTS - state.ring.count(-1)
    full, partial = divmod(placed, n)
    actual: list[list[int]] = [[] for _ in range(4)]
    for slot, seat in enumerate(state.ring):
        if seat >= 0:
            actual[slot // SIZE].append(seat)
    found = False
    for side1 in range(4):
        for side3 in ((side1 + 1) % 4, (side1 + 3) % 4):
            sides = (side1, (side1 + 2) % 4, side3, (side3 + 2) % 4)
            expected: list[list[int]] = [[] for _ in range(4)]
            for q in range(full):
                expected[sides[q]] = list(range(n))
            if partial:
                expected[sides[full]] = setup_order(full, n)[:partial]
            if all(sorted(actual[s]) == sorted(expected[s]) for s in range(4)):
                state.side1 = side1 if placed > 0 else -1
                state.side3 = side3 if placed > 2 * n else -1
                found = True
                break
        if found:
            break
    if not found:
        detail = "; ".join(
            f"{SIDE_NAMES[s]} side: seats {sorted(actual[s])}" for s in range(4) if actual[s]
        )
        raise PositionError(
            "the setup markers are not a valid prefix of the snake order (one marker per "
            f"seat per side; passes 1-2 and 3-4 on opposite sides): {detail}"
        )
    expected_placer = setup_order(full, n)[partial]
    require(
        to_move == expected_placer,
        f"'to_move' must be seat {expected_placer}, the next marker placer, not {to_move!r}",
    )
