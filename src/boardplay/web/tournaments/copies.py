"""What one process keeps of the tournaments it has read, so that its next read of one reads only
what can have changed since (``store.TournamentStore`` reads through it):

- **its settled rounds** (``model.Settled``): a table whose game has its places never changes
  again, so the tables up to the first round with a game still in play are read once, and a
  step reads only later rounds (an arena steps at every game that ends, and reading every table
  ever played at each step grew with its length);
- **its entrants, as of their revision** (``tournaments.entrants_revision``, raised by every
  change of them): read again only when it has moved, not the whole field at every step;
- **the tournament of each game read in play** (``known_tournament``): the process that sees a
  tournament game end steps its tournament without a query to find it.

Each is bounded (``KEPT`` tournaments, the least recently read dropped first; ``KEPT_GAMES``
games), and each is only ever a copy: what it holds is what a read would give, and a process
that has none reads it."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from boardplay.web.tournaments.model import Entrant, Settled, Snapshot

KEPT = 256
"""Tournaments whose settled rounds and entrants a process keeps."""
KEPT_GAMES = 8192
"""Games in play whose tournament a process keeps."""


@dataclass(frozen=True)
class Copy:
    """A process's copy of one tournament: its settled rounds, its entrants with the revision
    they were read at, and its kind."""

    settled: Settled | None = None
    entrants: tuple[int, tuple[Entrant, ...]] | None = None
    kind: str | None = None


class Copies:
    """The copies of one process's store (called from its storage threads)."""

    def __init__(self) -> None:
        self._copies: dict[str, Copy] = {}
        self._in_play: dict[str, str] = {}
        """The tournament of each game read in play, oldest first."""
        self._lock = threading.Lock()

    def of(self, tournament_id: str) -> Copy:
        """The tournament's copy (an empty one if none is kept), now the most recently read."""
        with self._lock:
            found = self._copies.pop(tournament_id, None)
            if found is None:
                return Copy()
            self._copies[tournament_id] = found
            return found

    def keep(self, snap: Snapshot, known: Copy) -> None:
        """Keep what ``snap``, read whole from ``known``, shows of its tournament, and give it
        the settled rounds its first boards are (``Snapshot.settled``)."""
        tournament_id = snap.tournament.id
        upto = Settled.reach(snap, known.settled)
        settled = snap.settled = known.settled
        if settled is None or upto > settled.upto:
            boards = tuple(b for b in snap.boards if b.round <= upto)
            grown = Settled(upto, boards) if settled is None else settled.grown(upto, boards)
            settled = snap.settled = grown
        entrants = (snap.tournament.entrants_revision, tuple(snap.entrants))
        in_play = [b.game_id for b in snap.boards if b.made and b.table.places is None]
        with self._lock:
            held = self._copies.get(tournament_id, Copy())
            if held.settled is not None and settled is not None and held.settled.upto > upto:
                settled = held.settled  # another thread kept later rounds meanwhile
            if held.entrants is not None and held.entrants[0] > entrants[0]:
                entrants = held.entrants
            self._copies[tournament_id] = Copy(settled, entrants, snap.tournament.kind)
            while len(self._copies) > KEPT:
                del self._copies[next(iter(self._copies))]
            self._in_play.update(dict.fromkeys(in_play, tournament_id))
            while len(self._in_play) > KEPT_GAMES:
                del self._in_play[next(iter(self._in_play))]

    def known_tournament(self, game_id: str) -> str | None:
        """The tournament of a game read in play (and forgets it: asked when the game ends),
        with no query; None if none was read so (it may be in no tournament)."""
        with self._lock:
            return self._in_play.pop(game_id, None)
