"""The landscape: SplitMix64, the board generator of rules spec §2.10 and the board geometry.

A board is a pure function of (players, board seed, data file), so it is cached and shared by
every state; states only hold what changes (settlements, cattle, canteens). Hexes get a local
index 0..H-1 (sorted by row, then column) for compact state arrays, and a global index in the
fixed axial window used by the build action ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from boardplay.games.montana.data import Components, HexSpec
from boardplay.games.montana.layout import BOARD_ATTEMPTS, GRID_RADIUS, GRID_WIDTH

MASK = (1 << 64) - 1
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""E, NE, NW, W, SW, SE (axial, pointy-top)."""
AXES = ((0, 3), (1, 4), (2, 5))
"""The 3 straight-line axes as pairs of opposite directions: E–W, NE–SW, NW–SE."""
AXIS_NAMES = ("E-W", "NE-SW", "NW-SE")
START_HEX = (0, 0)


class SplitMix64:
    """The normative random stream of the generator (spec §2.10)."""

    def __init__(self, seed: int) -> None:
        self.s = seed & MASK

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def lat2ax(i: int, j: int) -> tuple[int, int]:
    return (2 * i - j, i + 3 * j)


def grid_index(q: int, r: int) -> int:
    """The global hex index in the axial window (used by build action ids)."""
    return (r + GRID_RADIUS) * GRID_WIDTH + (q + GRID_RADIUS)


def grid_coords(index: int) -> tuple[int, int]:
    r, q = divmod(index, GRID_WIDTH)
    return (q - GRID_RADIUS, r - GRID_RADIUS)


def place(
    tile: tuple[HexSpec, ...], center: tuple[int, int], rot: int
) -> dict[tuple[int, int], HexSpec]:
    cq, cr = center
    out = {center: tile[0]}
    for k in range(6):
        dq, dr = DIRS[(k + rot) % 6]
        out[(cq + dq, cr + dr)] = tile[k + 1]
    return out


def _neighbours(h: tuple[int, int]) -> list[tuple[int, int]]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRS]


def valid(board: dict[tuple[int, int], HexSpec], min_plain_neighbours: int) -> bool:
    """Checks (a)–(c) of §2.10: every plain reachable from the start hex through plains, no
    canteen lake next to the start hex, enough plain neighbours of the start hex."""
    plains = {h for h, v in board.items() if v.kind == "plain"}
    seen, stack = {START_HEX}, [START_HEX]
    while stack:
        h = stack.pop()
        for n in _neighbours(h):
            if n in plains and n not in seen:
                seen.add(n)
                stack.append(n)
    if seen != plains:
        return False
    around = _neighbours(START_HEX)
    if any(n in board and board[n].kind == "lake" and board[n].canteen for n in around):
        return False
    return sum(1 for n in around if n in plains) >= min_plain_neighbours


def generate(
    data: Components, players: int, board_seed: int
) -> tuple[dict[tuple[int, int], HexSpec], list[tuple[tuple[int, int], str, int]], int]:
    """The reference generator: (hexes, [(lattice position, tile id, rotation)], attempts)."""
    rng = SplitMix64(board_seed)
    attempt = 0
    layout = data.layouts[players]
    while True:
        attempt += 1
        order = list(range(len(data.tiles)))
        for i in range(len(order) - 1, 0, -1):
            j = rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        placed: list[tuple[tuple[int, int], str, int]] = []
        hexes: dict[tuple[int, int], HexSpec] = {}
        for idx, pos in enumerate(layout):
            rot = rng.below(6)
            tile = order[idx]
            placed.append((pos, data.tile_ids[tile], rot))
            hexes.update(place(data.tiles[tile], lat2ax(*pos), rot))
        if valid(hexes, data.min_start_plain_neighbours):
            return hexes, placed, attempt
        if attempt > BOARD_ATTEMPTS:  # a data file whose tiles can never pass the checks
            raise ValueError(
                f"the board generator found no valid board in {BOARD_ATTEMPTS} attempts"
            )


@dataclass(frozen=True)
class Board:
    """A generated landscape with precomputed geometry (local hex indices)."""

    players: int
    seed: int
    placed: tuple[tuple[tuple[int, int], str, int], ...]
    attempts: int
    coords: tuple[tuple[int, int], ...]
    specs: tuple[HexSpec, ...]
    start: int
    local_of_grid: dict[int, int]
    grid_of: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    step: tuple[tuple[int, ...], ...]
    """``step[h][d]``: the local index of h's neighbour in direction d, or -1 off the board."""
    plains: tuple[int, ...]
    cattle_hexes: tuple[int, ...]
    canteen_lakes: tuple[int, ...]
    lakes_next_to: tuple[tuple[int, ...], ...]
    """Canteen lakes next to each hex."""
    costs: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=4096)
def make_board(data: Components, players: int, seed: int) -> Board:
    hexes, placed, attempts = generate(data, players, seed)
    coords = tuple(sorted(hexes, key=lambda h: (h[1], h[0])))
    index = {h: i for i, h in enumerate(coords)}
    specs = tuple(hexes[h] for h in coords)
    step = tuple(tuple(index.get((h[0] + dq, h[1] + dr), -1) for dq, dr in DIRS) for h in coords)
    neighbours = tuple(tuple(n for n in s if n >= 0) for s in step)
    canteen_lakes = tuple(i for i, s in enumerate(specs) if s.kind == "lake" and s.canteen)
    start = index[START_HEX]
    return Board(
        players=players,
        seed=seed,
        placed=tuple(placed),
        attempts=attempts,
        coords=coords,
        specs=specs,
        start=start,
        local_of_grid={grid_index(*h): i for i, h in enumerate(coords)},
        grid_of=tuple(grid_index(*h) for h in coords),
        neighbours=neighbours,
        step=step,
        plains=tuple(i for i, s in enumerate(specs) if s.kind == "plain" and i != start),
        cattle_hexes=tuple(i for i, s in enumerate(specs) if s.kind == "plain" and s.cattle),
        canteen_lakes=canteen_lakes,
        lakes_next_to=tuple(tuple(n for n in nb if n in canteen_lakes) for nb in neighbours),
        costs=tuple(s.cost for s in specs),
    )
