"""Position JSON (spec §12): export, and loading with every validation rule of §12.3.

Loading never trusts the input: placements are replayed one by one through the placement rules
(so heights, top tiles and levels are derived, never stated), tile counts are checked against
the 42-tile box, and the setup, turn and end-of-game fields must describe a position the rules
can reach. Every rejection is a ``PositionError`` whose message names the offending item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardplay.core.errors import PositionError
from boardplay.core.fields import Field, read
from boardplay.core.game import Game, require
from boardplay.games.passtally import fields
from boardplay.games.passtally.fields import FIELDS
from boardplay.games.passtally.layout import (
    END_FINAL_ROUND,
    END_MAX_TURNS,
    END_NO_PLACEMENT,
    END_NONE,
    FINAL_ROUND_SCORE,
    NUM_CELLS,
    NUM_DESIGNS,
    NUM_PILES,
    NUM_SLOTS,
    SIZE,
    TILES_PER_DESIGN,
    TILES_PER_PILE,
    TOTAL_TILES,
)
from boardplay.games.passtally.state import PasstallyState, new_kernel, setup_order
from boardplay.games.passtally.tables import (
    CELL_NAMES,
    DESIGNS,
    ORIENT_NAMES,
    OTHER_CELL,
    PILE_NAMES,
    PLACED_SHAPES,
    SIDE_NAMES,
    SYMMETRIC,
)

_REQUIRED = ("players", "placements", "markers", "piles", "scores", "to_move", "actions_left")
_OPTIONAL = ("setup", "final_round", "game_over")
_TURNS = "turns"
"""Engine-guard key: completed turns, present exactly when the ``max_turns`` option is set."""


def export_position(state: PasstallyState) -> dict[str, Any]:
    """The canonical position JSON: keys in the spec's order, optional flags only when true,
    markers by slot, placements in canonical spelling."""
    f = fields.snapshot(state.kernel)
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
    """The position being loaded, in the kernel's fields (``fields.FIELDS``), built and checked
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
        fields.load(state.kernel, {name: getattr(self, name) for name in FIELDS})
        return state


def load_position(game: Game, data: Any) -> PasstallyState:
    """Build a state from position JSON, or raise ``PositionError`` naming what is wrong."""
    top = read(data)
    uses_turns = game.options["max_turns"] is not None
    allowed = _REQUIRED + _OPTIONAL + ((_TURNS,) if uses_turns else ())
    if not uses_turns and top.has(_TURNS):
        raise top.member(_TURNS).error("is only used with the max_turns option (an engine guard)")
    top.keys(allowed, required=_REQUIRED)

    n = game.num_players
    top.member("players").choice((n,), f"{n}, the players of this game (players={n})")
    setup = top.optional("setup", False).boolean()
    final_round = top.optional("final_round", False).boolean()
    game_over = top.optional("game_over", False).boolean()

    state = _Draft(n)
    _load_placements(state, top.member("placements"))
    _load_markers(state, top.member("markers"), n)
    _load_piles(state, top.member("piles"))
    state.points = [entry.integer(0) for entry in top.member("scores").items(n)]
    to_move = top.member("to_move").optional_integer(0, n - 1)
    actions_left = top.member("actions_left").integer(0, 2)
    state.actions_left = actions_left
    if uses_turns:
        state.turns = top.optional(_TURNS, 0).integer(0)

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
    if to_move is None:
        # The seat whose turn it was when the game ended, which the JSON does not keep: the
        # last seat after a final round, else the seat of the last turn counted.
        to_move = n - 1 if final_round else (state.turns - 1) % n
    state.to_move = to_move
    # §12.3 rule 10: the final-round flag.
    if final_round and not game_over:
        require(
            to_move != 0,
            "'final_round' cannot be set with seat 0 to move: the final round ends with "
            f"seat {n - 1}",
        )
    # §12.3 rule 11: trigger consistency (the legality questions asked of a kernel).
    kernel_state = state.write(PasstallyState(game, new_kernel(game)))
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
            limit = game.int_option("max_turns")
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


def _load_placements(state: _Draft, field: Field) -> None:
    """Replay each placement through §5 rules 2-4 on the board built so far."""
    for entry in field.items():
        parts = entry.items(3)
        design = parts[0].index(DESIGNS, "a design name (" + ", ".join(DESIGNS) + ")")
        anchor = parts[1].index(CELL_NAMES, "a cell a1-f6")
        k = parts[2].index(ORIENT_NAMES, "an orientation (E, S, W or N)")
        design_name, cell_text, orient_text = DESIGNS[design], CELL_NAMES[anchor], ORIENT_NAMES[k]
        label = f"`{design_name} {cell_text}{orient_text}`"
        other = OTHER_CELL[anchor * 4 + k]
        entry.require(other >= 0, f"{label}: part of the tile is off the board")
        ha, hb = state.height[anchor], state.height[other]
        entry.require(
            ha == hb,
            f"{label}: different heights ({cell_text} is {ha}, {CELL_NAMES[other]} is {hb})",
        )
        entry.require(
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


_SLOT_NAMES = tuple(str(slot) for slot in range(NUM_SLOTS))


def _load_markers(state: _Draft, field: Field, n: int) -> None:
    for key, entry in field.members():
        entry.require(key in _SLOT_NAMES, 'is not a slot; slots are "0"-"23"')
        state.ring[int(key)] = entry.integer(0, n - 1)


def _load_piles(state: _Draft, field: Field) -> None:
    for p, pile in enumerate(field.items(NUM_PILES)):
        pile.exact_keys(("face_up", "hidden"))
        face_up = pile.member("face_up")
        if face_up.value is not None:
            state.face_up[p] = face_up.index(DESIGNS, "a design name or null")
        hidden = pile.member("hidden").integer(0)
        state.hidden[p] = hidden
        size = hidden + (face_up.value is not None)
        pile.require(
            size <= TILES_PER_PILE,
            f"pile {PILE_NAMES[p]} holds {size} tiles; a pile has at most {TILES_PER_PILE}",
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
