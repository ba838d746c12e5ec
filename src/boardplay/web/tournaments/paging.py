"""A tournament's standings a page at a time, and only what changed (issue 66).

A field of a thousand players made every poll of a tournament's page read the whole tournament
(every entrant, every table of every round), rank it and send every line, every 3 s, for every
watcher. Now:

- **A revision per tournament.** Every change its page shows raises ``tournaments.revision`` in
  the change's own transaction (``rows.bump``, migration 0027), so a poll first reads that one
  number: a client that already has it is told ``unchanged`` (or 304 by ``ETag``) and nothing
  else is read.
- **One reading per revision per process.** A process keeps the view it built at each revision
  of the tournaments asked about lately (``Views``), so a thousand watchers of one tournament
  cost one reading and ranking per change, not one each; and for the polls it builds a
  tournament's view at most once every ``FRESH`` seconds: an arena of a thousand players whose
  results come in several a second is ranked once a second, each answer saying the revision it
  shows, so the client asks again from there. A first read (a page opened, another page asked
  for) and a read after this process's own change always check the revision: a player who
  has just joined, or whose game has just ended, sees it.
- **Pages of ``STANDINGS_PAGE`` lines**, in the standings' own order (ranks are never
  recomputed here: ``standings.py`` and ``arena.standings`` keep their tie-breaks), with the
  caller's own line and page (``me``) so a player finds themselves in a field of a thousand.
- **Only the lines that changed.** A client that sends the revision it shows (``since``) gets,
  for its page, only the lines whose place now holds another line or the same player with other
  figures, keyed by ``rank``: written over its copy at the same ranks and cut to the page's
  length (from ``total``), they make the page as a full read would. The process keeps the last
  ``KEPT`` revisions' lines of each tournament to compare with; a ``since`` it no longer has (or
  never built: another process answered the client) gets the whole page, as a first read does.

What a process keeps is bounded: ``TOURNAMENTS_KEPT`` tournaments' views, ``KEPT`` revisions of
lines each, a line kept as its JSON text."""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

STANDINGS_PAGE = 50
"""Lines of the standings one page holds."""
KEPT = 6
"""Revisions of one tournament's lines a process keeps to compare a client's ``since`` with."""
TOURNAMENTS_KEPT = 16
"""Tournaments whose views a process keeps (those asked about longest ago are forgotten)."""
FRESH = 1.0
"""Seconds a built view is served though the tournament's revision has moved on."""


@dataclass
class Built:
    """A tournament's view as built at one revision (never changed once built: shared by every
    answer) and its standings' lines as JSON text, for comparing."""

    revision: int
    view: dict[str, Any]
    at: float
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines = [json.dumps(line, sort_keys=True) for line in self.view["standings"]]


class Views:
    """The views one process built lately, by tournament, with each one's latest revisions."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, list[Built]] = OrderedDict()

    def latest(self, tournament_id: str) -> Built | None:
        found = self._kept.get(tournament_id)
        if not found:
            return None
        self._kept.move_to_end(tournament_id)
        return found[-1]

    def at(self, tournament_id: str, revision: int) -> Built | None:
        for built in self._kept.get(tournament_id, ()):
            if built.revision == revision:
                return built
        return None

    def changed(self, tournament_id: str) -> None:
        """This process changed the tournament: its next read checks the revision, however
        fresh the view (the person who joined sees themselves in, at once)."""
        for built in self._kept.get(tournament_id, ()):
            built.at = float("-inf")

    def keep(self, tournament_id: str, built: Built) -> Built:
        """Keep ``built`` (unless a later revision was kept meanwhile); the latest kept."""
        kept = self._kept.setdefault(tournament_id, [])
        self._kept.move_to_end(tournament_id)
        if kept and kept[-1].revision >= built.revision:
            return kept[-1]
        kept.append(built)
        del kept[:-KEPT]
        while len(self._kept) > TOURNAMENTS_KEPT:
            self._kept.popitem(last=False)
        return built


def pages_of(total: int) -> int:
    return max(1, -(-total // STANDINGS_PAGE))


def page_answer(
    built: Built,
    page: int | None,
    player: int | None,
    since: Built | None = None,
) -> dict[str, Any]:
    """The answer for ``page`` (1-based, clamped to the last; None: the page ``player`` is on,
    else the first) of ``built``'s standings: its lines, or with ``since`` only those changed
    (module docstring); ``me``: ``player``'s rank and page, if they are in it."""
    lines: list[dict[str, Any]] = built.view["standings"]
    total = len(lines)
    me = None
    for line in lines:
        if player is not None and line["player"] == player:
            me = {"rank": line["rank"], "page": pages_of(line["rank"]), "line": line}
            break
    if page is None:
        page = me["page"] if me else 1
    page = min(page, pages_of(total))
    start = (page - 1) * STANDINGS_PAGE
    answer: dict[str, Any] = {
        "revision": built.revision,
        "page": page,
        "pages": pages_of(total),
        "size": STANDINGS_PAGE,
        "total": total,
        "me": me,
    }
    window = range(start, min(start + STANDINGS_PAGE, total))
    if since is None:
        answer["standings"] = [lines[i] for i in window]
        return answer
    before = since.lines
    answer["since"] = since.revision
    answer["changed"] = [
        lines[i] for i in window if i >= len(before) or before[i] != built.lines[i]
    ]
    return answer
