"""The compiled ``boardplay.games.proteus.fields``'s names besides its table ``FACE``, typed by
hand: ``tools/facestubs.py`` writes ``fields.pyi`` from this and the table at every build."""

from collections.abc import Mapping
from typing import Any

from boardplay.games.proteus.kernel import ProteusKernel

FIELDS: tuple[str, ...]

def snapshot(k: ProteusKernel) -> dict[str, Any]: ...
def load(k: ProteusKernel, values: Mapping[str, Any]) -> None: ...
