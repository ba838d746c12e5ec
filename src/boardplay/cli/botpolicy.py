"""Research code as a bot: what ``boardplay bot --agent REF`` plays when REF names code of one's
own rather than an agent spec (docs/bots.md, "Your own policy as a bot").

REF is ``module:name`` (a module on the Python path, or in the current folder, which a console
script's path lacks) or ``path/to/file.py:name``. What ``name`` is decides how it is used:

- a **function or class** is a *maker*: called for every game the bot is offered or plays, with
  the ``Game`` (``game.name``, ``str(game)`` with its options, ``observation_shape()``,
  ``num_distinct_actions``) and, if it takes a second argument, the bot's seed. It returns the
  player for that game, or None for a game it does not play: the challenge is declined. One maker
  serves every game and options the bot may meet, which a single policy cannot;
- any **other object** (a model loaded when the module is imported) is the player of every game.

A player is one of:

- a **policy** ``policy(observation, action_mask) -> action``: the observation and mask are those
  the Gymnasium and PettingZoo adapters give the seat to move (``adapters.arrays``), so a policy
  trained on them plays unchanged; a policy with ``batched = True`` (the ``PolicyNet`` that
  ``boardplay train`` writes) is asked with a batch of one row, as in the adapters' leagues;
- a **Stable-Baselines3 model** (or its policy): its network plays the best legal action by its
  logits, what ``model.predict(obs, action_masks=mask, deterministic=True)`` gives a MaskablePPO;
- an **Agent** (``boardplay.ai.agents``), for code that reads the rules' state itself. An Agent
  *object* is refused as the player of every game: it keeps the state of one game, and a bot
  plays several at once.

A player that raises, or answers an action that is not legal, is never covered up with a move it
did not choose (a random one would hide the bug in the results): its step raises a
``PolicyError`` naming REF, the game and the action, and the client logs it and resigns.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import reprlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardplay.adapters.frozen import FrozenPolicy, sb3_policy_of
from boardplay.adapters.opponents import CallableAgent
from boardplay.ai.agents import Agent
from boardplay.ai.policy import PolicyNet
from boardplay.core.errors import BoardplayError, OptionError
from boardplay.core.game import Game, State

PLAYERS = "a policy (observation, action_mask) -> action, a Stable-Baselines3 model, or an Agent"
"""What a maker may return (or None), in the words of every error that concerns it."""


class PolicyError(BoardplayError):
    """A research agent failed at a decision: it raised, or chose an action that is not legal."""


def is_reference(spec: str) -> bool:
    """Whether ``--agent`` names code (``module:name``, ``file.py:name``) rather than a spec
    (``hard``, ``mcts(time=1)``, ``policy(potlatch-ppo)``)."""
    return ":" in spec and "(" not in spec


def resolve(reference: str) -> Any:
    """The object ``reference`` names, its module imported (a file by its path); an
    ``OptionError`` that says what is missing otherwise."""
    where, _, name = reference.rpartition(":")  # the last colon: a Windows path has one too
    if not where or not name.isidentifier():
        raise OptionError(
            f"--agent {reference!r}: write module:name or path/to/file.py:name, e.g. "
            "mybot:player or bots/mybot.py:player"
        )
    module = _import_file(where) if where.endswith(".py") else _import_module(where)
    if not hasattr(module, name):
        own = sorted(
            n
            for n, value in vars(module).items()
            if not n.startswith("_") and getattr(value, "__module__", None) == module.__name__
        )
        raise OptionError(
            f"--agent {reference!r}: {where} has no {name!r}; "
            f"it defines: {', '.join(own) or 'no function or class'}"
        )
    return getattr(module, name)


def _import_module(name: str) -> Any:
    """``name`` imported, the current folder searched too (a console script's path lacks it)."""
    here = str(Path.cwd())
    if here not in sys.path:
        sys.path.append(here)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name or name.startswith(f"{exc.name}."):  # the module itself is missing
            raise OptionError(
                f"--agent: no module named {name!r} on the Python path or in {here}; give a "
                f"module that imports, or a file: path/to/{name.rpartition('.')[2]}.py:name"
            ) from None
        raise OptionError(f"--agent: importing {name} failed: {exc}") from exc
    except Exception as exc:
        raise OptionError(f"--agent: importing {name} failed: {type(exc).__name__}: {exc}") from exc


def _import_file(path: str) -> Any:
    """The module of the file at ``path``, run once (as ``sys.modules[<its stem>]``, so that
    what it pickles can be found again)."""
    file = Path(path).expanduser().resolve()
    if not file.is_file():
        raise OptionError(f"--agent: there is no file {path}")
    key = f"boardplay_bot_{file.stem}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, file)
    if spec is None or spec.loader is None:
        raise OptionError(f"--agent: {path} cannot be imported as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[key]
        raise OptionError(f"--agent: running {path} failed: {type(exc).__name__}: {exc}") from exc
    return module


AgentFactory = Callable[[Game, int | None], Agent]


def research_agents(reference: str) -> AgentFactory:
    """What makes the agent of each game for ``reference`` (see the module doc): resolved and
    checked now, so a typo fails before the bot connects; the maker is called per game."""
    target = resolve(reference)
    if inspect.isfunction(target) or inspect.ismethod(target) or inspect.isclass(target):
        with_seed = _takes_seed(reference, target)
        maker: Callable[..., object] = target

        def made(game: Game, seed: int | None) -> Agent:
            try:
                player = maker(game, seed) if with_seed else maker(game)
            except BoardplayError:
                raise
            except Exception as exc:
                raise OptionError(
                    f"{reference}{call_of(with_seed)} failed for {game}: "
                    f"{type(exc).__name__}: {exc} (a maker is called with the game and returns "
                    f"{PLAYERS})"
                ) from exc
            if player is None:
                raise OptionError(f"{reference} does not play {game}")
            if _kind(player) is None:  # most likely a policy function named as the maker
                raise OptionError(
                    f"{reference}{call_of(with_seed)} returned {reprlib.repr(player)} for "
                    f"{game}: a function named by --agent is called with the game and returns "
                    f"{PLAYERS} (a policy function is returned by one: def player(game): "
                    "return policy)"
                )
            return Guarded(reference, game, _agent_of(reference, player, game))

        return made
    if isinstance(target, Agent):
        raise OptionError(
            f"--agent {reference!r} is an Agent object, which keeps the state of one game while "
            "a bot plays several: name a function or class that makes one for each game"
        )
    if _kind(target) is None:
        raise OptionError(
            f"--agent {reference!r} is {reprlib.repr(target)}: name {PLAYERS}, or a function "
            "that makes one for each game"
        )

    def shared(game: Game, seed: int | None) -> Agent:
        return Guarded(reference, game, _agent_of(reference, target, game))

    return shared


def _takes_seed(reference: str, maker: Any) -> bool:
    """Whether ``maker`` is called with the seed too: it takes ``(game, seed)``, not ``(game)``."""
    try:
        signature = inspect.signature(maker)
    except (TypeError, ValueError):  # a builtin without one: the game only
        return False
    for arguments in ((None, None), (None,)):
        try:
            signature.bind(*arguments)
        except TypeError:
            continue
        return len(arguments) == 2
    raise OptionError(
        f"--agent {reference!r} takes {signature}: a maker takes the game, and the seed if it "
        f"wants one, e.g. def player(game, seed=None), and returns {PLAYERS}"
    )


def call_of(with_seed: bool) -> str:
    """How a maker is called, as an error shows it."""
    return "(game, seed)" if with_seed else "(game)"


def _kind(player: object) -> str | None:
    """``agent``, ``sb3`` or ``policy``: how ``player`` plays; None if it cannot."""
    if isinstance(player, Agent):
        return "agent"
    if sb3_policy_of(player) is not None:
        return "sb3"
    if callable(player):
        return "policy"
    return None


def _agent_of(reference: str, player: object, game: Game) -> Agent:
    """``player`` (one ``_kind`` accepts) as the Agent of one game of ``game``, refused if it
    was made for other games."""
    kind = _kind(player)
    if kind == "agent":
        agent: Agent = player  # type: ignore[assignment]  # the Protocol was checked
        return agent
    if kind == "sb3":
        network: Any = sb3_policy_of(player)
        _fits(reference, game, tuple(network.observation_space.shape), network.action_space)
        return CallableAgent(FrozenPolicy(network), game)
    if isinstance(player, PolicyNet):
        try:
            player.check(game)
        except OptionError as exc:
            raise OptionError(f"{reference}: {exc}") from None
    return CallableAgent(player, game)  # type: ignore[arg-type]  # callable, checked above


def _fits(reference: str, game: Game, shape: tuple[int, ...], actions: Any) -> None:
    """Refuse a model whose spaces are not ``game``'s (trained on other options, another game)."""
    count = getattr(actions, "n", None)
    if shape != tuple(game.observation_shape()) or count != game.num_distinct_actions:
        raise OptionError(
            f"{reference}: the model takes observations of shape {shape} and {count} actions; "
            f"{game} has {tuple(game.observation_shape())} and {game.num_distinct_actions}"
        )


class Guarded:
    """A research agent whose every decision is checked: what it raises, and an action that is
    not legal, become a ``PolicyError`` that names the reference, the game and the ply."""

    def __init__(self, reference: str, game: Game, agent: Agent) -> None:
        self.reference = reference
        self.game = game
        self.agent = agent
        self.name = reference

    def step(self, state: State) -> int:
        where = f"{self.reference} in {self.game} at ply {len(state.history())}"
        try:
            action = int(self.agent.step(state))
        except OptionError as exc:  # a policy's illegal action, as the adapters word it
            raise PolicyError(f"{where}: {exc}") from exc
        except Exception as exc:
            raise PolicyError(f"{where} failed: {type(exc).__name__}: {exc}") from exc
        legal = state.legal_actions()
        if action not in legal:
            raise PolicyError(
                f"{where} chose action {action}, which is not legal; legal: "
                f"{', '.join(map(str, legal[:20]))}{' …' if len(legal) > 20 else ''}"
            )
        return action

    def reset(self) -> None:
        self.agent.reset()

    def inform(self, action: int) -> None:
        self.agent.inform(action)
