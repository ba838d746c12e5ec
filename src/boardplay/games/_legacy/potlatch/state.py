"""The rules of Potlatch Klone: legal actions, apply, the chip increase and the end conditions
(spec §4-§8). Position JSON lives in ``position.py``, the text picture in ``render.py`` and the
observation tensor in ``observation.py``; this module only holds the game logic.

State is deliberately small: the board is ``dict[packed hex, chip code]`` (see ``notation``),
pawns a two-item list, ``visited`` a short tuple, so ``clone()`` copies one small dict and two
lists. The pending chip increase of an open run is *not* on the board (spec §4.2, §11): it is
resolved when the run ends, i.e. before a following Chip Move or at the end of the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import TERMINAL, State
from boardplay.games._legacy.potlatch.notation import (
    ACTION_IDS,
    ACTION_NAMES,
    COLOUR_STACK,
    HEIGHT,
    NUM_ACTIONS,
    PAWN_MOVES,
    STEPS,
    action_id,
    action_name,
    hex_text,
)

if TYPE_CHECKING:
    from boardplay.games._legacy.potlatch.game import PotlatchGame

Snapshot = tuple[tuple[int, int], ...]
"""A repetition snapshot (spec §8.2) as a hashable tuple of ``(packed hex, chip code)`` pairs,
sorted by hex. The full-state variant lists every tile (empty ones too) and then appends
``(red pawn hex, -1)`` and ``(blue pawn hex, -2)``."""

NEUTRAL_TOTAL = 36
COLOUR_TOTAL = 5

CONDITION_TEXT = {
    1: "three own stacks",
    2: "the mover could not complete the turn",
    3: "repetition",
    4: "turn limit (engine guard)",
}


class PotlatchState(State):
    """A Potlatch Klone position plus the turn bookkeeping needed to continue it."""

    __slots__ = (
        "_blank_free",
        "_filter",
        "_full_snapshot",
        "_history",
        "_legal",
        "_turn_limit",
        "done",
        "game",
        "n_actions",
        "pawns",
        "result",
        "run_open",
        "snapshots",
        "stock",
        "tiles",
        "to_move",
        "turn_start_snapshot",
        "turns_played",
        "visited",
    )

    game: PotlatchGame
    tiles: dict[int, int]
    """Tile hex -> chip code; a hex absent from the dict is a blank space."""
    stock: int
    """Unused base tiles (shared)."""
    pawns: list[int]
    """[Red's hex, Blue's hex]."""
    to_move: int
    n_actions: int
    done: int
    """Actions already taken this turn."""
    visited: tuple[int, ...]
    """Hexes the mover's pawn has occupied this turn, start hex first."""
    run_open: bool
    """The last action was a Pawn Move whose chip increase is still pending."""
    snapshots: list[Snapshot | None]
    """Per seat, the snapshot its next condition-3 check compares against (None: unknown)."""
    turn_start_snapshot: Snapshot | None
    """The current turn's start snapshot (None when unknown, after loading mid-turn)."""
    result: tuple[int | None, int] | None
    """``(winner seat or None for a draw, end condition 1..4)`` once the game is over."""
    turns_played: int
    """Completed turns since setup; used only by the ``turn_limit`` guard."""

    def __init__(
        self,
        game: PotlatchGame,
        tiles: dict[int, int],
        stock: int,
        pawns: list[int],
        to_move: int,
        n_actions: int,
    ) -> None:
        """A position at the start of ``to_move``'s turn *before* the start-of-turn
        procedure; call ``begin_turn()`` (done by the loaders) to apply it."""
        self.game = game
        self._blank_free = bool(game.options["blank_entry_ignores_height"])
        self._full_snapshot = bool(game.options["repetition_compares_full_state"])
        self._filter = bool(game.options["filter_dead_ends"])
        turn_limit = game.options["turn_limit"]
        assert isinstance(turn_limit, int)
        self._turn_limit = turn_limit
        self.tiles = tiles
        self.stock = stock
        self.pawns = pawns
        self.to_move = to_move
        self.n_actions = n_actions
        self.done = 0
        self.visited = (pawns[to_move],)
        self.run_open = False
        self.snapshots = [None, None]
        self.turn_start_snapshot = None
        self.result = None
        self.turns_played = 0
        self._history: list[int] = []
        self._legal: list[int] | None = None

    # ----- cloning ----------------------------------------------------------------------------
    def clone(self) -> PotlatchState:
        other = PotlatchState.__new__(PotlatchState)
        other.game = self.game
        other._blank_free = self._blank_free
        other._full_snapshot = self._full_snapshot
        other._filter = self._filter
        other._turn_limit = self._turn_limit
        other.tiles = self.tiles.copy()
        other.stock = self.stock
        other.pawns = self.pawns.copy()
        other.to_move = self.to_move
        other.n_actions = self.n_actions
        other.done = self.done
        other.visited = self.visited
        other.run_open = self.run_open
        other.snapshots = self.snapshots.copy()
        other.turn_start_snapshot = self.turn_start_snapshot
        other.result = self.result
        other.turns_played = self.turns_played
        other._history = self._history.copy()
        other._legal = self._legal
        return other

    def _scratch(self) -> PotlatchState:
        """A clone for look-ahead: only the fields ``_raw_apply`` / ``_rule_actions`` use."""
        other = PotlatchState.__new__(PotlatchState)
        other._blank_free = self._blank_free
        other.tiles = self.tiles.copy()
        other.stock = self.stock
        other.pawns = self.pawns.copy()
        other.to_move = self.to_move
        other.visited = self.visited
        other.run_open = self.run_open
        return other

    # ----- queries ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.to_move

    def history(self) -> list[int]:
        return self._history.copy()

    @property
    def end_condition(self) -> int | None:
        """The end condition (1, 2, 3; 4 = turn-limit guard) that ended the game, else None."""
        return None if self.result is None else self.result[1]

    @property
    def winner(self) -> int | None:
        """The winning seat; None while the game runs or after a draw."""
        return None if self.result is None else self.result[0]

    def height(self, key: int) -> int:
        """Chips on a hex (a blank space has height 0)."""
        return HEIGHT[self.tiles.get(key, 0)]

    def own_stacks(self, seat: int) -> int:
        """Player-colour stacks of ``seat``'s colour (equal to its colour chips on the board)."""
        code = COLOUR_STACK[seat]
        return sum(1 for c in self.tiles.values() if c == code)

    def supplies(self) -> tuple[int, int, int]:
        """(neutral, red, blue) chips not on the board; derived, never stored (spec §2.5)."""
        red = blue = neutral = 0
        for code in self.tiles.values():
            if code == 4:
                red += 1
                neutral += 2
            elif code == 5:
                blue += 1
                neutral += 2
            else:
                neutral += code
        return NEUTRAL_TOTAL - neutral, COLOUR_TOTAL - red, COLOUR_TOTAL - blue

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0, 0.0]
        winner = self.result[0]
        if winner is None:
            return [0.5, 0.5]
        return [1.0, 0.0] if winner == 0 else [0.0, 1.0]

    # ----- legal actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        return self._cached_legal().copy()

    def _cached_legal(self) -> list[int]:
        """The legal list, computed once per position (callers must not mutate it)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[int]:
        if self.result is not None:
            return []
        actions = self._rule_actions()
        if self._filter:
            remaining = self.n_actions - self.done - 1
            if remaining > 0:
                kept = []
                for action in actions:
                    child = self._scratch()
                    child._raw_apply(action)
                    if child._can_finish(remaining):
                        kept.append(action)
                actions = kept
        return actions

    def _can_finish(self, remaining: int) -> bool:
        """Whether ``remaining`` more actions can be made from here (``filter_dead_ends``)."""
        actions = self._rule_actions()
        if remaining == 1 or not actions:
            return bool(actions)
        for action in actions:
            child = self._scratch()
            child._raw_apply(action)
            if child._can_finish(remaining - 1):
                return True
        return False

    def _rule_actions(self) -> list[int]:
        """Every action §5 and §6 allow now, in id order (no dead-end filtering)."""
        tiles = self.tiles
        here = self.pawns[self.to_move]
        other = self.pawns[1 - self.to_move]
        visited = self.visited
        h_here = HEIGHT[tiles[here]]
        stock_left = self.stock > 0
        blank_ok = stock_left and (self._blank_free or h_here <= 1)
        out: list[int] = []
        for i in range(6):
            dest = here + STEPS[i]
            if dest == other or dest in visited:
                continue
            code = tiles.get(dest)
            if code is None:
                if blank_ok:
                    out.append(i)
            elif -1 <= HEIGHT[code] - h_here <= 1:
                out.append(i)
        # Chip Moves are judged after the pending increase (§4.2): it makes h(here) >= 1.
        if h_here >= 1 or self.run_open:
            for i in range(6):
                code = tiles.get(here + STEPS[i])
                if (code is None and stock_left) or (code is not None and code < 3):
                    out.append(PAWN_MOVES + i)
        return out

    # ----- applying ---------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        if self.result is not None:
            raise IllegalActionError(
                f"{self._describe(action)} is not possible: the game is over ({self.result_text()})"
            )
        action = action_id(action)  # rejects ids outside 0..11 with a message
        if action not in self._cached_legal():
            raise IllegalActionError(self._illegal_message(action))
        self._history.append(action)
        self._raw_apply(action)
        self._legal = None
        self.done += 1
        mover = self.to_move
        if self.done == self.n_actions:
            if self.run_open:
                self._increase()
                self.run_open = False
            self.snapshots[mover] = self.turn_start_snapshot
            self.turns_played += 1
            self.to_move = 1 - mover
            self.begin_turn()
        elif not self._cached_legal():
            self.result = (1 - mover, 2)

    def _raw_apply(self, action: int) -> None:
        """The effects of one legal action (§5, §6), without turn bookkeeping."""
        tiles = self.tiles
        here = self.pawns[self.to_move]
        if action < PAWN_MOVES:
            dest = here + STEPS[action]
            if dest not in tiles:
                tiles[dest] = 0
                self.stock -= 1
            self.pawns[self.to_move] = dest
            self.visited = (*self.visited, dest)
            self.run_open = True
            return
        if self.run_open:
            self._increase()
            self.run_open = False
        # The top chip leaves; a colour chip goes home and a neutral chip travels instead.
        code = tiles[here]
        tiles[here] = code - 1 if code < 3 else 2
        dest = here + STEPS[action - PAWN_MOVES]
        if dest not in tiles:
            tiles[dest] = 0
            self.stock -= 1
        tiles[dest] += 1  # 0->N, N->NN, NN->NNN: a Chip Move never makes a colour stack

    def _increase(self) -> None:
        """The chip increase at the end of a run (§7): N on 0 or 1, the mover's colour on 2,
        nothing on 3."""
        here = self.pawns[self.to_move]
        code = self.tiles[here]
        if code < 2:
            self.tiles[here] = code + 1
        elif code == 2:
            self.tiles[here] = COLOUR_STACK[self.to_move]

    # ----- turn procedure ---------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """The repetition snapshot of the current board (spec §8.2, option-dependent)."""
        if self._full_snapshot:
            return (*sorted(self.tiles.items()), (self.pawns[0], -1), (self.pawns[1], -2))
        return tuple(sorted(item for item in self.tiles.items() if item[1]))

    def begin_turn(self) -> None:
        """The start-of-turn procedure of §4.3: conditions 1, 3, then 2 (then the engine's
        turn-limit guard, condition 4)."""
        mover = self.to_move
        self._legal = None
        self.done = 0
        self.visited = (self.pawns[mover],)
        self.run_open = False
        if self.own_stacks(mover) >= 3:
            self.result = (mover, 1)
            return
        current = self.snapshot()
        previous = self.snapshots[mover]
        self.turn_start_snapshot = current
        if previous is not None and previous == current:
            self.result = (self._stack_leader(), 3)
            return
        if not self._cached_legal():
            self.result = (1 - mover, 2)
            return
        if self.turns_played >= self._turn_limit:
            self.result = (self._stack_leader(), 4)
            self._legal = None

    def _stack_leader(self) -> int | None:
        """The seat with more own-colour stacks; None when equal (a draw)."""
        red, blue = self.own_stacks(0), self.own_stacks(1)
        if red == blue:
            return None
        return 0 if red > blue else 1

    # ----- messages ---------------------------------------------------------------------------
    def _describe(self, action: int) -> str:
        try:
            return action_name(action)
        except IllegalActionError:
            return repr(action)

    def string_to_action(self, text: str) -> int:
        """Notation (``"P-E"``) or a bare id; a known but illegal action is rejected with the
        rule that forbids it."""
        action = ACTION_IDS.get(text.strip())
        if action is not None and self.result is None and action not in self.legal_actions():
            raise IllegalActionError(self._illegal_message(action))
        return super().string_to_action(text)

    def _illegal_message(self, action: int) -> str:
        legal = ", ".join(ACTION_NAMES[a] for a in self.legal_actions()) or "none"
        return (
            f"{ACTION_NAMES[action]} is not legal here: {self._why_illegal(action)} "
            f"(legal actions: {legal})"
        )

    def _why_illegal(self, action: int) -> str:
        """A sentence naming the rule that forbids ``action`` (called only when it is illegal)."""
        here = self.pawns[self.to_move]
        if action < PAWN_MOVES:
            dest = here + STEPS[action]
            where = hex_text(dest)
            if dest == self.pawns[1 - self.to_move]:
                return f"{where} holds the opponent's pawn"
            if dest in self.visited:
                return f"the pawn has already been on {where} this turn"
            h_here = HEIGHT[self.tiles[here]]
            if dest not in self.tiles:
                if self.stock == 0:
                    return f"{where} has no tile and the tile stock is empty"
                if not self._blank_free and h_here > 1:
                    return (
                        f"{where} has no tile (height 0) and the pawn stands {h_here} high; "
                        "a pawn may only step up or down by 1"
                    )
            else:
                diff = HEIGHT[self.tiles[dest]] - h_here
                if abs(diff) > 1:
                    return (
                        f"the height difference to {where} is {diff:+d}; "
                        "a pawn may only step up or down by 1"
                    )
        else:
            dest = here + STEPS[action - PAWN_MOVES]
            where = hex_text(dest)
            if HEIGHT[self.tiles[here]] == 0 and not self.run_open:
                return f"the pawn's hex {hex_text(here)} has no chip to move"
            if dest not in self.tiles and self.stock == 0:
                return f"{where} has no tile and the tile stock is empty"
            if dest in self.tiles and HEIGHT[self.tiles[dest]] == 3:
                return f"{where} is already 3 high"
        # Every rule of §5 and §6 is named above, so only the dead-end filter is left.
        return "the turn could not be completed after it (option filter_dead_ends)"

    def action_to_string(self, action: int) -> str:
        return action_name(action)

    def end_reason(self) -> str | None:
        if self.result is None:
            return None
        condition = self.result[1]
        return f"condition {condition}: {CONDITION_TEXT[condition]}"

    # ----- positions, pictures, tensors -------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        from boardplay.games._legacy.potlatch.position import export_position

        return export_position(self)

    def stack_snapshot(self) -> dict[str, Any]:
        """The repetition snapshot of the current board in its JSON form (spec §8.2, §11):
        ``{"q,r": chips}`` for every stack, or, with ``repetition_compares_full_state``,
        ``{"tiles": {...}, "pawns": [...]}``."""
        from boardplay.games._legacy.potlatch.position import snapshot_to_json

        return snapshot_to_json(self.snapshot(), self._full_snapshot)

    def render(self, detail: bool = False) -> str:
        from boardplay.games._legacy.potlatch.render import render_state

        return render_state(self, detail)

    def observation_tensor(self, player: int) -> list[float]:
        from boardplay.games._legacy.potlatch.observation import observation_tensor

        return observation_tensor(self, player)


assert len(ACTION_NAMES) == NUM_ACTIONS
