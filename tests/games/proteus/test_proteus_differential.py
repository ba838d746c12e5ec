"""The compiled Proteus kernel against today's engine (``games/_legacy/proteus``), side by side.

Both engines play the same random games (the same seeded choices) for every option set; at
every step they must agree on the player to move, the legal actions, the chance outcomes, the
returns, the position JSON, both observation tensors, the position key, the text picture and
why a few illegal actions are illegal. Every position is also loaded from its JSON into both
engines, which must agree again (or reject it with the same message). ``BOARDPLAY_SOAK=1``
plays 10,000 games per option set.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import boardplay
import support
from boardplay.core.errors import IllegalActionError, PositionError
from boardplay.core.game import State
from boardplay.games._legacy.proteus import ProteusGame as LegacyGame
from boardplay.games._legacy.proteus import ProteusState as LegacyState
from boardplay.games.proteus import ProteusState
from boardplay.games.proteus.tables import MOVE_BASE, NUM_ACTIONS, PASS

OPTION_SETS: list[dict[str, Any]] = [
    {"rules": "seed"},
    {"rules": "kadon"},
    {"rules": "seed", "max_turns": 200},  # the yardstick's and bench's option sets
    {"rules": "kadon", "max_turns": 200},
    {"rules": "seed", "repetition": "forbid", "max_turns": 30},
    {"rules": "kadon", "repetition": "forbid"},
]
GAMES = support.games(40, 10_000)
MAX_ACTIONS = 300
"""Games without ``max_turns`` can run for ever; the comparison stops after this many."""
TOTALS: dict[str, list[float]] = {}


def _same(old: LegacyState, new: ProteusState, rng: random.Random, step: int) -> list[int]:
    """Assert that the two engines agree on everything observable here; the legal actions.
    The text picture (a function of the accessors compared here) is compared every few steps
    and at the end, to keep the soak affordable."""
    legal = old.legal_actions()
    assert new.legal_actions() == legal
    assert new.current_player() == old.current_player()
    assert new.is_terminal() == old.is_terminal()
    assert new.chance_outcomes() == old.chance_outcomes()
    assert new.returns() == old.returns()
    position = old.to_json()
    assert new.to_json() == position
    for player in (0, 1):
        assert new.observation_tensor(player) == old.observation_tensor(player)
    assert new.key() == old.key()
    if step % 5 == 0 or not legal:
        assert new.render() == old.render()
    assert new.outcome == old.outcome
    assert new.end_reason() == old.end_reason()
    assert (new.turns, new.passes, new.unplaced) == (old.turns, old.passes, old.unplaced)
    for _ in range(2):
        action = rng.randrange(NUM_ACTIONS)
        if action not in legal:
            assert new.explain_illegal(action) == old._why_illegal(action)
    if legal and not old.in_placement and MOVE_BASE <= legal[0] < PASS:
        assert new._key_after(legal[0]) == old._key_after(legal[0])
    return legal


def _same_loaded(legacy: LegacyGame, game: boardplay.Game, position: dict[str, Any]) -> None:
    """Both engines load ``position`` alike (the new one round-trips its own JSON)."""
    try:
        old = legacy.state_from_json(position)
    except PositionError as exc:
        with pytest.raises(PositionError) as caught:
            game.state_from_json(position)
        assert str(caught.value) == str(exc)
        return
    new = game.state_from_json(position)
    assert isinstance(new, ProteusState)
    assert new.to_json() == position
    assert new.legal_actions() == old.legal_actions()
    assert new.current_player() == old.current_player()
    assert new.returns() == old.returns()


def play(options: dict[str, Any], seed: int) -> int:
    """One random game on both engines; returns the number of actions compared."""
    legacy = LegacyGame(options)
    game = boardplay.load("proteus", **options)
    rng = random.Random(seed)
    old = legacy.new_initial_state()
    new = game.new_initial_state()
    assert isinstance(new, ProteusState)
    actions = 0
    while True:
        legal = _same(old, new, rng, actions)
        _same_loaded(legacy, game, old.to_json())
        if not legal or actions >= MAX_ACTIONS:
            break
        action = legal[rng.randrange(len(legal))]
        if rng.random() < 0.05:  # now and then continue from a copy, as search does
            new = new.clone()
        old.apply_action(action)
        new.apply_action(action)
        actions += 1
    assert new.history() == old.history()
    return actions


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
def test_new_engine_matches_the_legacy_engine(options: dict[str, Any]) -> None:
    began = time.perf_counter()
    actions = sum(play(options, seed) for seed in range(GAMES))
    TOTALS[str(options)] = [GAMES, actions, time.perf_counter() - began]
    if support.SOAK:
        print(f"\n{options}: {GAMES} games, {actions} actions, {TOTALS[str(options)][2]:.1f} s")


def test_rejections_match_the_legacy_engine() -> None:
    """Illegal actions of every kind (ids, bools, out of range) raise the same message."""
    rng = random.Random(5)
    for options in OPTION_SETS[:2]:
        legacy = LegacyGame(options)
        game = boardplay.load("proteus", **options)
        old: LegacyState = legacy.new_initial_state()
        new: State = game.new_initial_state()
        for _ in range(60):
            for action in (-1, NUM_ACTIONS, PASS, rng.randrange(NUM_ACTIONS), "x"):
                if action in old.legal_actions():
                    continue
                with pytest.raises(IllegalActionError) as expected:
                    old.apply_action(action)  # type: ignore[arg-type]
                with pytest.raises(IllegalActionError) as caught:
                    new.apply_action(action)  # type: ignore[arg-type]
                assert str(caught.value) == str(expected.value)
            legal = old.legal_actions()
            if not legal:
                break
            action = rng.choice(legal)
            old.apply_action(action)
            new.apply_action(action)
