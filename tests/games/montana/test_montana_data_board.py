"""The component data file (loading, validation, the ``data`` option) and the landscape
generator of spec §2.10 (SplitMix64, test vectors, 1,000 valid boards per player count)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from montana_helpers import fresh, play, set_workers

import boardplay
from boardplay.core.errors import IllegalActionError, OptionError, PositionError
from boardplay.games.montana import layout as L
from boardplay.games.montana import notation as N
from boardplay.games.montana.board import DIRS, START_HEX, SplitMix64, generate, make_board
from boardplay.games.montana.data import load_components


def shipped() -> dict[str, Any]:
    text = resources.files("boardplay.games.montana").joinpath("data/components.json")
    data: dict[str, Any] = json.loads(text.read_text("utf-8"))
    return data


def write(tmp_path: Path, data: Any, name: str = "c.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# ----- generator ------------------------------------------------------------------------------


def test_splitmix64_first_output() -> None:
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_vector_two_players_seed_0() -> None:
    board = make_board(load_components(), 2, 0)
    assert board.attempts == 2
    assert [(pos, tid, rot) for pos, tid, rot in board.placed] == [
        ((0, 0), "T08", 4),
        ((1, 0), "T01", 4),
        ((0, 1), "T12", 1),
        ((-1, 1), "T04", 5),
        ((-1, 0), "T02", 0),
        ((0, -1), "T10", 3),
    ]
    spec = {h: board.specs[i] for i, h in enumerate(board.coords)}
    assert spec[(1, 0)].cost == (0, 1, 0, 0, 1, 1) and spec[(1, 0)].cattle
    assert spec[(-1, 0)].cost == (1, 0, 1, 1, 1, 0) and spec[(-1, 0)].double
    assert spec[(1, -1)].kind == "mountain"
    assert spec[(3, 0)].kind == "lake" and spec[(3, 0)].canteen
    assert len(board.plains) == 33
    assert len(board.canteen_lakes) == 3
    assert len(board.cattle_hexes) == 6


def test_vector_three_players_seed_0() -> None:
    board = make_board(load_components(), 3, 0)
    assert board.attempts == 4
    assert [(p, t, r) for p, t, r in board.placed] == [
        ((0, 0), "T08", 2),
        ((1, 0), "T03", 4),
        ((0, 1), "T10", 2),
        ((-1, 1), "T07", 5),
        ((-1, 0), "T12", 2),
        ((0, -1), "T11", 2),
        ((1, -1), "T09", 1),
        ((1, 1), "T01", 1),
    ]
    assert (len(board.plains), len(board.canteen_lakes), len(board.cattle_hexes)) == (45, 2, 8)


def test_vector_four_players_seed_1() -> None:
    board = make_board(load_components(), 4, 1)
    assert board.attempts == 2
    assert [(p, t, r) for p, t, r in board.placed] == [
        ((0, 0), "T11", 1),
        ((1, 0), "T09", 2),
        ((0, 1), "T05", 3),
        ((-1, 1), "T10", 2),
        ((-1, 0), "T02", 5),
        ((0, -1), "T06", 3),
        ((1, -1), "T03", 2),
        ((1, 1), "T08", 4),
        ((-2, 1), "T12", 2),
        ((1, -2), "T07", 3),
    ]
    assert (len(board.plains), len(board.canteen_lakes), len(board.cattle_hexes)) == (57, 4, 10)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousand_boards_are_valid(players: int) -> None:
    data = load_components()
    tiles = data.tiles_in_play[players]
    for seed in range(1000):
        hexes, placed, attempts = generate(data, players, seed * 2_147_483 % 2**31)
        assert len(placed) == tiles and attempts >= 1
        assert len(hexes) == 7 * tiles  # the tiles never overlap
        assert len({tid for _, tid, _ in placed}) == tiles
        plains = {h for h, s in hexes.items() if s.kind == "plain"}
        seen, stack = {START_HEX}, [START_HEX]
        while stack:
            h = stack.pop()
            for dq, dr in DIRS:
                nb = (h[0] + dq, h[1] + dr)
                if nb in plains and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        assert seen == plains, "every plain reachable from the start hex"
        around = [(START_HEX[0] + dq, START_HEX[1] + dr) for dq, dr in DIRS]
        assert not any(h in hexes and hexes[h].kind == "lake" and hexes[h].canteen for h in around)
        assert sum(1 for h in around if h in plains) >= 4


def test_board_is_a_pure_function_of_the_seed() -> None:
    data = load_components()
    first = generate(data, 3, 12345)
    second = generate(data, 3, 12345)
    assert first[1] == second[1] and first[2] == second[2]


# ----- data file ------------------------------------------------------------------------------


def test_default_data_is_the_proposed_file() -> None:
    data = load_components()
    assert data.id == "montana-proposed-1"
    assert [b.silver for b in data.bank] == [3, 4, 8, 12]
    assert data.settlements == {2: 12, 3: 10, 4: 8}
    assert len(data.wheel) == 8 and len(data.tiles) == 12
    assert "PROPOSED" in shipped()["about"]


def test_custom_data_file_changes_values(tmp_path: Path) -> None:
    raw = shipped()
    raw["id"] = "printed-test"
    raw["bank"][0]["silver"] = 5
    path = write(tmp_path, raw)
    state = fresh(data=path)
    p = state.active
    set_workers(state, p, Cu=1)
    before = state.silver[p]
    play(state, "work:B1:Cu")
    assert state.silver[p] == before + 5
    assert state.to_json()["data"]["id"] == "printed-test"


def test_refusals_name_the_values_of_the_games_data_file(tmp_path: Path) -> None:
    """``explain`` reads the data file the kernel's tables were built from, not the shipped
    one: the bank space that takes 3 workers in the shipped file takes 2 in this one."""
    raw = shipped()
    raw["bank"][3]["workers"] = 2
    state = fresh(data=write(tmp_path, raw))
    set_workers(state, state.active, Cu=1)
    action = L.WORK_BANK + 3 * len(N.WORKER_SETS) + N.WORKER_SET_INDEX[(1, 0, 0, 0)]
    assert state.action_to_string(action) == "work:B4:Cu"
    with pytest.raises(IllegalActionError, match=r"B4 takes exactly 2 worker\(s\)"):
        state.apply_action(action)


def test_position_from_other_data_file_is_rejected(tmp_path: Path) -> None:
    raw = shipped()
    raw["id"] = "other"
    path = write(tmp_path, raw)
    position = fresh().to_json()
    with pytest.raises(PositionError, match=r"^data\.id: expected 'other'"):
        boardplay.load("montana", board_seed=0, start_player=0, data=path).state_from_json(position)


def _break(raw: dict[str, Any], path: list[Any], value: Any) -> None:
    target: Any = raw
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value", "entry"),
    [
        (["settlements"], KeyError, "settlements"),
        (["settlements", "3"], 0, "settlements.3"),
        (["bank", 2, "workers"], 9, "bank[2].workers"),
        (["bank", 1, "space"], "B1", "bank[1].space"),
        (["production", 0, "colour"], "GOLD", "production[0].colour"),
        (["production", 1, "spaces", 0, "cost"], -1, "production[1].spaces[0].cost"),
        (["store", "column_cost"], [2, 3], "store.column_cost[0]"),
        (["store", "rows", 1, "upgrades"], 1, "store.rows[1]"),
        (["wheel", 3, 0], "PURPLE", "wheel[3][0]"),
        (["tiles", "T05", 2], "x+g", "tiles.T05[2]"),
        (["tiles", "T07"], ["c+g"], "tiles.T07"),
        (["layouts", "4"], [[0, 0], [1, 0]], "layouts.4"),
        (["goods_supply", "2", "GRAIN"], 30, "goods_supply.2.GRAIN"),
        (["goods_box", "PUMPKIN"], KeyError, "goods_box.PUMPKIN"),
        (["start_silver"], [3, 4], "start_silver"),
        (["cattle_total"], 3, "cattle_total"),
        (["max_arrow_push"], 8, "max_arrow_push"),
    ],
)
def test_bad_data_file_names_the_entry(
    tmp_path: Path, path: list[Any], value: Any, entry: str
) -> None:
    raw = shipped()
    _break(raw, path, value)
    file = write(tmp_path, raw)
    with pytest.raises(OptionError) as info:
        boardplay.load("montana", data=file)
    assert repr(entry) in str(info.value)


def test_data_file_not_json_or_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(OptionError, match="not valid JSON"):
        boardplay.load("montana", data=str(bad))
    with pytest.raises(OptionError, match="cannot read"):
        boardplay.load("montana", data=str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("players", "mean", "low", "high", "lakes"),
    [(2, 33.6, 32, 35, (0, 5)), (3, 45.1, 44, 47, (2, 6)), (4, 56.5, 56, 58, (4, 6))],
)
def test_generator_statistics_match_the_spec(
    players: int, mean: float, low: int, high: int, lakes: tuple[int, int]
) -> None:
    """Spec §2.10's statistics (seeds 0–19 999) hold on seeds 0–999."""
    data = load_components()
    buildable, attempts = [], []
    for seed in range(1000):
        board = make_board(data, players, seed)
        buildable.append(len(board.plains))
        attempts.append(board.attempts)
        assert lakes[0] <= len(board.canteen_lakes) <= lakes[1]
    assert abs(sum(buildable) / 1000 - mean) < 0.2
    assert low <= min(buildable) and max(buildable) <= high
    assert abs(sum(attempts) / 1000 - 2.0) < 0.15
