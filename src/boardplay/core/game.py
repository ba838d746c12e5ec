"""The game contract of all four games (docs/design.md §2), shaped like OpenSpiel's state API.

A ``Game`` is an immutable description (name + canonical options) that makes states. A
``State`` is a mutable position with small verbs: ``legal_actions``, ``apply_action``, ``clone``,
``returns``. Every decision, including each part of a multi-action turn, is one atomic action
with an integer id from a fixed per-game action space. Randomness is never hidden: random events
are chance nodes (``current_player() == CHANCE``) whose ``chance_outcomes()`` list outcome ids
with probabilities; a driver or a search picks one and applies it with ``apply_action``.
"""

from __future__ import annotations

import abc
import importlib.resources
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from boardplay.core.errors import IllegalActionError, NotationError, PositionError
from boardplay.core.kernel import Kernel
from boardplay.core.options import OptionSet, OptionValue, game_string

CHANCE = -1
"""``current_player()`` at a chance node."""
TERMINAL = -4
"""``current_player()`` once the game is over."""


class State(abc.ABC):
    """A position plus everything needed to continue the game from it.

    Subclasses implement the abstract methods; the base class supplies the derived verbs.
    ``apply_action`` must validate its argument and leave the state unchanged when it raises.
    """

    game: Game
    kernel: Kernel | None = None
    """The compiled rules this facade wraps (None for a pure-Python game such as a test toy)."""

    # ----- who acts -------------------------------------------------------------------------
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to act (``0..n-1``), ``CHANCE`` or ``TERMINAL``."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def turn(self) -> tuple[int, int]:
        """(the seat whose turn it is, the count of turns before it). Every position within one
        turn gives the same pair, whoever must decide in it (another seat may answer inside a
        turn), so a game clock adds its increment once per turn. By default a seat's
        consecutive decisions are one turn; a game with answers or extra turns says more."""
        return (self.current_player(), 0)

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # ----- actions --------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal action ids in ascending order; at a chance node, the possible outcome ids;
        empty exactly when the game is over."""

    def legal_actions_mask(self) -> list[int]:
        """0/1 list of length ``num_distinct_actions`` (``max_chance_outcomes`` at chance)."""
        game = self.game
        size = game.max_chance_outcomes if self.is_chance_node() else game.num_distinct_actions
        mask = [0] * size
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome id, probability)`` pairs at a chance node; probabilities sum to 1."""
        return []

    def apply_action(self, action: int) -> None:
        """Apply one action (or chance outcome) in place. An illegal one raises
        ``IllegalActionError`` and changes nothing.

        This is the checked path for people, adapters and the server (OpenSpiel's
        ``ApplyAction``): it checks legality once for every game, records the history and calls
        the game's unchecked ``_apply``. Search and playouts call the kernel directly."""
        if isinstance(action, bool) or not isinstance(action, int) or not self.is_legal(action):
            raise IllegalActionError(self.explain_illegal(action))
        self._apply(action)
        self._history.append(action)

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` may be applied now (chance outcomes included at a chance node)."""
        return action in self.legal_actions()

    def _apply(self, action: int) -> None:
        """The game's unchecked step (OpenSpiel's ``DoApplyAction``): ``action`` is legal."""
        raise NotImplementedError(f"{type(self).__name__} has no unchecked step")

    def explain_illegal(self, action: object) -> str:
        """Why ``action`` cannot be applied now, in a sentence for people. Cold code: games
        override it (their ``explain`` module) to name the rule that forbids the action."""
        if self.is_terminal():
            return f"{action!r} is not possible: the game is over ({self.result_text()})"
        if isinstance(action, bool) or not isinstance(action, int):
            return f"an action is an integer id, not {type(action).__name__} {action!r}"
        if self.is_chance_node():
            outcomes = ", ".join(str(a) for a in self.legal_actions()[:40])
            return f"{action} is not a chance outcome here; outcomes: {outcomes}"
        return self._not_legal_message(str(action), self.legal_actions())

    def apply_move(self, move: int | str) -> int:
        """Apply an action given as an id or in notation; returns the id applied."""
        action = self.string_to_action(move) if isinstance(move, str) else move
        self.apply_action(action)
        return action

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy; cheap (no deep copies of immutable parts)."""

    _history: list[int]
    """Actions applied through ``apply_action`` since the start (or since loading)."""

    def history(self) -> list[int]:
        """Every action and chance outcome applied since the start (or since loading)."""
        return self._history.copy()

    # ----- notation -------------------------------------------------------------------------
    notation_forms: ClassVar[str] = ""
    """How a move is written in the game's notation, for people (``NotationError`` says it):
    e.g. ``"P-<direction> or C-<direction>"``. Empty: only the legal moves are listed."""

    @abc.abstractmethod
    def action_to_string(self, action: int) -> str:
        """The game's notation for ``action`` in this state."""

    def string_to_action(self, text: str) -> int:
        """The legal action ``text`` names here (its notation or a bare id): parsed once
        (``parse_action``), then checked. Text that names no action raises ``NotationError``
        (how a move is written, and the legal moves); an action the rules refuse here raises
        ``IllegalActionError`` with the rule's sentence (``explain_illegal``)."""
        action = self.parse_action(text)
        if not self.is_legal(action):
            raise IllegalActionError(self.explain_illegal(action))
        return action

    def parse_action(self, text: str) -> int:
        """The action id ``text`` names in this position's notation, legal or not (python-chess's
        ``parse_san`` before ``push``): the game's one parse (``_parse_notation``, its notation
        module's ``parse``), or a bare id. ``NotationError`` when it names none."""
        stripped = text.strip()
        action = self._parse_notation(stripped)
        if action is None and stripped.isdigit() and int(stripped) < self._id_space():
            action = int(stripped)
        if action is None:
            raise NotationError(self._notation_message(stripped))
        return action

    def _parse_notation(self, text: str) -> int | None:
        """The game's parser: the action id ``text`` (stripped) spells, whether legal or not,
        or None. A game with a notation module overrides it with that module's ``parse`` (one
        look-up, never the legal moves printed and compared). This default, for a small game
        without one (a test toy), looks ``text`` up among the notations of every id of the
        action space (of the chance outcomes at a chance node)."""
        for action in range(self._id_space()):
            try:
                if self.action_to_string(action) == text:
                    return action
            except (ValueError, IndexError):
                continue
        return None

    def _id_space(self) -> int:
        """How many ids the next action may have: the action space, or the chance outcomes'
        at a chance node (an id past it names nothing)."""
        game = self.game
        return game.max_chance_outcomes if self.is_chance_node() else game.num_distinct_actions

    def _notation_message(self, text: str) -> str:
        """Why ``text`` names no move, for a person: the legal moves now (at most 40), then
        how moves are written (``notation_forms``)."""
        if self.is_terminal():
            return f"{text!r} is not possible: the game is over"
        forms = (
            f". {self.game.title} notation: {self.notation_forms}" if self.notation_forms else ""
        )
        return self._not_legal_message(text, self.legal_actions()) + forms

    def _not_legal_message(self, text: str, legal: Sequence[int]) -> str:
        """The default explanation of an id that is not legal (``explain_illegal``): the legal
        moves."""
        if self.is_terminal():
            return f"{text!r} is not possible: the game is over"
        shown = ", ".join(self.action_to_string(a) for a in legal[:40])
        more = f" (and {len(legal) - 40} more)" if len(legal) > 40 else ""
        return f"{text!r} is not a legal move here; legal moves: {shown}{more}"

    def legal_moves(self) -> list[str]:
        """The legal actions in notation, in id order."""
        return [self.action_to_string(a) for a in self.legal_actions()]

    # ----- outcome --------------------------------------------------------------------------
    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 for a win, 0 for a loss, a shared win or a draw splits 1; all 0 mid-game."""

    def scores(self) -> list[float] | None:
        """Points per seat for games that keep score; None otherwise."""
        return None

    def winners(self) -> list[int]:
        """Seats that won (several on a shared win, none on a draw or unfinished game)."""
        rets = self.returns()
        if not self.is_terminal():
            return []
        best = max(rets)
        if best <= 0 or all(r == best for r in rets):
            return []
        return [seat for seat, r in enumerate(rets) if r == best]

    def end_reason(self) -> str | None:
        """Why the game ended, in a few words (e.g. "three own stacks"); None while it runs or
        when the game has only one way to end."""
        return None

    def end_code(self) -> str | None:
        """Why the game ended as a stable word (``"three_stacks"``, ``"final_round"``), the key a
        translation finds its words by (the web catalogue's ``end.<code>``), since the sentence of
        ``end_reason`` is English; None while it runs or when the game has only one way to end."""
        return None

    def result_text(self) -> str:
        """A one-line description of the result for people."""
        if not self.is_terminal():
            return "game in progress"
        won = self.winners()
        if not won:
            reason = self.end_reason()
            return f"draw ({reason})" if reason else "draw"
        names = " and ".join(self.game.seat_name(s) for s in won)
        text = f"{names} win{'s' if len(won) == 1 else ''}"
        reason = self.end_reason()
        return f"{text} ({reason})" if reason else text

    # ----- positions ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The game's position JSON (see its rules spec), written by the game's ``position``
        module, reached through the game so that the state never imports its I/O."""
        return self.game.export_position(self)

    def render(self, detail: bool = False) -> str:
        """A readable text picture of the position (plain text, no colour codes). ``detail``
        adds game-specific extras (e.g. Passtally's traced lines)."""
        return self.game.render_state(self, detail)

    def __str__(self) -> str:
        return self.render()

    def observation_tensor(self, player: int) -> list[float]:
        """A flat float encoding of the position from ``player``'s view (see docs)."""
        return self.game.observe(self, player)


class Game(abc.ABC):
    """A game with fixed options. Subclasses set the class attributes and implement the
    factory methods. Instances are immutable and cheap; create them with ``boardplay.load``."""

    name: ClassVar[str]
    title: ClassVar[str]
    option_set: ClassVar[OptionSet]
    num_distinct_actions: ClassVar[int]
    max_chance_outcomes: ClassVar[int] = 0
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ()
    bench_option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Option sets that ``boardplay bench`` measures (one line each)."""
    rules_file: ClassVar[str] = "rules.md"
    """Player-facing rules, a Markdown file inside the game's package."""

    # ----- what the rest of boardplay finds from the game (one registration point) ------------
    # References are "module:attribute" strings, imported only by the part that uses them, so a
    # game never imports the AI or the web server, and ``boardplay --help`` imports no engine.
    heuristics: ClassVar[str | None] = None
    """The AI's evaluation and rollout policy for this game: ``"module:attribute"`` naming an
    ``core.heuristics.Heuristics`` (in the game's folder or beside the AI); None: the AI's generic
    fallback (scores, else even chances)."""
    levels: ClassVar[Mapping[str, str] | None] = None
    """The AI's named levels (``easy`` … ``expert``) as agent specs, chosen from arena
    measurements (docs/ai.md); None: the AI's default ladder."""
    player_levels: ClassVar[Mapping[int, Mapping[str, str]] | None] = None
    """Levels that differ with the number of players, by that number, each over ``levels``
    (Montana's three-player hard): a step of the ladder that holds with two players may not
    with three. None: ``levels`` at every table size."""
    agents: ClassVar[Mapping[str, str] | None] = None
    """Further agents of this game by name, as specs (``boardplay.ai.make_agent`` takes the
    name): a search a level no longer plays, kept for arenas and the site, e.g. ``az-expert``,
    a learned expert that failed the judging rule (docs/ai.md, "Judged across budgets")."""
    level_simulations: ClassVar[Mapping[str, int] | None] = None
    """For levels named by think time, the simulations that time buys on an idle reference core:
    the web plays such a level as this many simulations with a time cap, so its strength does not
    fall on a busy server (``boardplay.ai.budgets``); None, or a level missing: its own cap."""
    player_level_simulations: ClassVar[Mapping[int, Mapping[str, int]] | None] = None
    """The same for ``player_levels``, by the number of players, each over
    ``level_simulations`` (Montana's two-player learned expert)."""
    study_axes: ClassVar[tuple[tuple[str, tuple[OptionValue, ...] | None], ...] | None] = None
    """The options a balance study (``boardplay analyze``) varies together: option name and its
    values (None: every choice of that option). None: the default plus each choice-valued
    option varied on its own."""
    describer: ClassVar[str | None] = None
    """``"module:function"`` that puts a move into words for the web views
    (``describe(before, move, after, seat, names)``); None: the views show notation only."""
    end_describer: ClassVar[str | None] = None
    """``"module:function"`` that explains where and why the game ended, for the final board
    and the result line (``describe_end(before, after, seat, names) -> (mark, sentence)``: the
    position JSON before the last move, the final state, who made the move; ``mark`` is what the
    board draws, e.g. the stuck seat's pawn or the lines that scored); None: the result says
    only the end's kind."""
    can_draw: ClassVar[bool]
    """Whether these rules have a drawn result, so the players may agree a draw at all. No
    default: every game states it (``tests/core/test_registration.py`` checks)."""
    seat_colours: ClassVar[tuple[str, ...]] = ()
    """The colours the boards draw the seats in, in seat order, as the rules name the seats
    (``core.palette``); empty: the palette's first colours."""

    def presentation(self, state: State | None) -> dict[str, Any]:
        """Facts a board drawing needs that the position JSON does not hold (Montana: the
        printed worker board, and the landscape its board seed generates), added to the web's
        drawing hints; ``state`` None for the game's empty table. Default: none."""
        return {}

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self._given = dict(options or {})
        self.options: dict[str, OptionValue] = self.option_set.canonical(options or {})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and the options it was built from (compiled tables are built
        again, never copied field by field); ``options`` as shown (e.g. a data file's name in
        place of its path) travel too."""
        given = getattr(self, "_given", self.options)  # a subclass may skip Game.__init__
        return (rebuild_game, (type(self), dict(given), dict(self.options)))

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """A game is immutable, so a deep copy of a state shares it."""
        return self

    # subclasses may compute these from options
    @property
    def num_players(self) -> int:
        return self.min_players

    @property
    @abc.abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance outcomes included) in one game."""

    @property
    def bounded(self) -> bool:
        """False when these rules let a game go on for ever, so ``max_game_length`` is only a
        stand-in; a harness (arena, analysis) must then impose a cap of its own and record it."""
        return True

    default_episode_limit: int = 1000
    """The cap, in actions, that the research adapters put on a game whose rules never end it
    (``bounded`` is False): about ten times the longest of thousands of random games of the
    unbounded option sets (Proteus and Passtally without ``max_turns``)."""

    @property
    def episode_limit(self) -> int:
        """After this many actions the research adapters stop a game: ``max_game_length`` when
        the rules bound it, else ``default_episode_limit``. Gymnasium and PettingZoo report the
        cut as truncation; OpenSpiel, which has none, ends the game there as a draw. Every loop
        over an adapter therefore ends, whatever the agents do (docs/adapters.md)."""
        if self.bounded:
            return self.max_game_length
        return min(self.max_game_length, self.default_episode_limit)

    @abc.abstractmethod
    def new_initial_state(self) -> State:
        """The position at the start of the game (possibly a chance node)."""

    @abc.abstractmethod
    def state_from_json(self, position: Mapping[str, Any]) -> State:
        """Load a position JSON; raises ``PositionError`` naming the bad field."""

    def observation_shape(self) -> tuple[int, ...]:
        raise NotImplementedError(f"{self.name} has no observation tensor yet")

    # ----- I/O hooks: the game module sits on top of its package and wires these ----------------
    def export_position(self, state: State) -> dict[str, Any]:
        """The position JSON of ``state`` (``State.to_json``)."""
        raise NotImplementedError(f"{self.name} has no position export")

    def render_state(self, state: State, detail: bool) -> str:
        """The text picture of ``state`` (``State.render``)."""
        raise NotImplementedError(f"{self.name} has no text picture")

    def observe(self, state: State, player: int) -> list[float]:
        """The observation tensor of ``state`` from ``player``'s view."""
        raise NotImplementedError(f"{self.name} has no observation tensor yet")

    def int_option(self, name: str) -> int:
        """The value of the integer option ``name`` (its ``OptionSpec`` checked the kind, so
        only an option that may also be a word, such as ``random`` or none, can fail here)."""
        value = self.options[name]
        assert isinstance(value, int), f"option {name!r} is {value!r}, not an integer"
        return value

    def rules_text(self) -> str:
        """The player-facing rules (Markdown), shipped inside the game's package."""
        package = type(self).__module__.rsplit(".", 1)[0]
        return importlib.resources.files(package).joinpath(self.rules_file).read_text("utf-8")

    def seat_name(self, seat: int) -> str:
        if seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"Player {seat + 1}"

    def __str__(self) -> str:
        return game_string(self.name, self.options, self.option_set.defaults())

    def __repr__(self) -> str:
        return f"boardplay.load({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.options.items())))


def rebuild_game(cls: type[Game], given: Mapping[str, Any], options: dict[str, Any]) -> Game:
    """Unpickle a game (``Game.__reduce__``)."""
    game = cls(given)
    game.options = options
    return game


class UniformSource(Protocol):
    """Anything with ``random() -> float`` in [0, 1): ``random.Random`` or a numpy Generator."""

    def random(self) -> float: ...


def sample_chance(state: State, rng: UniformSource) -> int:
    """Pick a chance outcome of ``state`` with the listed probabilities."""
    outcomes = state.chance_outcomes()
    point = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


def require(condition: bool, message: str) -> None:
    """Position-loading helper: raise ``PositionError(message)`` unless ``condition``."""
    if not condition:
        raise PositionError(message)
