# cython: language_level=3
"""Proteus's numbered layouts for Python (declared in ``layout.pxd``): the action id ranges,
the outcome values and ``Feature``, with ``FEATURE_NAMES`` (``"black_line"``...) in index order
for code that reads the feature vector by name."""

FEATURE_NAMES = tuple(feature.name.lower() for feature in Feature)
