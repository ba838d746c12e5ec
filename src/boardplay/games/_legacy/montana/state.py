"""Montana's rules: the state, its stages and every transition (rules spec §3–§10).

A turn is a sequence of atomic decisions at *stages* (spec §10.3), each with one deciding player;
spins, the board seed and the start player are chance nodes. The state is a handful of flat int
lists (supplies, player boards, hex contents, worker board) plus shared immutable parts (the
components and the generated board), so ``clone()`` copies a few short lists only.

Automatic steps (payments, shortage returns, cleanup, auction payment, build effects,
compensation) happen inside the transition that causes them, never as extra decisions.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import CHANCE, TERMINAL, State
from boardplay.games._legacy.montana import actions as A
from boardplay.games._legacy.montana.board import AXES, Board, make_board
from boardplay.games._legacy.montana.data import (
    GRAIN_GOOD,
    MAX_AREA_SPACES,
    MAX_COLUMNS,
    PUMPKIN_GOOD,
    WILD,
    Components,
)

if TYPE_CHECKING:
    from boardplay.games._legacy.montana.game import MontanaGame

# Stages (spec §10). Chance stages first.
BOARD = 0
SETUP_SPIN = 1
START = 2
SPIN = 3
SETUP_WILD = 4
MAIN = 5
PUSH = 6
WILD_STAGE = 7
OVERFLOW = 8
RIGHT = 9
PLACE = 10
REWARD = 11
BUILD_NEXT = 12
END = 13
OVER = 14
STAGE_NAMES = (
    "BOARD",
    "SETUP_SPIN",
    "START",
    "SPIN",
    "SETUP_WILD",
    "MAIN",
    "PUSH",
    "WILD",
    "OVERFLOW",
    "RIGHT",
    "PLACE",
    "REWARD",
    "BUILD_NEXT",
    "END",
    "OVER",
)
CHANCE_STAGES = (BOARD, SETUP_SPIN, START, SPIN)
TRADE_STAGES = (MAIN, PUSH, PLACE, REWARD, BUILD_NEXT, END)
TURN_END = -1
"""``after_overflow`` value meaning: the overflow ends the recruit, so the turn ends next."""
HOME = -1
EMPTY = (0, 0, 0, 0)
MAIN_ACTIONS = ("", "recruit", "bank", "production", "city", "build")


class Holdings(NamedTuple):
    """What one player owns, counted (goods of every kind and size together, workers of every
    colour together): the numbers an evaluation needs on every search step, read without
    building the position JSON."""

    settlements_left: int
    goods: int
    silver: int
    workers: int
    cattle: int
    canteens: int


class MontanaState(State):
    """A Montana position. Field names follow the rulebook (supply, player board, contractor,
    settlement, canteen, cattle); ``stage`` and the fields after it describe the pending
    decision."""

    game: MontanaGame

    def __init__(self, game: MontanaGame) -> None:
        self.game = game
        self.data: Components = game.data
        self.n = n = game.num_players
        self.board: Board | None = None
        self.board_seed = -1
        # supplies
        self.supply_workers = [self.data.workers_per_colour] * 4
        self.supply_goods = [0] * 6
        self.supply_cattle = 0
        self.aside_goods = [0] * 6
        self.canteens_used = 0
        self.canteens_box = 0
        # player boards
        self.silver = [0] * n
        self.goods = [0] * (6 * n)
        self.cattle = [0] * n
        self.canteens = [0] * n
        self.workers = [0] * (4 * n)
        self.tiles = [self.data.settlements[n]] * n
        self.lines: list[tuple[tuple[int, tuple[int, ...]], ...]] = [()] * n
        # landscape (local hex indices)
        self.hex_owner: list[int] = []
        self.hex_tiles: list[int] = []
        self.hex_cattle: list[int] = []
        self.lake_canteen: list[int] = []
        # worker board: bank spaces, then (left, right) of every production space
        self.slots: list[tuple[int, ...]] = [EMPTY] * game.num_slots
        self.contractor = [HOME] * n
        # turn state
        self.start_player = -1
        self.active = -1
        self.turn_number = 0
        self.regular_turns = [0] * n
        self.extra_turn = False
        self.trigger_by = -1
        self.final_pending = False
        self.won: list[int] | None = None
        """The winners once the game is over (empty: a draw)."""
        self.ended_by = ""
        # decision stage
        self.stage = BOARD
        self.decider = CHANCE
        self.main = ""
        self.setup_seat = 0
        self.setup_spin_no = 0
        self.spin = -1
        self.push = -1
        self.received: tuple[int, ...] = EMPTY
        self.wilds = 0
        self.excess = 0
        self.after_overflow = TURN_END
        self.prod_area = -1
        self.prod_space = -1
        self.builds_paid = 0
        self.opp = 0
        self.chain = False
        self.out = [False] * n
        self.cursor = 0
        self._history: list[int] = []
        self._legal: list[int] | None = None
        if isinstance(game.options["board_seed"], int):
            self._setup_board(game.options["board_seed"])

    # ------------------------------------------------------------------------------------------
    # contract basics
    def clone(self) -> MontanaState:
        other = MontanaState.__new__(MontanaState)
        other.__dict__.update(self.__dict__)
        for name in _LIST_FIELDS:
            setattr(other, name, list(getattr(self, name)))
        other._legal = self._legal
        return other

    def current_player(self) -> int:
        if self.stage == OVER:
            return TERMINAL
        if self.stage in CHANCE_STAGES:
            return CHANCE
        return self.decider

    def history(self) -> list[int]:
        return list(self._history)

    def end_reason(self) -> str | None:
        if self.ended_by == "trigger":
            return "final round played out"
        if self.ended_by == "max_turns":
            return f"turn cap of {self.game.max_turns} reached"
        return None

    def holdings(self, seat: int) -> Holdings:
        """``seat``'s settlements left to place and its counted possessions."""
        return Holdings(
            self.tiles[seat],
            sum(self.goods[6 * seat : 6 * seat + 6]),
            self.silver[seat],
            sum(self.workers[4 * seat : 4 * seat + 4]),
            self.cattle[seat],
            self.canteens[seat],
        )

    def returns(self) -> list[float]:
        if self.won is None:
            return [0.0] * self.n
        if not self.won:
            return [1.0 / self.n] * self.n
        share = 1.0 / len(self.won)
        return [share if p in self.won else 0.0 for p in range(self.n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == BOARD:
            p = 1.0 / A.BOARD_OUTCOMES
            return [(A.CHANCE_BOARD + b, p) for b in range(A.BOARD_OUTCOMES)]
        if self.stage in (SETUP_SPIN, SPIN):
            size = len(self.data.wheel)
            return [(A.CHANCE_SPIN + s, 1.0 / size) for s in range(size)]
        if self.stage == START:
            return [(A.CHANCE_START + s, 1.0 / self.n) for s in range(self.n)]
        return []

    def action_to_string(self, action: int) -> str:
        try:
            if self.stage in CHANCE_STAGES:
                return A.chance_to_text(action)
            return A.action_to_text(self.data, action)
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from exc

    def string_to_action(self, text: str) -> int:
        """Like the base parser, but linear in the number of legal actions (the Board chance
        node lists 4096 outcomes)."""
        text = text.strip()
        if self.stage in CHANCE_STAGES:
            outcome = A.text_to_chance(text)
            if outcome is not None and outcome in self.legal_actions():
                return outcome
        else:
            by_text = {A.action_to_text(self.data, a): a for a in self.legal_actions()}
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
            other = self.action_to_string(action)
            ohead, _, otail = other.rpartition(":")
            if ohead == head and sorted(otail.split("+")) == sorted(parts):
                return action
        return None

    # ------------------------------------------------------------------------------------------
    # helpers
    def worker_count(self, player: int) -> int:
        base = 4 * player
        w = self.workers
        return w[base] + w[base + 1] + w[base + 2] + w[base + 3]

    def last_seat(self) -> int:
        return (self.start_player - 1) % self.n

    def _take_goods(self, player: int, kind: int, need: int) -> int:
        """Take ``need`` goods of ``kind`` with the shortage rule (spec §6)."""
        supply = self.supply_goods
        hands = self.goods
        n = self.n
        while supply[kind] < need:
            returned = False
            for p in range(n):
                if hands[6 * p + kind] > 0:
                    hands[6 * p + kind] -= 1
                    supply[kind] += 1
                    returned = True
            if not returned:
                break
        got = need if need <= supply[kind] else supply[kind]
        supply[kind] -= got
        hands[6 * player + kind] += got
        return got

    def _take_workers(self, player: int, colour: int, need: int) -> int:
        supply = self.supply_workers
        hands = self.workers
        while supply[colour] < need:
            returned = False
            for p in range(self.n):
                if hands[4 * p + colour] > 0:
                    hands[4 * p + colour] -= 1
                    supply[colour] += 1
                    returned = True
            if not returned:
                break
        got = need if need <= supply[colour] else supply[colour]
        supply[colour] -= got
        hands[4 * player + colour] += got
        return got

    def _take_cattle(self, player: int, need: int) -> int:
        while self.supply_cattle < need:
            returned = False
            for p in range(self.n):
                if self.cattle[p] > 0:
                    self.cattle[p] -= 1
                    self.supply_cattle += 1
                    returned = True
            if not returned:
                break
        got = min(need, self.supply_cattle)
        self.supply_cattle -= got
        self.cattle[player] += got
        return got

    def _has_workers(self, player: int, ms: tuple[int, ...]) -> bool:
        w = self.workers
        b = 4 * player
        return w[b] >= ms[0] and w[b + 1] >= ms[1] and w[b + 2] >= ms[2] and w[b + 3] >= ms[3]

    def _pay_workers(self, player: int, ms: tuple[int, ...]) -> None:
        b = 4 * player
        for c in range(4):
            self.workers[b + c] -= ms[c]

    def can_afford(self, player: int, cost: tuple[int, ...]) -> bool:
        g = self.goods
        b = 6 * player
        return (
            g[b] >= cost[0]
            and g[b + 1] >= cost[1]
            and g[b + 2] >= cost[2]
            and g[b + 3] >= cost[3]
            and g[b + 4] >= cost[4]
            and g[b + 5] >= cost[5]
        )

    def buildable(self, player: int, h: int) -> bool:
        """A plain without settlement, not the start hex, next to the start hex or one of
        ``player``'s own settlements (any player's with build_adjacent_any)."""
        board = self.board
        assert board is not None
        if self.hex_owner[h] != -1 or board.specs[h].kind != "plain" or h == board.start:
            return False
        owner = self.hex_owner
        start = board.start
        any_owner = self.game.adjacent_any
        for nb in board.neighbours[h]:
            if nb == start:
                return True
            o = owner[nb]
            if o == player or (any_owner and o >= 0):
                return True
        return False

    def build_sites(self) -> list[list[tuple[int, ...]]]:
        """Per player, the building costs (goods counts in GOODS order) of every hex the player
        may build on now, goods aside: empty plains next to the start hex or to the player's own
        settlements (any settlement with build_adjacent_any). Empty for a player with no
        settlements left. One pass over the plains for all players, so an evaluation can ask on
        every search step."""
        board = self.board
        out: list[list[tuple[int, ...]]] = [[] for _ in range(self.n)]
        if board is None:
            return out
        owner = self.hex_owner
        start = board.start
        everyone = range(self.n)
        any_owner = self.game.adjacent_any
        for h in board.plains:
            if owner[h] != -1 or h == start:
                continue
            near: set[int] = set()
            for nb in board.neighbours[h]:
                if nb == start:
                    near = set(everyone)
                    break
                if owner[nb] >= 0:
                    near.add(owner[nb])
            if any_owner and near:
                near = set(everyone)
            cost = board.costs[h]
            for p in near:
                if self.tiles[p] > 0:
                    out[p].append(cost)
        return out

    def _build_options(self, player: int) -> list[int]:
        board = self.board
        assert board is not None
        out: list[int] = []
        if self.tiles[player] == 0:
            return out
        for h in board.plains:
            if (
                self.hex_owner[h] == -1
                and self.can_afford(player, board.costs[h])
                and self.buildable(player, h)
            ):
                out.append(A.BUILD + board.grid_of[h])
        return out

    def slot_occupied(self, slot: int) -> bool:
        s = self.slots[slot]
        return s[0] + s[1] + s[2] + s[3] > 0

    def row_holder(self, row: int) -> int:
        cols = len(self.data.column_cost)
        for p in range(self.n):
            c = self.contractor[p]
            if c != HOME and c // cols == row:
                return p
        return -1

    # ------------------------------------------------------------------------------------------
    # legal actions
    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _trades(self, out: list[int]) -> None:
        p = self.decider
        if p != self.active or self.cattle[p] < 1:
            return
        for g in self.data.cattle_trade_goods:
            out.append(A.TRADE + g)
        out.append(A.TRADE + A.TRADE_SILVER)
        for c in range(4):
            out.append(A.TRADE + A.TRADE_SILVER + 1 + c)

    def _compute_legal(self) -> list[int]:
        stage = self.stage
        if stage == OVER:
            return []
        if stage in CHANCE_STAGES:
            return [a for a, _ in self.chance_outcomes()]
        p = self.decider
        out: list[int] = []
        data = self.data
        if stage == MAIN:
            out.append(A.RECRUIT)
            out.append(A.CITY)
            self._trades(out)
            self._main_work(p, out)
            out.extend(self._build_options(p))
        elif stage == PUSH:
            step = data.grain_per_push_step
            grain = self.goods[6 * p + GRAIN_GOOD]
            most = data.max_arrow_push if step == 0 else min(data.max_arrow_push, grain // step)
            out.extend(A.PUSH + k for k in range(most + 1))
            self._trades(out)
        elif stage in (WILD_STAGE, SETUP_WILD):
            out.extend(A.WILD + i for i in A.WORKER_SETS_BY_SIZE[self.wilds])
        elif stage == OVERFLOW:
            held = tuple(self.workers[4 * p : 4 * p + 4])
            out.extend(A.RETURN + i for i in _fitting(held, self.excess))
        elif stage == RIGHT:
            out.append(A.RIGHT_NONE)
            held = tuple(self.workers[4 * p : 4 * p + 4])
            out.extend(A.RIGHT + i for i in _part_choices(held, data.areas[self.prod_area].colour))
        elif stage == PLACE:
            if not (self.opp == 0 and not self.chain):
                out.append(A.PASS)
            self._trades(out)
            out.extend(self._place_spots(p))
        elif stage == REWARD:
            self._trades(out)
            out.extend(self._reward_options(p))
        elif stage == BUILD_NEXT:
            out.append(A.STOP)
            self._trades(out)
            out.extend(self._build_options(p))
        elif stage == END:
            if self.canteens[p] > 0:
                out.append(A.CANTEEN)
            out.append(A.END)
            self._trades(out)
        out.sort()
        return out

    def _main_work(self, p: int, out: list[int]) -> None:
        data = self.data
        slots = self.slots
        held = tuple(self.workers[4 * p : 4 * p + 4])
        if held == EMPTY:
            return
        stride = len(A.WORKER_SETS)
        for b, space in enumerate(data.bank):
            if slots[b] == EMPTY:
                first = A.WORK_BANK + b * stride
                out.extend(first + i for i in _fitting(held, space.workers))
        silver = self.silver[p]
        for a, area in enumerate(data.areas):
            base = self.game.area_slot[a]
            parts = _part_choices(held, area.colour)
            if not parts:
                continue
            for s, pspace in enumerate(area.spaces):
                if slots[base + 2 * s] != EMPTY or pspace.cost > silver:
                    continue
                first = A.WORK_PROD + (a * MAX_AREA_SPACES + s) * len(A.PART_SETS)
                out.extend(first + i for i in parts)

    def _place_spots(self, p: int) -> list[int]:
        data = self.data
        pumpkins = self.goods[6 * p + PUMPKIN_GOOD]
        cols = len(data.column_cost)
        out = []
        for row in range(len(data.rows)):
            holder = self.row_holder(row)
            lo = 0 if holder < 0 else self.contractor[holder] % cols + 1
            for col in range(lo, cols):
                if data.column_cost[col] <= pumpkins:
                    out.append(A.PLACE + row * MAX_COLUMNS + col)
        return out

    def _reward_options(self, p: int) -> list[int]:
        row = self.data.rows[self.contractor[p] // len(self.data.column_cost)]
        out = []
        if row.picks:
            allowed = set(row.pick_from)
            for i, ms in enumerate(A.PICK_SETS):
                if sum(ms) == row.picks and all(ms[k] == 0 or k in allowed for k in range(6)):
                    out.append(A.REWARD_PICK + i)
            return out
        held = [self.goods[6 * p + small] for small, _ in self.data.upgrades]
        while len(held) < 2:
            held.append(0)
        for i, (u0, u1) in enumerate(A.UPGRADE_PAIRS):
            if u0 + u1 <= row.upgrades and u0 <= held[0] and u1 <= held[1]:
                out.append(A.REWARD_UP + i)
        return out

    # ------------------------------------------------------------------------------------------
    # applying actions
    def apply_action(self, action: int) -> None:
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action))
        self._legal = None
        self._history.append(action)
        stage = self.stage
        if stage in CHANCE_STAGES:
            self._apply_chance(action)
        elif A.TRADE <= action < A.WILD:
            self._trade(action - A.TRADE)
        elif stage == MAIN:
            self._apply_main(action)
        elif stage == PUSH:
            self._apply_push(action - A.PUSH)
        elif stage == WILD_STAGE:
            self._apply_wild(A.WORKER_SETS[action - A.WILD])
        elif stage == SETUP_WILD:
            ms = A.WORKER_SETS[action - A.WILD]
            self.received = tuple(self.received[c] + ms[c] for c in range(4))
            self._setup_receive()
        elif stage == OVERFLOW:
            self._apply_return(A.WORKER_SETS[action - A.RETURN])
        elif stage == RIGHT:
            self._apply_right(action)
        elif stage == PLACE:
            self._apply_place(action)
        elif stage == REWARD:
            self._apply_reward(action)
        elif stage == BUILD_NEXT:
            if action == A.STOP:
                self._finish_build()
            else:
                self._build_step(action)
        elif stage == END:
            self._apply_end(action)

    def _why_illegal(self, action: int) -> str:
        try:
            text = repr(self.action_to_string(action))
        except IllegalActionError:
            text = f"action id {action}"
        if self.stage == OVER:
            return f"{text} is not possible: the game is over"
        stage = STAGE_NAMES[self.stage]
        who = "chance" if self.stage in CHANCE_STAGES else self.game.seat_name(self.decider)
        reason = ""
        if A.TRADE <= action < A.WILD and self.stage not in CHANCE_STAGES:
            if self.decider != self.active or self.stage not in TRADE_STAGES:
                reason = "cattle trades are only possible in the active player's trade windows"
            elif self.cattle[self.decider] < 1:
                reason = "the player holds no cattle"
        elif A.BUILD <= action < A.NUM_ACTIONS and self.stage in (MAIN, BUILD_NEXT):
            reason = self._why_not_build(action - A.BUILD)
        elif A.WORK_BANK <= action < A.BUILD and self.stage == MAIN:
            reason = self._why_not_work(action)
        elif self.stage == PLACE and A.PLACE <= action < A.REWARD_UP:
            reason = (
                "the spot is not right of the row's contractor or costs more pumpkins than held"
            )
        elif self.stage == PLACE and action == A.PASS:
            reason = "the active player must place the first contractor"
        if not reason:
            reason = f"it is not one of the legal actions of {who} at stage {stage}"
        return f"{text} is not legal here: {reason}"

    def _why_not_work(self, action: int) -> str:
        p = self.decider
        data = self.data
        if action < A.WORK_PROD:
            space, index = divmod(action - A.WORK_BANK, len(A.WORKER_SETS))
            ms = A.WORKER_SETS[index]
            bank = data.bank[space]
            if self.slots[space] != EMPTY:
                return f"bank space {bank.name} is taken"
            if sum(ms) != bank.workers:
                return f"{bank.name} takes exactly {bank.workers} worker(s)"
        else:
            cell, index = divmod(action - A.WORK_PROD, len(A.PART_SETS))
            area_index, space = divmod(cell, MAX_AREA_SPACES)
            ms = A.WORKER_SETS[index]
            area = data.areas[area_index]
            prod = area.spaces[space]
            if self.slots[self.game.area_slot[area_index] + 2 * space] != EMPTY:
                return f"the left part of {prod.name} is taken"
            if sum(ms) == 1 and ms[area.colour] != 1:
                return f"one worker on {prod.name} must be {A.workers_text(_single(area.colour))}"
            if self.silver[p] < prod.cost:
                return f"{prod.name} costs {prod.cost} silver and the player has {self.silver[p]}"
        if not self._has_workers(p, ms):
            return f"the player does not hold the workers {A.workers_text(ms)}"
        return "that work is not possible now"

    def _why_not_build(self, cell: int) -> str:
        board = self.board
        assert board is not None
        h = board.local_of_grid.get(cell, -1)
        p = self.decider
        if h < 0:
            return "that hex is not on the landscape"
        spec = board.specs[h]
        if h == board.start:
            return "nothing can be built on the start tile"
        if spec.kind != "plain":
            return f"a {spec.kind} is never buildable"
        if self.hex_owner[h] != -1:
            return "the hex already holds a settlement"
        if not self.buildable(p, h):
            return "the hex touches neither the start tile nor one of the player's settlements"
        if not self.can_afford(p, board.costs[h]):
            return f"the player cannot pay its cost {A.goods_text(board.costs[h])}"
        return "no further build is possible now"

    # ----- chance and setup -------------------------------------------------------------------
    def _apply_chance(self, outcome: int) -> None:
        stage = self.stage
        if stage == BOARD:
            self._setup_board(outcome - A.CHANCE_BOARD)
        elif stage == SETUP_SPIN:
            self._setup_spin(outcome - A.CHANCE_SPIN)
        elif stage == START:
            self._start_game(outcome - A.CHANCE_START)
        else:  # SPIN
            self.spin = outcome - A.CHANCE_SPIN
            self.stage = PUSH
            self.decider = self.active

    def _setup_board(self, seed: int) -> None:
        data = self.data
        n = self.n
        board = make_board(data, n, seed)
        self.board = board
        self.board_seed = seed
        size = len(board.coords)
        self.hex_owner = [-1] * size
        self.hex_tiles = [0] * size
        self.hex_cattle = [0] * size
        self.lake_canteen = [0] * size
        for h in board.cattle_hexes:
            self.hex_cattle[h] = 1
        for h in board.canteen_lakes:
            self.lake_canteen[h] = 1
        self.canteens_box = data.canteens_total - len(board.canteen_lakes)
        supply = data.goods_supply[n]
        self.supply_goods = list(supply)
        self.aside_goods = [
            data.goods_box[k] - supply[k] - n * data.start_goods[k] for k in range(6)
        ]
        for p in range(n):
            for k in range(6):
                self.goods[6 * p + k] = data.start_goods[k]
            self.cattle[p] = data.start_cattle
        self.supply_cattle = data.cattle_total - len(board.cattle_hexes) - n * data.start_cattle
        self.setup_seat = 0
        self.setup_spin_no = 0
        self.decider = CHANCE
        self.stage = SETUP_SPIN
        if data.setup_spins == 0:
            self._after_setup_spins()

    def _symbols(self, segment: int) -> tuple[tuple[int, ...], int]:
        fixed = [0, 0, 0, 0]
        wilds = 0
        for s in self.data.wheel[segment]:
            if s == WILD:
                wilds += 1
            else:
                fixed[s] += 1
        return tuple(fixed), wilds

    def _setup_spin(self, segment: int) -> None:
        self.spin = segment
        self.received, self.wilds = self._symbols(segment)
        if self.wilds:
            self.stage = SETUP_WILD
            self.decider = self.setup_seat
        else:
            self._setup_receive()

    def _setup_receive(self) -> None:
        seat = self.setup_seat
        for c in range(4):
            if self.received[c]:
                self._take_workers(seat, c, self.received[c])
        self.received = EMPTY
        self.wilds = 0
        self.spin = -1
        self.setup_spin_no += 1
        if self.setup_spin_no == self.data.setup_spins:
            self.setup_spin_no = 0
            self.setup_seat += 1
        if self.setup_seat == self.n:
            self._after_setup_spins()
        else:
            self.stage = SETUP_SPIN
            self.decider = CHANCE

    def _after_setup_spins(self) -> None:
        self.setup_seat = self.n
        fixed = self.game.options["start_player"]
        if isinstance(fixed, int):
            self._start_game(fixed)
        else:
            self.stage = START
            self.decider = CHANCE

    def _start_game(self, seat: int) -> None:
        self.start_player = seat
        for i in range(self.n):
            self.silver[(seat + i) % self.n] = self.data.start_silver[i]
        self._begin_turn(seat, False)

    # ----- turns ------------------------------------------------------------------------------
    def _begin_turn(self, player: int, extra: bool) -> None:
        self.active = player
        self.extra_turn = extra
        self.turn_number += 1
        if not extra:
            self.regular_turns[player] += 1
        self.main = ""
        self.builds_paid = 0
        self.stage = MAIN
        self.decider = player

    def _cleanup(self) -> None:
        data = self.data
        slots = self.slots
        nb = len(data.bank)
        if all(slots[b] != EMPTY for b in range(nb)):
            for b in range(nb):
                self._clear_slot(b)
        for a, area in enumerate(data.areas):
            base = self.game.area_slot[a]
            count = len(area.spaces)
            if all(slots[base + 2 * s] != EMPTY for s in range(count)):
                for slot in range(base, base + 2 * count):
                    self._clear_slot(slot)

    def _clear_slot(self, slot: int) -> None:
        s = self.slots[slot]
        for c in range(4):
            self.supply_workers[c] += s[c]
        self.slots[slot] = EMPTY

    def _end_turn(self) -> None:
        """Steps 2–5 of spec §4.1 (the auction resolution already ran)."""
        self._cleanup()
        self.main = ""
        self.spin = -1
        self.push = -1
        self.prod_area = self.prod_space = -1
        self.builds_paid = 0
        p = self.active
        capped = self.turn_number >= self.game.max_turns
        if self.trigger_by >= 0 and p == self.last_seat():
            # The final round is over. With canteen_after_final the last seat may still use a
            # canteen — but never past the turn cap.
            if self.game.canteen_after_final and self.canteens[p] > 0 and not capped:
                self.final_pending = True
                self.stage = END
                self.decider = p
                return
            self._finish("trigger")
            return
        if capped:
            self._finish("max_turns")
            return
        if self.cattle[p] > 0 or self.canteens[p] > 0:
            self.stage = END
            self.decider = p
            return
        self._begin_turn((p + 1) % self.n, False)

    def _apply_end(self, action: int) -> None:
        p = self.active
        if action == A.CANTEEN:
            self.canteens[p] -= 1
            self.canteens_used += 1
            self.final_pending = False
            self._begin_turn(p, True)
        elif self.final_pending:
            self.final_pending = False
            self._finish("trigger")
        else:
            self._begin_turn((p + 1) % self.n, False)

    def _finish(self, reason: str) -> None:
        self.ended_by = reason
        self.stage = OVER
        self.decider = TERMINAL
        self.won = self.compute_winners()

    def tiebreak_two(self, p: int) -> int:
        silver = self.silver[p]
        if self.game.options["tiebreak_money"] == "coins":
            money = silver // 5 + silver % 5
        else:
            money = silver
        return money + self.worker_count(p) + sum(self.goods[6 * p : 6 * p + 6])

    def compute_winners(self) -> list[int]:
        """Only players who placed all their settlements can win (spec §8)."""
        done = [p for p in range(self.n) if self.tiles[p] == 0]
        if not done:
            return []
        keys = {p: (self.cattle[p] + self.canteens[p], self.tiebreak_two(p)) for p in done}
        best = max(keys.values())
        return [p for p in done if keys[p] == best]

    # ----- main actions -----------------------------------------------------------------------
    def _apply_main(self, action: int) -> None:
        p = self.active
        if action == A.RECRUIT:
            self.main = "recruit"
            self.stage = SPIN
            self.decider = CHANCE
        elif action == A.CITY:
            self.main = "city"
            self._take_goods(p, PUMPKIN_GOOD, 1)
            self.out = [False] * self.n
            self.opp = 0
            self.chain = False
            self.cursor = 0
            self.stage = PLACE
            self.decider = p
        elif A.WORK_BANK <= action < A.WORK_PROD:
            space, ms_index = divmod(action - A.WORK_BANK, len(A.WORKER_SETS))
            ms = A.WORKER_SETS[ms_index]
            self.main = "bank"
            self._pay_workers(p, ms)
            self.slots[space] = ms
            self.silver[p] += self.data.bank[space].silver
            self._end_turn()
        elif A.WORK_PROD <= action < A.BUILD:
            cell, ms_index = divmod(action - A.WORK_PROD, len(A.PART_SETS))
            area_index, space_index = divmod(cell, MAX_AREA_SPACES)
            ms = A.WORKER_SETS[ms_index]
            area = self.data.areas[area_index]
            prod = area.spaces[space_index]
            self.main = "production"
            self._pay_workers(p, ms)
            self.silver[p] -= prod.cost
            self.slots[self.game.area_slot[area_index] + 2 * space_index] = ms
            self._take_goods(p, area.good, prod.yield_)
            self.prod_area = area_index
            self.prod_space = space_index
            held = self.worker_count(p)
            if held >= 2 or self.workers[4 * p + area.colour] >= 1:
                self.stage = RIGHT
                self.decider = p
            else:
                self._end_turn()
        else:
            self.main = "build"
            self.builds_paid = 0
            self._build_step(action)

    # ----- recruit ----------------------------------------------------------------------------
    def _apply_push(self, steps: int) -> None:
        p = self.active
        data = self.data
        self.push = steps
        paid = steps * data.grain_per_push_step
        self.goods[6 * p + GRAIN_GOOD] -= paid
        self.supply_goods[GRAIN_GOOD] += paid
        final = (self.spin + steps) % len(data.wheel)
        fixed, wilds = self._symbols(final)
        if self.game.recruit_additional and steps >= 1:
            first, first_wilds = self._symbols(self.spin)
            fixed = tuple(fixed[c] + first[c] for c in range(4))
            wilds += first_wilds
        self.received = fixed
        self.wilds = wilds
        if wilds:
            self.stage = WILD_STAGE
            self.decider = p
        else:
            self._receive_recruit()

    def _apply_wild(self, ms: tuple[int, ...]) -> None:
        self.received = tuple(self.received[c] + ms[c] for c in range(4))
        self._receive_recruit()

    def _receive_recruit(self) -> None:
        p = self.active
        for c in range(4):
            if self.received[c]:
                self._take_workers(p, c, self.received[c])
        self.received = EMPTY
        self.wilds = 0
        self._check_cap(TURN_END)

    def _check_cap(self, resume: int) -> None:
        p = self.active
        excess = self.worker_count(p) - self.data.worker_cap
        if excess > 0:
            self.excess = excess
            self.after_overflow = resume
            self.stage = OVERFLOW
            self.decider = p
        elif resume == TURN_END:
            self._end_turn()

    def _apply_return(self, ms: tuple[int, ...]) -> None:
        p = self.active
        self._pay_workers(p, ms)
        for c in range(4):
            self.supply_workers[c] += ms[c]
        self.excess = 0
        resume = self.after_overflow
        self.after_overflow = TURN_END
        if resume == TURN_END:
            self._end_turn()
        else:
            self.stage = resume
            self.decider = p

    # ----- cattle trade -----------------------------------------------------------------------
    def _trade(self, kind: int) -> None:
        p = self.active
        self.cattle[p] -= 1
        self.supply_cattle += 1
        if kind < A.TRADE_SILVER:
            self._take_goods(p, kind, 1)
        elif kind == A.TRADE_SILVER:
            self.silver[p] += self.data.cattle_trade_silver
        else:
            self._take_workers(p, kind - A.TRADE_SILVER - 1, 1)
            self._check_cap(self.stage)

    # ----- production right part --------------------------------------------------------------
    def _apply_right(self, action: int) -> None:
        p = self.active
        if action != A.RIGHT_NONE:
            ms = A.WORKER_SETS[action - A.RIGHT]
            area = self.data.areas[self.prod_area]
            self._pay_workers(p, ms)
            self.slots[self.game.area_slot[self.prod_area] + 2 * self.prod_space + 1] = ms
            self._take_goods(p, area.good, area.right_bonus)
        self._end_turn()

    # ----- city auction -----------------------------------------------------------------------
    def _apply_place(self, action: int) -> None:
        p = self.decider
        if action == A.PASS:
            self.contractor[p] = HOME
            self.out[p] = True
            self._advance_auction()
            return
        row, col = divmod(action - A.PLACE, MAX_COLUMNS)
        cols = len(self.data.column_cost)
        holder = self.row_holder(row)
        self.contractor[p] = row * cols + col
        if holder >= 0:
            self.contractor[holder] = HOME
            self.chain = True
            self.decider = holder
        else:
            self._advance_auction()

    def _advance_auction(self) -> None:
        self.chain = False
        self.opp += 1
        if self.opp < self.n:
            self.decider = (self.active + self.opp) % self.n
            self.stage = PLACE
            return
        self.cursor = 0
        self._next_reward()

    def _next_reward(self) -> None:
        cols = len(self.data.column_cost)
        while self.cursor < self.n:
            p = (self.active + self.cursor) % self.n
            spot = self.contractor[p]
            if spot != HOME:
                cost = self.data.column_cost[spot % cols]
                if self.goods[6 * p + PUMPKIN_GOOD] >= cost:
                    self.goods[6 * p + PUMPKIN_GOOD] -= cost
                    self.supply_goods[PUMPKIN_GOOD] += cost
                    self.stage = REWARD
                    self.decider = p
                    return
                self.contractor[p] = HOME
            self.cursor += 1
        self.contractor = [HOME] * self.n
        self.opp = 0
        self.out = [False] * self.n
        self._end_turn()

    def _apply_reward(self, action: int) -> None:
        p = self.decider
        row = self.data.rows[self.contractor[p] // len(self.data.column_cost)]
        if row.cattle:
            self._take_cattle(p, row.cattle)
        self.silver[p] += row.silver
        if action >= A.REWARD_PICK:
            ms = A.PICK_SETS[action - A.REWARD_PICK]
            for k in range(6):
                if ms[k]:
                    self._take_goods(p, k, ms[k])
        else:
            pair = A.UPGRADE_PAIRS[action - A.REWARD_UP]
            for i, (small, large) in enumerate(self.data.upgrades):
                if pair[i]:
                    got = self._take_goods(p, large, pair[i])
                    self.goods[6 * p + small] -= got
                    self.supply_goods[small] += got
        self.cursor += 1
        self._next_reward()

    # ----- build ------------------------------------------------------------------------------
    def _build_step(self, action: int) -> None:
        board = self.board
        assert board is not None
        p = self.active
        h = board.local_of_grid[action - A.BUILD]
        cost = board.costs[h]
        for k in range(6):
            if cost[k]:
                self.goods[6 * p + k] -= cost[k]
                self.supply_goods[k] += cost[k]
        self.hex_owner[h] = p
        self.hex_tiles[h] = 1
        self.tiles[p] -= 1
        self.builds_paid += 1
        if self.hex_cattle[h]:
            self.hex_cattle[h] = 0
            self.cattle[p] += 1
        for lake in board.lakes_next_to[h]:
            if self.lake_canteen[lake]:
                self.lake_canteen[lake] = 0
                self.canteens[p] += 1
        extra = 1 if board.specs[h].double else 0
        if self._line_bonus(p, h):
            extra += 1
        extra = min(extra, self.tiles[p])
        self.hex_tiles[h] += extra
        self.tiles[p] -= extra
        if self.tiles[p] == 0 and self.trigger_by < 0:
            self.trigger_by = p
        if self.tiles[p] == 0 or self.builds_paid >= self.data.max_builds_per_action:
            self._finish_build()
        else:
            self.stage = BUILD_NEXT
            self.decider = p

    def _line_bonus(self, p: int, h: int) -> bool:
        """Spec §4.4.1: a run of >= line_length own hexes through h on some axis, none of whose
        hexes is in a line already rewarded on that axis; every qualifying run is recorded."""
        board = self.board
        assert board is not None
        owner = self.hex_owner
        qualified: list[tuple[int, tuple[int, ...]]] = []
        for axis, (d1, d2) in enumerate(AXES):
            run = [h]
            for d in (d1, d2):
                cur = board.step[h][d]
                while cur >= 0 and owner[cur] == p:
                    run.append(cur)
                    cur = board.step[cur][d]
            if len(run) < self.data.line_length:
                continue
            rewarded = {x for ax, hexes in self.lines[p] if ax == axis for x in hexes}
            if any(x in rewarded for x in run):
                continue
            qualified.append((axis, tuple(sorted(run))))
        if not qualified:
            return False
        self.lines[p] = self.lines[p] + tuple(qualified)
        return True

    def _finish_build(self) -> None:
        p = self.active
        skipped = self.data.max_builds_per_action - self.builds_paid
        self.silver[p] += skipped * self.data.silver_per_skipped_build
        self._end_turn()

    # ------------------------------------------------------------------------------------------
    # presentation
    def to_json(self) -> dict[str, Any]:
        from boardplay.games._legacy.montana.position import export_position

        return export_position(self)

    def render(self, detail: bool = False) -> str:
        from boardplay.games._legacy.montana.render import render_state

        return render_state(self, detail)

    def observation_tensor(self, player: int) -> list[float]:
        from boardplay.games._legacy.montana.observation import observation

        return observation(self, player)


def _single(colour: int) -> tuple[int, ...]:
    return tuple(1 if c == colour else 0 for c in range(4))


@lru_cache(maxsize=4096)
def _fitting(held: tuple[int, ...], size: int) -> tuple[int, ...]:
    """Indices of the worker multisets of ``size`` that ``held`` contains (cached: the same
    few worker boards recur constantly)."""
    return tuple(
        i
        for i in A.WORKER_SETS_BY_SIZE[size]
        if all(A.WORKER_SETS[i][c] <= held[c] for c in range(4))
    )


@lru_cache(maxsize=4096)
def _part_choices(held: tuple[int, ...], colour: int) -> tuple[int, ...]:
    """The production part choices ``held`` allows: 1 worker of ``colour`` or any 2."""
    return tuple(
        i
        for i in A.PART_SETS
        if (sum(A.WORKER_SETS[i]) == 2 or A.WORKER_SETS[i][colour] == 1)
        and all(A.WORKER_SETS[i][c] <= held[c] for c in range(4))
    )


_LIST_FIELDS = (
    "supply_workers",
    "supply_goods",
    "aside_goods",
    "silver",
    "goods",
    "cattle",
    "canteens",
    "workers",
    "tiles",
    "lines",
    "hex_owner",
    "hex_tiles",
    "hex_cattle",
    "lake_canteen",
    "slots",
    "contractor",
    "regular_turns",
    "out",
    "_history",
)
