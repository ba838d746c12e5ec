"""Where and why a game of Race to ten ended (``Game.end_describer``): the mover reached the
target, and the board rings the last cell of the track."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.games.race.game import RaceState

from boardplay.core.game import State
from boardplay.i18n.phrase import SeatName, Sentence, say


def describe_end(
    before: Mapping[str, Any], after: State, seat: int, names: Sequence[str]
) -> tuple[dict[str, Any], Sentence]:
    assert isinstance(after, RaceState)
    words = say("{seat} reaches {target}.", seat=SeatName(names[seat]), target=after.target)
    return {"kind": "target", "seat": seat, "cell": after.target}, Sentence([words])
