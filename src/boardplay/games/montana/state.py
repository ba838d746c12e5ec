"""``MontanaState``: the thin facade over the compiled kernel (rules spec §3–§10 live there).

The contract's hot verbs (legal actions, checked apply, clone) are ``KernelState``'s compiled
ones; this module adds the notation, the rule-naming explanations (through the game, which wires
``explain.py``) and typed accessors that show the kernel's C fields under the rulebook's names:
scalars as ints, bools and texts, arrays as live int sequences. They are read-only: play changes
a position only through ``apply_action``. The position loader and tests that build a position
write through ``state.edit()`` (``edit.silver[p] = 2``). The board geometry of the dealt seed is
``board.Board`` (cached, shared), whose local hex order the hex fields use.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from typing import Any, Generic, NamedTuple, TypeVar, overload

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import Game, State
from boardplay.core.kernel import KernelState
from boardplay.games.montana import fields
from boardplay.games.montana import notation as A
from boardplay.games.montana.board import Board, make_board
from boardplay.games.montana.data import Components
from boardplay.games.montana.kernel import MontanaKernel
from boardplay.games.montana.layout import HOME, SEAT_FEATURES, Stage
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
CHANCE_STAGES = (BOARD, SETUP_SPIN, START, SPIN)
TRADE_STAGES = (MAIN, PUSH, PLACE, REWARD, BUILD_NEXT, END)
EMPTY = (0, 0, 0, 0)
MAIN_ACTIONS = ("", "recruit", "bank", "production", "city", "build")
END_REASONS = ("", "trigger", "max_turns")


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

    @abc.abstractmethod
    def explain(self, state: MontanaState, action: object) -> str:
        """Why ``action`` is illegal in ``state`` (explain.py)."""


E = TypeVar("E")


class _View(Sequence[E]):
    """A live sequence over one kernel field: every read and write goes to the kernel."""

    __slots__ = ("_kernel", "_name")

    def __init__(self, kernel: MontanaKernel, name: str) -> None:
        self._kernel = kernel
        self._name = name

    def __len__(self) -> int:
        return fields.length(self._kernel, self._name)

    @overload
    def __getitem__(self, index: int) -> E: ...
    @overload
    def __getitem__(self, index: slice) -> list[E]: ...
    def __getitem__(self, index: int | slice) -> E | list[E]:
        if isinstance(index, slice):
            values: list[E] = fields.read(self._kernel, self._name)
            return values[index]
        entry: E = fields.read_one(self._kernel, self._name, index)
        return entry

    def __iter__(self) -> Iterator[E]:
        return iter(fields.read(self._kernel, self._name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class Ints(_View[int]):
    """An int array field (per seat, per supply kind or per hex)."""

    __slots__ = ()


class Slots(_View[tuple[int, ...]]):
    """The worker-board parts (bank spaces, then left/right of each production space) as
    4-tuples of worker counts (Cu, St, Gr, Pu)."""

    __slots__ = ()


class Writable(_View[Any]):
    """An array field that also writes (``MontanaState.edit``)."""

    __slots__ = ()

    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            for i, v in zip(range(*index.indices(len(self))), value, strict=True):
                fields.write(self._kernel, self._name, i, v)
        else:
            fields.write(self._kernel, self._name, index % len(self), value)


READ_ONLY = (
    "a position's fields are read-only (play changes them through apply_action); "
    "a loader or a test building a position writes through state.edit()"
)


T = TypeVar("T")


class _Scalar(Generic[T]):
    """A kernel int field shown as ``int``, ``bool`` or a text from ``names``."""

    def __init__(self, name: str, kind: type[T], names: tuple[str, ...] = ()) -> None:
        self.name, self.kind, self.names = name, kind, names

    def __get__(self, state: MontanaState, owner: object = None) -> T:
        value = fields.get(state.kernel, self.name)
        if self.names:
            return self.names[value]  # type: ignore[return-value]
        return self.kind(value)  # type: ignore[call-arg]

    def __set__(self, state: MontanaState, value: T) -> None:
        raise AttributeError(f"{self.name}: {READ_ONLY}")

    def write(self, state: MontanaState, value: T) -> None:
        code = self.names.index(value) if self.names else int(value)  # type: ignore[call-overload]
        fields.put(state.kernel, self.name, code)


class _Array:
    """A kernel array field shown as a live, read-only ``Ints``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, state: MontanaState, owner: object = None) -> Ints:
        return Ints(state.kernel, self.name)

    def __set__(self, state: MontanaState, values: Sequence[Any]) -> None:
        raise AttributeError(f"{self.name}: {READ_ONLY}")


