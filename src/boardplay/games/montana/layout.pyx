# cython: language_level=3
"""Montana's numbered layouts for Python (declared in ``layout.pxd``): the data limits, the
action and chance id ranges, ``Stage`` with ``STAGE_NAMES`` (the rulebook's names, ``"PUSH"`` for
``PUSH_STAGE``), ``MainAction`` and ``EndReason`` with ``MAIN_ACTIONS`` and ``END_REASONS`` (the
position JSON's words, ``""`` for none), the stage groups the facade and ``explain`` share, and
``Feature`` with ``FEATURE_NAMES`` (``"settlements_left_seat0"``...,  ``"next_main_seat"``,
``"settlements"``) in index order for code that reads the feature vector by name (the last
member, ``FEATURE_SIZE``, is the vector's length and names no feature)."""

STAGE_NAMES = tuple(stage.name.removesuffix("_STAGE") for stage in Stage)
MAIN_ACTIONS = tuple(
    "" if main == M_NONE else main.name.removeprefix("M_").lower() for main in MainAction
)
"""``main``: the main action the active player chose (empty: none yet)."""
END_REASONS = tuple(
    "" if end == NOT_ENDED else end.name.removeprefix("BY_").lower() for end in EndReason
)
"""``ended_by``: why the game ended (empty while it runs)."""
CHANCE_STAGES = tuple(
    int(stage) for stage in (Stage.BOARD, Stage.SETUP_SPIN, Stage.START, Stage.SPIN)
)
"""The stages that are chance nodes (the first four)."""
TRADE_STAGES = tuple(int(stage) for stage in (
    Stage.MAIN, Stage.PUSH_STAGE, Stage.PLACE_STAGE, Stage.REWARD, Stage.BUILD_NEXT,
    Stage.END_STAGE,
))
"""The stages in which the active player may trade cattle."""
_SEAT_NAMES = [f.name.removeprefix("F_").lower() for f in Feature if f < SEAT_FEATURES]
FEATURE_NAMES = tuple(
    [f"{name}_seat{seat}" for seat in range(4) for name in _SEAT_NAMES]
    + [f.name.removeprefix("F_").lower() for f in Feature if SEAT_FEATURES <= f < FEATURE_SIZE]
)
