"""A move of Race to ten in words (``Game.describer``): who adds what to the count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardplay.i18n.phrase import SeatName, Sentence, say


def describe(
    before: Mapping[str, Any],
    move: str,
    after: Mapping[str, Any] | None,
    seat: int,
    names: Sequence[str],
) -> tuple[dict[str, Any], Sentence]:
    add = int(move)
    words = say(
        "{seat} adds {n} to {count}.", seat=SeatName(names[seat]), n=add, count=before["count"]
    )
    return {"add": add, "to": before["count"] + add}, Sentence([words])
