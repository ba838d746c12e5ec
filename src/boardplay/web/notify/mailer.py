"""E-mail notifications of correspondence games: "your turn" and "game over", to players who gave
an address, confirmed it and asked for them; every one with a link that turns them off.

The game code calls two hooks on the process that committed the change (``Mailer.your_turn``,
``Mailer.game_over``); they only *queue* a mail in the database (``mailstore.py``), in the
operator's ceilings, and never raise: a mail that cannot be queued must not undo a move. A
background loop on every process (``Mailer.start``) claims due mails one at a time with a
compare-and-set and hands each to the SMTP server in a thread of its own (``smtp.py``), so the
event loop never waits on the network and a slow SMTP server never holds a database thread.
A send that fails is retried with growing pauses (1, 4, 16, 64 minutes) by whichever process
looks next, and given up after ``MAX_ATTEMPTS`` or at once when the server refuses for good (a
5xx answer), with the reason kept in ``last_error``.

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
import contextlib
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import TYPE_CHECKING, Any, Protocol

from email_validator import EmailNotValidError, validate_email

from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits, Settings
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.notify.mailstore import (
    ADDRESS_MAX,
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
from boardplay.web.notify.words import deadline_text, game_title, language_of, names, outcome, say
from boardplay.web.smtp import SmtpServer, parse_smtp_url, permanent, send
from boardplay.web.table import Database

if TYPE_CHECKING:
    from boardplay.web.accounts import Account
    from boardplay.web.table import GameRow

log = logging.getLogger("boardplay.web.mail")

Runner = Callable[..., Awaitable[Any]]


class MailHost(Database, Protocol):
    """What the mailer takes from the process that runs it (``Hub``)."""

    catalogue: WebCatalogue
    limits: Limits
    epoch: str


LEASE = 120.0
"""Seconds a claimed mail stays with its process: far above one send (each exchange with the
SMTP server times out after ``smtp.TIMEOUT``), so a live process never loses a claim mid-send."""
POLL = 10.0
"""Seconds between a process's looks at the outbox for mails others queued or that are due
again (a process looks at once after queuing one itself)."""
BATCH = 20
"""Mails one look sends at most (then the loop yields and looks again)."""
MAX_ATTEMPTS = 5
"""Sends of one mail before it is given up."""
BACKOFF = 60.0
"""Seconds before the first retry; each further one waits four times longer."""
PRUNE_EVERY = 3600.0
NAME_CHARS = 40
"""Characters of a player's name a mail repeats."""
RESULT_CHARS = 300
CLOSE_WAIT = 30.0
"""Seconds a process shutting down waits for the mail in hand to be sent."""
LOCAL_MAX = 64
"""Longest part before the @-sign (RFC 5321)."""
ROUTING = frozenset("%!")
"""Characters of a local part that some mail servers read as a route to another host."""
"""An address the server will mail: an ASCII local part and a domain name with a dot (no
quoted local parts, no address literals, no internationalised addresses)."""
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


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


def correspondence(row: GameRow) -> bool:
    """A game played over days (``clock`` ``{"days": n}``): the only kind mails are about."""
    clock = getattr(row, "clock", None)
    return isinstance(clock, dict) and "days" in clock


def clean(text: Any, limit: int) -> str:
    """``text`` on one line (no control characters: nothing a name holds can start a new
    header or fake a line of the mail), cut to ``limit`` characters."""
    line = CONTROL.sub(" ", str(text)).strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


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


