# cython: language_level=3
"""Proteus's numbered layouts for Python (declared in ``layout.pxd``): the action id ranges,
the outcome values and ``Feature``, with ``FEATURE_NAMES`` (``"black_line"``...) in index order
for code that reads the feature vector by name (the last member, ``FEATURE_SIZE``, is the
vector's length and names no feature)."""

FEATURE_NAMES = tuple(
    feature.name.lower() for feature in Feature if feature < Feature.FEATURE_SIZE
)
