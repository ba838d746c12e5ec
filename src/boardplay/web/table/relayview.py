"""The public view a process sends the others with a change (``Hub.publish``), so that they
need not build it again (``Room.adopt_view``), in a size that does not grow with the game.

A view holds every move of the game with its words. Relayed whole, a notice grew with every
move: in a Montana game of 150 moves a process spent 1.8 ms of CPU parsing each notice and the
mover 0.2 ms writing it, and Redis carried hundreds of kilobytes per move. So when the mover's
process still has the view it built before the change (``before``), the notice carries the new
view without its moves, and the moves as the sockets' updates carry them: how many of
``before``'s to keep, and those to add. A process whose own view is that same revision (the
versions match: a view follows from the stored game alone, so equal versions are equal views)
puts the two together; any other builds its own view. A notice with a whole view (``before``
unknown) is read as before; processes of an earlier release ignore the new form (it has no
``version`` where they look) and build their own."""

from __future__ import annotations

from typing import Any

import orjson

from boardplay.web.sockets import exact, moves_kept
from boardplay.web.table.views import VERSION_EPOCH


def encode(view: dict[str, Any], before: dict[str, Any] | None) -> str:
    """``view`` as relay text: its moves since ``before`` if given, else whole ("": a view
    that JSON cannot carry exactly)."""
    if before is None or not {"moves", "version"} <= before.keys() or "moves" not in view:
        return exact(view)
    keep = moves_kept(before["moves"], view["moves"])
    rest = {k: v for k, v in view.items() if k != "moves"}
    return exact(
        {"view": rest, "base": before["version"], "keep": keep, "add": view["moves"][keep:]}
    )


def decode(text: str, revision: int, before: dict[str, Any] | None) -> dict[str, Any] | None:
    """The view of ``revision`` that ``text`` (``encode``'s) carries, given this process's
    ``before``; None if it carries another revision's, or moves that follow on from a view
    this process does not have, or is not a relay text at all."""
    try:
        relayed = orjson.loads(text)
    except ValueError:
        return None
    if not isinstance(relayed, dict):
        return None
    view: Any = relayed
    if "base" in relayed:
        view, keep, add = relayed.get("view"), relayed.get("keep"), relayed.get("add")
        if before is None or before.get("version") != relayed["base"]:
            return None
        moves = before.get("moves")
        if not (isinstance(view, dict) and isinstance(moves, list) and isinstance(add, list)):
            return None
        if not (isinstance(keep, int) and 0 <= keep <= len(moves)):
            return None
        view = {**view, "moves": moves[:keep] + add}
    if isinstance(view, dict) and view.get("version") == [VERSION_EPOCH, revision]:
        return view
    return None
