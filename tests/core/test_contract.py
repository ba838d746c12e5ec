"""The game contract, held once over every registered game and every option set
(``option_sets.py``), so a new game or option is covered without a test of its own: clones are
independent and continue alike, a seed fixes a game, positions and records round-trip, an
illegal action is refused and changes nothing, chance is a distribution, the end is well formed.
What only a compiled kernel has (its sizes, its position struct copied and loaded whole) is held
over the games that run on one (``KERNEL_SETS``); a pure-Python game, such as the toy fifth game,
passes every other test here. What is particular to one game (its rules, its notation, its
scenarios) stays in ``tests/games/<game>/``."""

from __future__ import annotations

import importlib
import importlib.resources
import math
import pickle
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from boardplay.core.errors import BoardplayError, IllegalActionError, NotationError
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.kernel import Kernel, random_playouts
from boardplay.core.records import Record
from boardplay.core.registry import available, load, package_of
from option_sets import KERNEL_SETS, OPTION_SETS
from support import random_record

CASES = [pytest.param(game, id=name) for name, game in OPTION_SETS.items()]
KERNEL_CASES = [pytest.param(game, id=name) for name, game in KERNEL_SETS.items()]
"""The option sets of the games that run on a compiled kernel (``option_sets.KERNEL_SETS``)."""
PREFIX = 60
"""Actions played before a position is cloned, exported or tested (mid-game, not the start)."""


def _step(state: State, rng: random.Random) -> int:
    action = (
        sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
    )
    state.apply_action(action)
    return action


def _play(state: State, rng: random.Random, limit: int) -> None:
    """Random actions (chance by its probabilities) until the end or ``limit`` actions."""
    for _ in range(limit):
        if state.is_terminal():
            return
        _step(state, rng)


def _midgame(game: Game, seed: int) -> State:
    state = game.new_initial_state()
    _play(state, random.Random(seed), PREFIX)
    return state


def _snapshot(state: State) -> tuple[object, ...]:
    return (state.to_json(), state.history(), state.legal_actions(), state.current_player())


@pytest.mark.parametrize("game", CASES)
def test_a_clone_is_independent_and_continues_like_the_original(game: Game) -> None:
    state = _midgame(game, seed=3)
    before = _snapshot(state)
    copy = state.clone()
    _play(copy, random.Random(9), game.episode_limit)
    assert _snapshot(state) == before
    again = state.clone()
    _play(again, random.Random(9), game.episode_limit)
    assert again.to_json() == copy.to_json() and again.history() == copy.history()


@pytest.mark.parametrize("game", CASES)
def test_a_seed_fixes_the_game_and_the_history_replays_it(game: Game) -> None:
    first, second = game.new_initial_state(), game.new_initial_state()
    _play(first, random.Random(5), game.episode_limit)
    _play(second, random.Random(5), game.episode_limit)
    assert first.history() == second.history() and first.to_json() == second.to_json()
    replayed = game.new_initial_state()
    for action in first.history():
        replayed.apply_action(action)
    assert replayed.to_json() == first.to_json()
    assert replayed.is_terminal() == first.is_terminal()


