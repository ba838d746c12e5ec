"""OpenSpiel adapter: every boardplay game as a pyspiel Python game, so OpenSpiel's own
algorithms (MCTS, CFR tools, ``random_sim_test``, ...) run on our engines unchanged.

>>> from boardplay.adapters import openspiel
>>> openspiel.register()                       # doctest: +SKIP
['boardplay_montana', 'boardplay_passtally', 'boardplay_potlatch', 'boardplay_proteus']
>>> import pyspiel
>>> game = pyspiel.load_game("boardplay_potlatch(actions=3)")  # doctest: +SKIP

Mapping (docs/adapters.md has the full story):

- GameType: sequential, perfect information, terminal rewards, zero-sum (see
  ``boardplay.adapters.utilities``); explicit chance where the game declares chance outcomes.
- ``max_game_length`` is ``Game.episode_limit``, a true bound: a game the rules have not ended
  after that many actions (chance included) is terminal here, a draw (all returns 0), as
  OpenSpiel's own length-capped games end. Only Proteus and Passtally without ``max_turns`` can
  get there; their rules have no end of their own. The parameter ``max_actions`` (as in the other
  adapters; 0, the default, is ``episode_limit``) sets a lower cap:
  ``pyspiel.load_game("boardplay_montana(max_actions=2000)")`` or
  ``load("montana", max_actions=2000)``; ``max_game_length`` is then that cap.
- ``undo_action(player, action)`` takes back the last action exactly (the engine state is
  rebuilt from the shortened history), so ``history()``, ``move_number()`` and
  ``history_str()`` are answered from the engine's history.
- Parameters are our options (``openspiel_params``: their mapping and the length cap).
- Serialization goes through our records: OpenSpiel serializes a Python state by pickling its
  attributes, and the only attribute holds the engine state, which pickles as a
  ``boardplay.core.records.Record`` (game, options, actions with notation) and is rebuilt by
  replaying that record through the engine, so a serialized state is checked move by move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from boardplay.adapters import utilities, utility_range
from boardplay.adapters.openspiel_params import (
    CAP,
    game_parameters,
    length_cap,
    options_from_parameters,
    parameter_specification,
)
from boardplay.core.errors import BoardplayError, RecordError
from boardplay.core.game import CHANCE, Game, State
from boardplay.core.options import parse_game_string
from boardplay.core.playout import random_playout
from boardplay.core.records import Record
from boardplay.core.registry import available, canonical_name, game_class

PREFIX = "boardplay_"
"""OpenSpiel short names are ``boardplay_<game>``."""


# ----- the engine state, held so that OpenSpiel can clone and pickle it ----------------------
class _Held:
    """Holds the engine state inside the pyspiel state's ``__dict__``.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by pickling
    them; this holder turns the first into the engine's cheap ``clone()`` and the second into a
    game record that is replayed (and so verified) on load."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())

    def __getstate__(self) -> dict[str, Any]:
        return to_record(self.state).to_json()

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.state = _AdapterRecord.from_json(data).replay()


_classes: dict[str, type[Game]] = {}
"""Game classes registered through this adapter, by boardplay name."""


class _AdapterRecord(Record):
    """A record whose game is looked up among the classes registered here first, so games
    registered with ``register_class`` (not only the built-in four) deserialize too."""

    def load_game(self) -> Game:
        cls = _classes.get(self.game)
        if cls is None:
            return super().load_game()
        try:
            return cls(self.options)
        except BoardplayError as exc:
            raise RecordError(f"record names an option that cannot load: {exc}") from exc


def to_record(state: State) -> Record:
    """A record of the actions that led from the initial state to ``state`` (the engine's
    ``history()``), with notation and seats, as ``boardplay replay`` reads it."""
    game = state.game
    record = Record.begin(game)
    replay = game.new_initial_state()
    for action in state.history():
        record.play(replay, action)
    record.meta["source"] = "boardplay.adapters.openspiel"
    return record


# ----- observers -----------------------------------------------------------------------------
class TensorObserver:
    """OpenSpiel's PyObserver protocol over ``observation_tensor`` / ``render``."""

    def __init__(self, game: Game, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"boardplay observers take no parameters; got {sorted(params)}")
        shape = game.observation_shape()
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: BoardplayState, player: int) -> None:
        self.tensor[:] = state.boardplay_state.observation_tensor(player)

    def string_from(self, state: BoardplayState, player: int) -> str:
        return state.boardplay_state.render()


# ----- pyspiel game and state ----------------------------------------------------------------
def short_name(name: str) -> str:
    return PREFIX + name


