"""The compiled ``boardplay.games.potlatch.fields``'s names besides its table ``FACE``, typed by
hand: ``tools/facestubs.py`` writes ``fields.pyi`` from this and the table at every build."""

from collections.abc import Mapping
from typing import Any

from boardplay.games.potlatch.kernel import PotlatchKernel

FIELDS: tuple[str, ...]

def snapshot(k: PotlatchKernel) -> dict[str, Any]: ...
def load(k: PotlatchKernel, values: Mapping[str, Any]) -> None: ...
