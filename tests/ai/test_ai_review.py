"""Game review (``boardplay.ai.review``) and ``boardplay review RECORD``: a planted blunder is
flagged with a better move, the curve is the reviewed seat's, the thresholds are as documented,
and bad input is one clear line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boardplay.ai.review import (
    BLUNDER,
    MISTAKE,
    Judgement,
    assemble,
    plies_to_judge,
    review_record,
    verdict,
)
from boardplay.cli.main import app
from boardplay.core.errors import OptionError
from boardplay.core.records import write_jsonl
from boardplay.core.registry import load
from reviewgames import Planted, planted_blunder

runner = CliRunner()
ITERATIONS = 300


@pytest.fixture(scope="module")
def planted() -> Planted:
    return planted_blunder()


@pytest.fixture(scope="module")
def review(planted: Planted) -> dict[str, Any]:
    return review_record(planted.record, planted.seat, ITERATIONS)


def test_the_planted_blunder_is_flagged_with_a_safe_better_move(
    planted: Planted, review: dict[str, Any]
) -> None:
    (entry,) = [m for m in review["flagged"] if m["ply"] == planted.ply]
    assert entry["verdict"] == "blunder"
    assert entry["move"] == planted.record.moves[planted.ply].notation
    assert entry["win_after"] == 0.0  # the move lost on the spot
    assert entry["loss"] >= BLUNDER
    assert entry["best"]["move"] in planted.safe
    assert entry["best"]["win_probability"] == entry["win_before"] >= BLUNDER


def test_the_curve_is_the_reviewed_seats_and_ends_with_the_result(
    planted: Planted, review: dict[str, Any]
) -> None:
    curve = review["curve"]
    plies = [p["ply"] for p in curve]
    assert plies == sorted(set(plies))
    assert all(0.0 <= p["win_probability"] <= 1.0 for p in curve)
    assert curve[-1] == {"ply": len(planted.record.moves), "win_probability": 0.0}
    # Two players: both seats' decisions are points; the reviewed seat's moves are judged.
    states = list(planted.record.states())
    assert {states[p].current_player() for p in plies[:-1]} == {0, 1}
    assert {m["ply"] for m in review["moves"]} == {
        p for p in plies[:-1] if states[p].current_player() == planted.seat
    }


def test_a_move_the_search_would_play_costs_nothing(review: dict[str, Any]) -> None:
    best_moves = [m for m in review["moves"] if m["best"] is None]
    assert best_moves, "the random player never once played the search's move"
    assert all(m["loss"] == 0.0 and m["verdict"] is None for m in best_moves)
    assert review["summary"]["blunders"] == sum(
        1 for m in review["moves"] if m["verdict"] == "blunder"
    )


def test_thresholds() -> None:
    assert (MISTAKE, BLUNDER) == (0.10, 0.25)
    assert verdict(0.0) is None and verdict(0.099) is None
    assert verdict(0.10) == verdict(0.2499) == "mistake"
    assert verdict(0.25) == verdict(1.0) == "blunder"


def test_a_played_move_the_search_knew_well_is_judged_by_its_own_value() -> None:
    """The search's value of the played move (enough visits) wins over the next position,
    which includes luck and the opponent's reply."""
    game = load("potlatch")
    state = game.new_initial_state()
    states = [state.clone()]
    played, best = state.legal_actions()[:2]
    state.apply_action(played)
    states.append(state.clone())
    second = state.legal_actions()[0]  # the same seat's second action of the turn
    state.apply_action(second)
    states.append(state.clone())
    notation = states[0].action_to_string(played)
    judgements = {
        0: Judgement(0, 0, best, "x", 0.7, [{"move": notation, "visits": 50, "value": 0.55}]),
        1: Judgement(1, 0, second, "y", 0.1),
    }
    actions = [played, second]
    first, then = assemble(game, states, actions, 0, judgements, 100)["moves"]
    assert first["judged_by"] == "search" and first["win_after"] == 0.55
    assert first["verdict"] == "mistake" and first["loss"] == pytest.approx(0.15)
    assert then["judged_by"] == "best" and then["loss"] == 0.0 and then["best"] is None
    judgements[0] = Judgement(0, 0, best, "x", 0.7, [{"move": notation, "visits": 3, "value": 0}])
    first, _ = assemble(game, states, actions, 0, judgements, 100)["moves"]
    assert first["judged_by"] == "next position" and first["win_after"] == 0.1
    assert first["verdict"] == "blunder"


def test_with_three_players_only_the_reviewed_seats_decisions_are_judged() -> None:
    game = load("passtally", players=3)
    state = game.new_initial_state()
    states = [state.clone()]
    rng = random.Random(2)
    while not state.is_terminal() and len(states) < 60:
        legal = state.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice([a for a, _ in outcomes]))
        else:
            state.apply_action(rng.choice(legal))
        states.append(state.clone())
    plies = plies_to_judge(states, 2, 3)
    assert plies and all(states[p].current_player() == 2 for p in plies)
    assert all(len(states[p].legal_actions()) > 1 for p in plies)


def test_bad_seat_and_budget_are_refused(planted: Planted) -> None:
    with pytest.raises(OptionError, match=r"seat must be 0\.\.1"):
        review_record(planted.record, 2, 10)
    with pytest.raises(OptionError, match="at least 1"):
        review_record(planted.record, 0, 0)


# ----- the command --------------------------------------------------------------------------
def test_review_command_names_the_blunder_and_the_better_move(
    planted: Planted, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    planted.record.save(path)
    args = ["review", str(path), "--seat", str(planted.seat), "-i", str(ITERATIONS)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Moves that lost the most" in result.output
    assert "blunder" in result.output
    assert f"{planted.ply + 1} " in result.output
    assert "Win probability:" in result.output and any(c in result.output for c in "▁▂▃▄▅▆▇█")

    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    flagged = {m["ply"]: m for m in data["flagged"]}
    assert flagged[planted.ply]["verdict"] == "blunder"
    assert flagged[planted.ply]["best"]["move"] in planted.safe
    assert flagged[planted.ply]["words"]  # said in words (the game's describer)


def test_review_command_reads_a_corpus_and_refuses_bad_input(
    planted: Planted, tmp_path: Path
) -> None:
    corpus = tmp_path / "games.jsonl"
    write_jsonl(corpus, [planted.record, planted.record])
    args = ["review", str(corpus), "--seat", str(planted.seat), "-i", "50", "--json"]
    result = runner.invoke(app, [*args, "--index", "2"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["plies"] == len(planted.record.moves)
    result = runner.invoke(app, [*args, "--index", "3"])
    assert result.exit_code == 2 and "fewer than 3 records" in result.output
    result = runner.invoke(app, ["review", str(corpus), "--seat", "5"])
    assert result.exit_code == 2 and "seat must be 0..1" in result.output
    result = runner.invoke(app, ["review", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "cannot read" in result.output
