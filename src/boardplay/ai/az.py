"""The learned agent: PUCT search (``boardplay.ai.puct``) steered by a small policy/value network
(``boardplay.ai.nets``) trained by self-play (``boardplay.ai.alphazero``), spec
``az(weights=proteus,time=0.1)``.

Networks are ``.npz`` files of float32 arrays: ``trunk0_w``, ``trunk0_b``, ... (each matrix
inputs × outputs, ReLU after each), ``policy_w``, ``policy_b`` (one logit per action),
``value_w``, ``value_b`` (one tanh value per seat, the viewer's first) and ``meta``, a JSON
string (the game, the input, the run that made it). The shipped ones are in ``networks/``,
named by game; any path to such a file works too. ``numpy_forward`` is the reference the
compiled forward pass is tested against.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from boardplay.ai.agents import Analysis, _check_can_move
from boardplay.ai.kept import KeptTree, analysis
from boardplay.ai.mcts import compiled_evaluation
from boardplay.ai.nets import Network
from boardplay.ai.puct import Puct
from boardplay.ai.repetition import PositionHistory, has_position_keys
from boardplay.core.errors import OptionError
from boardplay.core.game import Game, State
from boardplay.core.kernel import Kernel

SHIPPED = Path(__file__).parent / "networks"
"""The networks shipped with boardplay (package data), ``<name>.npz``."""

C_PUCT = 1.5
"""The default weight of the prior against the mean in PUCT's selection."""


def available_networks() -> list[str]:
    return sorted(path.stem for path in SHIPPED.glob("*.npz"))


def network_path(weights: str) -> Path:
    """The file of ``weights``: a shipped name or a path to an ``.npz``."""
    if weights.endswith(".npz"):
        path = Path(weights)
        if not path.is_file():
            raise OptionError(f"no network file {weights!r}")
        return path
    path = SHIPPED / f"{weights}.npz"
    if not path.is_file():
        known = ", ".join(available_networks()) or "none shipped"
        raise OptionError(
            f"no shipped network {weights!r} (known: {known}); or give a path to an .npz "
            "written by `boardplay train GAME --algo alphazero`"
        )
    return path


