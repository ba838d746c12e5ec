# cython: language_level=3
"""Potlatch Klone's numbered layouts for Python (declared in ``layout.pxd``): the action ids
and ``Feature``, with ``FEATURE_NAMES`` (``"to_move"``, ``"red_stacks"``...) in index order for
code that reads the feature vector by name (the last member, ``FEATURE_SIZE``, is the vector's
length and names no feature)."""

FEATURE_NAMES = tuple(
    feature.name.lower() for feature in Feature if feature < Feature.FEATURE_SIZE
)
