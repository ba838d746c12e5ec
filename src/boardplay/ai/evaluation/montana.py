"""Montana evaluation (reads only the position JSON).

Montana is a race: the first player to place every settlement triggers the end, and only players
who placed all of theirs can win. Progress is therefore measured in settlements placed, plus what
the player holds that will turn into settlements soon: goods (the building cost), silver (bank
and contractor income converts to goods), workers on the player board (future production), and
cattle and canteens (flexible trades and the first tie-break). The weights express those holdings
in settlements: a build costs roughly three to five goods, so one good is worth about a quarter of
a settlement. The softmax temperature of one settlement says a one-settlement lead is a clear but
not decisive edge.
"""

from __future__ import annotations

from typing import Any

from boardplay.ai.evaluation import Heuristics, softmax_evaluation

SETTLEMENTS = {2: 12, 3: 10, 4: 8}
GOOD_WEIGHT = 0.22
SILVER_WEIGHT = 0.05
WORKER_WEIGHT = 0.15
CATTLE_WEIGHT = 0.2
TEMPERATURE = 1.0


def strengths(position: dict[str, Any]) -> list[float]:
    players = position["players"]
    total = SETTLEMENTS.get(len(players), 12)
    out: list[float] = []
    for board in players:
        placed = total - int(board["settlements_left"])
        goods = sum(int(n) for n in board["goods"].values())
        workers = sum(int(n) for n in board["workers"].values())
        stock = int(board["cattle"]) + int(board["canteens"])
        out.append(
            placed
            + GOOD_WEIGHT * goods
            + SILVER_WEIGHT * int(board["silver"])
            + WORKER_WEIGHT * workers
            + CATTLE_WEIGHT * stock
        )
    return out


evaluate = softmax_evaluation(strengths, TEMPERATURE)


HEURISTICS = Heuristics(
    evaluate,
    None,
    "settlements placed + 0.22/good + 0.05/silver + 0.15/worker + 0.2/(cattle+canteen); "
    "softmax with temperature 1 settlement",
    cutoff=0,
)
