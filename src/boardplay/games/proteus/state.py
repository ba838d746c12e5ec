"""``ProteusState``: the thin facade over a ``ProteusKernel`` (the rules live in kernel.pyx).

The contract's hot verbs (``legal_actions``, ``apply_action``, ``clone``, ``returns``) are the
compiled ones of ``KernelState``; this module adds the cold ones (notation, why an action is
illegal, how the game ended) and the typed accessors that the picture, the position JSON and
the tests read. Nothing here is on a path that must be fast. The kernel's feature vector
(``kernel.features()``), which the AI's evaluation weighs, is ``Feature`` in ``layout.pxd``.
"""

from __future__ import annotations

from typing import Final

from boardplay.core.game import Game, State
from boardplay.core.kernel import KernelState
from boardplay.games.proteus.explain import explain_illegal
from boardplay.games.proteus.fields import ProteusFields
from boardplay.games.proteus.kernel import ProteusKernel
from boardplay.games.proteus.layout import NUM_ACTIONS
from boardplay.games.proteus.notation import ACTION_NAMES, FORMS, parse
from boardplay.games.proteus.tables import (
    CELLS,
    COLOUR_ROLES,
    COLOUR_WORDS,
    RULE_NAMES,
    TILES,
)

END_TEXT: Final = {
    "goal": "goal met by one player only",
    "two_passes": "both players passed",
    "turn_limit": "turn limit (max_turns)",
    "no_action": "no legal action (kadon)",
}
"""The words of each ``end_code`` (§7)."""


def position_key(state: ProteusState, to_move: int) -> int:
    """Position identity (§10.6) as one int: the board with active marks, then the side to
    move above the nine cell bytes; the pass counter is deliberately not part of it."""
    key = to_move
    for cell in range(9):
        tile = state.tile_at(cell)
        code = (tile + 1) | ((state.piece_at(cell) + 1) << 5)
        if state.is_active(tile):
            code |= 16
        key = (key << 8) | code
    return key


def new_kernel(game: Game) -> ProteusKernel:
    """A kernel with ``game``'s options holding the setup of §3 (not yet started)."""
    max_turns = game.options["max_turns"]
    return ProteusKernel(
        game.num_players,
        game.options["rules"] == "kadon",
        game.options["repetition"] == "forbid",
        max_turns if isinstance(max_turns, int) else 0,
    )


class ProteusState(KernelState, ProteusFields, State):
    """A Proteus position: a kernel (board, counters, options, the repetition table) plus the
    game and the history of applied actions."""

    kernel: ProteusKernel

    def __init__(self, game: Game, kernel: ProteusKernel) -> None:
        """Wrap ``kernel``, a started position of ``game`` (see ``ProteusGame``)."""
        self.game = game
        self.kernel = kernel
        self._history = []

    # ----- reading the position -------------------------------------------------------------
    def turn(self) -> tuple[int, int]:
        return (self.current_player(), self.turns)

    @property
    def in_placement(self) -> bool:
        return self.unplaced > 0

    def tile_at(self, cell: int) -> int:
        return self.kernel.tile_at(cell)

    def piece_at(self, cell: int) -> int:
        return self.kernel.piece_at(cell)

    def cell_of_tile(self, tile: int) -> int:
        return self.kernel.cell_of_tile(tile)

    def cell_of_piece(self, piece: int) -> int:
        return self.kernel.cell_of_piece(piece)

    def active_tile(self, colour: int) -> int:
        """The active tile of ``colour`` (0 red, 1 blue, 2 yellow), or -1 if it is missing."""
        return self.kernel.active_tile(colour)

    def is_active(self, tile: int) -> bool:
        return tile >= 0 and self.kernel.active_tile(tile // 3) == tile

    def key(self) -> int:
        """Position identity (§10.6) of this state."""
        return position_key(self, self.to_move)

    def _key_after(self, action: int) -> int:
        """Position identity after the movement action ``action`` with the other side to move
        (what the repetition filter compares), read from a copy that applied it."""
        after = ProteusState(self.game, self.kernel.clone())
        after.kernel.step(action)
        return position_key(after, 1 - self.to_move)

    def satisfies_goal(self, player: int) -> bool:
        """Whether ``player`` meets the active GOAL rule now (§7.4); never with fewer than three
        pieces on the board or with no active GOAL tile."""
        return self.kernel.satisfies_goal(player)

    def kadon_feasible(self) -> bool:
        """Whether this (placement-phase) position satisfies the feasibility rule of §4.4."""
        return self.kernel.kadon_feasible()

    def rules_in_force(self) -> list[str]:
        """One line per colour: the active rule and where its tile lies, or "missing"."""
        lines = []
        for colour in range(3):
            tile = self.kernel.active_tile(colour)
            role = COLOUR_ROLES[colour]
            if tile < 0:
                lines.append(f"{role}: none ({COLOUR_WORDS[colour]} missing)")
            else:
                cell = CELLS[self.kernel.cell_of_tile(tile)]
                lines.append(f"{role}: {RULE_NAMES[tile]} ({TILES[tile]} at {cell})")
        return lines

    # ----- the result -----------------------------------------------------------------------
    def end_code(self) -> str | None:
        """Why the game ended, derived from the final position (§7)."""
        outcome = self.outcome
        if outcome == "ongoing":
            return None
        if outcome != "draw":
            return "goal"
        if not self.kadon and self.passes >= 2:
            return "two_passes"
        if self.max_turns and self.turns >= self.max_turns:
            return "turn_limit"
        return "no_action"

    def end_reason(self) -> str | None:
        code = self.end_code()
        return None if code is None else END_TEXT[code]

    # ----- cold verbs -----------------------------------------------------------------------
    def explain_illegal(self, action: object) -> str:
        return explain_illegal(self, action)

    def action_to_string(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise IndexError(f"{action!r} is not a Proteus action id")
        if not 0 <= action < NUM_ACTIONS:
            raise IndexError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
        return ACTION_NAMES[action]

    notation_forms = FORMS

    def _parse_notation(self, text: str) -> int | None:
        """A trade may be written with its cells in either order (``c3~a1`` for ``a1~c3``)."""
        return parse(text)
