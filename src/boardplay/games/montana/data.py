"""Montana's component data (rules spec §14), read from one replaceable JSON file.

Every component value — worker board, wheel, store, landscape tiles, supplies by player count,
settlements, start money — comes from the data file, never from rules code, because most of the
printed values were unavailable and were reconstructed (tagged PROPOSED in the file). Owners can
drop in the printed values with ``boardplay.load("montana", data="path.json")``. A bad file raises
``OptionError`` naming the bad entry, so nobody plays with half-valid components.

The vocabulary (4 worker colours, 6 goods kinds) is fixed by the rules and the notation; the
counts and sizes are bounded by the data limits declared in ``layout.pxd`` (``MAX_WHEEL``...,
re-exported here), so that the action space and the kernel's arrays stay fixed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from boardplay.core.errors import OptionError
from boardplay.core.files import FileRefused, read_text_limited
from boardplay.games.montana.layout import (
    GRID_RADIUS,
    MAX_AREA_SPACES,
    MAX_BANK_SPACES,
    MAX_BANK_WORKERS,
    MAX_COLUMNS,
    MAX_PICKS,
    MAX_ROWS,
    MAX_SYMBOLS,
    MAX_UPGRADES,
    MAX_WHEEL,
)

COLOURS = ("COPPER", "STONE", "GRAIN", "PUMPKIN")
COLOUR_CODES = ("Cu", "St", "Gr", "Pu")
GOODS = ("COPPER_S", "COPPER_L", "STONE_S", "STONE_L", "GRAIN", "PUMPKIN")
GOOD_CODES = ("c", "C", "s", "S", "g", "p")
WILD = -1
"""A wheel symbol that lets the player choose any colour (W)."""
DEFAULT_DATA = "default"


@dataclass(frozen=True)
class HexSpec:
    """One hex of a landscape tile before placement."""

    kind: str  # "plain", "mountain" or "lake"
    cost: tuple[int, ...]  # goods counts, GOODS order
    double: bool
    cattle: bool
    canteen: bool


@dataclass(frozen=True)
class BankSpace:
    name: str
    workers: int
    silver: int


@dataclass(frozen=True)
class ProdSpace:
    name: str
    cost: int
    yield_: int


@dataclass(frozen=True)
class Area:
    name: str
    colour: int
    good: int
    right_bonus: int
    spaces: tuple[ProdSpace, ...]


@dataclass(frozen=True)
class StoreRow:
    name: str
    cattle: int
    silver: int
    upgrades: int
    picks: int
    pick_from: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Components:
    """All component values, parsed and validated. Shared by every state of a game."""

    id: str
    digest: str
    source: str
    settlements: dict[int, int]
    tiles_in_play: dict[int, int]
    start_silver: tuple[int, ...]
    worker_cap: int
    workers_per_colour: int
    goods_box: tuple[int, ...]
    goods_supply: dict[int, tuple[int, ...]]
    start_goods: tuple[int, ...]
    start_cattle: int
    cattle_total: int
    canteens_total: int
    bank: tuple[BankSpace, ...]
    areas: tuple[Area, ...]
    column_cost: tuple[int, ...]
    rows: tuple[StoreRow, ...]
    upgrades: tuple[tuple[int, int], ...]  # (small good, large good)
    wheel: tuple[tuple[int, ...], ...]  # colour indices or WILD
    max_arrow_push: int
    grain_per_push_step: int
    setup_spins: int
    cattle_trade_silver: int
    cattle_trade_goods: tuple[int, ...]
    max_builds_per_action: int
    silver_per_skipped_build: int
    line_length: int
    tile_ids: tuple[str, ...]
    tiles: tuple[tuple[HexSpec, ...], ...]
    layouts: dict[int, tuple[tuple[int, int], ...]]
    min_start_plain_neighbours: int


class _Reader:
    """Validation helpers that name the offending entry in every message."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> OptionError:
        return OptionError(f"Montana data file {self.source}: entry {where!r} {message}")

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, "must be an object")
        return value

    def get(self, data: dict[str, Any], key: str, where: str = "") -> Any:
        name = f"{where}.{key}" if where else key
        if key not in data:
            raise self.fail(name, "is missing")
        return data[key]

    def int_(self, value: Any, where: str, lo: int = 0, hi: int = 10**6) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(where, f"must be an integer {lo}..{hi}, got {value!r}")
        return value

    def list_(self, value: Any, where: str, lo: int = 0, hi: int = 10**6) -> list[Any]:
        if not isinstance(value, list) or not lo <= len(value) <= hi:
            raise self.fail(where, f"must be a list of {lo}..{hi} entries")
        return value

    def good(self, value: Any, where: str) -> int:
        if value not in GOODS:
            raise self.fail(where, f"must be one of {', '.join(GOODS)}, got {value!r}")
        return GOODS.index(value)

    def colour(self, value: Any, where: str) -> int:
        if value not in COLOURS:
            raise self.fail(where, f"must be one of {', '.join(COLOURS)}, got {value!r}")
        return COLOURS.index(value)

    def goods_map(self, value: Any, where: str, full: bool) -> tuple[int, ...]:
        data = self.obj(value, where)
        out = [0] * len(GOODS)
        for key, count in data.items():
            out[self.good(key, f"{where}.{key}")] = self.int_(count, f"{where}.{key}")
        if full:
            for name in GOODS:
                if name not in data:
                    raise self.fail(f"{where}.{name}", "is missing")
        return tuple(out)

    def per_players(self, value: Any, where: str) -> dict[int, Any]:
        data = self.obj(value, where)
        for players in ("2", "3", "4"):
            if players not in data:
                raise self.fail(f"{where}.{players}", "is missing (one entry per player count)")
        return {int(k): data[k] for k in ("2", "3", "4")}

    def hex_spec(self, value: Any, where: str) -> HexSpec:
        if not isinstance(value, str):
            raise self.fail(where, "must be a hex text such as 'c+s+g D', 'MOUNTAIN'")
        text = value.strip()
        if text == "MOUNTAIN":
            return HexSpec("mountain", (0,) * 6, False, False, False)
        if text in ("LAKE", "LAKE+canteen"):
            return HexSpec("lake", (0,) * 6, False, False, text == "LAKE+canteen")
        parts = text.split()
        cost = [0] * 6
        for letter in parts[0].split("+"):
            if letter not in GOOD_CODES:
                raise self.fail(where, f"has an unknown cost letter {letter!r} (use c C s S g p)")
            cost[GOOD_CODES.index(letter)] += 1
        flags = parts[1:]
        for flag in flags:
            if flag not in ("D", "K"):
                raise self.fail(where, f"has an unknown flag {flag!r} (use D or K)")
        return HexSpec("plain", tuple(cost), "D" in flags, "K" in flags, False)


