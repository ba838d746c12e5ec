"""The fixed action space of Montana and its notation (rules spec §10, §12.1).

Every decision is one small atomic action with a fixed id; the id layout is bounded by the data
limits of ``data.py`` so that any valid data file uses the same space. Worker and goods choices
are multisets (equivalent choices are one action), written in the canonical order Cu, St, Gr, Pu
and c, C, s, S, g, p.

Chance outcomes have their own id space (``max_chance_outcomes``): spin segments, start seats and
board seeds, in disjoint ranges so every outcome has one string (``spin:5``, ``start:1``,
``board:123``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement

from boardplay.games.montana.board import grid_coords, grid_index
from boardplay.games.montana.data import COLOUR_CODES, GOOD_CODES, Components
from boardplay.games.montana.layout import (
    BOARD_OUTCOMES,
    BUILD,
    CANTEEN,
    CHANCE_BOARD,
    CHANCE_SPIN,
    CHANCE_START,
    CITY,
    END,
    MAX_AREA_SPACES,
    MAX_BANK_WORKERS,
    MAX_COLUMNS,
    MAX_PICKS,
    MAX_UPGRADES,
    MAX_WHEEL,
    NUM_ACTIONS,
    PASS,
    PLACE,
    PUSH,
    RECRUIT,
    RETURN,
    REWARD_PICK,
    REWARD_UP,
    RIGHT,
    RIGHT_NONE,
    STOP,
    TRADE,
    TRADE_SILVER,
    WILD,
    WORK_BANK,
    WORK_PROD,
)

Counts = tuple[int, ...]


def _multisets(kinds: int, sizes: range) -> list[Counts]:
    out: list[Counts] = []
    for size in sizes:
        for combo in combinations_with_replacement(range(kinds), size):
            counts = [0] * kinds
            for k in combo:
                counts[k] += 1
            out.append(tuple(counts))
    return out


WORKER_SETS: list[Counts] = _multisets(4, range(1, MAX_BANK_WORKERS + 1))
"""Worker multisets of size 1..4 (wild picks, returns, bank spaces)."""
WORKER_SET_INDEX = {m: i for i, m in enumerate(WORKER_SETS)}
WORKER_SETS_BY_SIZE: dict[int, list[int]] = {
    k: [i for i, m in enumerate(WORKER_SETS) if sum(m) == k] for k in range(1, MAX_BANK_WORKERS + 1)
}
PART_SETS = [i for i, m in enumerate(WORKER_SETS) if sum(m) <= 2]
"""Worker multisets of size 1..2: the choices for a production part (the first 14)."""
PICK_SETS: list[Counts] = _multisets(6, range(1, MAX_PICKS + 1))
PICK_SET_INDEX = {m: i for i, m in enumerate(PICK_SETS)}
UPGRADE_PAIRS: list[tuple[int, int]] = [
    (a, b)
    for a in range(MAX_UPGRADES + 1)
    for b in range(MAX_UPGRADES + 1)
    if a + b <= MAX_UPGRADES
]
UPGRADE_INDEX = {p: i for i, p in enumerate(UPGRADE_PAIRS)}
# The action and chance ids (``layout.pxd``). Trade kinds below TRADE_SILVER are goods (GOODS
# order), TRADE_SILVER is silver, the kinds above it are worker colours. With board_seed=random
# the Board chance node lists seeds 0..BOARD_OUTCOMES-1 (uniform): enumerable for search and
# masks, and far more boards than the statistics of the generator distinguish. A fixed
# board_seed option may name any seed 0..BOARD_SEED_MAX.
NUM_CHANCE = CHANCE_BOARD + BOARD_OUTCOMES


def workers_text(counts: Sequence[int]) -> str:
    return _workers_text(tuple(counts))


@lru_cache(maxsize=1024)
def _workers_text(counts: tuple[int, ...]) -> str:
    """Few tuples of worker counts ever occur, and a position's export writes about thirty."""
    return "+".join(COLOUR_CODES[c] for c in range(4) for _ in range(counts[c]))


def goods_text(counts: Sequence[int]) -> str:
    return "+".join(GOOD_CODES[g] for g in range(6) for _ in range(counts[g]))


def build_action(q: int, r: int) -> int:
    return BUILD + grid_index(q, r)


WORDS = {
    RECRUIT: "recruit",
    CITY: "work:city",
    STOP: "stop",
    PASS: "pass",
    CANTEEN: "canteen",
    END: "end",
    RIGHT_NONE: "right:none",
}
"""The actions written as one fixed word, by id."""
WORKER_CHOICES = ((WILD, RETURN, "wild"), (RETURN, RIGHT, "return"), (RIGHT, PLACE, "right"))
"""The choices of a worker multiset (a wild pick, a return, a production space's right part):
their id range and the word written before the multiset (``wild:Cu+St``)."""