class Mailer:
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
    ) -> None:
        self.store = store
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
        self._wake = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self._smtp = ThreadPoolExecutor(1, thread_name_prefix="boardplay-smtp") if config else None
        self._pruned = 0.0

    @classmethod
    def for_hub(cls, hub: MailHost, config: MailConfig | None) -> Mailer:
        catalogue = hub.catalogue

        def title_of(name: str) -> str:
            try:
                return str(getattr(catalogue.load(name, {}), "title", name))
            except Exception:  # a game no longer offered keeps its name
                return name

        store = MailStore(hub.storage.engine)
        return cls(store, hub.db, config, hub.limits, hub.epoch, title_of)

    @property
    def enabled(self) -> bool:
        return self.config is not None

    # ----- the loop ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    def wake(self) -> None:
        """Look at the outbox now (a mail was queued here)."""
        self._wake.set()

    async def close(self) -> None:
        """Stop the loop after the mail in hand (a mail cut off mid-send would be sent again
        by another process once its lease ran out)."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), CLOSE_WAIT)
            except Exception:
                self._task.cancel()
                with contextlib.suppress(BaseException):
                    await self._task
        if self._smtp is not None:
            self._smtp.shutdown(wait=False, cancel_futures=True)

    async def _loop(self) -> None:
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL * random.uniform(0.75, 1.25))
            self._wake.clear()
            try:
                await self.drain()
            except Exception:
                log.exception("could not look at the mail outbox; trying again")

    async def drain(self) -> int:
        """Send the due mails (up to ``BATCH``); returns how many were sent."""
        if self.config is None:
            return 0
        loop = asyncio.get_running_loop()
        done = 0
        for _ in range(BATCH):
            if self._closing:
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
        if time.time() - self._pruned > PRUNE_EVERY:
            self._pruned = time.time()
            await self.run(self.store.prune)
        return done

    async def _failed(self, mail: Claimed, exc: BaseException) -> None:
        reason = clean(f"{type(exc).__name__}: {exc}", 400)
        give_up = permanent(exc) or mail.attempts >= MAX_ATTEMPTS
        retry = None if give_up else time.time() + BACKOFF * 4 ** (mail.attempts - 1)
        log.warning(
            "mail %s (%s) to the SMTP server failed (attempt %d): %s; %s",
            mail.id,
            mail.kind,
            mail.attempts,
            reason,
            "given up" if give_up else "will retry",
        )
        await self.run(self.store.failed, mail.id, self.process, reason, retry)

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
        message["Subject"] = clean(mail.subject, SUBJECT_MAX)
        message["Date"] = formatdate(usegmt=True)
        domain = parseaddr(self.config.sender)[1].rpartition("@")[2] or None
        message["Message-ID"] = make_msgid("boardplay", domain=domain)
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
        lang = mail.language
        if mail.kind == CONFIRM:
            confirm = self.link(f"/api/email/confirm?token={mail.token}")
            footer = f"{confirm}\n\n{say(lang, 'mail.confirmIgnore')}\n"
        else:
            stop = self.link(f"/api/email/unsubscribe?token={mail.token}")
            message["List-Unsubscribe"] = f"<{stop}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
            footer = (
                f"-- \n{say(lang, 'mail.why', origin=self.config.origin)}\n"
                f"{say(lang, 'mail.stop', link=stop)}\n"
                f"{say(lang, 'mail.choose', link=self.link('/#/account'))}\n"
            )
        message.set_content(f"{mail.body}\n\n{footer}")
        return message

    def title(self, name: str) -> str:
        if name not in self._titles:
            self._titles[name] = clean(self.title_of(name), NAME_CHARS)
        return self._titles[name]

    def _game(self, row: GameRow, account: int, lang: str) -> dict[str, str]:
        """The game's title and the other players, as ``lang`` writes them (``words.py``)."""
        seats = [(s.name, s.account) for s in row.seats]
        game = game_title(lang, row.game, self.title(row.game))
        return {"game": game, "names": names(lang, seats, account)}

    def _turn_draft(self, row: GameRow, account: int, lang: str = "en") -> Draft:
        named = self._game(row, account, lang)
        lines = [
            say(lang, "mail.turnBody", **named),
            "",
            say(lang, "mail.play", link=self.link(f"/#/game/{row.id}")),
        ]
        if when := deadline_text(getattr(row, "deadline", None)):
            lines.append(say(lang, "mail.deadline", when=when))
        return Draft(say(lang, "mail.turnSubject", **named), "\n".join(lines)[:BODY_MAX])

    def _end_draft(self, row: GameRow, account: int, lang: str = "en") -> Draft:
        named = self._game(row, account, lang)
        mine = {s.seat for s in row.seats if s.account == account}
        # The engine's own sentence ("Red wins 6-4") is English: other languages get the
        # reader's outcome alone.
        text = clean((row.result or {}).get("text") or "", RESULT_CHARS) if lang == "en" else ""
        lines = [
            say(lang, "mail.endBody", **named),
            "",
            " ".join(part for part in (text, outcome(lang, row.result, mine)) if part),
            "",
            say(lang, "mail.replay", link=self.link(f"/#/game/{row.id}")),
        ]
        return Draft(say(lang, "mail.endSubject", **named), "\n".join(lines)[:BODY_MAX])

    def _confirm_draft(self, name: str, lang: str | None) -> Draft:
        assert self.config is not None
        origin, who = self.config.origin, clean(name, NAME_CHARS)
        body = (
            f"{say(lang, 'mail.confirmBody', origin=origin, name=who)}\n\n"
            f"{say(lang, 'mail.confirmLink')}"
        )
        return Draft(say(lang, "mail.confirmSubject"), body)

    # ----- the hooks the game code calls ------------------------------------------------------
    async def your_turn(self, row: GameRow, seat: int) -> None:
        """The turn of a correspondence game passed to ``seat``: mail its account if it wants
        to know. Called by the process that committed the move; never raises."""
        if not self.enabled or not correspondence(row):
            return
        try:
            if not 0 <= seat < len(row.seats) or row.seats[seat].account is None:
                return
            account = row.seats[seat].account
            assert account is not None
            lang = language_of((await self.run(self.store.languages, [account])).get(account))
            await self._notify(TURN, row.id, {account: self._turn_draft(row, account, lang)})
        except Exception:
            log.exception("could not queue the 'your turn' mail of game %s", row.id)

    async def game_over(self, row: GameRow) -> None:
        """A correspondence game ended: mail each seated account that wants to know. Called
        once per game, by the process that committed the end; never raises."""
        if not self.enabled or not correspondence(row):
            return
        try:
            accounts = {s.account for s in row.seats if s.account is not None}
            chosen = await self.run(self.store.languages, sorted(accounts))
            drafts = {a: self._end_draft(row, a, language_of(chosen.get(a))) for a in accounts}
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

    # ----- the account's address (``routes.py``) ---------------------------------------------
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

    async def remove(self, account_id: int) -> None:
        await self.run(self.store.remove, account_id)

    async def confirm(self, token: str) -> bool:
        return 0 < len(token) <= 100 and bool(await self.run(self.store.confirm, token))

    async def unsubscribe(self, token: str) -> bool:
        return 0 < len(token) <= 100 and bool(await self.run(self.store.unsubscribe, token))
