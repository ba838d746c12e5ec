"""Themes: what a puzzle is about, named in each game's rulebook words, so a player can ask for
"the stuck pawn" or "a rule change that wins".

Each theme is a small function of the puzzle's ``Scene``: the position before the solution, the
position it leaves, the solution's moves and the mover. They read only the public state API,
the position JSON and the notation (docs/formats/<game>.md), as a puzzle file does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardplay.core.game import State
from boardplay.games.passtally.state import PasstallyState


@dataclass(frozen=True)
class Scene:
    """A puzzle's solution in context."""

    before: State
    after: State
    moves: tuple[str, ...]
    mover: int

    @property
    def start(self) -> dict[str, Any]:
        return self.before.to_json()

    @property
    def end(self) -> dict[str, Any]:
        return self.after.to_json()

    def mover_wins_at_once(self) -> bool:
        """The solution ends the game with the mover winning alone."""
        return self.after.is_terminal() and self.after.winners() == [self.mover]


Theme = Callable[[Scene], bool]


# ----- Proteus: the rules change as you play ----------------------------------------------------
def _proteus_active(position: dict[str, Any]) -> dict[str, str]:
    """Colour (R, B, Y) → the active tile of that colour (``Rc``, ...)."""
    active: dict[str, str] = {}
    for content in position["board"].values():
        if len(content) > 2 and content[2] == "*":
            active[content[0]] = content[:2]
    return active


def proteus_rule_change(scene: Scene) -> bool:
    """The solution turns a tile face up: a rule that was not in force is now."""
    before, after = _proteus_active(scene.start), _proteus_active(scene.end)
    return any(before.get(colour) != tile for colour, tile in after.items())


def proteus_goal_change(scene: Scene) -> bool:
    """The solution changes what wins (a new yellow GOAL tile)."""
    goal = _proteus_active(scene.end).get("Y")
    return goal is not None and goal != _proteus_active(scene.start).get("Y")


def proteus_trade(scene: Scene) -> bool:
    """The solution is a trade: two tiles swap places, the pieces stay."""
    return any("~" in move for move in scene.moves)


def proteus_goal_reached(scene: Scene) -> bool:
    """The solution meets the goal at once (a win in one)."""
    return scene.mover_wins_at_once()


# ----- Potlatch Klone: three stacks, and the pawn that cannot move -------------------------------
_COLOURS = ("R", "B")


def _potlatch_stacks(position: dict[str, Any], seat: int) -> int:
    """Stacks of ``seat``'s colour: 3 chips high with its colour on top."""
    colour = _COLOURS[seat]
    return sum(1 for chips in position["tiles"].values() if len(chips) == 3 and chips[2] == colour)


def potlatch_stuck_pawn(scene: Scene) -> bool:
    """The solution leaves the opponent's pawn stuck: the opponent cannot act at all (condition
    2) or has no Pawn Move left, only Chip Moves."""
    after = scene.after
    if after.is_terminal():
        return after.end_code() == "stuck" and after.winners() == [scene.mover]
    if after.current_player() == scene.mover:
        return False
    return not any(move.startswith("P-") for move in after.legal_moves())


def potlatch_third_stack(scene: Scene) -> bool:
    """The solution gives the mover a third stack of their colour."""
    mine = _potlatch_stacks(scene.start, scene.mover), _potlatch_stacks(scene.end, scene.mover)
    return mine[0] < 3 <= mine[1]


def potlatch_break_up(scene: Scene) -> bool:
    """The solution breaks up one of the opponent's stacks (a Chip Move from its top)."""
    other = 1 - scene.mover
    return _potlatch_stacks(scene.end, other) < _potlatch_stacks(scene.start, other)


def potlatch_new_tile(scene: Scene) -> bool:
    """The solution lays a tile from the stock onto a blank space."""
    return int(scene.end["stock"]) < int(scene.start["stock"])


# ----- Passtally: lines between your own markers ----------------------------------------------
def passtally_marker_moves(scene: Scene) -> bool:
    """The solution lays no tile: the two actions move markers."""
    return all(move.startswith("m") for move in scene.moves)


def passtally_cut_line(scene: Scene) -> bool:
    """The solution makes the opponent's lines worth less: what they would score now drops."""
    other = 1 - scene.mover
    before, after = scene.before, scene.after
    if not isinstance(before, PasstallyState) or not isinstance(after, PasstallyState):
        return False
    if after.is_terminal():
        return False
    return after.turn_score(other) < before.turn_score(other)


def passtally_final_turn(scene: Scene) -> bool:
    """The game ends with the solution's turn (the final round's last turn, or no tile can be
    placed any more)."""
    return scene.after.is_terminal()


# ----- Montana: settling the landscape --------------------------------------------------------
def montana_last_settlement(scene: Scene) -> bool:
    """The solution places the mover's last settlement tile (only such a player can win)."""
    players = scene.end["players"]
    return (
        int(players[scene.mover]["settlements_left"]) == 0
        and int(scene.start["players"][scene.mover]["settlements_left"]) > 0
    )


def montana_cattle_trade(scene: Scene) -> bool:
    """The solution trades cattle on the way."""
    return any(move.startswith("trade:") for move in scene.moves)


def montana_canteen(scene: Scene) -> bool:
    """The solution uses a canteen for an extra turn."""
    return "canteen" in scene.moves


def montana_city(scene: Scene) -> bool:
    """The solution goes to the City (the General Store)."""
    return "work:city" in scene.moves


THEMES: dict[str, dict[str, Theme]] = {
    "proteus": {
        "rule_change": proteus_rule_change,
        "goal_change": proteus_goal_change,
        "trade": proteus_trade,
        "goal_reached": proteus_goal_reached,
    },
    "potlatch": {
        "stuck_pawn": potlatch_stuck_pawn,
        "third_stack": potlatch_third_stack,
        "break_up": potlatch_break_up,
        "new_tile": potlatch_new_tile,
    },
    "passtally": {
        "marker_moves": passtally_marker_moves,
        "cut_line": passtally_cut_line,
        "final_turn": passtally_final_turn,
    },
    "montana": {
        "last_settlement": montana_last_settlement,
        "cattle_trade": montana_cattle_trade,
        "canteen": montana_canteen,
        "city": montana_city,
    },
}
"""Each game's themes by name (the names are what a puzzle file lists)."""


def themes_of(game: str, scene: Scene, kind: str) -> list[str]:
    """The puzzle's themes: its kind's (``win`` or ``save``: the answer wins, or is the only
    turn that does not lose) and every theme of its game that holds, in declaration order."""
    found = [kind]
    found += [name for name, holds in THEMES.get(game, {}).items() if holds(scene)]
    return found