def game_type(cls: type[Game]) -> pyspiel.GameType:
    """The OpenSpiel GameType of a boardplay game class."""
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if cls.max_chance_outcomes > 0
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"boardplay {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(cls),
    )


class BoardplayGame(pyspiel.Game):  # type: ignore[misc]
    """A boardplay game seen by OpenSpiel. ``boardplay_game`` is the engine's Game."""

    def __init__(self, cls: type[Game], params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = {name: value for name, value in params.items() if name != CAP}
        self.boardplay_game = cls(options_from_parameters(cls, options))
        game = self.boardplay_game
        self.max_actions = length_cap(game, params.get(CAP))
        """Where this game is cut (a draw), its ``max_game_length``."""
        low, high = utility_range(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=game.max_chance_outcomes,
            num_players=game.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=self.max_actions,
        )
        super().__init__(game_type(cls), info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game string (and its cap), loaded again (and registered if need be) by
        ``load``, so a game reaches a spawned worker process (a multiprocessing pool, Ray)."""
        cap = self.max_actions if self.max_actions != self.boardplay_game.episode_limit else None
        return (_load_capped, (str(self.boardplay_game), cap))

    def new_initial_state(self, state: Any = None) -> BoardplayState:
        if state is not None:
            raise ValueError(
                "boardplay games start from their initial state here; load positions with "
                "boardplay (Game.state_from_json) instead"
            )
        return BoardplayState(self, self.boardplay_game.new_initial_state())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TensorObserver | IIGObserverForPublicInfoGame:
        """The observation tensor for the default observation type; the public history
        (perfect recall) for information states, as all information is public."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TensorObserver(self.boardplay_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class BoardplayState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an engine state (``boardplay_state``)."""

    def __init__(self, game: BoardplayGame, state: State) -> None:
        super().__init__(game)
        self._held = _Held(state)
        self._limit: int = game.max_actions

    @property
    def boardplay_state(self) -> State:
        return self._held.state

    @property
    def cut(self) -> bool:
        """The game reached ``max_game_length`` without the rules ending it (a draw here)."""
        state = self._held.state
        return len(state.history()) >= self._limit and not state.is_terminal()

    def current_player(self) -> int:
        player = self._held.state.current_player()
        if (player < 0 and player != CHANCE) or self.cut:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal() or self.cut

    def _legal_actions(self, player: int) -> list[int]:
        return [] if self.cut else self._held.state.legal_actions()

    # The history is the engine's: the C++ base keeps its own list, which undo cannot shorten.
    def history(self) -> list[int]:
        return list(self._held.state.history())

    def history_str(self) -> str:
        return ", ".join(str(action) for action in self._held.state.history())

    def move_number(self) -> int:
        return len(self._held.state.history())

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, which ``player`` (``pyspiel.PlayerId.CHANCE`` for a
        chance outcome) must have taken; anything else raises and changes nothing."""
        history = self._held.state.history()
        if not history or history[-1] != action:
            last = history[-1] if history else "nothing (the game has not started)"
            raise pyspiel.SpielError(f"cannot undo {action}: the last action was {last}")
        game = self._held.state.game
        before = game.new_initial_state()
        for earlier in history[:-1]:
            before.apply_action(earlier)
        mover = before.current_player()
        mover = int(pyspiel.PlayerId.CHANCE) if mover == CHANCE else mover
        if mover != player:
            raise pyspiel.SpielError(
                f"cannot undo {action} for player {player}: player {mover} took it"
            )
        self._held.state = before

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._held.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's notation when ``action`` can be named in this state; OpenSpiel also asks
        for actions of other states (e.g. when printing a history), which get their id."""
        try:
            return self._held.state.action_to_string(action)
        except (BoardplayError, IndexError, KeyError):
            return f"action {action}"

    def returns(self) -> list[float]:
        if self.cut:
            return [0.0] * self._held.state.game.num_players
        return utilities(self._held.state)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Refused, as the GameType says (``provides_information_state_tensor=False``): every
        boardplay game is of perfect information, so its observation tensor is the whole state
        (pyspiel's bridge returned an empty list here without a word)."""
        raise pyspiel.SpielError(
            "boardplay games are of perfect information and provide no information state "
            "tensor: use observation_tensor() (the whole state), or information_state_string()"
        )

    def __str__(self) -> str:
        return self._held.state.render()


# ----- search helpers ---------------------------------------------------------------------
class EngineRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An evaluator for OpenSpiel's ``MCTSBot`` with the statistics of its
    ``RandomRolloutEvaluator`` (uniform random actions, chance by its probabilities, the average
    terminal returns of ``n_rollouts`` games), but the rollouts run in the engine with
    ``random_playout``: no round trip through pyspiel and numpy per action, which dominates
    MCTS time in long games such as Montana."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: BoardplayState) -> np.ndarray[Any, np.dtype[np.float64]]:
        total = np.zeros(state.get_game().num_players())
        left = max(0, state._limit - len(state.boardplay_state.history()))
        for _ in range(self.n_rollouts):
            working = state.boardplay_state.clone()
            random_playout(working, self._rng, left)  # a game cut at the cap is a draw (0)
            total += utilities(working)
        return total / self.n_rollouts

    def prior(self, state: BoardplayState) -> list[tuple[int, float]]:
        """Chance outcomes with their probabilities; otherwise uniform over legal actions."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


# ----- registration --------------------------------------------------------------------------
_registered: set[str] = set()
_creators: list[type[BoardplayGame]] = []


def _bound_init(cls: type[Game]) -> Any:
    def __init__(self: BoardplayGame, params: dict[str, Any] | None = None) -> None:
        BoardplayGame.__init__(self, cls, params)

    return __init__


def register_class(cls: type[Game]) -> str:
    """Register one game class with OpenSpiel (idempotent); returns its short name."""
    name = short_name(cls.name)
    _classes[cls.name] = cls
    if name not in _registered and name not in pyspiel.registered_names():
        # Register a class (as OpenSpiel's own Python games do), not a closure: the registry
        # outlives the interpreter, and a closure freed at exit without the GIL aborts Python.
        subclass = type(
            f"BoardplayGame_{cls.name}",
            (BoardplayGame,),
            {"__init__": _bound_init(cls), "__module__": __name__},
        )
        _creators.append(subclass)
        pyspiel.register_game(game_type(cls), subclass)
    _registered.add(name)
    return name


def register(games: Iterable[str] | None = None) -> list[str]:
    """Register the given games (default: every available game) with OpenSpiel as
    ``boardplay_<game>``; safe to call again. Returns the short names."""
    names = available() if games is None else [canonical_name(g) for g in games]
    return [register_class(game_class(name)) for name in names]


def load(spec: str, max_actions: int | None = None, **options: Any) -> pyspiel.Game:
    """``load("potlatch(actions=3)")``: the OpenSpiel game for a boardplay game string, with
    options written as for ``boardplay.load`` (so ``board_seed="random"`` works here), cut after
    ``max_actions`` actions (default ``Game.episode_limit``; also in the string,
    ``"montana(max_actions=2000)"``): a draw there, and the game's ``max_game_length``."""
    name, from_string = parse_game_string(spec)
    cap: Any = from_string.pop(CAP, None) if max_actions is None else max_actions
    if isinstance(cap, str):  # from the game string
        cap = int(cap) if cap.strip().isdigit() else cap
    cls = game_class(name)
    game = cls({**from_string, **options})
    register_class(cls)
    params = game_parameters(game)
    if cap is not None:
        length_cap(game, cap)  # a bad cap fails here, in boardplay's words
        params[CAP] = cap
    return pyspiel.load_game(short_name(cls.name), params)


def _load_capped(spec: str, max_actions: int | None) -> pyspiel.Game:
    """``load`` as a pickled game calls it (a cap given positionally)."""
    return load(spec, max_actions)


def from_record(record: Record) -> BoardplayState:
    """The pyspiel state reached by replaying ``record`` (every move checked by the engine).
    Records with a start position cannot be expressed as an OpenSpiel history."""
    if record.start_position is not None:
        raise ValueError("records that start from a position JSON have no OpenSpiel history")
    record = _AdapterRecord.from_json(record.to_json())
    record.replay()  # raises RecordError naming the first move the engine rejects
    boardplay_game = record.load_game()
    register_class(type(boardplay_game))
    game = pyspiel.load_game(short_name(boardplay_game.name), game_parameters(boardplay_game))
    state = game.new_initial_state()
    for move in record.moves:
        state.apply_action(move.action)
    return state  # type: ignore[no-any-return]


def deserialize(text: str) -> BoardplayState:
    """Inverse of ``serialize``: a record (JSON text) replayed into a pyspiel state."""
    return from_record(Record.loads(text))


def serialize(state: BoardplayState) -> str:
    """The record of ``state`` as JSON text (``boardplay replay`` can read it)."""
    return to_record(state.boardplay_state).dumps()