class _SlotsField(_Array):
    def __get__(self, state: MontanaState, owner: object = None) -> Slots:  # type: ignore[override]
        return Slots(state.kernel, self.name)


class Editing:
    """Writes a position's fields straight into its kernel: ``edit.silver[p] = 2``,
    ``edit.stage = 3``, ``edit.workers = [...]``; anything else is the state's own attribute.
    Only the position loader and tests that build a position use it: it checks nothing, so what
    it writes must be a position the rules could reach (the loader validates first)."""

    __slots__ = ("_state",)

    def __init__(self, state: MontanaState) -> None:
        object.__setattr__(self, "_state", state)

    @staticmethod
    def _field(name: str) -> _Scalar[Any] | _Array | None:
        for klass in MontanaState.__mro__:
            found = vars(klass).get(name)
            if isinstance(found, _Scalar | _Array):
                return found
        return None

    def __getattr__(self, name: str) -> Any:
        field = self._field(name)
        if isinstance(field, _Array):
            return Writable(self._state.kernel, field.name)
        return getattr(self._state, name)

    def __setattr__(self, name: str, value: Any) -> None:
        field = self._field(name)
        if isinstance(field, _Scalar):
            field.write(self._state, value)
        elif isinstance(field, _Array):
            Writable(self._state.kernel, field.name)[:] = value
        elif name == "won":  # the winners as a bit mask; None: nobody has won
            mask = -1 if value is None else sum(1 << seat for seat in value)
            fields.put(self._state.kernel, "won", mask)
        else:
            setattr(self._state, name, value)


