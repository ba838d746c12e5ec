"""``MontanaState``: the thin facade over the compiled kernel (rules spec §3–§10 live there).

The contract's hot verbs (legal actions, checked apply, clone) are ``KernelState``'s compiled
ones; this module adds the notation, the rule-naming explanations (``explain.py``, below this
module: it reads the kernel) and typed accessors that show the kernel's C fields under the
rulebook's names: the field table of ``fields.pyx`` (``MontanaFields``: scalars as ints, bools
and texts, arrays as tuples read once) and the hex fields. They are read-only: play changes a
position only through ``apply_action``, and the position loader (and a test building a
position) writes through ``fields.load``. The board geometry of the dealt seed is
``board.Board`` (cached, shared), whose local hex order the hex fields use.
"""

from __future__ import annotations

from typing import NamedTuple

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import Game, State
from boardplay.core.kernel import KernelState
from boardplay.games.montana import fields, notation
from boardplay.games.montana.board import Board, make_board
from boardplay.games.montana.data import Components
from boardplay.games.montana.explain import explain_illegal
from boardplay.games.montana.fields import MontanaFields
from boardplay.games.montana.kernel import MontanaKernel
from boardplay.games.montana.layout import CHANCE_STAGES, SEAT_FEATURES, Stage
from boardplay.games.montana.tables import Tables

# Stages (spec §10, numbered by ``layout.Stage``) under the facade's names: ``PUSH``, ``RIGHT``,
# ``PLACE`` and ``END`` are the stages here, where the layout, which also names the actions, says
# ``PUSH_STAGE``...
BOARD = int(Stage.BOARD)
SETUP_SPIN = int(Stage.SETUP_SPIN)
START = int(Stage.START)
SPIN = int(Stage.SPIN)
SETUP_WILD = int(Stage.SETUP_WILD)
MAIN = int(Stage.MAIN)
PUSH = int(Stage.PUSH_STAGE)
WILD_STAGE = int(Stage.WILD_STAGE)
OVERFLOW = int(Stage.OVERFLOW)
RIGHT = int(Stage.RIGHT_STAGE)
PLACE = int(Stage.PLACE_STAGE)
REWARD = int(Stage.REWARD)
BUILD_NEXT = int(Stage.BUILD_NEXT)
END = int(Stage.END_STAGE)
OVER = int(Stage.OVER)
EMPTY = (0, 0, 0, 0)


TIEBREAK_WORDS = {
    "cattle": "tie broken by cattle and unused canteens",
    "money": "tie broken by silver, workers and goods",
    "shared": "tied on both tie-breaks: a shared win",
}
"""How ``MontanaState.result_text`` says which tie-break decided (``decided_by``)."""


class Holdings(NamedTuple):
    """What one player owns, counted (goods of every kind and size together, workers of every
    colour together): the numbers an evaluation needs on every search step."""

    settlements_left: int
    goods: int
    silver: int
    workers: int
    cattle: int
    canteens: int


class MontanaGameBase(Game):
    """What the facade needs from ``game.MontanaGame`` (declared here so imports run one way:
    the game module, on top of the package, implements it)."""

    data: Components
    tables: Tables
    area_slot: tuple[int, ...]
    adjacent_any: bool
    max_turns: int


def new_kernel(game: MontanaGameBase) -> MontanaKernel:
    """The initial position's kernel under ``game``'s options and data (the Board chance node
    comes first)."""
    return MontanaKernel(game.num_players, game.tables)


