"""What one step of a tournament does, decided from its state alone (pure, as the engines are):
start it or cancel it, pair its next round or arena wave, finish it, or nothing. The director
plans on a snapshot read without a lock, and takes the tournament's row (a write) only when
there is something to do: so a tick of a tournament with nothing to do costs reads, never a
write (every process ticks every tournament every two seconds), and a pairing's cost is paid
outside the row, which the tournament's joins and steps on every process wait for. Under the
row the director stores the planned step only if it ``still_holds`` on what the row shows;
else it plans again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardplay.web.tournaments import arena, pods, swiss
from boardplay.web.tournaments.model import ACTIVE, CANCELLED, CREATED, DONE, STARTED, Snapshot
from boardplay.web.tournaments.records import Bye


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
        kept = arena.kept_of(snap.settled)
        pairs = arena.pair_wave(snap.seeds, free, snap.tables, kept) if len(free) >= 2 else []
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


def still_holds(step: Step, planned_on: Snapshot, locked: Snapshot) -> bool:
    """Whether ``step``, planned on ``planned_on`` (read without a lock), is a step ``locked``
    (read under the tournament's row) may take as it is.

    Always: no other step came between (the status and the round counter unchanged; a stored
    round or wave raises the counter). A round-based tournament's step, or one that starts a
    tournament, must have read everything a pairing or a start reads unchanged: its entrants
    (who, their seed, their status), every result and every bye. An arena's wave needs less,
    since results keep coming while it is paired: its players still entered, not paused, and
    at no game. Their own games (their last opponents, their seats, their points) cannot have
    changed without a new wave, so every rule ``plan`` keeps holds of its pairs on ``locked``
    too; whoever came free meanwhile is paired by the next step, which their game's end sets
    off."""
    before, now = planned_on.tournament, locked.tournament
    if (before.status, before.round) != (now.status, now.round):
        return False
    if now.kind == "arena" and before.status == STARTED:
        playing = {p for t in locked.tables if t.places is None for p in t.players}
        active = {e.account_id for e in locked.entrants if e.status == ACTIVE}
        paired = {p for table in step.tables or () for p in table}
        return paired <= active - playing
    return _read(planned_on) == _read(locked)


def _read(snap: Snapshot) -> tuple[object, ...]:
    """What a round's pairing or a start reads of ``snap``."""
    entrants = sorted((e.account_id, e.status, e.rating, e.joined) for e in snap.entrants)
    results = [(b.round, b.board, b.table.places) for b in snap.boards]
    byes: list[Bye] = sorted(snap.byes, key=lambda b: (b.round, b.player))
    return (tuple(entrants), tuple(results), tuple(byes))
