"""``PotlatchState``: the thin facade over the compiled ``PotlatchKernel``.

The hot verbs of the contract (``legal_actions``, ``apply_action``, ``clone``,
``current_player``, ``returns``) are ``KernelState``'s compiled ones; this module adds the cold
parts: notation, explanations of illegal actions, and typed read-only accessors in the shapes the
rest of the code and the tests use (packed hexes, chip codes, see ``notation``). Position JSON,
the text picture and the observation tensor are reached through the game (``game.py``), so this
module never imports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from boardplay.core.game import Game, State
from boardplay.core.kernel import KernelState
from boardplay.games.potlatch.explain import explain_illegal
from boardplay.games.potlatch.fields import PotlatchFields
from boardplay.games.potlatch.kernel import PotlatchKernel
from boardplay.games.potlatch.notation import (
    FORMS,
    HEIGHT,
    Snapshot,
    action_to_string,
    pack,
    parse,
    snapshot_to_json,
)
from boardplay.games.potlatch.tables import (
    COLOUR_TOTAL,
    CONDITION_CODES,
    CONDITION_NUMBERS,
    CONDITION_TEXT,
    LAYOUTS,
    NEUTRAL_TOTAL,
)

if TYPE_CHECKING:
    from boardplay.games.potlatch.kernel import SnapshotData


def new_kernel(game: Game, n_actions: int | None = None) -> PotlatchKernel:
    """An empty kernel under ``game``'s options (``setup`` loads a position into it); a
    position may set its own actions per turn (``n_actions``)."""
    options = game.options
    return PotlatchKernel(
        game.num_players,
        n_actions or cast(int, options["actions"]),
        bool(options["blank_entry_ignores_height"]),
        bool(options["repetition_compares_full_state"]),
        bool(options["filter_dead_ends"]),
        cast(int, options["turn_limit"]),
        int(LAYOUTS[str(options["layout"])]["centre"]),
    )


def snapshot_from_kernel(data: SnapshotData) -> Snapshot:
    """A kernel snapshot ``(entries, pawns)`` in the facade's sorted-tuple form."""
    entries, pawns = data
    items = sorted((pack(q, r), code) for q, r, code in entries)
    if pawns is None:
        return tuple(items)
    (rq, rr), (bq, br) = pawns
    return (*items, (pack(rq, rr), -1), (pack(bq, br), -2))


class PotlatchState(KernelState, PotlatchFields, State):
    """A Potlatch Klone position plus the turn bookkeeping needed to continue it."""

    game: Game
    kernel: PotlatchKernel
    _loaded: tuple[Snapshot | None, Snapshot | None]
    """The snapshots as loaded from position JSON, kept only for the rare loaded snapshot
    the kernel proves can never match (``"never"``), so export still writes it back."""

    def __init__(
        self,
        game: Game,
        kernel: PotlatchKernel,
        loaded: tuple[Snapshot | None, Snapshot | None] = (None, None),
    ) -> None:
        self.game = game
        self.kernel = kernel
        self._history = []
        self._loaded = loaded

    def _copy_extra(self, other: KernelState) -> None:
        cast(PotlatchState, other)._loaded = self._loaded

    # ----- typed accessors: the kernel's fields (``to_move``, ``stock``, ``done`` ...) are the
    # read-only properties of ``PotlatchFields`` (fields.pyx); these repack hexes (cold) -------
    @property
    def tiles(self) -> dict[int, int]:
        """Tile hex -> chip code, in the order the tiles appeared; a hex absent from the dict
        is a blank space."""
        return {pack(q, r): code for q, r, code in self.kernel.tiles()}

    @property
    def pawns(self) -> list[int]:
        """[Red's hex, Blue's hex]."""
        return [pack(q, r) for q, r in self.kernel.pawns()]

    @property
    def visited(self) -> tuple[int, ...]:
        """Hexes the mover's pawn has occupied this turn, start hex first."""
        return tuple(pack(q, r) for q, r in self.kernel.visited())

    def turn(self) -> tuple[int, int]:
        """A turn is a seat's 2-3 actions (§4); ``turns_played`` counts the finished ones."""
        return (self.current_player(), self.turns_played)

    @property
    def result(self) -> tuple[int | None, int] | None:
        """The position JSON's ``result`` (spec §11): ``(winner seat or None for a draw, end
        condition 1..4)`` once the game is over, else None. A thin alias of the contract's
        ``winners()`` and ``end_code()``, which ``tests/games/potlatch`` holds equal."""
        code = self.end_code()
        if code is None:
            return None
        won = self.winners()
        return (won[0] if won else None, CONDITION_NUMBERS[code])

    @property
    def snapshots(self) -> list[Snapshot | None]:
        """Per seat, the snapshot its next condition-3 check compares against (None: unknown)."""
        return [self._snapshot(seat, seat) for seat in (0, 1)]

    @property
    def turn_start_snapshot(self) -> Snapshot | None:
        """The current turn's start snapshot (None when unknown, after loading mid-turn)."""
        return self._snapshot(2, self.to_move)

    def _snapshot(self, which: int, seat: int) -> Snapshot | None:
        data = self.kernel.snapshot(which)
        if data is None:
            return None
        if data == "never":
            # Only a loaded snapshot can be one that never matches, and it stays with the
            # seat it was loaded for (the mover's turn start is that seat's, see the kernel).
            return self._loaded[seat]
        return snapshot_from_kernel(data)

    def height(self, key: int) -> int:
        """Chips on a hex (a blank space has height 0)."""
        return HEIGHT[self.tiles.get(key, 0)]

    def own_stacks(self, seat: int) -> int:
        """Player-colour stacks of ``seat``'s colour (equal to its colour chips on the board)."""
        return self.kernel.own_stacks(seat)

    def supplies(self) -> tuple[int, int, int]:
        """(neutral, red, blue) chips not on the board; derived, never stored (spec §2.5)."""
        neutral = sum(code if code <= 3 else 2 for code in self.tiles.values())
        return (
            NEUTRAL_TOTAL - neutral,
            COLOUR_TOTAL - self.own_stacks(0),
            COLOUR_TOTAL - self.own_stacks(1),
        )

    def snapshot(self) -> Snapshot:
        """The repetition snapshot of the current board (spec §8.2, option-dependent)."""
        return snapshot_from_kernel(cast("SnapshotData", self.kernel.snapshot(3)))

    def stack_snapshot(self) -> dict[str, Any]:
        """The repetition snapshot of the current board in its JSON form (spec §8.2, §11):
        ``{"q,r": chips}`` for every stack, or, with ``repetition_compares_full_state``,
        ``{"tiles": {...}, "pawns": [...]}``."""
        return snapshot_to_json(self.snapshot(), self.full_snapshots)

    # ----- notation and messages --------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    notation_forms = FORMS

    def _parse_notation(self, text: str) -> int | None:
        return parse(text)

    def explain_illegal(self, action: object) -> str:
        return explain_illegal(self, action)

    def end_code(self) -> str | None:
        """How the game ended (§8.2): ``three_stacks``, ``stuck``, ``repetition`` or
        ``turn_limit`` (conditions 1..4), None while it runs."""
        ended = self.kernel.result()
        return None if ended is None else CONDITION_CODES[ended[1]]

    def end_reason(self) -> str | None:
        code = self.end_code()
        if code is None:
            return None
        condition = CONDITION_NUMBERS[code]
        return f"condition {condition}: {CONDITION_TEXT[condition]}"
