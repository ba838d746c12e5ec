# cython: language_level=3
"""Montana's numbered layouts for Python (declared in ``layout.pxd``): the action and chance id
ranges, ``Stage`` with ``STAGE_NAMES`` (the rulebook's names, ``"PUSH"`` for ``PUSH_STAGE``), and
``Feature`` with ``FEATURE_NAMES`` (``"settlements_left_seat0"``...,  ``"main_seat"``,
``"settlements"``) in index order for code that reads the feature vector by name."""

STAGE_NAMES = tuple(stage.name.removesuffix("_STAGE") for stage in Stage)
_SEAT_NAMES = [f.name.removeprefix("F_").lower() for f in Feature if f < SEAT_FEATURES]
FEATURE_NAMES = tuple(
    [f"{name}_seat{seat}" for seat in range(4) for name in _SEAT_NAMES]
    + [f.name.removeprefix("F_").lower() for f in Feature if f >= SEAT_FEATURES]
)
