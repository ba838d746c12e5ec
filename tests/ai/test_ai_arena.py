"""The arena: schedule, seeded parallel play, tallies, records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ai_testgames import NimGame, PigGame

from boardplay.ai.arena import (
    ArenaResult,
    GameResult,
    Thinking,
    lineups,
    result_from_record,
    run_arena,
    schedule,
    summarize,
)
from boardplay.core import registry
from boardplay.core.errors import RecordError
from boardplay.core.records import read_jsonl


def test_two_agents_alternate_seats() -> None:
    tasks = schedule(2, 2, 4, seed=0)
    assert [t.seats for t in tasks] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert len({t.seed for t in tasks}) == 4
    assert [t.seed for t in tasks] == [t.seed for t in schedule(2, 2, 4, seed=0)]
    assert [t.seed for t in tasks] != [t.seed for t in schedule(2, 2, 4, seed=1)]


def test_round_robin_tables() -> None:
    tasks = schedule(3, 2, 2, seed=0)
    assert [t.seats for t in tasks] == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    # Three agents at a three-player table: all six seatings.
    assert len(lineups((0, 1, 2), 3)) == 6
    # Two agents at a three-player table: each appears at least once: 2^3 - 2 seatings.
    seatings = lineups((0, 1), 3)
    assert len(seatings) == 6
    assert all(set(s) == {0, 1} for s in seatings)


def _result(index: int, seats: tuple[int, ...], returns: tuple[float, ...]) -> GameResult:
    return GameResult(index, seats, returns, None, 10, 0.0, None)


def test_summary_tallies_by_hand() -> None:
    game = NimGame({})
    results = [
        _result(0, (0, 1), (1.0, 0.0)),  # A wins from seat 0
        _result(1, (1, 0), (1.0, 0.0)),  # B wins from seat 0
        _result(2, (0, 1), (1.0, 0.0)),  # A wins from seat 0
        _result(3, (1, 0), (0.5, 0.5)),  # draw
    ]
    summary = summarize(game, ["A", "B"], 0, results).to_json()
    a, b = summary["agents"]
    assert (a["games"], a["wins"], a["draws"], a["win_rate"]) == (4, 2, 1, 0.625)
    assert (b["wins"], b["draws"], b["losses"]) == (1, 1, 2)
    assert a["by_seat"][0]["win_rate"] == 1.0 and a["by_seat"][1]["win_rate"] == 0.25
    assert summary["seats"][0]["win_rate"] == pytest.approx((1 + 1 + 1 + 0.5) / 4)
    (pair,) = summary["pairings"]
    assert pair["spec"] == "A vs B" and (pair["wins"], pair["draws"], pair["losses"]) == (2, 1, 1)
    # 2.5 of 4 plus the virtual draw: 3 of 5 -> 400 log10(1.5) = 70.4 Elo.
    assert pair["rating"] == pytest.approx(70.4, abs=0.1)


def test_three_player_points_and_head_to_head() -> None:
    game = PigGame({"players": 3})
    results = [_result(0, (0, 1, 1), (0.0, 1.0, 0.0)), _result(1, (0, 1, 2), (0.5, 0.0, 0.5))]
    summary = summarize(game, ["A", "B", "C"], 0, results).to_json()
    a, b, c = summary["agents"]
    assert (a["games"], a["wins"], a["draws"]) == (2, 0, 1)
    assert (b["games"], b["wins"]) == (2, 1)
    assert (c["games"], c["draws"]) == (1, 1)
    assert all("openskill" in agent for agent in summary["agents"])
    pairs = {p["spec"]: p for p in summary["pairings"]}
    assert (pairs["A vs B"]["wins"], pairs["A vs B"]["losses"]) == (1, 1)
    assert pairs["A vs C"]["draws"] == 1


def test_repeated_specs_get_distinct_labels() -> None:
    results = [_result(0, (0, 1), (1.0, 0.0))]
    summary = summarize(NimGame({}), ["random", "random"], 0, results).to_json()
    assert [a["spec"] for a in summary["agents"]] == ["random", "random#2"]


@pytest.mark.usefixtures("pig")
def test_parallel_run_equals_serial_run_and_records_replay(
    tmp_path: pytest.TempPathFactory,
) -> None:
    game = PigGame({"players": 3, "target": 15})
    specs = ["random", "greedy", "mcts(iterations=20)"]
    path = tmp_path / "games.jsonl"  # type: ignore[operator]
    serial = run_arena(game, specs, 3, seed=4, workers=1, records=path)
    parallel = run_arena(game, specs, 3, seed=4, workers=2)
    assert [r.returns for r in serial.results] == [r.returns for r in parallel.results]
    assert [r.length for r in serial.results] == [r.length for r in parallel.results]
    records = list(read_jsonl(path))
    assert len(records) == len(serial.results) == 3
    for record, result in zip(records, serial.results, strict=True):
        assert [p.spec for p in record.players] == [specs[i] for i in result.seats]
        assert tuple(record.replay().returns()) == result.returns


def test_arena_rejects_bad_input_before_playing() -> None:
    game = NimGame({})
    with pytest.raises(ValueError, match="at least two agents"):
        run_arena(game, ["random"], 2)
    with pytest.raises(ValueError, match="unknown agent"):
        run_arena(game, ["random", "genius"], 2)
    with pytest.raises(ValueError, match="games must be at least 1"):
        run_arena(game, ["random", "greedy"], 0)


def test_mcts_beats_random_at_nim() -> None:
    result = run_arena(NimGame({"heap": 11}), ["mcts(iterations=300)", "random"], 10, seed=1)
    mcts = result.to_json()["agents"][0]
    assert mcts["wins"] >= 9


def test_a_resumed_run_plays_only_the_missing_games(tmp_path: pytest.TempPathFactory) -> None:
    game = PigGame({"target": 15})
    specs = ["greedy", "mcts(iterations=30)"]
    path = tmp_path / "run.jsonl"  # type: ignore[operator]
    first = run_arena(game, specs, 4, seed=3, records=path)
    resumed = run_arena(game, specs, 6, seed=3, records=path, resume=True)
    fresh = run_arena(game, specs, 6, seed=3)
    assert len(list(read_jsonl(path))) == 6
    assert [r.returns for r in resumed.results] == [r.returns for r in fresh.results]
    assert [r.index for r in resumed.results] == list(range(6))
    kept = resumed.results[:4]
    assert [r.thinking for r in kept] == [
        tuple(Thinking.from_row(t.to_row()) for t in r.thinking) for r in first.results
    ]
    assert resumed.to_json()["agents"][1]["games"] == 6


def test_resume_drops_a_game_cut_off_while_being_written(
    tmp_path: pytest.TempPathFactory,
) -> None:
    game = PigGame({"target": 15})
    path = tmp_path / "run.jsonl"  # type: ignore[operator]
    run_arena(game, ["random", "greedy"], 3, seed=3, records=path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1] + lines[2][:40])
    resumed = run_arena(game, ["random", "greedy"], 3, seed=3, records=path, resume=True)
    assert [r.index for r in resumed.results] == [0, 1, 2]
    saved = [result_from_record(json.loads(line)) for line in path.read_text().splitlines()]
    assert [r.index for r in saved] == [0, 1, 2]


def test_resume_refuses_records_of_another_run(tmp_path: pytest.TempPathFactory) -> None:
    game = PigGame({"target": 15})
    path = tmp_path / "run.jsonl"  # type: ignore[operator]
    run_arena(game, ["random", "greedy"], 2, seed=3, records=path)
    before = path.read_text()
    with pytest.raises(RecordError, match="line 1 is not a game of this run"):
        run_arena(game, ["random", "mcts(iterations=5)"], 2, seed=3, records=path, resume=True)
    with pytest.raises(RecordError, match="line 1 is not a game of this run"):
        run_arena(game, ["random", "greedy"], 2, seed=4, records=path, resume=True)
    assert path.read_text() == before
    with pytest.raises(ValueError, match="resume needs the records file"):
        run_arena(game, ["random", "greedy"], 2, resume=True)


def test_thinking_time_is_tallied_per_agent() -> None:
    game = NimGame({"heap": 9})
    result = run_arena(game, ["random", "mcts(iterations=200,early=false)"], 4, seed=2)
    random_agent, mcts = (agent["thinking"] for agent in result.to_json()["agents"])
    decisions = [sum(t.moves for t in r.thinking) for r in result.results]
    assert random_agent["moves"] + mcts["moves"] == sum(decisions) > 0
    assert 0 < mcts["seconds_per_move"] <= mcts["max_seconds"]
    assert random_agent["seconds_per_move"] < mcts["seconds_per_move"]
    assert mcts["simulations_per_search"] == 200 and "simulations_per_search" not in random_agent


def test_max_actions_adjudicates_long_games_as_recorded_draws(
    tmp_path: pytest.TempPathFactory,
) -> None:
    game = registry.load("proteus")  # no max_turns: the rules put no bound on a game
    path = tmp_path / "run.jsonl"  # type: ignore[operator]
    result = run_arena(game, ["random", "random"], 4, seed=1, records=path, max_actions=12)
    assert [r.length for r in result.results] == [12] * 4
    assert all(r.adjudicated and r.returns == (0.5, 0.5) for r in result.results)
    assert result.to_json()["adjudicated"] == 4
    assert [agent["draws"] for agent in result.to_json()["agents"]] == [4, 4]
    records = list(read_jsonl(path))
    assert [len(r.moves) for r in records] == [12] * 4
    meta = records[0].to_json()["meta"]["arena"]
    assert meta["max_actions"] == 12 and meta["adjudicated"] is True
    assert records[0].result is not None
    assert records[0].result["text"] == "adjudicated a draw: still running after 12 actions"
    assert records[0].result["terminal"] is False
    resumed = run_arena(game, ["random", "random"], 4, seed=1, records=path, resume=True,
                        max_actions=12)  # fmt: skip
    assert [r.adjudicated for r in resumed.results] == [True] * 4
    with pytest.raises(RecordError, match="--max-actions must be the same"):
        run_arena(game, ["random", "random"], 4, seed=1, records=path, resume=True)


def test_max_actions_leaves_games_that_end_in_time_alone() -> None:
    game = NimGame({"heap": 9})
    capped = run_arena(game, ["random", "greedy"], 4, seed=2, max_actions=1000)
    free = run_arena(game, ["random", "greedy"], 4, seed=2)
    assert [r.returns for r in capped.results] == [r.returns for r in free.results]
    assert not any(r.adjudicated for r in capped.results)
    with pytest.raises(ValueError, match="max_actions must be at least 1"):
        run_arena(game, ["random", "greedy"], 4, max_actions=0)


def test_an_opening_gives_a_deterministic_search_varied_games(tmp_path: Path) -> None:
    """``az`` with an iteration budget plays the same game from the same position every time
    (Proteus has no chance), so 200 games of it against itself were two games, one per seating;
    with random first decisions (recorded, and kept by a resume) the games differ, and the
    agents choose only after them."""
    game = registry.load("proteus(max_turns=200)")
    specs = ["az(weights=proteus,iterations=20)", "az(weights=proteus,iterations=40)"]

    def games(result: ArenaResult) -> set[tuple[int, ...]]:
        return {tuple(r.record["actions"]) for r in result.results if r.record is not None}

    assert len(games(run_arena(game, specs, 4, seed=1, records=tmp_path / "a.jsonl"))) == 2
    path = tmp_path / "b.jsonl"
    varied = run_arena(game, specs, 4, seed=1, records=path, opening=4)
    assert len(games(varied)) == 4
    assert all(sum(t.moves for t in r.thinking) == r.length - 4 for r in varied.results)
    assert next(iter(read_jsonl(path))).to_json()["meta"]["arena"]["opening"] == 4
    assert len(run_arena(game, specs, 4, seed=1, records=path, resume=True, opening=4).results) == 4
    with pytest.raises(RecordError, match="opening"):
        run_arena(game, specs, 4, seed=1, records=path, resume=True)
