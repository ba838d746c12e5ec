"""The rules of Passtally (spec §3-§9): setup, the two-action turn, placement legality, marker
moves, line tracing and scoring, the end of the game, and the tile reveals as chance nodes.

The state is a handful of flat int lists (heights, top-tile ids and shapes per cell; the ring;
pile counts; scores) plus a few scalars, so ``clone`` is a few list copies. No order of the
face-down tiles exists anywhere: a reveal's probabilities come from the unrevealed composition
(7 of each design minus those placed and face up), which is exactly a fair shuffle (§9).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import CHANCE, TERMINAL, State
from boardplay.games._legacy.passtally import notation
from boardplay.games._legacy.passtally.geometry import (
    ACTIONS_PER_TURN,
    ALL_FOOTPRINT,
    ALL_OFFSETS,
    CANONICAL_OFFSETS,
    DESIGNS,
    EDGE_SLOT,
    FINAL_ROUND_SCORE,
    FOOTPRINTS,
    MOVE_BASE,
    MOVE_STEPS,
    NEIGHBOUR,
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_DESIGNS,
    NUM_PILES,
    NUM_SLOTS,
    OTHER_CELL,
    PARTNER,
    PILE_NAMES,
    PLACE_BASE,
    PLACE_PER_PILE,
    PLACED_SHAPES,
    SIDE_NAMES,
    SIZE,
    SLOT_CELL,
    SLOT_FACE,
    SYMMETRIC,
    TILES_PER_DESIGN,
    TILES_PER_PILE,
    cell_name,
    vp_for_passes,
)

if TYPE_CHECKING:
    from boardplay.games._legacy.passtally.game import PasstallyGame

# Why a finished game ended (for ``end_reason``).
END_NONE, END_NO_PLACEMENT, END_FINAL_ROUND, END_MAX_TURNS = 0, 1, 2, 3
_END_TEXT = {
    END_NO_PLACEMENT: "no legal placement left",
    END_FINAL_ROUND: "final round completed",
    END_MAX_TURNS: "turn limit (max_turns) reached",
}

_pick_all = itemgetter(*ALL_FOOTPRINT)
"""``_pick_all(ok)``: per-footprint flags reordered to match ``ALL_OFFSETS``."""

Line = tuple[int, int, int]
"""(lower slot, higher slot, passes)."""


def setup_order(pass_index: int, players: int) -> list[int]:
    """Seats in placing order for setup pass 0-3: turn order, then reversed (snake)."""
    seats = list(range(players))
    return seats if pass_index % 2 == 0 else seats[::-1]


class PasstallyState(State):
    """A Passtally position. Fields (all small ints or flat int lists):

    * ``height[c]``, ``tid[c]`` (top tile's index in ``placements``, -1 bare), ``shape[c]``
      (top half's shape with rotation applied; X when bare) for the 36 cells;
    * ``placements``: (design, anchor, orientation) in placement order (the tile ids);
    * ``ring[s]``: the seat whose marker stands on slot s, or -1;
    * ``face_up[p]`` (design or -1), ``hidden[p]`` per pile; ``unrevealed[d]`` per design;
    * ``pending``: the pile whose reveal is the current chance node, or -1;
    * ``scores``, ``to_move`` (-1 once over), ``actions_left``, ``setup``, ``final_round``,
      ``game_over``; ``side1`` / ``side3``: the sides chosen in setup passes 1 and 3;
    * ``turns``: completed turns since setup (only consulted by the ``max_turns`` guard).
    """

    __slots__ = (
        "_continuous",
        "_end",
        "_finish_turn",
        "_jump_step",
        "_max_turns",
        "_n",
        "actions_left",
        "face_up",
        "final_round",
        "game",
        "game_over",
        "height",
        "hidden",
        "hist",
        "pending",
        "placements",
        "points",
        "ring",
        "setup",
        "shape",
        "side1",
        "side3",
        "tid",
        "to_move",
        "turns",
        "unrevealed",
    )

    game: PasstallyGame

    def __init__(self, game: PasstallyGame) -> None:
        """The initial state: setup, three piles of 14 face down, pile A's reveal pending."""
        self.game = game
        opts = game.options
        self._n = game.num_players
        self._jump_step = bool(opts["jump_counts_as_step"])
        self._continuous = bool(opts["ring_corners_continuous"])
        self._finish_turn = bool(opts["finish_turn_on_immediate_end"])
        max_turns = opts["max_turns"]
        self._max_turns = max_turns if isinstance(max_turns, int) else -1
        self._end = END_NONE
        self.height = [0] * NUM_CELLS
        self.tid = [-1] * NUM_CELLS
        self.shape = [0] * NUM_CELLS
        self.placements: list[tuple[int, int, int]] = []
        self.ring = [-1] * NUM_SLOTS
        self.face_up = [-1] * NUM_PILES
        self.hidden = [TILES_PER_PILE] * NUM_PILES
        self.unrevealed = [TILES_PER_DESIGN] * NUM_DESIGNS
        self.pending = 0
        self.points = [0] * self._n
        self.to_move = 0
        self.actions_left = ACTIONS_PER_TURN
        self.setup = True
        self.final_round = False
        self.game_over = False
        self.side1 = -1
        self.side3 = -1
        self.turns = 0
        self.hist: list[int] = []

    # ----- copying and comparing --------------------------------------------------------------
    def clone(self) -> PasstallyState:
        other = PasstallyState.__new__(PasstallyState)
        other.game = self.game
        other._n = self._n
        other._jump_step = self._jump_step
        other._continuous = self._continuous
        other._finish_turn = self._finish_turn
        other._max_turns = self._max_turns
        other._end = self._end
        other.height = self.height[:]
        other.tid = self.tid[:]
        other.shape = self.shape[:]
        other.placements = self.placements[:]
        other.ring = self.ring[:]
        other.face_up = self.face_up[:]
        other.hidden = self.hidden[:]
        other.unrevealed = self.unrevealed[:]
        other.pending = self.pending
        other.points = self.points[:]
        other.to_move = self.to_move
        other.actions_left = self.actions_left
        other.setup = self.setup
        other.final_round = self.final_round
        other.game_over = self.game_over
        other.side1 = self.side1
        other.side3 = self.side3
        other.turns = self.turns
        other.hist = self.hist[:]
        return other

    def __eq__(self, other: object) -> bool:
        """Equal positions: same game and options and the same position JSON (which fixes
        every rules-relevant field); the action history is not part of the position."""
        if not isinstance(other, PasstallyState):
            return NotImplemented
        return self.game == other.game and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ----- who acts ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.game_over:
            return TERMINAL
        if self.pending >= 0:
            return CHANCE
        return self.to_move

    def is_terminal(self) -> bool:
        return self.game_over

    def is_chance_node(self) -> bool:
        return self.pending >= 0 and not self.game_over

    def history(self) -> list[int]:
        return self.hist[:]

    @property
    def num_players(self) -> int:
        return self._n

    # ----- board queries ----------------------------------------------------------------------
    def footprint_legal(self, a: int, b: int) -> bool:
        """Support rules 3-4 of §5 for the adjacent cells a, b: equal heights, and a raised
        tile must straddle two different tiles."""
        h = self.height[a]
        return h == self.height[b] and (h == 0 or self.tid[a] != self.tid[b])

    def legal_footprints(self) -> list[tuple[int, int, int]]:
        return [fp for fp in FOOTPRINTS if self.footprint_legal(fp[0], fp[1])]

    def any_placement(self) -> bool:
        """Whether some legal placement exists (design-blind: a face-up tile anywhere and a
        legal footprint) - the immediate-end test of §8.3."""
        if self.face_up[0] < 0 and self.face_up[1] < 0 and self.face_up[2] < 0:
            return False
        height, tid = self.height, self.tid
        for a, b, _ in FOOTPRINTS:
            h = height[a]
            if h == height[b] and (h == 0 or tid[a] != tid[b]):
                return True
        return False

    def pile_exhausted(self, pile: int) -> bool:
        return self.face_up[pile] < 0 and self.hidden[pile] == 0

    def trace(self, slot: int) -> tuple[int, int]:
        """Follow the line entering the board at ``slot`` (§7.1): returns (end slot, passes).
        A tile's level is added each time the line steps onto it from somewhere else, so the
        seam inside a tile counts once and every re-entry counts again."""
        height, tid, shape = self.height, self.tid, self.shape
        cell = SLOT_CELL[slot]
        face = SLOT_FACE[slot]
        prev = -1
        passes = 0
        while True:
            t = tid[cell]
            if t >= 0 and t != prev:
                passes += height[cell]
            prev = t
            out = PARTNER[shape[cell] * 4 + face]
            key = cell * 4 + out
            nxt = NEIGHBOUR[key]
            if nxt < 0:
                return EDGE_SLOT[key], passes
            cell = nxt
            face = out ^ 2

    def trace_cells(self, slot: int) -> list[int]:
        """The cells a line visits, in order, from ``slot`` (for the detailed render)."""
        cell, face = SLOT_CELL[slot], SLOT_FACE[slot]
        cells: list[int] = []
        while True:
            cells.append(cell)
            out = PARTNER[self.shape[cell] * 4 + face]
            nxt = NEIGHBOUR[cell * 4 + out]
            if nxt < 0:
                return cells
            cell, face = nxt, out ^ 2

    def lines(self) -> list[Line]:
        """All 12 lines as (lower slot, higher slot, passes), by lower slot."""
        out: list[Line] = []
        for s in range(NUM_SLOTS):
            end, passes = self.trace(s)
            if s < end:
                out.append((s, end, passes))
        return out

    def player_lines(self, seat: int) -> list[Line]:
        """The seat's complete lines: both ends on that seat's markers (§7.2)."""
        ring = self.ring
        out: list[Line] = []
        for s in range(NUM_SLOTS):
            if ring[s] == seat:
                end, passes = self.trace(s)
                if s < end and ring[end] == seat:
                    out.append((s, end, passes))
        return out

    def turn_score(self, seat: int) -> int:
        """The VP ``seat`` would add if its turn ended now: passes of both lines summed, then
        converted once."""
        return vp_for_passes(sum(line[2] for line in self.player_lines(seat)))

    # ----- markers ----------------------------------------------------------------------------
    def destination(self, slot: int, j: int) -> int:
        """Where the marker on ``slot`` lands with move kind j (``MOVE_STEPS[j]``), or -1.
        Default: the d-th *empty* slot that way, occupied ones jumped for free (§6.1); with
        ``jump_counts_as_step`` every slot counts (§6.2); without continuous corners the walk
        may not leave the slot's side (§6.3)."""
        step, distance = MOVE_STEPS[j]
        ring = self.ring
        pos = slot
        if self._jump_step:
            for _ in range(distance):
                nxt = (pos + step) % NUM_SLOTS
                if not self._continuous and nxt // SIZE != pos // SIZE:
                    return -1
                pos = nxt
            return pos if ring[pos] < 0 else -1
        left = distance
        for _ in range(NUM_SLOTS - 1):
            nxt = (pos + step) % NUM_SLOTS
            if not self._continuous and nxt // SIZE != pos // SIZE:
                return -1
            pos = nxt
            if ring[pos] < 0:
                left -= 1
                if left == 0:
                    return pos
        return -1

    def _move_actions(self, seat: int) -> list[int]:
        ring = self.ring
        if not self._jump_step and self._continuous:
            # At least 12 of the 24 slots are empty, so each marker always reaches 4
            # different empty slots: every move kind is legal (spec §14 item 8).
            return [
                MOVE_BASE + s * 4 + j for s in range(NUM_SLOTS) if ring[s] == seat for j in range(4)
            ]
        out: list[int] = []
        for s in range(NUM_SLOTS):
            if ring[s] == seat:
                base = MOVE_BASE + s * 4
                for j in range(4):
                    if self.destination(s, j) >= 0:
                        out.append(base + j)
        return out

    # ----- setup ------------------------------------------------------------------------------
    def markers_placed(self) -> int:
        return NUM_SLOTS - self.ring.count(-1)

    def setup_slots(self) -> list[int]:
        """Legal slots for the next setup marker (§3 'Setup placements in the engine')."""
        n = self.markers_placed()
        pass_index, k = divmod(n, self._n)
        ring = self.ring
        if pass_index == 0:
            sides = [self.side1] if k else [0, 1, 2, 3]
        elif pass_index == 1:
            sides = [(self.side1 + 2) % 4]
        elif pass_index == 2:
            sides = [self.side3] if k else [(self.side1 + 1) % 4, (self.side1 + 3) % 4]
        else:
            sides = [(self.side3 + 2) % 4]
        return sorted(
            s for side in sides for s in range(side * SIZE, side * SIZE + SIZE) if ring[s] < 0
        )

    # ----- actions ----------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.game_over:
            return []
        if self.pending >= 0:
            return [d for d in range(NUM_DESIGNS) if self.unrevealed[d] > 0]
        if self.setup:
            return self.setup_slots()
        out: list[int] = []
        face_up = self.face_up
        if face_up[0] >= 0 or face_up[1] >= 0 or face_up[2] >= 0:
            height, tid = self.height, self.tid
            ok = [
                height[a] == height[b] and (height[a] == 0 or tid[a] != tid[b])
                for a, b, _ in FOOTPRINTS
            ]
            symmetric: list[int] | None = None
            asymmetric: list[int] | None = None
            for p in range(NUM_PILES):
                design = face_up[p]
                if design < 0:
                    continue
                if SYMMETRIC[design]:
                    if symmetric is None:
                        symmetric = list(compress(CANONICAL_OFFSETS, ok))
                    offsets = symmetric
                else:
                    if asymmetric is None:
                        asymmetric = list(compress(ALL_OFFSETS, _pick_all(ok)))
                    offsets = asymmetric
                out.extend(map((PLACE_BASE + p * PLACE_PER_PILE).__add__, offsets))
        out.extend(self._move_actions(self.to_move))
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each design still unrevealed, with (its unrevealed count) / (all unrevealed)."""
        if self.pending < 0 or self.game_over:
            return []
        total = sum(self.unrevealed)
        return [(d, c / total) for d, c in enumerate(self.unrevealed) if c > 0]

    def action_to_string(self, action: int) -> str:
        if self.pending >= 0 and not self.game_over:
            return notation.chance_to_string(self.pending, action)
        return notation.action_to_string(action)

    def _parse_alternative(self, text: str) -> int | None:
        return notation.parse_alternative(self, text)

    def _not_legal_message(self, text: str, legal: Sequence[int]) -> str:
        """For well-formed notation, say why the rules reject it (the same sentence
        ``apply_action`` gives); otherwise list the legal moves."""
        parsed = notation.parse_alternative(self, text)
        if parsed is not None and not self.game_over:
            try:
                self.clone().apply_action(parsed)
            except IllegalActionError as exc:
                return str(exc)
        return super()._not_legal_message(text, legal)

    def apply_action(self, action: int) -> None:
        """Apply one action or chance outcome. Every check happens before any change, so an
        ``IllegalActionError`` leaves the state exactly as it was."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action must be an integer id, not {action!r}")
        if self.game_over:
            raise IllegalActionError("the game is over: no action is possible")
        if self.pending >= 0:
            self._apply_reveal(action)
        elif self.setup:
            self._apply_setup(action)
        elif PLACE_BASE <= action < MOVE_BASE:
            self._apply_placement(action)
        elif MOVE_BASE <= action < NUM_ACTIONS:
            self._apply_move(action)
        else:
            what = "a setup placement" if 0 <= action < PLACE_BASE else "not an action id"
            raise IllegalActionError(
                f"action {action} is {what}; during play the actions are tile placements "
                f"({PLACE_BASE}-{MOVE_BASE - 1}) and marker moves ({MOVE_BASE}-{NUM_ACTIONS - 1})"
            )

    def _apply_reveal(self, outcome: int) -> None:
        pile = self.pending
        name = PILE_NAMES[pile]
        if not 0 <= outcome < NUM_DESIGNS:
            raise IllegalActionError(
                f"pile {name} is being revealed: the outcome must be a design id 0-5, not {outcome}"
            )
        if self.unrevealed[outcome] == 0:
            raise IllegalActionError(
                f"{name}={DESIGNS[outcome]} is impossible: no {DESIGNS[outcome]} tile is "
                "left unrevealed"
            )
        self.face_up[pile] = outcome
        self.hidden[pile] -= 1
        self.unrevealed[outcome] -= 1
        self.hist.append(outcome)
        if self.setup:
            # Initial reveals go A, B, C; then the markers are placed.
            nxt = pile + 1
            self.pending = nxt if nxt < NUM_PILES and self.face_up[nxt] < 0 else -1
            return
        self.pending = -1
        self._after_action(placed=True)

    def _apply_setup(self, action: int) -> None:
        if not 0 <= action < NUM_SLOTS:
            raise IllegalActionError(
                f"setup is in progress: the only actions are marker placements @0-@23, "
                f"not {notation.action_to_string(action) if 0 <= action < NUM_ACTIONS else action}"
            )
        slots = self.setup_slots()
        if action not in slots:
            if self.ring[action] >= 0:
                why = f"slot {action} is occupied"
            else:
                sides = sorted({s // SIZE for s in slots})
                names = " or ".join(SIDE_NAMES[s] for s in sides)
                why = f"this marker must go on the {names} side (slot {action} is on the " + (
                    f"{SIDE_NAMES[action // SIZE]} side)"
                )
            raise IllegalActionError(f"@{action} is illegal: {why}")
        n = self.markers_placed()
        pass_index, k = divmod(n, self._n)
        if k == 0 and pass_index == 0:
            self.side1 = action // SIZE
        elif k == 0 and pass_index == 2:
            self.side3 = action // SIZE
        self.ring[action] = self.to_move
        self.hist.append(action)
        n += 1
        if n == 4 * self._n:
            self.setup = False
            self.to_move = 0
        else:
            pass_index, k = divmod(n, self._n)
            self.to_move = setup_order(pass_index, self._n)[k]

    def placement_problem(self, pile: int, anchor: int, orientation: int) -> str | None:
        """Why placing pile's face-up tile there is illegal, or None when it is legal."""
        if self.face_up[pile] < 0:
            if self.hidden[pile] == 0:
                return f"pile {PILE_NAMES[pile]} is exhausted"
            return f"pile {PILE_NAMES[pile]} has no face-up tile"
        other = OTHER_CELL[anchor * 4 + orientation]
        if other < 0:
            return "part of the tile would be off the board"
        ha, hb = self.height[anchor], self.height[other]
        if ha != hb:
            return (
                f"the halves would rest on different heights ({cell_name(anchor)} is {ha}, "
                f"{cell_name(other)} is {hb})"
            )
        if ha > 0 and self.tid[anchor] == self.tid[other]:
            return (
                f"it would rest exactly on one tile (tile {self.tid[anchor]} covers both "
                f"{cell_name(anchor)} and {cell_name(other)})"
            )
        if SYMMETRIC[self.face_up[pile]] and orientation >= 2:
            canonical = notation.place_to_string(pile, other, orientation - 2)
            return (
                f"{DESIGNS[self.face_up[pile]]} is symmetric: this placement is written {canonical}"
            )
        return None

    def _apply_placement(self, action: int) -> None:
        pile, rest = divmod(action - PLACE_BASE, PLACE_PER_PILE)
        anchor, orientation = divmod(rest, 4)
        problem = self.placement_problem(pile, anchor, orientation)
        if problem is not None:
            raise IllegalActionError(
                f"{notation.place_to_string(pile, anchor, orientation)} is illegal: {problem}"
            )
        design = self.face_up[pile]
        other = OTHER_CELL[anchor * 4 + orientation]
        tile = len(self.placements)
        shape_a, shape_b = PLACED_SHAPES[design * 4 + orientation]
        self.placements.append((design, anchor, orientation))
        self.height[anchor] += 1
        self.height[other] += 1
        self.tid[anchor] = tile
        self.tid[other] = tile
        self.shape[anchor] = shape_a
        self.shape[other] = shape_b
        self.face_up[pile] = -1
        self.actions_left -= 1
        self.hist.append(action)
        if self.hidden[pile] > 0:
            self.pending = pile  # the reveal follows at once, before anything else (§9)
            return
        self._after_action(placed=True)

    def _apply_move(self, action: int) -> None:
        slot, j = divmod(action - MOVE_BASE, 4)
        text = notation.action_to_string(action)
        owner = self.ring[slot]
        if owner != self.to_move:
            who = "no marker" if owner < 0 else f"a marker of Player {owner + 1}"
            raise IllegalActionError(
                f"{text} is illegal: slot {slot} holds {who}; "
                f"Player {self.to_move + 1} may move only their own markers"
            )
        dest = self.destination(slot, j)
        if dest < 0:
            raise IllegalActionError(f"{text} is illegal: that marker has no such destination")
        self.ring[slot] = -1
        self.ring[dest] = owner
        self.actions_left -= 1
        self.hist.append(action)
        self._after_action(placed=False)

    # ----- turn structure ---------------------------------------------------------------------
    def _after_action(self, placed: bool) -> None:
        """After an action (and its reveal): the immediate end under
        ``finish_turn_on_immediate_end = false``, the end of the turn, or a forfeit (§6.4)."""
        if placed and not self._finish_turn and not self.any_placement():
            self._finish(END_NO_PLACEMENT)
            return
        if self.actions_left == 0:
            self._end_turn()
            return
        # Under the default movement rules every marker can always move; only the variants
        # can leave a player without any legal action, which forfeits the rest of the turn.
        blockable = self._jump_step or not self._continuous
        if blockable and not self.any_placement() and not self._move_actions(self.to_move):
            self._end_turn()

    def _end_turn(self) -> None:
        """§8.4 in order: score, immediate end, final-round flag, last seat; then the next
        seat. The ``max_turns`` guard (not a rule) is checked last."""
        seat = self.to_move
        self.points[seat] += self.turn_score(seat)
        self.turns += 1
        if not self.any_placement():
            self._finish(END_NO_PLACEMENT)
            return
        if not self.final_round and (
            max(self.points) >= FINAL_ROUND_SCORE
            or any(self.pile_exhausted(p) for p in range(NUM_PILES))
        ):
            self.final_round = True
        if self.final_round and seat == self._n - 1:
            self._finish(END_FINAL_ROUND)
            return
        if 0 <= self._max_turns <= self.turns:
            self._finish(END_MAX_TURNS)
            return
        self.to_move = (seat + 1) % self._n
        self.actions_left = ACTIONS_PER_TURN

    def _finish(self, reason: int) -> None:
        self.game_over = True
        self.to_move = -1
        self.actions_left = 0
        self._end = reason

    # ----- outcome ----------------------------------------------------------------------------
    def winner(self) -> int:
        """Highest score; among tied seats the earliest in turn order (§8.5)."""
        best = max(self.points)
        return self.points.index(best)

    def returns(self) -> list[float]:
        if not self.game_over:
            return [0.0] * self._n
        w = self.winner()
        return [1.0 if seat == w else 0.0 for seat in range(self._n)]

    def scores(self) -> list[float]:
        return [float(s) for s in self.points]

    def end_reason(self) -> str | None:
        return _END_TEXT.get(self._end) if self.game_over else None

    # ----- positions, pictures, tensors ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        from boardplay.games._legacy.passtally.position import export_position

        return export_position(self)

    def render(self, detail: bool = False) -> str:
        from boardplay.games._legacy.passtally.render import render_state

        return render_state(self, detail)

    def observation_tensor(self, player: int) -> list[float]:
        from boardplay.games._legacy.passtally.observation import observation

        return observation(self, player)
