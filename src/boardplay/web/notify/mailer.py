"""E-mail notifications of correspondence games: "your turn" and "game over", to players who gave
an address, confirmed it and asked for them; every one with a link that turns them off.

The process that committed a change hears it as an event (``channel.py``), and calls
``Mailer.your_turn`` or ``Mailer.game_over``; they only *queue* a mail in the database
(``mailstore.py``), in the operator's ceilings, and never raise: a mail that cannot be queued must
not undo a move. A background loop on every process (``Mailer.start``, an ``outbox.Sender``) claims
due mails one at a time from the leased outbox (``outbox.py``) and hands each to the SMTP server in
a thread of its own (``smtp.py``), so the event loop never waits on the network and a slow SMTP
server never holds a database thread. A send that fails is retried with growing pauses (1, 4, 16, 64
minutes) by whichever process looks next, and given up after ``MAX_ATTEMPTS`` or at once when the
server refuses for good (a 5xx answer), with the reason kept in ``last_error``.

Exactly once: a claimed mail is marked sent right after the SMTP server accepted it. Only a
process that dies between those two steps (or a send outlasting ``LEASE``, which the SMTP
timeouts rule out) lets another process send it again when the claim's lease runs out; no
mail is ever lost that way, and no mail is sent twice otherwise. A process shutting down
finishes the mail in hand before it stops.

Without ``BOARDPLAY_WEB_SMTP_URL`` the mailer is off: nothing is queued, the loop does not run,
and the account page says so. Mails are plain text in the language the account chose on the
page (``accounts.language``; English if none), in the words of ``words.py``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import TYPE_CHECKING, Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy.engine import Engine

from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits, Settings
from boardplay.web.database import Runner
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.events import AccountClosed, Bus
from boardplay.web.notify import words
from boardplay.web.notify.channel import Channel
from boardplay.web.notify.mailstore import (
    ADDRESS_MAX,
    BACKOFF,
    BODY_MAX,
    CONFIRM,
    END,
    NOTIFICATIONS,
    SUBJECT_MAX,
    TURN,
    CeilingReached,
    Claimed,
    Draft,
    MailStore,
)
from boardplay.web.notify.outbox import ERROR_MAX
from boardplay.web.played import Game
from boardplay.web.smtp import SmtpServer, parse_smtp_url, permanent, send

if TYPE_CHECKING:
    from boardplay.web.accounts import Account
    from boardplay.web.table import Games

log = logging.getLogger("boardplay.web.mail")


LEASE = 120.0
"""Seconds a claimed mail stays with its process: far above one send (each exchange with the
SMTP server times out after ``smtp.TIMEOUT``), so a live process never loses a claim mid-send."""
BATCH = 20
"""Mails one look sends at most (then the loop yields and looks again)."""
MAX_ATTEMPTS = BACKOFF.tries
"""Sends of one mail before it is given up (``mailstore.BACKOFF``: 1, 4, 16, 64 minutes apart)."""
RESULT_CHARS = 300
CLOSE_WAIT = 30.0
"""Seconds a process shutting down waits for the mail in hand to be sent."""
LOCAL_MAX = 64
"""Longest part before the @-sign (RFC 5321)."""
ROUTING = frozenset("%!")
"""Characters of a local part that some mail servers read as a route to another host."""
"""An address the server will mail: an ASCII local part and a domain name with a dot (no
quoted local parts, no address literals, no internationalised addresses)."""


def check_address(raw: str) -> str:
    """The address as ``email-validator`` normalises it (its domain in lower case, ASCII), or
    a 400 saying what is wrong. Besides the syntax it refuses ``%`` and ``!`` in the local part:
    some mail servers still route ``victim%evil.example@example.org`` on to ``evil.example``
    (the "percent hack" and bang paths), so such an address could make this server mail a
    stranger."""
    address = raw.strip()
    problem = None
    try:
        found = validate_email(address, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError as exc:
        problem = str(exc)
    else:
        if ROUTING & set(found.local_part):
            problem = "the part before the @-sign may not hold % or ! (they route mail onwards)"
        elif len(found.local_part) > LOCAL_MAX:
            problem = f"the part before the @-sign is longer than {LOCAL_MAX} characters"
        address = found.ascii_email or address
    if problem is not None or len(address) > ADDRESS_MAX:
        raise bad_request(
            "field 'address' must be one e-mail address such as hana@example.org (ASCII, at "
            f"most {ADDRESS_MAX} characters): {problem or 'too long'}"
        )
    return address


def correspondence(row: Game) -> bool:
    """A game played over days (``clock`` ``{"days": n}``): the only kind mails are about."""
    clock = getattr(row, "clock", None)
    return isinstance(clock, dict) and "days" in clock


@dataclass(frozen=True)
class MailConfig:
    """What sending needs, from ``Settings`` (None there: e-mail is off)."""

    server: SmtpServer
    sender: str
    origin: str

    @classmethod
    def from_settings(cls, settings: Settings) -> MailConfig | None:
        if not settings.smtp_url or not settings.mail_from or not settings.origin:
            return None  # Settings refuses half a setup at start; this is "no e-mail"
        return cls(
            parse_smtp_url(settings.smtp_url),
            settings.mail_from.strip(),
            settings.origin.rstrip("/"),
        )


class Mailer(Channel):
    """Queues and sends one process's mails. ``run`` runs a store call off the event loop
    (``Hub.db``); ``title_of`` names a game for people."""

    def __init__(
        self,
        store: MailStore,
        run: Runner,
        config: MailConfig | None,
        limits: Limits,
        process: str,
        title_of: Callable[[str], str] = str,
        languages: words.Languages = words.no_languages,
    ) -> None:
        super().__init__(log, CLOSE_WAIT)
        self.store = store
        self.languages = languages
        self.run = run
        self.config = config
        self.limits = limits
        self.process = process
        self.title_of = title_of
        self.queued = 0
        self.dropped = 0
        """Notifications not queued because their account reached ``mails_per_account_hour``."""
        self.sent = 0
        self._titles: dict[str, str] = {}
        self._smtp = ThreadPoolExecutor(1, thread_name_prefix="boardplay-smtp") if config else None

    @classmethod
    def open(
        cls,
        engine: Engine,
        db: Runner,
        config: MailConfig | None,
        limits: Limits,
        epoch: str,
        catalogue: WebCatalogue,
        languages: words.Languages,
        bus: Bus,
        games: Games,
    ) -> Mailer:
        """The mailer of a process: its store on ``engine``, run on the storage threads
        ``db``, hearing the turns and ends of correspondence games (the games read through
        ``games``) and the accounts deleted; ``languages`` the accounts' languages."""
        titles = words.titles(catalogue)
        made = cls(MailStore(engine), db, config, limits, epoch, titles, languages)
        made.hear(bus, games)
        return made

    @property
    def enabled(self) -> bool:
        return self.config is not None

    # ----- the loop (``outbox.Sender``) -------------------------------------------------------
    def start(self) -> None:
        if self.enabled:
            self.start_loop()

    async def shut(self) -> None:
        if self._smtp is not None:
            self._smtp.shutdown(wait=False, cancel_futures=True)

    async def drain(self) -> int:
        """Send the due mails one after another (up to ``BATCH``: one SMTP connection at a
        time, in its own thread); returns how many were sent."""
        if self.config is None:
            return 0
        loop = asyncio.get_running_loop()
        done = 0
        for _ in range(BATCH):
            if self.closing:
                break
            mail = await self.run(self.store.claim, self.process, LEASE)
            if mail is None:
                break
            try:
                await loop.run_in_executor(self._smtp, send, self.config.server, self.message(mail))
            except Exception as exc:
                await self._failed(mail, exc)
                if not permanent(exc):
                    break  # the server is down or busy: the other mails wait for the next look
                continue
            if not await self.run(self.store.sent, mail.id, self.process):
                log.warning("mail %s was sent after its claim ran out (it may go twice)", mail.id)
            done += 1
            self.sent += 1
        if self.prune_due():
            await self.run(self.store.prune)
        return done

    async def _failed(self, mail: Claimed, exc: BaseException) -> None:
        reason = words.clean(f"{type(exc).__name__}: {exc}", ERROR_MAX)
        again = await self.run(
            self.store.failed, mail.id, self.process, reason, mail.attempts, not permanent(exc)
        )
        log.warning(
            "mail %s (%s) to the SMTP server failed (attempt %d of %d): %s; %s",
            mail.id,
            mail.kind,
            mail.attempts,
            MAX_ATTEMPTS,
            reason,
            "will retry" if again else "given up",
        )

    # ----- what a mail says -------------------------------------------------------------------
    def link(self, path: str) -> str:
        assert self.config is not None
        return f"{self.config.origin}{path}"

    def message(self, mail: Claimed) -> EmailMessage:
        """The mail as sent: its stored words, then the link made for it now."""
        assert self.config is not None
        message = EmailMessage()
        message["From"] = self.config.sender
        message["To"] = mail.to
        message["Subject"] = words.clean(mail.subject, SUBJECT_MAX)
        message["Date"] = formatdate(usegmt=True)
        domain = parseaddr(self.config.sender)[1].rpartition("@")[2] or None
        message["Message-ID"] = make_msgid("boardplay", domain=domain)
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
        lang = mail.language
        if mail.kind == CONFIRM:
            confirm = self.link(f"/api/email/confirm?token={mail.token}")
            footer = f"{confirm}\n\n{words.say(lang, 'mail.confirmIgnore')}\n"
        else:
            stop = self.link(f"/api/email/unsubscribe?token={mail.token}")
            message["List-Unsubscribe"] = f"<{stop}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
            footer = (
                f"-- \n{words.say(lang, 'mail.why', origin=self.config.origin)}\n"
                f"{words.say(lang, 'mail.stop', link=stop)}\n"
                f"{words.say(lang, 'mail.choose', link=self.link('/#/account'))}\n"
            )
        message.set_content(f"{mail.body}\n\n{footer}")
        return message

    def title(self, name: str) -> str:
        if name not in self._titles:
            self._titles[name] = words.clean(self.title_of(name), words.NAME_CHARS)
        return self._titles[name]

    def _game(self, row: Game, account: int, lang: str) -> dict[str, str]:
        """The game's title and the other players, as ``lang`` writes them (``words.py``)."""
        seats = [(s.name, s.account) for s in row.seats]
        game = words.game_title(lang, row.game, self.title(row.game))
        return {"game": game, "names": words.names(lang, seats, account)}

    def _turn_draft(self, row: Game, account: int, lang: str = "en") -> Draft:
        named = self._game(row, account, lang)
        lines = [
            words.say(lang, "mail.turnBody", **named),
            "",
            words.say(lang, "mail.play", link=self.link(f"/#/game/{row.id}")),
        ]
        if when := words.deadline_text(getattr(row, "deadline", None)):
            lines.append(words.say(lang, "mail.deadline", when=when))
        return Draft(words.say(lang, "mail.turnSubject", **named), "\n".join(lines)[:BODY_MAX])

    def _end_draft(self, row: Game, account: int, lang: str = "en") -> Draft:
        named = self._game(row, account, lang)
        mine = {s.seat for s in row.seats if s.account == account}
        # The engine's own sentence ("Red wins 6-4") is English: other languages get the
        # reader's outcome alone.
        text = (
            words.clean((row.result or {}).get("text") or "", RESULT_CHARS) if lang == "en" else ""
        )
        lines = [
            words.say(lang, "mail.endBody", **named),
            "",
            " ".join(part for part in (text, words.outcome(lang, row.result, mine)) if part),
            "",
            words.say(lang, "mail.replay", link=self.link(f"/#/game/{row.id}")),
        ]
        return Draft(words.say(lang, "mail.endSubject", **named), "\n".join(lines)[:BODY_MAX])

    def _confirm_draft(self, name: str, lang: str | None) -> Draft:
        assert self.config is not None
        origin, who = self.config.origin, words.clean(name, words.NAME_CHARS)
        body = (
            f"{words.say(lang, 'mail.confirmBody', origin=origin, name=who)}\n\n"
            f"{words.say(lang, 'mail.confirmLink')}"
        )
        return Draft(words.say(lang, "mail.confirmSubject"), body)

    # ----- what the channel's events ask for -------------------------------------------------
    async def your_turn(self, row: Game, seat: int) -> None:
        """The turn of a correspondence game passed to ``seat``: mail its account if it wants
        to know. Called by the process that committed the move; never raises."""
        if not self.enabled or not correspondence(row):
            return
        try:
            account = words.holder(row.seats, seat)
            if account is None:
                return
            chosen = await self.languages([account])
            lang = words.language_of(chosen.get(account))
            await self._notify(TURN, row.id, {account: self._turn_draft(row, account, lang)})
        except Exception:
            log.exception("could not queue the 'your turn' mail of game %s", row.id)

    async def game_over(self, row: Game) -> None:
        """A correspondence game ended: mail each seated account that wants to know. Called
        once per game, by the process that committed the end; never raises."""
        if not self.enabled or not correspondence(row):
            return
        try:
            accounts = {s.account for s in row.seats if s.account is not None}
            chosen = await self.languages(sorted(accounts))
            drafts = {
                a: self._end_draft(row, a, words.language_of(chosen.get(a))) for a in accounts
            }
            await self._notify(END, row.id, drafts)
        except Exception:
            log.exception("could not queue the 'game over' mails of game %s", row.id)

    async def _notify(self, kind: str, game_id: str, drafts: dict[int, Draft]) -> None:
        assert kind in NOTIFICATIONS
        queued, dropped = await self.run(
            self.store.notify, kind, game_id, drafts, self.limits.mails_per_account_hour
        )
        self.queued += queued
        if dropped:
            self.dropped += dropped
            log.warning(
                "%d '%s' mail(s) of game %s dropped: the account had %d notifications within "
                "the hour (BOARDPLAY_WEB_MAILS_PER_ACCOUNT_HOUR); %d dropped by this process",
                dropped,
                kind,
                game_id,
                self.limits.mails_per_account_hour,
                self.dropped,
            )
        if queued:
            self.wake()

    # ----- the account's address (``api/notify.py``) ------------------------------------------
    async def status(self, account_id: int) -> dict[str, Any]:
        """What the account page shows: the address and choices, and whether mail works."""
        found = await self.run(self.store.get, account_id)
        return {"available": self.enabled, "email": None if found is None else asdict(found)}

    async def save(
        self, account: Account, address: str, turns: bool, end: bool, resend: bool
    ) -> dict[str, Any]:
        """Store the address and choices; a new address (or ``resend``) is sent a confirmation
        (429 past ``confirmations_per_hour``)."""
        if self.config is None:
            raise ApiError(
                409,
                "mail_off",
                "this server sends no e-mail: its operator has not set an SMTP server "
                "(BOARDPLAY_WEB_SMTP_URL)",
            )
        address = check_address(address)
        ceiling = self.limits.confirmations_per_hour
        try:
            found, queued = await self.run(
                self.store.save,
                account.id,
                address,
                turns,
                end,
                resend,
                self._confirm_draft(account.name, account.language),
                ceiling,
            )
        except CeilingReached as reached:
            raise ApiError(
                429,
                "too_many_confirmations",
                f"{reached.count} confirmation mails were asked for this account or this address "
                f"within the hour; the server sends {ceiling} an hour "
                "(BOARDPLAY_WEB_CONFIRMATIONS_PER_HOUR): try again later",
                {"Retry-After": "3600"},
            ) from None
        if queued:
            self.wake()
        return {"available": True, "email": asdict(found), "sent": queued}

    async def account_closed(self, event: AccountClosed) -> None:
        """A deleted account's address and unsent mails go (``AccountClosed``)."""
        await self.remove(event.account_id)

    async def remove(self, account_id: int) -> None:
        await self.run(self.store.remove, account_id)

    async def confirm(self, token: str) -> bool:
        return 0 < len(token) <= 100 and bool(await self.run(self.store.confirm, token))

    async def unsubscribe(self, token: str) -> bool:
        return 0 < len(token) <= 100 and bool(await self.run(self.store.unsubscribe, token))