def action_to_string(data: Components, action: int) -> str:
    """The notation of a player action (independent of the state, so it never depends on the
    order of the legal list). Raises ``ValueError`` for an id outside the space or unused by
    this data file."""
    word = WORDS.get(action)
    if word is not None:
        return word
    if PUSH <= action < TRADE:
        return f"push:{action - PUSH}"
    if TRADE <= action < WILD:
        kind = action - TRADE
        if kind < TRADE_SILVER:
            return f"trade:cattle>good:{GOOD_CODES[kind]}"
        if kind == TRADE_SILVER:
            return "trade:cattle>silver"
        return f"trade:cattle>worker:{COLOUR_CODES[kind - TRADE_SILVER - 1]}"
    for first, after, head in WORKER_CHOICES:
        if first <= action < after:
            return f"{head}:{workers_text(WORKER_SETS[action - first])}"
    if PLACE <= action < REWARD_UP:
        row, column = divmod(action - PLACE, MAX_COLUMNS)
        if row >= len(data.rows) or column >= len(data.column_cost):
            raise ValueError(f"action {action} names a store spot this data file lacks")
        return f"place:{data.rows[row].name}{column + 1}"
    if REWARD_UP <= action < REWARD_PICK:
        pair = UPGRADE_PAIRS[action - REWARD_UP]
        parts = [f"{GOOD_CODES[small]}{pair[i]}" for i, (small, _) in enumerate(data.upgrades)]
        return "reward:up:" + ("".join(parts) or "none")
    if REWARD_PICK <= action < WORK_BANK:
        return f"reward:pick:{goods_text(PICK_SETS[action - REWARD_PICK])}"
    if WORK_BANK <= action < WORK_PROD:
        space, ms = divmod(action - WORK_BANK, len(WORKER_SETS))
        if space >= len(data.bank):
            raise ValueError(f"action {action} names a bank space this data file lacks")
        return f"work:{data.bank[space].name}:{workers_text(WORKER_SETS[ms])}"
    if WORK_PROD <= action < BUILD:
        cell, ms = divmod(action - WORK_PROD, len(PART_SETS))
        area, space = divmod(cell, MAX_AREA_SPACES)
        if space >= len(data.areas[area].spaces):
            raise ValueError(f"action {action} names a production space this data file lacks")
        return f"work:{data.areas[area].spaces[space].name}:{workers_text(WORKER_SETS[ms])}"
    if BUILD <= action < NUM_ACTIONS:
        q, r = grid_coords(action - BUILD)
        return f"build:{q},{r}"
    raise ValueError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")


def chance_to_string(outcome: int) -> str:
    if CHANCE_SPIN <= outcome < CHANCE_START:
        return f"spin:{outcome - CHANCE_SPIN + 1}"
    if CHANCE_START <= outcome < CHANCE_BOARD:
        return f"start:{outcome - CHANCE_START}"
    if CHANCE_BOARD <= outcome < NUM_CHANCE:
        return f"board:{outcome - CHANCE_BOARD}"
    raise ValueError(f"chance outcome id {outcome} is outside 0..{NUM_CHANCE - 1}")


FORMS = (
    "recruit, work:<space>:<workers> (work:B3:Cu+St), work:city, build:<q>,<r>, "
    "trade:cattle>silver, place:<row><column>, reward:pick:<goods>, pass, stop, end; at a "
    "chance node spin:<segment>, start:<seat>, board:<seed>"
)
"""How a move is written (``NotationError`` says it)."""

_CODE_ORDER = {code: i for i, code in enumerate((*COLOUR_CODES, *GOOD_CODES))}
"""Worker and goods codes in their canonical order (a multiset is written in it)."""


@lru_cache(maxsize=8)
def _action_ids(data: Components) -> dict[str, int]:
    """Every player action's notation under ``data`` -> its id (built once per data file)."""
    ids: dict[str, int] = {}
    for action in range(NUM_ACTIONS):
        try:
            ids[action_to_string(data, action)] = action
        except ValueError:
            continue  # an id this data file does not use
    return ids


def parse(data: Components, text: str, chance: bool) -> int | None:
    """The id ``text`` names, legal or not: a chance outcome's (``chance``) or a player
    action's under ``data``, whose worker or goods multiset may be written in any order
    (``work:B3:St+Cu`` is ``work:B3:Cu+St``); None when it names none."""
    text = text.strip()
    if chance:
        return string_to_chance(text)
    ids = _action_ids(data)
    found = ids.get(text)
    head, _, tail = text.rpartition(":")
    parts = tail.split("+")
    if found is None and head and len(parts) > 1 and all(p in _CODE_ORDER for p in parts):
        found = ids.get(f"{head}:{'+'.join(sorted(parts, key=_CODE_ORDER.__getitem__))}")
    return found


def string_to_chance(text: str) -> int | None:
    """The outcome id of ``spin:5``, ``start:1`` or ``board:123`` (None if malformed)."""
    kind, _, number = text.partition(":")
    if not number.isdigit() or number != str(int(number)):
        return None
    value = int(number)
    if kind == "spin" and 1 <= value <= MAX_WHEEL:
        return CHANCE_SPIN + value - 1
    if kind == "start" and value < 4:
        return CHANCE_START + value
    if kind == "board" and value < BOARD_OUTCOMES:
        return CHANCE_BOARD + value
    return None