def read_arrays(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays of a network file and its ``meta``."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: np.asarray(data[key]) for key in data.files if key != "meta"}
        meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
    return arrays, meta


def save_arrays(path: Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Write a network file (float32 arrays and the JSON ``meta``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.npz")
    payload: dict[str, Any] = {key: value.astype(np.float32) for key, value in arrays.items()}
    np.savez(tmp, meta=np.array(json.dumps(meta, sort_keys=True)), **payload)
    tmp.replace(path)


def build_network(arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> Network:
    depth = sum(1 for key in arrays if key.startswith("trunk") and key.endswith("_w"))
    trunk = [(arrays[f"trunk{i}_w"], arrays[f"trunk{i}_b"]) for i in range(depth)]
    return Network(
        trunk,
        (arrays["policy_w"], arrays["policy_b"]),
        (arrays["value_w"], arrays["value_b"]),
        compact=meta.get("input") == "compact",
    )


def load_network(weights: str) -> tuple[Network, dict[str, Any]]:
    """The compiled network of ``weights`` (shipped name or path) and its ``meta``."""
    arrays, meta = read_arrays(network_path(weights))
    return build_network(arrays, meta), meta


def numpy_forward(arrays: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(logits, values)`` of input rows ``x`` in NumPy: the reference of the C forward pass."""
    h = np.asarray(x, dtype=np.float32)
    i = 0
    while f"trunk{i}_w" in arrays:
        h = np.maximum(h @ arrays[f"trunk{i}_w"] + arrays[f"trunk{i}_b"], 0.0)
        i += 1
    logits = h @ arrays["policy_w"] + arrays["policy_b"]
    values = np.tanh(h @ arrays["value_w"] + arrays["value_b"])
    return logits, values


class AZAgent:
    """PUCT search with a network's priors and values (see ``boardplay.ai.puct``): budget
    ``iterations`` simulations and/or ``time_limit`` seconds a move; the most visited move is
    played. The tree is kept across moves (``inform``) while the game follows it. With
    ``repetition`` (games with position keys) a return to a position met is a draw, worth
    ``contempt`` less to the agent, as in ``mcts``. ``mix`` > 0 blends the game's compiled
    evaluation (the ``mcts`` leaves' judge) into each leaf's value, read after the mover's
    greedy completion of a turn under way with ``finish_turn``: the network's priors steer a
    search whose values the evaluation shares. ``uniform`` gives every legal move the same
    prior, so the network adds only its value (Potlatch's learned priors narrowed a search that
    the evaluation judges, docs/ai.md)."""

    def __init__(
        self,
        game: Game,
        network: Network,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = C_PUCT,
        fpu: float = 0.0,
        decisive: bool = True,
        repetition: bool = False,
        contempt: float = 0.0,
        mix: float = 0.0,
        finish_turn: bool = False,
        uniform: bool = False,
        reuse: bool = True,
        seed: int | None = None,
        name: str = "az",
    ) -> None:
        if not iterations and not time_limit:
            raise ValueError("az needs iterations=N or time=T (or both)")
        if not isinstance(game.new_initial_state().kernel, Kernel):
            raise ValueError(f"az needs a game with a compiled kernel; {game} has none")
        self.game = game
        self.network = network
        # None for a budget not given, as ``MCTSAgent`` keeps them (the web's ceilings and the
        # AI worker's think-time cap read them so); the search takes 0 for "no limit".
        self.iterations = iterations or None
        self.time_limit = time_limit or None
        self.c = c
        self.fpu = fpu
        self.decisive = decisive
        self.repetition = repetition and has_position_keys(game)
        self.contempt = contempt
        self.mix = mix
        self.finish_turn = finish_turn
        self.uniform = uniform
        self.evaluation = compiled_evaluation(game) if mix > 0 or finish_turn else None
        if (mix > 0 or finish_turn) and self.evaluation is None:
            raise ValueError(f"mix and finish_turn need a compiled evaluation; {game} has none")
        self._positions = PositionHistory()
        self.reuse = reuse
        self.seed = seed
        self.name = name
        self._kept = KeptTree(self._new_search, reuse)
        self._last: Analysis | None = None

    def reset(self) -> None:
        self._positions.reset()
        self._kept.forget()
        self._last = None

    def inform(self, action: int) -> None:
        self._kept.inform(action)

    def last_search(self) -> Analysis | None:
        return self._last

    @property
    def tree(self) -> Puct | None:
        """The compiled tree of the last search (None before one), as ``MCTSAgent.tree``: the
        analysis board reads each candidate's expected line from it."""
        return self._kept.search

    def _new_search(self, kernel: Kernel) -> Puct:
        seed = self.seed if self.seed is not None else random.getrandbits(64)
        return Puct(
            kernel,
            self.network,
            c=self.c,
            fpu=self.fpu,
            decisive=self.decisive,
            repetition=self.repetition,
            contempt=self.contempt,
            evaluation=self.evaluation,
            mix=self.mix,
            finish_turn=self.finish_turn,
            uniform=self.uniform,
            seed=seed,
        )

    def step(self, state: State) -> int:
        legal = _check_can_move(state)
        seat = state.current_player()
        if len(legal) == 1:
            self._last = Analysis(self.name, seat, state.action_to_string(legal[0]), None)
            return legal[0]
        search = self._kept.rooted(state)
        search.seat = seat
        if self.repetition:
            search.set_history(self._positions.keys(state))
        done, elapsed = search.run(self.iterations or 0, self.time_limit or 0.0)
        action, node, _ = search.children(search.root)[0]
        self._last = analysis(
            self.name,
            state,
            search,
            (action, node),
            (done, elapsed),
            lambda n: {"prior": round(search.node_prior(n), 4)},
        )
        return int(action)


AZ_PARAMS = (
    "weights, iterations, time, c, fpu, contempt, mix, decisive, repetition, finish_turn, "
    "uniform, reuse"
)


def make_az(game: Game, params: dict[str, str], seed: int | None) -> AZAgent:
    """The agent of an ``az(...)`` spec (``boardplay.ai.specs``); errors name what is wrong."""
    unknown = sorted(set(params) - set(AZ_PARAMS.split(", ")))
    if unknown:
        raise OptionError(f"az has no parameter {unknown[0]!r}; its parameters are {AZ_PARAMS}")
    if "weights" not in params:
        known = ", ".join(available_networks()) or "none shipped"
        raise OptionError(f"az needs weights=NAME (a shipped network: {known}) or weights=PATH.npz")

    def number(name: str, kind: type[int] | type[float]) -> float | None:
        if name not in params:
            return None
        try:
            value = kind(params[name])
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise OptionError(
                f"az parameter {name!r} must be {what}, got {params[name]!r}"
            ) from None
        if value < 0 or (name not in ("fpu", "contempt", "mix") and value == 0):
            raise OptionError(f"az parameter {name!r} must be positive, got {params[name]!r}")
        if name == "mix" and value > 1:
            raise OptionError(f"az parameter 'mix' is a share from 0 to 1, got {params[name]!r}")
        return value

    iterations, time_limit = number("iterations", int), number("time", float)
    if iterations is None and time_limit is None:
        raise OptionError("az needs a budget: iterations=N and/or time=SECONDS")
    flags = {
        name: params.get(name, default).lower()
        for name, default in (
            ("decisive", "true"),
            ("repetition", "false"),
            ("finish_turn", "false"),
            ("uniform", "false"),
            ("reuse", "true"),
        )
    }
    for name, raw in flags.items():
        if raw not in ("true", "false"):
            raise OptionError(f"az parameter {name!r} must be true or false, got {raw!r}")
    network, meta = load_network(params["weights"])
    made_for = meta.get("game")
    if made_for is not None and str(made_for).split("(")[0] != game.name:
        raise OptionError(
            f"network {params['weights']!r} was trained for {made_for}, not {game.name}"
        )
    shown = ",".join(f"{k}={v}" for k, v in params.items())
    try:
        return AZAgent(
            game,
            network,
            iterations=int(iterations) if iterations is not None else None,
            time_limit=time_limit,
            c=number("c", float) or C_PUCT,
            fpu=number("fpu", float) or 0.0,
            decisive=flags["decisive"] == "true",
            repetition=flags["repetition"] == "true",
            contempt=number("contempt", float) or 0.0,
            mix=number("mix", float) or 0.0,
            finish_turn=flags["finish_turn"] == "true",
            uniform=flags["uniform"] == "true",
            reuse=flags["reuse"] == "true",
            seed=seed,
            name=f"az({shown})",
        )
    except ValueError as exc:
        raise OptionError(str(exc)) from None
