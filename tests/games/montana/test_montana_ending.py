"""Montana's ending (issue 29): ``describe_end`` over random playouts. Every finished game's
mark names its end code; the tie-break it names really decided (the compared players are the
ones who placed every settlement or were still tied, and the winners are exactly those with
the best value of the deciding step); the ringed settlements are the finishers' own."""

from __future__ import annotations

import random

import pytest

from boardplay.core.game import Game
from boardplay.games.montana.ending import describe_end
from boardplay.games.montana.state import MontanaState
from boardplay.web.catalogue import REGISTRY


def playout(players: int, seed: int) -> tuple[Game, MontanaState]:
    game = REGISTRY.load("montana", {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert isinstance(state, MontanaState)
    return game, state


# Random games plus the seeds of tests/web/pages/test_web_endings.py: a cattle tie-break (2 and 3
# players), a money tie-break and a turn limit nobody won.
SEEDS = [(p, s) for p in (2, 3, 4) for s in range(12)]
SEEDS += [(2, 1185), (3, 852), (2, 134), (2, 112)]


@pytest.mark.parametrize(("players", "seed"), SEEDS)
def test_the_mark_names_the_end_and_the_deciding_tiebreak(players: int, seed: int) -> None:
    game, state = playout(players, seed)
    names = [game.seat_name(p) for p in range(game.num_players)]
    mark, sentence = describe_end(state.to_json(), state, 0, names)
    assert mark["kind"] == state.end_code()
    assert mark["winners"] == state.winners()
    finished = [p for p in range(players) if state.holdings(p).settlements_left == 0]
    assert {s["seat"] for s in mark["settlements"]} == set(finished)
    owned = {tuple(s["hex"]): s["owner"] for s in state.to_json()["landscape"]["settlements"]}
    assert all(owned[tuple(s["hex"])] == s["seat"] for s in mark["settlements"])
    if mark["kind"] == "final_round":
        assert mark["trigger"] in finished
        assert str(sentence).startswith(f"{names[mark['trigger']]} placed their last")
    if len(finished) < 2:
        assert "tiebreak" not in mark
        assert state.winners() == finished
        return
    tie = mark["tiebreak"]
    assert tie["by"] in ("cattle", "money")
    assert mark["decided"] == ("shared" if len(state.winners()) > 1 else tie["by"])
    values = {v["seat"]: v["value"] for v in tie["values"]}
    best = max(values.values())
    assert sorted(p for p, v in values.items() if v == best) == state.winners()
    held = {p: state.holdings(p) for p in values}
    if tie["by"] == "cattle":
        assert set(values) == set(finished)
        assert values == {p: h.cattle + h.canteens for p, h in held.items()}
    else:
        # The first step left exactly these players tied at the top.
        firsts = {p: state.holdings(p).cattle + state.holdings(p).canteens for p in finished}
        top = max(firsts.values())
        assert set(values) == {p for p, v in firsts.items() if v == top}
        assert values == {p: state.tiebreak_two(p) for p in values}


def test_the_seeds_cover_both_tiebreaks_and_the_turn_limit() -> None:
    kinds = set()
    for players, seed in SEEDS[-4:]:
        _, state = playout(players, seed)
        kinds.add((state.end_code(), state.decided_by()))
    assert kinds == {
        ("final_round", "cattle"),
        ("final_round", "money"),
        ("turn_limit", "nobody"),
    }
