"""The moderators: who they are, what players report, what moderators decide, and what a
player is told.

- **Roles** are given by the operator (``boardplay db role NAME moderator``), never through
  the site; ``is_moderator`` is the one answer every moderation route asks (``api/moderation.py``
  puts it on the router, so a route cannot be added without it).
- **Reports**: a signed-in player reports another for ``abuse``, ``cheating``, ``farming`` or
  ``other``, with an optional note (tidied as all shown text is, at most ``NOTE_LENGTH``
  characters), from their profile or a game. Not oneself, not an account that is not there
  (unknown or closed), and at most ``Limits.reports_per_day`` a day, counted with the other
  throttles before the report is stored. The chat's reported lines are the chat's
  (``chat.ChatRelay.reported``); the queue shows both kinds, undecided, each with its
  evidence: the lines around a reported line, the games between the reporter and the reported.
  The system reports too (``system_report``, no reporter): the fair-play check's ``cheating``
  report when an account's agreement with the expert passes its pool's flag (``fairplay/``),
  once while it waits undecided.
- **Actions**: ``dismiss`` (a report only), ``warn``, ``chat_ban`` for 1 to ``BAN_DAYS_MAX``
  days (every chat asks ``ChatBans.until`` before it stores a line: the table's channels and a
  tournament's), ``close`` (the accounts' own closing, so every domain hears
  ``AccountClosed``), ``mark`` on ``grounds`` (``engine`` help or ``boosting`` a rating) and
  ``unmark``. Each is written to the audit log with who, what, why, when and about
  whom, in the same transaction as the report it decides, the ban and the player's notice.
- **Marks**: a marked account's rated games are taken out of the ratings and it plays casual
  only. The ratings own that (``Ratings.exclude_account``, given at construction as
  ``marks``): this domain writes the decision, then asks them; the ratings replay, in one
  transaction, the pools the account played rated without its games, and the admission rule
  refuses it a rated table. ``unmark`` asks them to put the games back. Whether an account is
  marked is the ratings' answer: a mark whose exclusion failed (logged, not excluded) leaves
  it unmarked, and is made again whole. Marking a marked account is a 409
  (``already_marked``), unmarking one that is not, ``not_marked``.
- **Notices**: a warned, banned, marked or unmarked player is told on their next page
  (``notices``), the page wording the decision in their language; a dismissed report changes
  nothing for anyone, and a closed account has no page to be told on."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from boardplay.web.accounts import Account, Accounts
from boardplay.web.chat import ChatRelay, ReportedLine
from boardplay.web.config import Limits
from boardplay.web.database import Runner
from boardplay.web.errors import bad_request, conflict, forbidden, not_found
from boardplay.web.events import AccountClosed, Bus
from boardplay.web.moderation.store import (
    MODERATOR,
    AlreadyDecided,
    Decision,
    Entry,
    ModerationStore,
    Notice,
    PlayerReport,
)
from boardplay.web.played import Game
from boardplay.web.text import tidy
from boardplay.web.throttles import Ceiling, Throttled

REASONS = ("abuse", "cheating", "farming", "other")
"""Why a player reports another."""
ACTIONS = ("dismiss", "warn", "chat_ban", "close", "mark", "unmark")
"""What a moderator decides."""
GROUNDS = ("engine", "boosting")
"""What a ``mark`` is for: help from an engine, or a rating boosted (farmed)."""
NOTIFIED = frozenset({"warn", "chat_ban", "mark", "unmark"})
"""The decisions the player they are about is told of."""
NOTE_LENGTH = 500
"""Characters of a report's note, or of a moderator's reason, once tidied."""
BAN_DAYS_MAX = 365
QUEUE = 100
"""Undecided reports of each kind the queue shows, newest first."""
CHAT_PAGES = 10
"""Pages of ``QUEUE`` chat reports the queue reads at most to find undecided ones."""
GAMES_SHOWN = 20
"""Games between two players a report shows, latest first."""
GAMES_READ = 500
"""Latest games of each player read to find those they played together."""
LOG_SHOWN = 200
DAY = 86_400.0


class GameReader(Protocol):
    """What the moderators read of the games (the table's ``Games``)."""

    async def get(self, game_id: str) -> Game | None: ...

    async def games_of(self, account_id: int, limit: int) -> list[tuple[str, str, datetime]]: ...

    async def seated(
        self, game_ids: Sequence[str]
    ) -> dict[str, tuple[str, datetime, list[str]]]: ...


def described(
    game_id: str | None, seated: dict[str, tuple[str, datetime, list[str]]]
) -> dict[str, Any] | None:
    """A game as the queue shows it: its id, its game, the time of its last change and the
    names at its seats (None for no game, or one that is not there)."""
    if game_id is None or game_id not in seated:
        return None
    game, updated, players = seated[game_id]
    return {"id": game_id, "game": game, "updated": updated.isoformat(), "players": players}


class Marks(Protocol):
    """What a mark asks of the ratings (``Ratings``): each answers whether anything changed."""

    async def exclude_account(self, account_id: int) -> bool: ...

    async def include_account(self, account_id: int) -> bool: ...

    async def excluded_among(self, account_ids: Sequence[int]) -> set[int]: ...


class ChatBans:
    """The chat bans, asked by every chat before it stores a line (the wiring gives
    ``until`` to the table chat and the tournaments' chat)."""

    def __init__(self, engine: Engine, run: Runner, now: Any = time.time) -> None:
        self.store = ModerationStore(engine)
        self.run = run
        self.now = now

    async def until(self, account_id: int) -> float | None:
        """When the account's ban ends (None: it is not banned now)."""
        found: float | None = await self.run(self.store.banned_until, account_id)
        return found if found is not None and found > self.now() else None


@dataclass(frozen=True)
class Subject:
    """Who a decision is about, and the report it decides."""

    account: Account | None
    report: tuple[str, int] | None


class Moderation:
    """The moderators' service: roles, reports, the queue, actions, the log, notices."""

    def __init__(
        self,
        engine: Engine,
        run: Runner,
        limits: Limits,
        bus: Bus,
        accounts: Accounts,
        chat: ChatRelay,
        games: GameReader,
        bans: ChatBans,
        marks: Marks,
    ) -> None:
        self.store = ModerationStore(engine)
        self.run = run
        self.limits = limits
        self.accounts = accounts
        self.chat = chat
        self.games = games
        self.bans = bans
        """The chat bans every chat asks (``ChatBans.until``), built first by the wiring so
        the chats can be given them."""
        self.marks = marks
        """The ratings, which a mark asks to exclude an account's rated games."""
        bus.subscribe(AccountClosed, self._closed)

    # ----- roles --------------------------------------------------------------------------
    async def is_moderator(self, account_id: int) -> bool:
        roles: set[str] = await self.run(self.store.roles, account_id)
        return MODERATOR in roles

    async def require_moderator(self, account: Account) -> None:
        """403 unless ``account`` is a moderator."""
        if not await self.is_moderator(account.id):
            raise forbidden("not_a_moderator", "only moderators may open the moderation tools")

    async def _closed(self, event: AccountClosed) -> None:
        await self.run(self.store.forget, event.account_id)

    # ----- reports ------------------------------------------------------------------------
    async def report(
        self, reporter: Account, name: str, reason: str, note: str, game_id: str | None
    ) -> int:
        """Store ``reporter``'s report of the player ``name``; its id."""
        if reason not in REASONS:
            raise bad_request(f"a report's reason is one of {', '.join(REASONS)}")
        reported = await self.accounts.by_name(name)
        if reported is None:
            raise not_found(f"there is no player named {name!r} (or the account was closed)")
        if reported.id == reporter.id:
            raise bad_request("you cannot report yourself")
        tidied = tidy(note)
        if len(tidied) > NOTE_LENGTH:
            raise bad_request(f"a report's note is at most {NOTE_LENGTH} characters")
        if game_id is not None:
            game = await self.games.get(game_id)
            if game is None or all(seat.account != reported.id for seat in game.seats):
                raise bad_request(f"{reported.name} did not play the game {game_id!r}")
        per_day = self.limits.reports_per_day
        ceiling = Ceiling(f"report:{reporter.id}", per_day, DAY)
        try:
            report_id: int = await self.run(
                self.store.report, reporter.id, reported.id, reason, tidied, game_id, ceiling
            )
        except Throttled as exc:
            raise exc.error(
                "too_many_reports",
                f"you may report at most {per_day} players a day (BOARDPLAY_WEB_REPORTS_PER_DAY)",
            ) from None
        return report_id

    async def system_report(
        self, account_id: int, reason: str, text: str, game_id: str | None
    ) -> int | None:
        """File the system's report of an account (the fair-play check's), unless one for the
        same reason waits in the queue already; its id, or None."""
        if reason not in REASONS:
            raise ValueError(f"a report's reason is one of {', '.join(REASONS)}")
        note = tidy(text)[:NOTE_LENGTH]
        found: int | None = await self.run(
            self.store.system_report, account_id, reason, note, game_id
        )
        return found

    # ----- the queue ----------------------------------------------------------------------
    async def queue(self) -> dict[str, Any]:
        """The undecided reports, newest first: the chat's lines with their context, the
        players' with the games between the two."""
        players: list[PlayerReport] = await self.run(self.store.open_reports, QUEUE)
        ids = {r.reporter_id for r in players if r.reporter_id is not None}
        ids |= {r.reported_id for r in players}
        names = {a.id: a.name for a in (await self.accounts.by_ids(list(ids))).values()}
        shown = []
        between = [
            [] if r.reporter_id is None else await self.between(r.reporter_id, r.reported_id)
            for r in players
        ]
        lines = [
            {**line.to_json(), "id": f"chat:{line.report_id}"}
            for line in await self._open_chat_reports()
        ]
        named = {g["id"] for games in between for g in games}
        named |= {r.game_id for r in players if r.game_id} | {line["game_id"] for line in lines}
        seated = await self.games.seated(sorted(named))
        for line in lines:
            line["game"] = described(line["game_id"], seated)
        for report, games in zip(players, between, strict=True):
            system = report.reporter_id is None
            games = [described(g["id"], seated) or {**g, "players": []} for g in games]
            shown.append(
                {
                    "id": f"player:{report.id}",
                    "system": system,
                    "reporter": None
                    if report.reporter_id is None
                    else names.get(report.reporter_id),
                    "reported": names.get(report.reported_id),
                    "reason": report.reason,
                    "text": report.text,
                    "game_id": report.game_id,
                    "game": described(report.game_id, seated),
                    "created": report.created,
                    "games": games,
                }
            )
        return {"players": shown, "chat": lines}

    async def _open_chat_reports(self) -> list[ReportedLine]:
        found: list[ReportedLine] = []
        before: int | None = None
        for _ in range(CHAT_PAGES):
            page = await self.chat.reported(before, QUEUE)
            decided = await self.run(self.store.decided, "chat", [r.report_id for r in page])
            found += [r for r in page if r.report_id not in decided]
            if len(page) < QUEUE or len(found) >= QUEUE:
                break
            before = page[-1].report_id
        return found[:QUEUE]

    async def between(self, first: int, second: int) -> list[dict[str, Any]]:
        """The latest games the two accounts played together (id, status, last change; the
        queue adds each one's game and the names at its seats)."""
        theirs = {g[0] for g in await self.games.games_of(second, GAMES_READ)}
        mine = await self.games.games_of(first, GAMES_READ)
        together = [g for g in mine if g[0] in theirs][:GAMES_SHOWN]
        return [
            {"id": gid, "status": status, "updated": when.isoformat()}
            for gid, status, when in together
        ]

    # ----- actions ------------------------------------------------------------------------
    async def act(
        self,
        moderator: Account,
        action: str,
        reason: str,
        report: str | None,
        name: str | None,
        days: int | None,
        grounds: str | None = None,
    ) -> Entry:
        """Decide: write it to the log (with the report it decides, the ban, the notice),
        then close the account, or have the ratings exclude or readmit it, if that is the
        decision."""
        if action not in ACTIONS:
            raise bad_request(f"an action is one of {', '.join(ACTIONS)}")
        if action == "mark":
            if grounds not in GROUNDS:
                raise bad_request(f"a mark's grounds are one of {', '.join(GROUNDS)}")
        else:
            grounds = None
        why = tidy(reason)
        if not why or len(why) > NOTE_LENGTH:
            raise bad_request(f"say why, in 1 to {NOTE_LENGTH} characters")
        if action == "chat_ban":
            if days is None or not 1 <= days <= BAN_DAYS_MAX:
                raise bad_request(f"a chat ban lasts 1 to {BAN_DAYS_MAX} days")
        else:
            days = None
        subject = await self._subject(report, name)
        account = subject.account
        if action == "dismiss" and subject.report is None:
            raise bad_request("only a report is dismissed: name one (report)")
        if action != "dismiss" and account is None:
            raise bad_request("this report names no account (a guest's seat): dismiss it")
        if account is not None and account.id == moderator.id and action != "dismiss":
            raise bad_request("a moderator does not decide about their own account")
        if account is not None and action in ("mark", "unmark"):
            await self._check_mark(account, action == "mark")
        decision = Decision(
            moderator_id=moderator.id,
            moderator=moderator.name,
            action=action,
            account_id=None if account is None else account.id,
            account=None if account is None else account.name,
            report=subject.report,
            days=days,
            reason=why,
            ban_until=time.time() + days * DAY if days is not None else None,
            notify=action in NOTIFIED,
            grounds=grounds,
        )
        try:
            entry: Entry = await self.run(self.store.decide, decision)
        except AlreadyDecided:
            raise conflict("already_decided", "this report was decided already") from None
        if action == "close" and account is not None:
            await self.accounts.delete(account)
        elif action == "mark" and account is not None:
            await self.marks.exclude_account(account.id)
        elif action == "unmark" and account is not None:
            await self.marks.include_account(account.id)
        return entry

    async def _check_mark(self, account: Account, mark: bool) -> None:
        """409 if ``account`` already is (``mark``) or is not marked, as the ratings say."""
        marked = bool(await self.marks.excluded_among([account.id]))
        if marked and mark:
            raise conflict("already_marked", f"{account.name} is marked already")
        if not marked and not mark:
            raise conflict("not_marked", f"{account.name} is not marked")

    async def _subject(self, report: str | None, name: str | None) -> Subject:
        """The account and report a decision is about: the report's subject (its line's
        author, the reported player), else the account named."""
        if report is None:
            if not name:
                raise bad_request("name a report or an account")
            account = await self.accounts.by_name(name)
            if account is None:
                raise not_found(f"there is no player named {name!r} (or the account was closed)")
            return Subject(account, None)
        kind, _, number = report.partition(":")
        if kind not in ("chat", "player") or not number.isdigit() or len(number) > 9:
            raise bad_request("a report is named chat:<id> or player:<id>")
        report_id = int(number)
        if kind == "player":
            found = await self.run(self.store.player_report, report_id)
            if found is None:
                raise not_found(f"there is no report {report}")
            return Subject(await self.accounts.by_id(found.reported_id), (kind, report_id))
        line = await self._chat_report(report_id)
        author = None if line.author_id is None else await self.accounts.by_id(line.author_id)
        return Subject(author, (kind, report_id))

    async def _chat_report(self, report_id: int) -> ReportedLine:
        page = await self.chat.reported(report_id + 1, 1)
        if not page or page[0].report_id != report_id:
            raise not_found(f"there is no report chat:{report_id}")
        return page[0]

    async def log(self) -> list[Entry]:
        found: list[Entry] = await self.run(self.store.log, LOG_SHOWN)
        return found

    # ----- what the player is told --------------------------------------------------------
    async def notices(self, account_id: int) -> list[Notice]:
        found: list[Notice] = await self.run(self.store.notices, account_id)
        return found

    async def seen(self, account_id: int, notice_id: int) -> None:
        if not await self.run(self.store.seen, account_id, notice_id):
            raise not_found(f"you have no notice {notice_id}")
