"""The rules of Proteus: legal actions, applying a turn, activation, wins and draws (spec §4-§7).

A state is a handful of flat int lists (tile and piece per cell, cell per tile and piece, the
active tile per colour) plus counters, so ``clone()`` copies a few dozen ints (and the history).
The active flag is stored per colour as a tile id, not per cell: a trade moves tiles between
cells, and the flag travels with its tile for free (spec §5.1, I21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import TERMINAL, State
from boardplay.games._legacy.proteus.board import (
    BLUE,
    CELLS,
    COLOUR_ROLES,
    COLOUR_WORDS,
    LINE_MASKS,
    MOVE_BASE,
    MOVE_ID,
    MOVE_OF,
    MOVE_TARGETS,
    NONE,
    NUM_ACTIONS,
    PASS,
    PIECE_BASE,
    PLAYER_WORDS,
    RED,
    RULE_NAMES,
    SHAPE_WORDS,
    TILES,
    TRADE_BASE,
    TRADE_ID,
    TRADE_PAIRS,
    YELLOW,
)
from boardplay.games._legacy.proteus.feasibility import feasible, placeable_tiles
from boardplay.games._legacy.proteus.notation import ACTION_NAMES, parse

if TYPE_CHECKING:
    from boardplay.games._legacy.proteus.game import ProteusGame

ONGOING = -1
DRAW = 2
"""``_outcome`` values besides a winning seat (0 Black, 1 White)."""

_THREE_IN_LINE_TILE = 6
_COLOR_GOAL_TILE = 7
_POLARITY_TILE = 3
_COLOR_TRADE_TILE = 4


def position_key(tiles: list[int], pieces: list[int], active: list[int], to_move: int) -> int:
    """Position identity (§10.6) as one int: board with active marks plus the side to move;
    the pass counter is deliberately not part of it."""
    key = to_move
    for cell in range(9):
        tile = tiles[cell]
        code = (tile + 1) | ((pieces[cell] + 1) << 5)
        if tile >= 0 and active[tile // 3] == tile:
            code |= 16
        key = (key << 8) | code
    return key


class ProteusState(State):
    """A Proteus position with its game's options, turn counter, history and (with
    ``repetition="forbid"``) the set of positions that have occurred."""

    __slots__ = (
        "_active",
        "_history",
        "_legal",
        "_outcome",
        "_passes",
        "_pieces",
        "_seen",
        "_tile_cell",
        "_tiles",
        "_to_move",
        "_turns",
        "_unplaced",
        "_where",
        "game",
    )

    game: ProteusGame

    def __init__(self, game: ProteusGame) -> None:
        """The setup of §3: empty board, all tiles in the pool, Black to move."""
        self.game = game
        self._tiles = [NONE] * 9  # cell -> tile id
        self._pieces = [NONE] * 9  # cell -> piece id
        self._tile_cell = [NONE] * 9  # tile id -> cell (NONE: in the pool)
        self._where = [NONE] * 6  # piece id -> cell (NONE: in its owner's hand)
        self._active = [NONE] * 3  # colour -> active tile id (NONE: colour missing)
        self._to_move = 0
        self._passes = 0
        self._turns = 0
        self._unplaced = 15
        self._outcome = ONGOING
        self._history: list[int] = []
        self._seen: set[int] | None = None
        self._legal: list[int] | None = None

    def _start(self) -> None:
        """Finish construction of a new or loaded state: seed the repetition table with the
        starting position and apply the immediate kadon draw of §5.4 / D30."""
        if self.game.forbid:
            self._seen = {self.key()}
        self._check_kadon_stuck()

    # ----- reading the position -------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def passes(self) -> int:
        return self._passes

    @property
    def turns(self) -> int:
        """Turns played since the start or the loaded position (the ``max_turns`` counter)."""
        return self._turns

    @property
    def unplaced(self) -> int:
        """U: pool tiles plus pieces in both hands; the placement phase lasts while U > 0."""
        return self._unplaced

    @property
    def in_placement(self) -> bool:
        return self._unplaced > 0

    def tile_at(self, cell: int) -> int:
        return self._tiles[cell]

    def piece_at(self, cell: int) -> int:
        return self._pieces[cell]

    def cell_of_tile(self, tile: int) -> int:
        return self._tile_cell[tile]

    def cell_of_piece(self, piece: int) -> int:
        return self._where[piece]

    def active_tile(self, colour: int) -> int:
        """The active tile of ``colour`` (0 red, 1 blue, 2 yellow), or -1 if it is missing."""
        return self._active[colour]

    def is_active(self, tile: int) -> bool:
        return tile >= 0 and self._active[tile // 3] == tile

    def key(self) -> int:
        """Position identity (§10.6) of this state."""
        return position_key(self._tiles, self._pieces, self._active, self._to_move)

    def satisfies_goal(self, player: int) -> bool:
        """Whether ``player`` meets the active GOAL rule now (§7.4); never with fewer than three
        pieces on the board or with no active GOAL tile."""
        goal = self._active[YELLOW]
        if goal < 0:
            return False
        base = 3 * player
        where = self._where
        a, b, c = where[base], where[base + 1], where[base + 2]
        if a < 0 or b < 0 or c < 0:
            return False
        if goal == _THREE_IN_LINE_TILE:
            return ((1 << a) | (1 << b) | (1 << c)) in LINE_MASKS
        tiles = self._tiles
        if goal == _COLOR_GOAL_TILE:
            return tiles[a] // 3 == tiles[b] // 3 == tiles[c] // 3
        return tiles[a] % 3 == tiles[b] % 3 == tiles[c] % 3

    # ----- contract: who acts ---------------------------------------------------------------
    def current_player(self) -> int:
        return self._to_move if self._outcome == ONGOING else TERMINAL

    def is_terminal(self) -> bool:
        return self._outcome != ONGOING

    def returns(self) -> list[float]:
        outcome = self._outcome
        if outcome == ONGOING:
            return [0.0, 0.0]
        if outcome == DRAW:
            return [0.5, 0.5]
        return [1.0, 0.0] if outcome == 0 else [0.0, 1.0]

    @property
    def outcome(self) -> str:
        """``ongoing``, ``black-wins``, ``white-wins`` or ``draw`` (the scenario vocabulary)."""
        return ("black-wins", "white-wins", "draw", "ongoing")[self._outcome]

    def end_reason(self) -> str | None:
        """Why the game ended, derived from the final position (§7)."""
        if self._outcome == ONGOING:
            return None
        if self._outcome != DRAW:
            return "goal met by one player only"
        game = self.game
        if not game.kadon and self._passes >= 2:
            return "both players passed"
        if game.max_turns is not None and self._turns >= game.max_turns:
            return "turn limit (max_turns)"
        return "no legal action (kadon)"

    def history(self) -> list[int]:
        return list(self._history)

    # ----- legal actions (§5.5) -------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[int]:
        """The pipeline of §5.5: candidates, repetition filter (movement, ``forbid``), seed
        forcing, then ``pass`` if nothing is left (or, kadon movement, nothing at all)."""
        if self._outcome != ONGOING:
            return []
        game = self.game
        if self._unplaced > 0:
            actions = self._placement_candidates()
            if not game.kadon and self._unplaced <= 6 and NONE in self._active:
                forced = [a for a in actions if self._activates_missing(a)]
                if forced:
                    actions = forced
        else:
            actions = self._movement_candidates()
            if game.forbid:
                actions = self._without_repeats(actions)
            if not game.kadon and NONE in self._active:
                forced = [a for a in actions if self._activates_missing(a)]
                if forced:
                    actions = forced
            if not actions and game.kadon:
                return []  # no movement pass under kadon: _check_kadon_stuck draws the game
        return actions if actions else [PASS]

    def _placement_candidates(self) -> list[int]:
        """Tile placements onto empty cells and own piece placements onto vacant tiles (§4.1),
        with the kadon restrictions of §4.2 and §4.4 applied."""
        tiles = self._tiles
        pieces = self._pieces
        tile_cell = self._tile_cell
        out: list[int] = []
        empties = [c for c in range(9) if tiles[c] < 0]
        if empties:
            for tile in range(9):
                if tile_cell[tile] < 0:
                    base = tile * 9
                    out.extend([base + c for c in empties])
        vacant = [c for c in range(9) if tiles[c] >= 0 and pieces[c] < 0]
        base_piece = 3 * self._to_move
        where = self._where
        if self.game.kadon:
            open_tiles, counts, missing = self._kadon_budget()
            key = (counts[0], counts[1], counts[2])
        for shape in range(3):
            if where[base_piece + shape] >= 0:
                continue
            base = PIECE_BASE + shape * 9
            if self.game.kadon:
                allowed = placeable_tiles(key, open_tiles, missing, shape)
                out.extend(base + c for c in vacant if allowed >> tiles[c] & 1)
            else:
                out.extend(base + c for c in vacant)
        return out

    def _kadon_budget(self) -> tuple[int, list[int], int]:
        """(open tile mask, shape counts of all pieces in hand, missing colour mask) for §4.4."""
        open_tiles = 0
        for tile in range(9):
            cell = self._tile_cell[tile]
            if cell < 0 or self._pieces[cell] < 0:
                open_tiles |= 1 << tile
        counts = [0, 0, 0]
        for piece in range(6):
            if self._where[piece] < 0:
                counts[piece % 3] += 1
        missing = 0
        for colour in range(3):
            if self._active[colour] < 0:
                missing |= 1 << colour
        return open_tiles, counts, missing

    def _kadon_allows(self, shape: int, cell: int) -> bool:
        """§4.4: not a match on an active colour, and still feasible afterwards."""
        open_tiles, counts, missing = self._kadon_budget()
        allowed = placeable_tiles((counts[0], counts[1], counts[2]), open_tiles, missing, shape)
        return bool(allowed >> self._tiles[cell] & 1)

    def kadon_feasible(self) -> bool:
        """Whether this (placement-phase) position satisfies the feasibility rule of §4.4."""
        open_tiles, counts, missing = self._kadon_budget()
        return feasible((counts[0], counts[1], counts[2]), open_tiles, missing)

    def _movement_candidates(self) -> list[int]:
        """Piece moves under the active MOVE rule (§6.2) and trades under the active TRADE rule
        (§6.3), before the repetition filter and forcing."""
        out: list[int] = []
        pieces = self._pieces
        move_tile = self._active[RED]
        if move_tile >= 0:
            targets = MOVE_TARGETS[move_tile]  # Rc, Rs, Rt are tiles 0, 1, 2 = KING, ROOK, B/K
            base = 3 * self._to_move
            for piece in range(base, base + 3):
                src = self._where[piece]
                row = MOVE_ID[src]
                for dst in targets[src]:
                    if pieces[dst] < 0:
                        out.append(row[dst])
        trade_tile = self._active[BLUE]
        if trade_tile >= 0:
            where = self._where
            if trade_tile == _POLARITY_TILE:
                for black in where[0:3]:
                    row = TRADE_ID[black]
                    out.extend(row[white] for white in where[3:6])
            else:
                tile_cell = self._tile_cell
                if trade_tile == _COLOR_TRADE_TILE:
                    groups = [tile_cell[3 * k : 3 * k + 3] for k in range(3)]
                else:
                    groups = [tile_cell[k::3] for k in range(3)]
                for a, b, c in groups:
                    out.append(TRADE_ID[a][b])
                    out.append(TRADE_ID[a][c])
                    out.append(TRADE_ID[b][c])
        out.sort()
        return out

    def _activations(self, action: int) -> list[int]:
        """The tiles that a movement action activates (§5.2): new matches on tiles that are not
        already active; two such matches of one colour cancel. Computed before applying."""
        tiles = self._tiles
        pieces = self._pieces
        active = self._active
        if action < TRADE_BASE:
            src, dst = MOVE_OF[action]
            tile = tiles[dst]
            if pieces[src] % 3 == tile % 3 and active[tile // 3] != tile:
                return [tile]
            return []
        i, j = TRADE_PAIRS[action - TRADE_BASE]
        found: list[int] = []
        for cell, new_tile in ((i, tiles[j]), (j, tiles[i])):
            piece = pieces[cell]
            if piece >= 0 and piece % 3 == new_tile % 3 and active[new_tile // 3] != new_tile:
                found.append(new_tile)
        if len(found) == 2 and found[0] // 3 == found[1] // 3:
            return []
        return found

    def _activates_missing(self, action: int) -> bool:
        """Whether ``action`` is *activating* (§4.3, D9): it gives a colour that is missing now
        an active tile. No-flip placements and cancelled double matches are not."""
        active = self._active
        if action < PIECE_BASE:
            return False
        if action < MOVE_BASE:
            shape, cell = divmod(action - PIECE_BASE, 9)
            tile = self._tiles[cell]
            return tile % 3 == shape and active[tile // 3] < 0
        if action == PASS:
            return False
        return any(active[tile // 3] < 0 for tile in self._activations(action))

    def _key_after(self, action: int, key: int | None = None) -> int:
        """Position identity after a movement action, for the repetition filter. Starts from
        ``key`` (this position's key) and rewrites only the bytes of the cells the action
        touches: the two cells of the move or trade and the cell of any tile it deactivates."""
        if key is None:
            key = self.key()
        tiles = self._tiles
        pieces = self._pieces
        active = self._active.copy()
        newly = self._activations(action)
        changed: dict[int, tuple[int, int]] = {}
        if action < TRADE_BASE:
            src, dst = MOVE_OF[action]
            changed[src] = (tiles[src], NONE)
            changed[dst] = (tiles[dst], pieces[src])
        else:
            i, j = TRADE_PAIRS[action - TRADE_BASE]
            changed[i] = (tiles[j], pieces[i])
            changed[j] = (tiles[i], pieces[j])
        for tile in newly:
            old = active[tile // 3]
            if old >= 0:
                cell = self._tile_cell[old]
                changed.setdefault(cell, (tiles[cell], pieces[cell]))
            active[tile // 3] = tile
        key ^= 1 << 72  # the side to move sits above the nine cell bytes
        for cell, (tile, piece) in changed.items():
            code = (tile + 1) | ((piece + 1) << 5)
            if tile >= 0 and active[tile // 3] == tile:
                code |= 16
            shift = 8 * (8 - cell)
            key = (key & ~(0xFF << shift)) | (code << shift)
        return key

    def _without_repeats(self, actions: list[int]) -> list[int]:
        seen = self._seen
        if not seen:
            return actions
        key = self.key()
        return [a for a in actions if self._key_after(a, key) not in seen]

    # ----- applying a turn (§7.1) -----------------------------------------------------------
    def apply_action(self, action: int) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action))
        game = self.game
        began_in_movement = self._unplaced == 0
        mover = self._to_move
        self._passes = self._passes + 1 if action == PASS else 0
        self._turns += 1
        active = self._active
        if action < PIECE_BASE:
            tile, cell = divmod(action, 9)
            self._tiles[cell] = tile
            self._tile_cell[tile] = cell
            self._unplaced -= 1
        elif action < MOVE_BASE:
            shape, cell = divmod(action - PIECE_BASE, 9)
            piece = 3 * mover + shape
            self._pieces[cell] = piece
            self._where[piece] = cell
            self._unplaced -= 1
            tile = self._tiles[cell]
            # §4.2: a match activates a missing colour; on an active colour it is a no-flip
            # placement under seed (kadon has already excluded it).
            if tile % 3 == shape and active[tile // 3] < 0:
                active[tile // 3] = tile
        elif action < PASS:
            newly = self._activations(action)
            if action < TRADE_BASE:
                src, dst = MOVE_OF[action]
                piece = self._pieces[src]
                self._pieces[dst] = piece
                self._pieces[src] = NONE
                self._where[piece] = dst
            else:
                i, j = TRADE_PAIRS[action - TRADE_BASE]
                tiles = self._tiles
                ti, tj = tiles[i], tiles[j]
                tiles[i], tiles[j] = tj, ti
                self._tile_cell[ti] = j
                self._tile_cell[tj] = i
            for tile in newly:
                active[tile // 3] = tile
        self._history.append(action)
        self._legal = None
        if (game.kadon or began_in_movement) and active[YELLOW] >= 0:
            black = self.satisfies_goal(0)
            if black != self.satisfies_goal(1):
                self._outcome = 0 if black else 1
                return
        if not game.kadon and self._passes >= 2:
            self._outcome = DRAW
            return
        if game.max_turns is not None and self._turns >= game.max_turns:
            self._outcome = DRAW
            return
        self._to_move = 1 - mover
        if self._seen is not None:
            self._seen.add(self.key())
        self._check_kadon_stuck()

    def _check_kadon_stuck(self) -> None:
        """§5.4 (kadon): a movement-phase player with no legal action ends the game in a draw
        before any turn is played. With repetition="none" an active TRADE tile always offers
        nine trades, so the search is skipped then."""
        game = self.game
        if not game.kadon or self._unplaced > 0 or self._outcome != ONGOING:
            return
        if not game.forbid and self._active[BLUE] >= 0:
            return
        legal = self._compute_legal()
        if not legal:
            self._outcome = DRAW
        self._legal = legal

    # ----- explaining illegal actions -------------------------------------------------------
    def _why_illegal(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            return f"{action!r} is not a Proteus action id (an integer 0..{NUM_ACTIONS - 1})"
        if not 0 <= action < NUM_ACTIONS:
            return f"action id {action} is outside Proteus's action space 0..{NUM_ACTIONS - 1}"
        name = ACTION_NAMES[action]
        if self._outcome != ONGOING:
            return f"{name} is not possible: the game is over ({self.outcome})"
        reason = self._basic_reason(action)
        if reason is None:
            repeats = (
                self._unplaced == 0
                and self._seen is not None
                and action != PASS
                and self._key_after(action) in self._seen
            )
            if repeats:
                reason = (
                    "it would recreate a position that has already occurred (repetition=forbid)"
                )
            if reason is None:
                reason = (
                    "the forcing rule requires an action that activates a missing colour "
                    f"({self._missing_text()}); legal now: {self._legal_text()}"
                )
        return f"{name} is illegal: {reason}"

    def _legal_text(self) -> str:
        legal = self.legal_actions()
        shown = ", ".join(ACTION_NAMES[a] for a in legal[:30])
        return shown + (f" (and {len(legal) - 30} more)" if len(legal) > 30 else "")

    def _missing_text(self) -> str:
        missing = [COLOUR_WORDS[k] for k in range(3) if self._active[k] < 0]
        return "missing: " + ", ".join(missing)

    def _basic_reason(self, action: int) -> str | None:
        """Why ``action`` is not even a candidate (§5.5 step 1), or None if it is one."""
        placement = self._unplaced > 0
        mover = self._to_move
        if action == PASS:
            legal = self._legal_text()
            return f"a pass is allowed only when no other action is legal; legal now: {legal}"
        if action < PIECE_BASE:
            tile, cell = divmod(action, 9)
            if not placement:
                return "tiles are placed only in the placement phase; the board is complete"
            if self._tile_cell[tile] >= 0:
                return (
                    f"tile {TILES[tile]} is already on the board at {CELLS[self._tile_cell[tile]]}"
                )
            if self._tiles[cell] >= 0:
                held = TILES[self._tiles[cell]]
                return f"{CELLS[cell]} already holds tile {held}; tiles go only on empty cells"
            return None
        if action < MOVE_BASE:
            shape, cell = divmod(action - PIECE_BASE, 9)
            piece = 3 * mover + shape
            who = f"{PLAYER_WORDS[mover]}'s {SHAPE_WORDS[shape]}"
            if not placement:
                return "pieces are placed only in the placement phase; all pieces are on the board"
            if self._where[piece] >= 0:
                return f"{who} is already on the board at {CELLS[self._where[piece]]}"
            tile = self._tiles[cell]
            if tile < 0:
                return f"{CELLS[cell]} has no tile; a piece goes only on a vacant tile"
            if self._pieces[cell] >= 0:
                return f"the tile at {CELLS[cell]} already holds a piece"
            if self.game.kadon:
                colour = tile // 3
                if tile % 3 == shape and self._active[colour] >= 0:
                    return (
                        f"under rules=kadon a {SHAPE_WORDS[shape]} may not go on {TILES[tile]}: "
                        f"{COLOUR_WORDS[colour]} already has an active tile "
                        f"({TILES[self._active[colour]]})"
                    )
                if not self._kadon_allows(shape, cell):
                    return (
                        "under rules=kadon it would make it impossible to activate exactly one "
                        "tile of each colour by the end of the placement phase"
                    )
            return None
        if placement:
            return "pieces move and tiles trade only in the movement phase, after all placements"
        if action < TRADE_BASE:
            src, dst = MOVE_OF[action]
            piece = self._pieces[src]
            if piece < 0 or piece // 3 != mover:
                return f"there is no {PLAYER_WORDS[mover]} piece on {CELLS[src]}"
            move_tile = self._active[RED]
            if move_tile < 0:
                return "no MOVE tile is active, so no piece can move"
            if self._pieces[dst] >= 0:
                return f"{CELLS[dst]} is occupied; a piece moves only to a vacant tile"
            if dst not in MOVE_TARGETS[move_tile][src]:
                rule = RULE_NAMES[move_tile]
                return f"the MOVE rule {rule} does not go from {CELLS[src]} to {CELLS[dst]}"
            return None
        i, j = TRADE_PAIRS[action - TRADE_BASE]
        trade_tile = self._active[BLUE]
        if trade_tile < 0:
            return "no TRADE tile is active, so no tiles can be traded"
        if action not in self._movement_candidates():
            ti, tj = self._tiles[i], self._tiles[j]
            return (
                f"the TRADE rule {RULE_NAMES[trade_tile]} does not allow swapping "
                f"{TILES[ti]} at {CELLS[i]} with {TILES[tj]} at {CELLS[j]}"
            )
        return None

    # ----- notation -------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise IndexError(f"{action!r} is not a Proteus action id")
        if not 0 <= action < NUM_ACTIONS:
            raise IndexError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
        return ACTION_NAMES[action]

    def string_to_action(self, text: str) -> int:
        """Parse notation (a reversed trade or a bare id included). A well-formed action that
        is not legal here raises ``IllegalActionError`` saying why, not just "not legal"."""
        action = parse(text)
        if action is None:
            if text.strip().isdigit():
                return super().string_to_action(text)
            raise IllegalActionError(
                f"{text!r} is not Proteus notation; write a tile placement (Rc@b2), a piece "
                "placement (s@b2), a move (b2-c3), a trade of two different cells (a1~c3) or pass"
            )
        if action in self.legal_actions():
            return action
        raise IllegalActionError(self._why_illegal(action))

    def _parse_alternative(self, text: str) -> int | None:
        """Accept a trade with its cells in non-canonical order (``c3~a1`` for ``a1~c3``)."""
        return parse(text)

    # ----- copying --------------------------------------------------------------------------
    def clone(self) -> ProteusState:
        other = ProteusState.__new__(ProteusState)
        other.game = self.game
        other._tiles = self._tiles.copy()
        other._pieces = self._pieces.copy()
        other._tile_cell = self._tile_cell.copy()
        other._where = self._where.copy()
        other._active = self._active.copy()
        other._to_move = self._to_move
        other._passes = self._passes
        other._turns = self._turns
        other._unplaced = self._unplaced
        other._outcome = self._outcome
        other._history = self._history.copy()
        other._seen = None if self._seen is None else set(self._seen)
        other._legal = self._legal  # never mutated in place; replaced after every action
        return other

    # ----- positions, pictures, tensors -----------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        from boardplay.games._legacy.proteus.position import export

        return export(self)

    def render(self, detail: bool = False) -> str:
        from boardplay.games._legacy.proteus.render import render

        return render(self, detail)

    def rules_in_force(self) -> list[str]:
        """One line per colour: the active rule and where its tile lies, or "missing"."""
        lines = []
        for colour in range(3):
            tile = self._active[colour]
            role = COLOUR_ROLES[colour]
            if tile < 0:
                lines.append(f"{role}: none ({COLOUR_WORDS[colour]} missing)")
            else:
                cell = CELLS[self._tile_cell[tile]]
                lines.append(f"{role}: {RULE_NAMES[tile]} ({TILES[tile]} at {cell})")
        return lines

    def observation_tensor(self, player: int) -> list[float]:
        """Flat encoding from ``player``'s view; layout in docs/formats/proteus.md.

        0-80 tile id t at cell c (t*9+c); 81-89 active flag per cell; 90-143 pieces: planes
        own circle/square/triangle then opponent's (plane*9+cell); 144-152 pool tiles;
        153-158 own hand c/s/t then opponent's; 159-161 colour missing (red, blue, yellow);
        162 movement phase; 163 ``player`` is to move; 164 one pass pending.
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 (Black) or 1 (White), got {player!r}")
        out = [0.0] * 165
        tiles = self._tiles
        pieces = self._pieces
        active = self._active
        for cell in range(9):
            tile = tiles[cell]
            if tile >= 0:
                out[tile * 9 + cell] = 1.0
                if active[tile // 3] == tile:
                    out[81 + cell] = 1.0
            piece = pieces[cell]
            if piece >= 0:
                plane = piece % 3 if piece // 3 == player else 3 + piece % 3
                out[90 + plane * 9 + cell] = 1.0
        for tile in range(9):
            if self._tile_cell[tile] < 0:
                out[144 + tile] = 1.0
        for piece in range(6):
            if self._where[piece] < 0:
                slot = piece % 3 if piece // 3 == player else 3 + piece % 3
                out[153 + slot] = 1.0
        for colour in range(3):
            if active[colour] < 0:
                out[159 + colour] = 1.0
        out[162] = 1.0 if self._unplaced == 0 else 0.0
        out[163] = 1.0 if self._outcome == ONGOING and self._to_move == player else 0.0
        out[164] = float(self._passes)
        return out
