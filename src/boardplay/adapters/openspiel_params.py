"""The OpenSpiel adapter's parameters: a game's options as pyspiel parameters and back, and the
``max_actions`` cap beside them (``openspiel.py`` is the game and state built on them).

Parameters are our options. pyspiel parameters have one fixed type (int, bool, str, float) and
its game-string parser turns ``5`` into an int, so options that mix integers with words or
``None`` become integers with documented sentinels below the option's minimum: the special
words first (``"random"`` -> minimum - 1), then ``None`` (-> minimum - 1 - number of words).
E.g. Montana ``board_seed=-1`` is ``"random"``, Proteus ``max_turns=0`` is ``None``.
"""

from __future__ import annotations

from typing import Any

from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.options import OptionSpec, OptionValue

CAP = "max_actions"
"""The pyspiel parameter (beside the game's options) that caps a game's length, in actions."""

ParamValue = int | bool | str | float


def _uses_sentinels(spec: OptionSpec) -> bool:
    """Integer options that also accept words or None become ints with sentinels."""
    return (
        spec.kind is int
        and spec.minimum is not None
        and spec.choices is None
        and (bool(spec.specials) or spec.nullable)
    )


def _sentinels(spec: OptionSpec) -> dict[OptionValue, int]:
    assert spec.minimum is not None
    words: list[OptionValue] = list(spec.specials)
    if spec.nullable:
        words.append(None)
    return {word: spec.minimum - 1 - i for i, word in enumerate(words)}


def to_param(spec: OptionSpec, value: OptionValue) -> ParamValue:
    """Our canonical option value as a pyspiel parameter value (see the module doc)."""
    if _uses_sentinels(spec):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return _sentinels(spec)[value]
    if value is None:
        return "none"
    return value


def from_param(spec: OptionSpec, raw: ParamValue) -> OptionValue:
    """A pyspiel parameter value back to our option value; bad values raise ``OptionError``
    naming what is allowed (in both spellings)."""
    if _uses_sentinels(spec) and isinstance(raw, int) and not isinstance(raw, bool):
        for word, code in _sentinels(spec).items():
            if raw == code:
                return word
        if raw < (spec.minimum or 0):
            codes = ", ".join(
                f"{code} = {word or 'none'}" for word, code in _sentinels(spec).items()
            )
            raise OptionError(
                f"option {spec.name!r} does not accept {raw}; allowed: {spec.allowed()} "
                f"(in OpenSpiel parameters {codes})"
            )
    return spec.parse(raw)


def parameter_specification(cls: type[Game]) -> dict[str, ParamValue]:
    """pyspiel parameter defaults for a game class: its options' defaults, mapped, and the cap
    ``max_actions`` (0: the game's ``episode_limit``)."""
    specs = {spec.name: to_param(spec, spec.default) for spec in cls.option_set.specs}
    if CAP in specs:
        raise OptionError(f"{cls.name} has an option named {CAP!r}, which this adapter uses")
    return {**specs, CAP: 0}


def length_cap(game: Game, raw: Any) -> int:
    """The action count at which the adapter cuts ``game``: ``raw`` (the ``max_actions``
    parameter; 0 or None: ``episode_limit``), never above the game's own ``max_game_length``."""
    if raw is None or raw == 0:
        return game.episode_limit
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
        raise OptionError(
            f"{CAP} must be a positive integer (0: the game's episode_limit), not {raw!r}"
        )
    return min(raw, game.max_game_length)


def game_parameters(game: Game) -> dict[str, ParamValue]:
    """The pyspiel parameters that load the same game as ``game`` (a boardplay Game), at its
    own ``episode_limit`` (``max_actions`` 0)."""
    specs = game.option_set.by_name()
    params = {name: to_param(specs[name], value) for name, value in game.options.items()}
    return {**params, CAP: 0}


def options_from_parameters(cls: type[Game], params: dict[str, Any]) -> dict[str, OptionValue]:
    specs = cls.option_set.by_name()
    out: dict[str, OptionValue] = {}
    for name, raw in params.items():
        if name not in specs:
            known = ", ".join(specs) or "(none)"
            raise OptionError(f"{cls.name} has no option {name!r}; its options are: {known}")
        out[name] = from_param(specs[name], raw)
    return out
