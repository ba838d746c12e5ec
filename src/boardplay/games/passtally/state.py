"""``PasstallyState``: the thin facade over ``PasstallyKernel`` (kernel.pyx; fields.pyx reads it).

The contract's hot verbs (``legal_actions``, ``apply_action``, ``clone``, ``current_player``...)
come compiled from ``KernelState``; this module adds what people and tools need on top: notation,
the explanation of an illegal action, the result, and typed read-only accessors with the rules'
names (``height``, ``ring``, ``face_up``, ``points``, ``trace``, ``turn_score``...) that the
position export, the picture, the tests and the evaluation read. The position JSON, the picture
and the observation tensor live in their own modules and are reached through the game.
"""

from __future__ import annotations

from boardplay.core.game import Game, State
from boardplay.core.kernel import KernelState
from boardplay.games.passtally import fields, notation
from boardplay.games.passtally.explain import explain_illegal
from boardplay.games.passtally.fields import PasstallyFields
from boardplay.games.passtally.kernel import PasstallyKernel
from boardplay.games.passtally.layout import (
    END_FINAL_ROUND,
    END_MAX_TURNS,
    END_NO_PLACEMENT,
    NUM_SLOTS,
)
from boardplay.games.passtally.tables import FOOTPRINTS, NEIGHBOUR, PARTNER, SLOT_CELL, SLOT_FACE

# Why a finished game ended (the kernel's ``end`` field, for ``end_reason``).
_END_TEXT = {
    END_NO_PLACEMENT: "no legal placement left",
    END_FINAL_ROUND: "final round completed",
    END_MAX_TURNS: "turn limit (max_turns) reached",
}
_END_CODE = {
    END_NO_PLACEMENT: "no_placement",
    END_FINAL_ROUND: "final_round",
    END_MAX_TURNS: "turn_limit",
}
"""The same reasons as stable words, for translations (``State.end_code``)."""

Line = tuple[int, int, int]
"""(lower slot, higher slot, passes)."""


def setup_order(pass_index: int, players: int) -> list[int]:
    """Seats in placing order for setup pass 0-3: turn order, then reversed (snake)."""
    seats = list(range(players))
    return seats if pass_index % 2 == 0 else seats[::-1]


def new_kernel(game: Game) -> PasstallyKernel:
    """The initial position's kernel under ``game``'s options."""
    opts = game.options
    max_turns = opts["max_turns"]
    return PasstallyKernel(
        game.num_players,
        bool(opts["jump_counts_as_step"]),
        bool(opts["ring_corners_continuous"]),
        bool(opts["finish_turn_on_immediate_end"]),
        max_turns if isinstance(max_turns, int) else -1,
    )


class PasstallyState(KernelState, PasstallyFields, State):
    """A Passtally position: a ``PasstallyKernel`` plus the game and the action history.

    The position's fields (``to_move``, ``height``, ``points``...) are read-only properties made
    from the kernel's field table (``fields.FACE``): each read copies the C field (an array as
    a tuple, which equals a list of the same values).
    """

    kernel: PasstallyKernel

    def __init__(self, game: Game, kernel: PasstallyKernel) -> None:
        """Wrap ``kernel``, a position of ``game`` (``new_kernel``: its initial one)."""
        self.game = game
        self.kernel = kernel
        self._history = []

    def __eq__(self, other: object) -> bool:
        """Equal positions: same game and options and the same position JSON (which fixes
        every rules-relevant field); the action history is not part of the position."""
        if not isinstance(other, PasstallyState):
            return NotImplemented
        return self.game == other.game and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ----- the position's fields: read-only properties from the kernel's table (fields.pyx) ---
    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def placements(self) -> list[tuple[int, int, int]]:
        """(design, anchor, orientation) per tile in placement order (the tile ids)."""
        return fields.placements(self.kernel)

    def turn(self) -> tuple[int, int]:
        """A turn is a seat's two actions; setup placements are one turn per seat in a row."""
        return (self.current_player(), self.turns)

    @property
    def hist(self) -> list[int]:
        """The actions applied since the start or since loading (``history()``)."""
        return self._history

    # ----- board queries ----------------------------------------------------------------------
    def markers_placed(self) -> int:
        return NUM_SLOTS - self.ring.count(-1)

    def setup_slots(self) -> list[int]:
        """Legal slots for the next setup marker (§3 'Setup placements in the engine')."""
        return fields.marker_slots(self.kernel)

    def footprint_legal(self, a: int, b: int) -> bool:
        """Support rules 3-4 of §5 for the adjacent cells a, b: equal heights, and a raised
        tile must straddle two different tiles."""
        height, tid = self.height, self.tid
        h = height[a]
        return h == height[b] and (h == 0 or tid[a] != tid[b])

    def legal_footprints(self) -> list[tuple[int, int, int]]:
        return [fp for fp in FOOTPRINTS if self.footprint_legal(fp[0], fp[1])]

    def any_placement(self) -> bool:
        """Whether some legal placement exists (design-blind): the immediate-end test."""
        return fields.placement_possible(self.kernel)

    def pile_exhausted(self, pile: int) -> bool:
        return self.face_up[pile] < 0 and self.hidden[pile] == 0

    def trace(self, slot: int) -> tuple[int, int]:
        """Follow the line entering the board at ``slot`` (§7.1): (end slot, passes)."""
        return fields.line(self.kernel, slot)

    def trace_cells(self, slot: int) -> list[int]:
        """The cells a line visits, in order, from ``slot`` (for the detailed render)."""
        shape = self.shape
        cell, face = SLOT_CELL[slot], SLOT_FACE[slot]
        cells: list[int] = []
        while True:
            cells.append(cell)
            out = PARTNER[shape[cell] * 4 + face]
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
        return [line for line in self.lines() if ring[line[0]] == seat == ring[line[1]]]

    def turn_score(self, seat: int) -> int:
        """The VP ``seat`` would add if its turn ended now: passes of both lines summed, then
        converted once."""
        return fields.score_now(self.kernel, seat)

    def destination(self, slot: int, j: int) -> int:
        """Where the marker on ``slot`` lands with move kind j (``MOVE_STEPS[j]``), or -1."""
        return fields.marker_destination(self.kernel, slot, j)

    # ----- notation and explanations ------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        pending = self.pending
        if pending >= 0 and not self.game_over:
            return notation.chance_to_string(pending, action)
        return notation.action_to_string(action)

    notation_forms = notation.FORMS

    def _parse_notation(self, text: str) -> int | None:
        return notation.parse(self.pending if not self.game_over else -1, self.face_up, text)

    def explain_illegal(self, action: object) -> str:
        return explain_illegal(self, action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each design still unrevealed, with (its unrevealed count) / (all unrevealed)."""
        return self.kernel.chance_outcomes()

    # ----- outcome ----------------------------------------------------------------------------
    def winner(self) -> int:
        """The one winner of a finished game (highest score, the earliest seat in turn order
        among ties, §8.5): ``winners()[0]``, a thin alias ``tests/games/passtally`` holds
        equal."""
        won = self.winners()
        if not won:
            raise ValueError("the game is not over: nobody has won yet")
        return won[0]

    def scores(self) -> list[float]:
        return [float(s) for s in self.points]

    def end_code(self) -> str | None:
        return _END_CODE.get(self.end) if self.game_over else None

    def end_reason(self) -> str | None:
        return _END_TEXT.get(self.end) if self.game_over else None


__all__ = [
    "PasstallyState",
    "new_kernel",
    "setup_order",
]
