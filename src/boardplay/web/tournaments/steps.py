"""What one step of a tournament does, decided from its state alone (pure, as the engines are):
start it or cancel it, pair its next round or arena wave, finish it, or nothing. The director
asks first on a snapshot read without a lock, and takes the tournament's row (a write) only
when there is something to do, then asks again on what it reads under the lock: so a tick of a
tournament with nothing to do costs reads, never a write (every process ticks every
tournament every two seconds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardplay.web.tournaments import arena, pods, swiss
from boardplay.web.tournaments.model import ACTIVE, CANCELLED, CREATED, DONE, STARTED, Snapshot


@dataclass(frozen=True)
class Step:
    """A step's work: the tournament's new status (None: unchanged) and the round to store
    (``tables`` each in seat order, and the byes; None: no round)."""

    status: str | None = None
    tables: Sequence[tuple[int, ...]] | None = None
    byes: Sequence[int] = ()

    @property
    def idle(self) -> bool:
        return self.status is None and self.tables is None


def plan(snap: Snapshot, now: float) -> Step:
    """The step ``snap``'s tournament takes at ``now``."""
    tournament = snap.tournament
    status = tournament.status
    begun: str | None = None
    if status == CREATED:
        if now < tournament.starts:
            return Step()
        # An arena starts whoever is there (players join as it runs); a round-based one needs
        # a table's worth.
        active = [e for e in snap.entrants if e.status == ACTIVE]
        enough = tournament.kind == "arena" or len(active) >= min(tournament.sizes)
        begun = status = STARTED if enough else CANCELLED
    if status != STARTED:
        return Step(begun)
    unfinished = [t for t in snap.tables if t.places is None]
    if tournament.kind == "arena":
        if now >= (tournament.ends or now):
            return Step(DONE if not unfinished else begun)
        busy = {p for t in unfinished for p in t.players}
        free = [
            e.account_id for e in snap.entrants if e.status == ACTIVE and e.account_id not in busy
        ]
        pairs = arena.pair_wave(snap.seeds, free, snap.tables) if len(free) >= 2 else []
        return Step(begun, pairs or None)
    if unfinished:
        return Step(begun)
    playing = [e.account_id for e in snap.entrants if e.status == ACTIVE]
    if tournament.round >= (tournament.rounds or 0) or len(playing) < min(tournament.sizes):
        return Step(DONE)
    number = tournament.round + 1
    if tournament.kind == "swiss":
        paired = swiss.pair_round(snap.seeds, playing, snap.tables, snap.byes, number)
        return Step(begun, paired.pairs, [] if paired.bye is None else [paired.bye])
    made = pods.pair_pods(snap.seeds, playing, snap.tables, snap.byes, number, tournament.sizes)
    return Step(begun, made.tables, made.byes)