class MontanaState(KernelState, MontanaFields, State):
    """A Montana position: the kernel plus the history; field names follow the rulebook
    (supply, player board, contractor, settlement, canteen, cattle), and ``stage`` with the
    fields after it describe the pending decision."""

    game: MontanaGameBase
    kernel: MontanaKernel

    def __init__(self, game: MontanaGameBase, kernel: MontanaKernel) -> None:
        """Wrap ``kernel``, a position of ``game`` (``new_kernel``: its initial one)."""
        self.game = game
        self.kernel = kernel
        self._history = []

    # ----- typed accessors: the kernel's fields (``stage``, ``silver`` ...) are the read-only
    # properties of ``MontanaFields`` (fields.pyx); these read the hex fields and the board --
    @property
    def data(self) -> Components:
        return self.game.data

    @property
    def n(self) -> int:
        return self.kernel.num_players

    @property
    def board_seed(self) -> int:
        return int(fields.board_seed(self.kernel))

    @property
    def board(self) -> Board | None:
        """The dealt landscape's geometry (None before the Board chance node)."""
        seed = self.board_seed
        return None if seed < 0 else make_board(self.data, self.n, seed)

    @property
    def hex_owner(self) -> list[int]:
        """Per landscape hex (local index): the settlement owner, -1 for none."""
        return fields.hexes(self.kernel, "hex_owner")

    @property
    def hex_tiles(self) -> list[int]:
        """Per landscape hex: the settlement's tiles (0 for none)."""
        return fields.hexes(self.kernel, "hex_tiles")

    @property
    def hex_cattle(self) -> list[int]:
        """Per landscape hex: 1 while a K hex's cattle is still there."""
        return fields.hexes(self.kernel, "hex_cattle")

    @property
    def lake_canteen(self) -> list[int]:
        """Per landscape hex: 1 while a canteen lake still holds its canteen."""
        return fields.hexes(self.kernel, "lake_canteen")

    @property
    def slots(self) -> list[tuple[int, ...]]:
        """The worker-board parts (bank spaces, then left/right of each production space) as
        4-tuples of worker counts (Cu, St, Gr, Pu)."""
        return fields.slots(self.kernel)

    @property
    def won(self) -> list[int] | None:
        """The kernel's set of winners (the position JSON's ``result.winners``), None while
        the game runs: what ``winners()`` reports once it is over (``tests/games/montana``
        holds them equal)."""
        mask = self.won_mask
        return None if mask < 0 else [p for p in range(self.n) if mask >> p & 1]

    @property
    def lines(self) -> list[tuple[tuple[int, tuple[int, ...]], ...]]:
        """Per player, the rewarded straight lines: ``(axis, sorted local hexes)``."""
        return [tuple(fields.lines(self.kernel, p)) for p in range(self.n)]

    def turn(self) -> tuple[int, int]:
        """The active player's turn (§4), numbered: the other players' placements and rewards
        in a City auction belong to it, and an extra turn is a new one. In setup (no active
        player yet) each seat's run of decisions is one turn."""
        active = self.active
        if active < 0:
            return (self.current_player(), -1)
        return (active, self.turn_number)

    def worker_count(self, player: int) -> int:
        return sum(self.workers[4 * player : 4 * player + 4])

    def last_seat(self) -> int:
        return (self.start_player - 1) % self.n

    def holdings(self, seat: int) -> Holdings:
        """``seat``'s settlements left to place and its counted possessions."""
        f = self.kernel.features()[SEAT_FEATURES * seat : SEAT_FEATURES * seat + 6]
        return Holdings(*(int(v) for v in f))

    def buildable(self, player: int, h: int) -> bool:
        """An empty plain other than the start hex, next to the start hex or one of
        ``player``'s settlements (any player's with build_adjacent_any)."""
        return bool(fields.buildable(self.kernel, player, h))

    def build_sites(self) -> list[list[tuple[int, ...]]]:
        """Per player, the building costs of every hex the player may build on now, goods
        aside (empty for a player with no settlements left)."""
        board = self.board
        if board is None:
            return [[] for _ in range(self.n)]
        return [[board.costs[h] for h in fields.sites(self.kernel, p)] for p in range(self.n)]

    def tiebreak_two(self, player: int) -> int:
        return int(fields.tiebreak_two(self.kernel, player))

    def compute_winners(self) -> list[int]:
        """Only players who placed all their settlements can win (spec §8)."""
        return list(fields.winners(self.kernel))

    # ----- contract ---------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes: list[tuple[int, float]] = self.kernel.chance_outcomes()
        return outcomes

    def decided_by(self) -> str | None:
        """Which step of the winner rule (spec §8) chose the winners of a finished game, so a
        player who also placed every settlement learns why they did not win: ``"alone"`` (the
        only player with every settlement placed), ``"cattle"`` (the first tie-break: cattle
        plus unused canteens), ``"money"`` (the second: silver, workers and goods),
        ``"shared"`` (tied on both) or ``"nobody"`` (no one placed them all: a draw). None
        while the game runs."""
        if self.won is None:
            return None
        finished = self.finishers()
        if len(finished) < 2:
            return "alone" if finished else "nobody"
        steps = self.tiebreaks()
        last, values = steps[-1]
        best = max(values.values())
        return last if sum(v == best for v in values.values()) == 1 else "shared"

    def finishers(self) -> list[int]:
        """The players with every settlement placed: the only ones who can win (spec §8)."""
        return [p for p in range(self.n) if self.holdings(p).settlements_left == 0]

    def tiebreaks(self) -> list[tuple[str, dict[int, int]]]:
        """The tie-break steps of spec §8 taken among the players who placed every settlement,
        each ``(step, {player: value})`` for the players still tied when it was taken: ``"cattle"``
        (cattle plus unused canteens), then, if that left a tie, ``"money"`` (silver, workers and
        goods). Empty when fewer than two players placed every settlement."""
        held = [self.holdings(p) for p in range(self.n)]
        finished = self.finishers()
        steps: list[tuple[str, dict[int, int]]] = []
        if len(finished) < 2:
            return steps
        for step, key in (
            ("cattle", lambda p: held[p].cattle + held[p].canteens),
            ("money", self.tiebreak_two),
        ):
            values = {p: key(p) for p in finished}
            steps.append((step, values))
            best = max(values.values())
            finished = [p for p in finished if values[p] == best]
            if len(finished) == 1:
                break
        return steps

    def winners(self) -> list[int]:
        """The players who won (spec §8): several on a shared win, even one shared by every
        player (which ``returns`` scores as a draw), none on a draw or while the game runs."""
        return self.won or []

    def end_code(self) -> str | None:
        return {"trigger": "final_round", "max_turns": "turn_limit"}.get(self.ended_by or "")

    def end_reason(self) -> str | None:
        if self.ended_by == "trigger":
            return "final round played out"
        if self.ended_by == "max_turns":
            return f"turn cap of {self.game.max_turns} reached"
        return None

    def result_text(self) -> str:
        """Who won and why the game ended, and, when several players placed every settlement,
        which tie-break chose (that is about the winner, not the end: ``end_reason`` leaves
        it out)."""
        tiebreak = TIEBREAK_WORDS.get(self.decided_by() or "")
        text = super().result_text()
        return f"{text}, {tiebreak}" if tiebreak else text

    def explain_illegal(self, action: object) -> str:
        return explain_illegal(self, action)

    def action_to_string(self, action: int) -> str:
        try:
            if self.stage in CHANCE_STAGES:
                return notation.chance_to_string(action)
            return notation.action_to_string(self.data, action)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from exc

    notation_forms = notation.FORMS

    def _parse_notation(self, text: str) -> int | None:
        return notation.parse(self.data, text, self.stage in CHANCE_STAGES)
