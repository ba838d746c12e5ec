"""Results the board did not decide: a resignation, an agreed draw, a clock that ran out (a loss
on time) and a game aborted before everyone moved.

The engines only know results the rules produce. At a table, a player may also give up, and the
players may agree to stop with nobody winning; the server records such a result in the same
shape as ``records.result_of`` (``terminal``, ``returns``, ``scores``, ``winners``, ``text``)
plus ``ended`` ("resignation", "agreement", "time", "aborted" or "abandoned") and the seats that
``resigned`` (gave up, ran out of time or left: they cannot win), so records,
views and replays carry it as they carry any result. A replay checks that the moves do *not*
finish the game (an agreed result stands in for the end the rules would have reached) and that
the winners are seats of the game.

Which games can end drawn each game declares from its rules (``Game.can_draw``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardplay.core.game import Game
from boardplay.web.ratings import numeric_scores

RESIGNATION = "resignation"
AGREEMENT = "agreement"
TIME = "time"
"""A seat's clock ran out (``timeouts.py``)."""
ABORTED = "aborted"
"""A game left (on time or abandoned) before every seat had moved: nobody wins, nothing is
rated."""
ABANDONED = "abandoned"
"""The opponent left a real-time game and the player still there claimed it (a win or a draw)."""
ENDINGS = (RESIGNATION, AGREEMENT, TIME, ABORTED, ABANDONED)


def can_draw(game: Game) -> bool:
    """A draw is a result this game's rules can produce (``Game.can_draw``)."""
    return game.can_draw


def names(game: Game, seats: Sequence[int]) -> str:
    return " and ".join(game.seat_name(s) for s in seats)


def resignation(game: Game, resigned: Sequence[int], scores: Any = None) -> dict[str, Any]:
    """The result once ``resigned`` gave up and one seat is left: that seat wins."""
    left = [s for s in range(game.num_players) if s not in resigned]
    returns = [1.0 if s in left and len(left) == 1 else 0.0 for s in range(game.num_players)]
    winners = left if len(left) == 1 else []
    verb = "resigns" if len(resigned) == 1 else "resign"
    text = f"{names(game, resigned[-1:])} {verb}"
    if winners:
        text += f": {names(game, winners)} wins"
    return {
        "terminal": True,
        "returns": returns,
        "scores": scores,
        "winners": winners,
        "text": text,
        "ended": RESIGNATION,
        "resigned": sorted(resigned),
    }


def out_of_time(game: Game, gone: Sequence[int], scores: Any = None) -> dict[str, Any]:
    """The result once the last of ``gone`` ran out of time and one seat is left: it wins."""
    result = resignation(game, gone, scores)
    winners = result["winners"]
    text = f"{names(game, gone[-1:])} ran out of time"
    if winners:
        text += f": {names(game, winners)} wins"
    return dict(result, text=text, ended=TIME)


def aborted(game: Game, seat: int, why: str) -> dict[str, Any]:
    """The result of a game ``seat`` left (``why``: "time" or "left") before every seat moved."""
    reason = "did not make a first move in time" if why == TIME else "left before moving"
    return {
        "terminal": True,
        "returns": [0.0] * game.num_players,
        "scores": None,
        "winners": [],
        "text": f"game aborted: {names(game, [seat])} {reason}",
        "ended": ABORTED,
        "resigned": [],
        "left": seat,
    }


def agreed_draw(game: Game, resigned: Sequence[int] = (), scores: Any = None) -> dict[str, Any]:
    """The result of a draw every seat still playing agreed to."""
    playing = [s for s in range(game.num_players) if s not in resigned]
    share = 1.0 / len(playing) if playing else 0.0
    return {
        "terminal": True,
        "returns": [share if s in playing else 0.0 for s in range(game.num_players)],
        "scores": scores,
        "winners": [],
        "text": "draw by agreement",
        "ended": AGREEMENT,
        "resigned": sorted(resigned),
    }


def final_result(game: Game, result: dict[str, Any], resigned: Sequence[int]) -> dict[str, Any]:
    """The one result of a game the rules ended after some seats had resigned (each then played
    on by the AI): what the game shows, lists, stores, exports, counts in profiles and rates
    (through ``places`` and ``verdict``). A resigned seat never wins: it is struck from the
    rules' winners; if that leaves none, the seats still playing with the best score win (a
    game that keeps scores), else nobody does and they share the result."""
    if not resigned:
        return result
    winners = [s for s in result.get("winners", []) if s not in resigned]
    scores = numeric_scores(result, game.num_players)
    if not winners and result.get("winners") and scores is not None:
        playing = [s for s in range(game.num_players) if s not in resigned]
        best = max(scores[s] for s in playing)
        winners = [s for s in playing if scores[s] == best]
    out = dict(result, winners=winners, resigned=sorted(resigned))
    returns = [0.0] * game.num_players
    for seat in winners:
        returns[seat] = 1.0 / len(winners)
    out["returns"] = returns
    if winners != result.get("winners"):
        out["text"] = (
            f"{names(game, winners)} wins ({names(game, resigned)} resigned)"
            if winners
            else f"nobody wins ({names(game, resigned)} resigned)"
        )
    return out


def check_agreed(game: Game, result: Any, finished_by_rules: bool) -> str | None:
    """Why a record's agreed result cannot stand (None if it can): it must say how the game
    ended, end a game the rules had not ended yet, and name only the game's seats."""
    if not isinstance(result, dict) or result.get("ended") not in ENDINGS:
        return "it is not a resignation, an agreed draw, a loss on time or an abort"
    if finished_by_rules:
        return "the moves already finish the game, so it cannot have ended another way"
    seats = range(game.num_players)
    for key in ("winners", "resigned"):
        value = result.get(key, [])
        if not isinstance(value, list) or any(
            not isinstance(s, int) or isinstance(s, bool) or s not in seats for s in value
        ):
            return f"its {key!r} must list seats 0..{game.num_players - 1}"
    if result["ended"] in (RESIGNATION, TIME) and not result.get("resigned"):
        return "a resignation or a loss on time must name the seat (in 'resigned')"
    if result["ended"] in (AGREEMENT, ABORTED) and result.get("winners"):
        return "an agreed draw or an aborted game has no winners"
    return None