@pytest.mark.parametrize("game", CASES)
def test_a_position_round_trips_through_its_json(game: Game) -> None:
    """A position of a game in progress, exported and loaded, is the same position."""
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(4):
        if state.is_terminal():
            break  # a finished position's JSON need not hold the result (Proteus §10.5)
        loaded = game.state_from_json(state.to_json())
        assert loaded.to_json() == state.to_json()
        assert loaded.current_player() == state.current_player()
        assert loaded.legal_actions() == state.legal_actions()
        _play(state, rng, PREFIX // 2)


@pytest.mark.parametrize("game", CASES)
def test_a_record_saves_loads_and_replays(game: Game, tmp_path: Path) -> None:
    record, state = random_record(game, seed=11, limit=game.episode_limit)
    record.save(tmp_path / "game.json")
    loaded = Record.load(tmp_path / "game.json")
    final = loaded.replay()
    assert final.to_json() == state.to_json() and final.history() == state.history()
    assert loaded.result == record.result


@pytest.mark.parametrize("game", CASES)
def test_a_record_begun_from_a_position_replays_from_it(game: Game) -> None:
    start = _midgame(game, seed=23)
    if start.is_terminal():
        return
    state = game.state_from_json(start.to_json())
    record = Record.begin(game, start_position=start.to_json())
    rng = random.Random(29)
    for _ in range(PREFIX):
        if state.is_terminal():
            break
        if state.is_chance_node():
            record.play(state, sample_chance(state, rng))
        else:
            record.play(state, rng.choice(state.legal_actions()))
    assert Record.loads(record.dumps()).replay().to_json() == state.to_json()


@pytest.mark.parametrize("game", CASES)
def test_an_illegal_action_is_refused_and_changes_nothing(game: Game) -> None:
    state = _midgame(game, seed=13)
    while state.is_chance_node():
        _step(state, random.Random(1))
    before = _snapshot(state)
    space = game.max_chance_outcomes if state.is_chance_node() else game.num_distinct_actions
    unlisted = sorted(set(range(space)) - set(state.legal_actions()))
    illegal = [*unlisted[:3], -1, space, 10**9]
    for action in illegal:
        with pytest.raises(BoardplayError):
            state.apply_action(action)
        assert _snapshot(state) == before, action
    with pytest.raises(BoardplayError):
        state.apply_action("not a move")  # type: ignore[arg-type]
    assert _snapshot(state) == before


@pytest.mark.parametrize("game", CASES)
def test_chance_is_a_distribution_over_its_legal_outcomes(game: Game) -> None:
    state = game.new_initial_state()
    rng = random.Random(17)
    seen = 0
    while not state.is_terminal() and seen < 20 and len(state.history()) < game.episode_limit:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == state.legal_actions()
            assert all(p > 0 for _, p in outcomes)
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            seen += 1
        else:
            assert state.chance_outcomes() == []
        _step(state, rng)


@pytest.mark.parametrize("game", CASES)
def test_the_end_is_well_formed(game: Game) -> None:
    state = game.new_initial_state()
    _play(state, random.Random(19), 100_000)
    assert state.is_terminal(), "random play must end (every game has a bound)"
    assert state.legal_actions() == []
    returns = state.returns()
    assert len(returns) == game.num_players
    assert set(state.winners()) <= set(range(game.num_players))
    with pytest.raises(BoardplayError):
        state.apply_action(0)


@pytest.mark.parametrize("game", CASES)
def test_the_observation_has_the_games_shape(game: Game) -> None:
    """Every seat's observation tensor has ``observation_shape``'s size, at the start and
    mid-game (a pure-Python game's as a compiled one's)."""
    size = math.prod(game.observation_shape())
    for state in (game.new_initial_state(), _midgame(game, seed=5)):
        for seat in range(game.num_players):
            assert len(state.observation_tensor(seat)) == size


@pytest.mark.parametrize("name", available())
def test_a_game_with_a_kernel_source_runs_on_its_built_kernel(name: str) -> None:
    """A game whose folder holds ``kernel.pyx`` runs on that kernel, so an unbuilt kernel fails
    here and never skips (the four games of the package); a game without one is pure Python,
    held by every test of this suite but those of a kernel's own."""
    folder = Path(str(importlib.resources.files(package_of(name))))
    kernel = load(name).new_initial_state().kernel
    assert (kernel is not None) == (folder / "kernel.pyx").is_file(), name


@pytest.mark.parametrize("game", KERNEL_CASES)
def test_the_kernel_has_the_games_sizes(game: Game) -> None:
    """A compiled kernel's sizes are its game's."""
    kernel = game.new_initial_state().kernel
    assert kernel is not None
    assert kernel.num_players == game.num_players
    assert kernel.action_space == game.num_distinct_actions
    assert kernel.chance_space == game.max_chance_outcomes
    assert (kernel.observation_size,) == tuple(
        [math.prod(game.observation_shape())] if game.observation_shape() else [0]
    )


def _live(game: Game, seed: int, steps: int) -> State:
    """A position after up to ``steps`` random actions, stopping short of the end."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        after = state.clone()
        _step(after, rng)
        if after.is_terminal():
            break
        state = after
    return state


@pytest.mark.parametrize("game", CASES)
def test_notation_is_parsed_once_and_a_bad_spelling_is_a_notation_error(game: Game) -> None:
    """``string_to_action`` is one parse (``parse_action``) then the legality check: every
    legal move's notation reads back as it; text that names no action is a ``NotationError``
    (an ``IllegalActionError``) listing the legal moves; an action the rules refuse is an
    ``IllegalActionError`` that is not a ``NotationError``; neither changes the position."""
    for seed in (31, 37):
        state = _live(game, seed, PREFIX // 2 + seed % 7)
        legal = state.legal_actions()
        for action in legal[:200]:
            text = state.action_to_string(action)
            assert state.parse_action(text) == action == state.string_to_action(text), text
            assert state.string_to_action(str(action)) == action  # a bare id
        before = _snapshot(state)
        for text in ("", "no such move", "#?", str(10**9)):
            with pytest.raises(NotationError, match="legal moves: "):
                state.string_to_action(text)
        space = game.max_chance_outcomes if state.is_chance_node() else game.num_distinct_actions
        refused = 0
        for action in sorted(set(range(space)) - set(legal)):
            try:
                text = state.action_to_string(action)
            except (BoardplayError, ValueError, IndexError):
                continue  # an id this option set does not use has no notation
            if state.parse_action(text) != action:
                continue  # another spelling of a legal move (Passtally's symmetric tiles)
            with pytest.raises(IllegalActionError) as refusal:
                state.string_to_action(text)
            assert not isinstance(refusal.value, NotationError), text
            refused += 1
            if refused == 5:
                break
        assert _snapshot(state) == before


@pytest.mark.parametrize("game", CASES)
def test_to_move_is_the_seat_to_decide_and_once_over_the_seat_whose_turn_it_was(
    game: Game,
) -> None:
    """One meaning of ``to_move`` in every game (docs/design.md §2): while a player decides,
    the seat ``current_player`` reports; once the game is over, the seat whose turn it was when
    it ended (the last decision's turn, or the turn that began and ended the game at once, as
    Potlatch's conditions 1, 3 and 4 and Proteus's kadon player left without an action), never
    ``CHANCE`` or ``TERMINAL``; a clone and a pickled copy say the same."""
    n = game.num_players
    for seed in (19, 41):
        state = game.new_initial_state()
        rng = random.Random(seed)
        last = -1
        while not state.is_terminal() and len(state.history()) < game.episode_limit:
            if not state.is_chance_node():
                assert state.to_move == state.current_player()  # type: ignore[attr-defined]
                last = state.turn()[0]
            _step(state, rng)
        if not state.is_terminal():
            continue  # cut at the episode limit: the end is checked by the other seed
        over = state.to_move  # type: ignore[attr-defined]
        assert over in (last, (last + 1) % n), (over, last)
        assert state.clone().to_move == over  # type: ignore[attr-defined]
        assert pickle.loads(pickle.dumps(state)).to_move == over


END_CODE = re.compile(r"[a-z][a-z_]*")


@pytest.mark.parametrize("game", CASES)
def test_the_result_is_winners_and_an_end_code(game: Game) -> None:
    """The contract's one result vocabulary in every game (docs/design.md §2): while the game
    runs ``winners()`` is empty and ``end_code()`` None; once over, the winners are the seats
    with the best return and every other seat has less (several on a shared win, none on a
    draw, where every seat has the same), ``end_code()`` is a stable word, and
    ``result_text()`` says a draw exactly when nobody won. A game's own words (Potlatch's
    ``result``, Proteus's ``outcome``, Passtally's ``winner()``, Montana's ``won``) are thin
    aliases of these, held equal in its own tests."""
    for seed in (43, 47):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and len(state.history()) < game.episode_limit:
            assert state.winners() == [] and state.end_code() is None
            _step(state, rng)
        if not state.is_terminal():
            continue
        won, returns = state.winners(), state.returns()
        assert math.isclose(sum(returns), 1.0)
        best = max(returns)
        if won:
            assert all(math.isclose(returns[seat], best) for seat in won)
            assert all(returns[seat] < best for seat in range(game.num_players) if seat not in won)
        else:
            assert all(math.isclose(value, best) for value in returns)
        code = state.end_code()
        assert code is not None and END_CODE.fullmatch(code), code
        assert state.result_text().startswith("draw") == (not won)


OWN_COPY = re.compile(
    r"^\s*(cdef\s+Kernel\s+copy\s*\(|cdef\s+void\s+copy_from\s*\(|def\s+(save|restore)\s*\()",
    re.M,
)


@pytest.mark.parametrize("game", KERNEL_CASES)
def test_copy_assign_and_pickling_are_written_once_over_the_position_struct(game: Game) -> None:
    """Every kernel keeps its whole position, options included, in one struct that
    ``core/kernel.pyx`` copies (``copy``, ``copy_from``) and pickles (``save``/``restore``) as
    one block, with the game's ``copy_rest``/``save_rest``/``restore_rest`` for what lies
    outside it; no kernel writes those four itself. A clone, a kernel assigned from it and an
    unpickled one hold the same position bytes and play the same random games."""
    kernel = _midgame(game, seed=53).kernel
    assert kernel is not None
    cls = type(kernel)
    assert cls.save is Kernel.save and cls.restore is Kernel.restore
    folder = Path(sys.modules[cls.__module__].__file__ or "").parent
    for path in [folder / "kernel.pyx", *sorted(folder.glob("*.pxi"))]:
        assert not OWN_COPY.search(path.read_text("utf-8")), path
    assigned = game.new_initial_state().kernel
    assert assigned is not None
    assigned.assign(kernel)
    expected = random_playouts(kernel, 12, 7)
    for twin in (kernel.clone(), assigned, pickle.loads(pickle.dumps(kernel))):
        assert twin.save()[0] == kernel.save()[0]
        assert random_playouts(twin, 12, 7) == expected


def _game_module(game: Game, module: str) -> object:
    """The game's own module ``module`` (``fields``, ``state`` ...), found from its class."""
    return importlib.import_module(f"{type(game).__module__.rpartition('.')[0]}.{module}")


@pytest.mark.parametrize("game", KERNEL_CASES)
def test_a_position_loads_whole_into_a_fresh_kernel_and_never_in_part(game: Game) -> None:
    """One load contract (``core/face.pyx``): a game's ``fields.load``, as ``Face.load`` over
    its table, takes the whole position, every name of ``FIELDS`` as ``snapshot`` gives them,
    and refuses a part (``ValueError`` naming what is missing) or a name it does not know
    (``KeyError``), writing nothing then. A snapshot of a position met in play, the end
    included, loaded into a fresh kernel is that position (every option set)."""
    fields: Any = _game_module(game, "fields")
    new_kernel: Any = _game_module(game, "state").new_kernel  # type: ignore[attr-defined]
    for seed, depth in ((1, 9), (2, PREFIX), (3, game.episode_limit)):
        state = game.new_initial_state()
        _play(state, random.Random(seed), depth)
        snapshot = fields.snapshot(state.kernel)
        assert set(snapshot) == set(fields.FIELDS)
        kernel = new_kernel(game)
        fields.load(kernel, snapshot)
        assert fields.snapshot(kernel) == snapshot
        copy = type(state)(game, kernel)  # type: ignore[call-arg]
        assert _snapshot(copy)[0::2] == _snapshot(state)[0::2]  # JSON, legal actions
        assert copy.current_player() == state.current_player()
    fresh = new_kernel(game)
    before = fields.snapshot(fresh)
    for name in fields.FIELDS:
        with pytest.raises(ValueError, match=f"missing: .*{name}"):
            fields.load(fresh, {k: v for k, v in snapshot.items() if k != name})
    with pytest.raises(KeyError, match="no field 'nonsense'"):
        fields.load(fresh, {**snapshot, "nonsense": 1})
    table = fields.FACE.snapshot(state.kernel)
    with pytest.raises(ValueError, match="missing: "):
        fields.FACE.load(fresh, dict(list(table.items())[1:]))
    assert fields.snapshot(fresh) == before
