"""Registers boardplay's Gymnasium ids the moment Gymnasium itself is imported.

Gymnasium 1.x dropped the entry-point plugins of 0.2x, so ``gymnasium.make("boardplay/proteus-v0")``
in a fresh process would otherwise need ``import boardplay.adapters.gymnasium`` first. The wheel
ships ``boardplay-gymnasium.pth``, whose one line calls :func:`install` when the interpreter
starts. That costs one small import and one finder in ``sys.meta_path``: nothing of boardplay is
loaded until a program imports ``gymnasium``, and then it is what registers the ids (as the old
plugins did). This module stands outside the ``boardplay`` package because importing that
package at every interpreter start would load its engines for programs that never play.

Set ``BOARDPLAY_GYMNASIUM_IDS=0`` to keep Gymnasium's registry free of boardplay's ids.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

TARGET = "gymnasium"
REGISTRAR = "boardplay.adapters.gymnasium"


class _AfterGymnasium:
    """A meta-path finder that answers only for ``gymnasium``: it asks the other finders for the
    real spec and has its loader import boardplay's registrar once Gymnasium's own module ran."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != TARGET:
            return None
        sys.meta_path.remove(cls)  # once: later look-ups (and the one just below) skip this
        spec = importlib.util.find_spec(TARGET)
        if spec is None or spec.loader is None:
            return spec
        run_gymnasium = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run_gymnasium(module)
            try:
                importlib.import_module(REGISTRAR)
            except Exception as error:  # a broken install must not break Gymnasium itself
                warnings.warn(
                    f"boardplay's Gymnasium ids were not registered: {error!r}",
                    RuntimeWarning,
                    stacklevel=2,
                )

        loader: Any = spec.loader
        loader.exec_module = exec_module
        return spec


def install() -> None:
    """Put the finder in place (the ``.pth`` line calls this at start-up), unless the operator
    turned the ids off or it is there already."""
    if os.environ.get("BOARDPLAY_GYMNASIUM_IDS", "1") == "0" or _AfterGymnasium in sys.meta_path:
        return
    sys.meta_path.insert(0, _AfterGymnasium)