class MontanaState(KernelState, State):
    """A Montana position: the kernel plus the history; field names follow the rulebook
    (supply, player board, contractor, settlement, canteen, cattle), and ``stage`` with the
    fields after it describe the pending decision."""

    game: MontanaGameBase
    kernel: MontanaKernel

    stage = _Scalar("stage", int)
    decider = _Scalar("decider", int)
    main = _Scalar("main", str, MAIN_ACTIONS)
    setup_seat = _Scalar("setup_seat", int)
    setup_spin_no = _Scalar("setup_spin_no", int)
    spin = _Scalar("spin", int)
    push = _Scalar("push", int)
    wilds = _Scalar("wilds", int)
    excess = _Scalar("excess", int)
    after_overflow = _Scalar("after_overflow", int)
    prod_area = _Scalar("prod_area", int)
    prod_space = _Scalar("prod_space", int)
    builds_paid = _Scalar("builds_paid", int)
    opp = _Scalar("opp", int)
    chain = _Scalar("chain", bool)
    cursor = _Scalar("cursor", int)
    start_player = _Scalar("start_player", int)
    active = _Scalar("active", int)
    turn_number = _Scalar("turn_number", int)
    extra_turn = _Scalar("extra_turn", bool)
    trigger_by = _Scalar("trigger_by", int)
    final_pending = _Scalar("final_pending", bool)
    ended_by = _Scalar("ended_by", str, END_REASONS)
    supply_cattle = _Scalar("supply_cattle", int)
    canteens_used = _Scalar("canteens_used", int)
    canteens_box = _Scalar("canteens_box", int)
    supply_workers = _Array("supply_workers")
    supply_goods = _Array("supply_goods")
    aside_goods = _Array("aside_goods")
    silver = _Array("silver")
    goods = _Array("goods")
    cattle = _Array("cattle")
    canteens = _Array("canteens")
    workers = _Array("workers")
    tiles = _Array("tiles")
    contractor = _Array("contractor")
    regular_turns = _Array("regular_turns")
    out = _Array("out")
    slots = _SlotsField("slots")
    hex_owner = _Array("hex_owner")
    hex_tiles = _Array("hex_tiles")
    hex_cattle = _Array("hex_cattle")
    lake_canteen = _Array("lake_canteen")

    def __init__(self, game: MontanaGameBase) -> None:
        self.game = game
        self.kernel = MontanaKernel(game.tables)
        self._history = []

    def edit(self) -> Editing:
        """Write access to this position's fields, for a loader or a test building a position
        (play itself changes a position only through ``apply_action``)."""
        return Editing(self)

    # ----- typed accessors --------------------------------------------------------------------
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
    def received(self) -> tuple[int, ...]:
        return tuple(fields.read(self.kernel, "received"))

    @received.setter
    def received(self, counts: Sequence[int]) -> None:
        for c, count in enumerate(counts):
            fields.write(self.kernel, "received", c, count)

    @property
    def won(self) -> list[int] | None:
        """The winners once the game is over (empty: a draw)."""
        mask = fields.get(self.kernel, "won")
        return None if mask < 0 else [p for p in range(self.n) if mask >> p & 1]

    @property
    def lines(self) -> list[tuple[tuple[int, tuple[int, ...]], ...]]:
        """Per player, the rewarded straight lines: ``(axis, sorted local hexes)``."""
        return [tuple(fields.lines(self.kernel, p)) for p in range(self.n)]

    def set_lines(self, player: int, lines: Sequence[tuple[int, Sequence[int]]]) -> str:
        """Replace ``player``'s rewarded lines; returns why they are invalid ("" if set)."""
        return str(fields.set_lines(self.kernel, player, list(lines)))

    def deal_board(self, seed: int) -> None:
        """Deal the landscape of ``seed`` with all hexes empty (for position loading)."""
        fields.load_board(self.kernel, seed)

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

    def can_afford(self, player: int, cost: Sequence[int]) -> bool:
        held = self.goods[6 * player : 6 * player + 6]
        return all(have >= need for have, need in zip(held, cost, strict=True))

    def build_sites(self) -> list[list[tuple[int, ...]]]:
        """Per player, the building costs of every hex the player may build on now, goods
        aside (empty for a player with no settlements left)."""
        board = self.board
        if board is None:
            return [[] for _ in range(self.n)]
        return [[board.costs[h] for h in fields.sites(self.kernel, p)] for p in range(self.n)]

    def slot_occupied(self, slot: int) -> bool:
        return sum(self.slots[slot]) > 0

    def row_holder(self, row: int) -> int:
        cols = len(self.data.column_cost)
        for p, spot in enumerate(self.contractor):
            if spot != HOME and spot // cols == row:
                return p
        return -1

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
        return self.game.explain(self, action)

    def action_to_string(self, action: int) -> str:
        try:
            if self.stage in CHANCE_STAGES:
                return A.chance_to_string(action)
            return A.action_to_string(self.data, action)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from exc

    def string_to_action(self, text: str) -> int:
        """Like the base parser, but linear in the number of legal actions (the Board chance
        node lists 4096 outcomes)."""
        text = text.strip()
        if self.stage in CHANCE_STAGES:
            outcome = A.string_to_chance(text)
            if outcome is not None and self.is_legal(outcome):
                return outcome
        else:
            by_text = {A.action_to_string(self.data, a): a for a in self.legal_actions()}
            if text in by_text:
                return by_text[text]
        return super().string_to_action(text)

    def _parse_alternative(self, text: str) -> int | None:
        """Accept multisets written in any order (``St+Cu`` for ``Cu+St``)."""
        if ":" not in text:
            return None
        head, _, tail = text.rpartition(":")
        parts = tail.split("+")
        if len(parts) < 2:
            return None
        for action in self.legal_actions():
            ohead, _, otail = self.action_to_string(action).rpartition(":")
            if ohead == head and sorted(otail.split("+")) == sorted(parts):
                return action
        return None