def parse_components(raw: Any, source: str, digest: str) -> Components:
    """Validate the JSON content of a data file and build ``Components``."""
    r = _Reader(source)
    data = r.obj(raw, "(top level)")
    data_id = r.get(data, "id")
    if not isinstance(data_id, str) or not data_id:
        raise r.fail("id", "must be a non-empty text")
    settlements = {
        n: r.int_(v, f"settlements.{n}", 1, 100)
        for n, v in r.per_players(r.get(data, "settlements"), "settlements").items()
    }
    tiles_in_play = {
        n: r.int_(v, f"tiles_in_play.{n}", 1, 100)
        for n, v in r.per_players(r.get(data, "tiles_in_play"), "tiles_in_play").items()
    }
    start_silver = tuple(
        r.int_(v, f"start_silver[{i}]", 0, 1000)
        for i, v in enumerate(r.list_(r.get(data, "start_silver"), "start_silver", 4, 4))
    )
    worker_cap = r.int_(r.get(data, "worker_cap"), "worker_cap", 1, 8)
    per_colour = r.int_(r.get(data, "workers_per_colour"), "workers_per_colour", 1, 1000)
    goods_box = r.goods_map(r.get(data, "goods_box"), "goods_box", True)
    goods_supply = {
        n: r.goods_map(v, f"goods_supply.{n}", True)
        for n, v in r.per_players(r.get(data, "goods_supply"), "goods_supply").items()
    }
    start_goods = r.goods_map(r.get(data, "start_goods"), "start_goods", False)
    for n, supply in goods_supply.items():
        for k, name in enumerate(GOODS):
            if supply[k] + n * start_goods[k] > goods_box[k]:
                raise r.fail(
                    f"goods_supply.{n}.{name}",
                    f"plus {n} players' start goods exceeds goods_box.{name} ({goods_box[k]})",
                )
    start_cattle = r.int_(r.get(data, "start_cattle"), "start_cattle", 0, 100)
    cattle_total = r.int_(r.get(data, "cattle_total"), "cattle_total", 0, 1000)
    canteens_total = r.int_(r.get(data, "canteens_total"), "canteens_total", 0, 100)

    bank: list[BankSpace] = []
    names: set[str] = set()

    def new_name(name: Any, where: str) -> str:
        if not isinstance(name, str) or not name.isalnum() or name in names or name == "city":
            raise r.fail(where, f"must be a new alphanumeric space name, got {name!r}")
        names.add(name)
        return name

    for i, entry in enumerate(r.list_(r.get(data, "bank"), "bank", 1, MAX_BANK_SPACES)):
        where = f"bank[{i}]"
        e = r.obj(entry, where)
        bank.append(
            BankSpace(
                new_name(r.get(e, "space", where), f"{where}.space"),
                r.int_(r.get(e, "workers", where), f"{where}.workers", 1, MAX_BANK_WORKERS),
                r.int_(r.get(e, "silver", where), f"{where}.silver", 0, 1000),
            )
        )
    areas: list[Area] = []
    colours_seen: set[int] = set()
    production = r.list_(r.get(data, "production"), "production", 4, 4)
    for i, entry in enumerate(production):
        where = f"production[{i}]"
        e = r.obj(entry, where)
        colour = r.colour(r.get(e, "colour", where), f"{where}.colour")
        if colour in colours_seen:
            raise r.fail(f"{where}.colour", "repeats another area's colour")
        colours_seen.add(colour)
        spaces = []
        raw_spaces = r.list_(r.get(e, "spaces", where), f"{where}.spaces", 1, MAX_AREA_SPACES)
        for j, s in enumerate(raw_spaces):
            sw = f"{where}.spaces[{j}]"
            so = r.obj(s, sw)
            spaces.append(
                ProdSpace(
                    new_name(r.get(so, "space", sw), f"{sw}.space"),
                    r.int_(r.get(so, "cost", sw), f"{sw}.cost", 0, 1000),
                    r.int_(r.get(so, "yield", sw), f"{sw}.yield", 0, 100),
                )
            )
        area_name = r.get(e, "area", where)
        if not isinstance(area_name, str):
            raise r.fail(f"{where}.area", "must be a text")
        areas.append(
            Area(
                area_name,
                colour,
                r.good(r.get(e, "good", where), f"{where}.good"),
                r.int_(r.get(e, "right_bonus", where), f"{where}.right_bonus", 0, 100),
                tuple(spaces),
            )
        )
    store = r.obj(r.get(data, "store"), "store")
    column_cost = tuple(
        r.int_(v, f"store.column_cost[{i}]", 0, 100)
        for i, v in enumerate(
            r.list_(r.get(store, "column_cost", "store"), "store.column_cost", 1, MAX_COLUMNS)
        )
    )
    if column_cost[0] > 1:
        raise r.fail("store.column_cost[0]", "must be at most 1 (the free pumpkin pays for it)")
    rows: list[StoreRow] = []
    for i, entry in enumerate(r.list_(r.get(store, "rows", "store"), "store.rows", 1, MAX_ROWS)):
        where = f"store.rows[{i}]"
        e = r.obj(entry, where)
        name = r.get(e, "row", where)
        if not isinstance(name, str) or len(name) != 1 or not name.isupper():
            raise r.fail(f"{where}.row", "must be one capital letter")
        upgrades = r.int_(e.get("upgrades", 0), f"{where}.upgrades", 0, MAX_UPGRADES)
        picks = r.int_(e.get("picks", 0), f"{where}.picks", 0, MAX_PICKS)
        if upgrades and picks:
            raise r.fail(where, "may offer upgrades or picks, not both")
        pick_from = tuple(
            r.good(g, f"{where}.pick_from[{j}]")
            for j, g in enumerate(r.list_(e.get("pick_from", []), f"{where}.pick_from", 0, 6))
        )
        if picks and not pick_from:
            raise r.fail(f"{where}.pick_from", "must name the goods that can be picked")
        rows.append(
            StoreRow(
                name,
                r.int_(e.get("cattle", 0), f"{where}.cattle", 0, 100),
                r.int_(e.get("silver", 0), f"{where}.silver", 0, 1000),
                upgrades,
                picks,
                pick_from,
            )
        )
    upgrades_raw = r.obj(r.get(data, "upgrades"), "upgrades")
    if len(upgrades_raw) > 2:
        raise r.fail("upgrades", "may list at most 2 small -> large pairs")
    upgrades_pairs = tuple(
        (r.good(k, f"upgrades.{k}"), r.good(v, f"upgrades.{k}")) for k, v in upgrades_raw.items()
    )
    wheel: list[tuple[int, ...]] = []
    for i, seg in enumerate(r.list_(r.get(data, "wheel"), "wheel", 2, MAX_WHEEL)):
        symbols = r.list_(seg, f"wheel[{i}]", 1, MAX_SYMBOLS)
        wheel.append(
            tuple(
                WILD if s == "W" else r.colour(s, f"wheel[{i}][{j}]") for j, s in enumerate(symbols)
            )
        )
    setup_spins = r.int_(r.get(data, "setup_spins"), "setup_spins", 0, 4)
    if setup_spins * max(len(seg) for seg in wheel) > worker_cap:
        raise r.fail("worker_cap", "is smaller than the workers the setup spins can give")
    max_push = r.int_(r.get(data, "max_arrow_push"), "max_arrow_push", 0, len(wheel) - 1)
    trade_goods = tuple(
        r.good(g, f"cattle_trade_goods[{i}]")
        for i, g in enumerate(r.list_(r.get(data, "cattle_trade_goods"), "cattle_trade_goods"))
    )
    tiles_raw = r.obj(r.get(data, "tiles"), "tiles")
    tile_ids = tuple(tiles_raw)
    tiles: list[tuple[HexSpec, ...]] = []
    for tid in tile_ids:
        hexes = r.list_(tiles_raw[tid], f"tiles.{tid}", 7, 7)
        specs = tuple(r.hex_spec(h, f"tiles.{tid}[{k}]") for k, h in enumerate(hexes))
        tiles.append(specs)
    canteen_lakes = sum(h.canteen for t in tiles for h in t)
    layouts: dict[int, tuple[tuple[int, int], ...]] = {}
    for n, lay in r.per_players(r.get(data, "layouts"), "layouts").items():
        cells = r.list_(lay, f"layouts.{n}", 1, len(tiles))
        if len(cells) != tiles_in_play[n]:
            raise r.fail(f"layouts.{n}", f"must list tiles_in_play.{n} = {tiles_in_play[n]} cells")
        out = []
        for i, cell in enumerate(cells):
            c = r.list_(cell, f"layouts.{n}[{i}]", 2, 2)
            i_, j_ = (r.int_(v, f"layouts.{n}[{i}]", -10, 10) for v in c)
            cq, cr = 2 * i_ - j_, i_ + 3 * j_
            if max(abs(cq), abs(cr)) > GRID_RADIUS - 1:
                raise r.fail(f"layouts.{n}[{i}]", f"lies outside the hex window ±{GRID_RADIUS}")
            out.append((i_, j_))
        if out[0] != (0, 0):
            raise r.fail(f"layouts.{n}[0]", "must be the central tile [0, 0]")
        if len(set(out)) != len(out):
            raise r.fail(f"layouts.{n}", "repeats a lattice position")
        layouts[n] = tuple(out)
    total_cattle_use = max(
        n * start_cattle + sum(h.cattle for t in tiles for h in t) for n in (2, 3, 4)
    )
    if total_cattle_use > cattle_total:
        raise r.fail("cattle_total", "is too small for the start cattle and all K hexes")
    if canteen_lakes > canteens_total:
        raise r.fail("canteens_total", f"is smaller than the {canteen_lakes} canteen lakes")
    return Components(
        id=data_id,
        digest=digest,
        source=source,
        settlements=settlements,
        tiles_in_play=tiles_in_play,
        start_silver=start_silver,
        worker_cap=worker_cap,
        workers_per_colour=per_colour,
        goods_box=goods_box,
        goods_supply=goods_supply,
        start_goods=start_goods,
        start_cattle=start_cattle,
        cattle_total=cattle_total,
        canteens_total=canteens_total,
        bank=tuple(bank),
        areas=tuple(areas),
        column_cost=column_cost,
        rows=tuple(rows),
        upgrades=upgrades_pairs,
        wheel=tuple(wheel),
        max_arrow_push=max_push,
        grain_per_push_step=r.int_(
            r.get(data, "grain_per_push_step"), "grain_per_push_step", 0, 10
        ),
        setup_spins=setup_spins,
        cattle_trade_silver=r.int_(r.get(data, "cattle_trade_silver"), "cattle_trade_silver"),
        cattle_trade_goods=trade_goods,
        max_builds_per_action=r.int_(
            r.get(data, "max_builds_per_action"), "max_builds_per_action", 1, 10
        ),
        silver_per_skipped_build=r.int_(
            r.get(data, "silver_per_skipped_build"), "silver_per_skipped_build"
        ),
        line_length=r.int_(r.get(data, "line_length"), "line_length", 2, 20),
        tile_ids=tile_ids,
        tiles=tuple(tiles),
        layouts=layouts,
        min_start_plain_neighbours=r.int_(
            r.get(data, "min_start_plain_neighbours"), "min_start_plain_neighbours", 0, 6
        ),
    )


MAX_DATA_BYTES = 1_000_000
"""Largest Montana data file read (the shipped one is a few kilobytes)."""


@lru_cache(maxsize=16)
def load_components(path: str = DEFAULT_DATA) -> Components:
    """The components of ``path`` (``"default"``: the shipped PROPOSED file), cached."""
    if path == DEFAULT_DATA:
        text = resources.files(__package__).joinpath("data/components.json").read_text("utf-8")
        source = "components.json (shipped)"
    else:
        try:
            text = read_text_limited(path, MAX_DATA_BYTES, "Montana data file")
        except FileRefused as exc:
            raise OptionError(str(exc)) from None
        source = path
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OptionError(f"Montana data file {source} is not valid JSON: {exc}") from exc
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return parse_components(raw, source, digest)
