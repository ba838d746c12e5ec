"""Web Push: "your turn", "challenge received" and "game over" on a player's devices with no page
of the site open, each with a button that turns them off on that device.

The process that stored a change hears it as an event (``channel.py``; ``ChallengeSent`` straight)
and calls ``Pusher.your_turn``, ``game_over`` or ``challenge``; they only *queue* pushes in the
database (``pushstore.py``), in the account's language and within its hourly ceiling, and never
raise: a push that cannot be queued must not undo a move. A background loop on every process claims
due pushes from the leased outbox (``outbox.py``) and posts each to its push service
(``webpush.py``), several at once, so no move ever waits on a push service and each push leaves from
one process. A push service that hangs holds only its own pushes: a process has at most
``PushConfig.posts_at_once`` posts out, ``posts_per_service`` of them to one service, and the pushes
to a service with all its posts out wait in the outbox while the others' go. A push service that is
busy or failing (429, 5xx, no answer) gets the push again after growing pauses; one that says the
subscription is gone (404, 410) has it deleted at once.

**Nothing for a game the player is looking at.** Two checks, because neither alone is enough:

- the server queues no "your turn" and no "game over" for a seat whose page shows the game on
  any device: the game socket's presence (``table/presence.py``), which every process shares and the
  mails obey too. It is the only check that spares the phone in the pocket while the game is
  open on the desktop, and it costs no push at all;
- the service worker (``static/sw.js``) drops a push about a game shown by a visible page of the
  site on that device, and a challenge when any page is visible (every page shows challenges
  under its header). That covers the moment between a push being queued and being sent, and a
  page opened since. A page that is open but hidden keeps its socket, so the server sends
  nothing and the page itself raises the notice (``static/turns.js``, through the service
  worker's ``showNotification``).

Without a working ``pywebpush`` (the ``web`` extra) pushes are off: nothing is queued and the
page says so, and the pages' own notices still work."""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx
from sqlalchemy.engine import Engine

from boardplay.web.database import Runner
from boardplay.web.events import AccountClosed, Bus, ChallengeSent
from boardplay.web.notify import pushtext, words
from boardplay.web.notify.channel import Channel
from boardplay.web.notify.pushconfig import PushConfig, available
from boardplay.web.notify.pushstore import (
    BACKOFF,
    CHALLENGE,
    END,
    TURN,
    Claimed,
    PushStore,
    Subscription,
)
from boardplay.web.notify.webpush import (
    TIMEOUT,
    ServerKey,
    allowed,
    endpoint_problem,
    new_private_key,
    post,
    service_of,
    topic,
)
from boardplay.web.played import Game

if TYPE_CHECKING:
    from boardplay.web.catalogue import WebCatalogue
    from boardplay.web.table import Games

log = logging.getLogger("boardplay.web.push")

LEASE = 60.0
"""Seconds a claimed push stays with its process: far above one post (``webpush.TIMEOUT``)."""
BATCH = 20
"""Pushes one look at the outbox claims at most (then the loop yields and looks again)."""
CLOSE_WAIT = 15.0
"""Seconds a process shutting down waits for the push in hand (above ``webpush.TIMEOUT``)."""
TTL = {TURN: 12 * 3600, END: 24 * 3600}
"""Seconds a push service keeps a push for a device that is offline (a challenge: its lifetime)."""
URGENCY = {TURN: "normal", END: "low", CHALLENGE: "high"}


@dataclass
class Counters:
    queued: int = 0
    dropped: int = 0
    """Notifications not queued because their account reached the hourly ceiling."""
    sent: int = 0
    gone: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


class Pusher(Channel):
    """Queues and sends one process's pushes. ``run`` runs a store call off the event loop;
    ``title_of`` names a game; ``languages`` gives accounts' languages; ``here`` the seats whose
    page shows a game now (on any process)."""

    def __init__(
        self,
        store: PushStore,
        run: Runner,
        config: PushConfig | None,
        process: str,
        title_of: Callable[[str], str] = str,
        languages: words.Languages = words.no_languages,
        here: Callable[[str], AbstractSet[int]] = lambda game_id: frozenset(),
    ) -> None:
        super().__init__(log, CLOSE_WAIT)
        self.store = store
        self.run = run
        self.config = config if config is not None and available() else None
        self.process = process
        self.title_of = title_of
        self.languages = languages
        self.here = here
        self.key: ServerKey | None = None
        self.counters = Counters()
        self._client: httpx.AsyncClient | None = None
        self._posting: Counter[str] = Counter()
        """Posts out now, by push service (``webpush.service_of``)."""

    @classmethod
    def open(
        cls,
        engine: Engine,
        db: Runner,
        config: PushConfig | None,
        epoch: str,
        catalogue: WebCatalogue,
        languages: words.Languages,
        here: Callable[[str], AbstractSet[int]],
        bus: Bus,
        games: Games,
    ) -> Pusher:
        """The pusher of a process: its store on ``engine``, run on the storage threads
        ``db``; ``languages`` the accounts' languages (the accounts'), ``here`` the seats
        whose page shows a game now (the table's). It hears the turns and ends of
        correspondence games (read through ``games``), the challenges and the accounts
        deleted."""
        titles = words.titles(catalogue)
        made = cls(PushStore(engine), db, config, epoch, titles, languages, here)
        made.hear(bus, games)
        bus.subscribe(ChallengeSent, made.challenge_sent)
        return made

    @property
    def enabled(self) -> bool:
        return self.config is not None

    @property
    def public_key(self) -> str | None:
        """The ``applicationServerKey`` browsers subscribe with (None while pushes are off)."""
        return self.key.public if self.key is not None else None

    # ----- the loop (``outbox.Sender``) -------------------------------------------------------
    async def start(self) -> None:
        """Read (or make) the server's key and start sending. A key that cannot be read turns
        pushes off for this process (logged), never the server."""
        if self.config is None or self.key is not None:
            return
        try:
            private = self.config.private_key or await self.run(
                self.store.private_key, new_private_key
            )
            self.key = ServerKey(private)
        except Exception:
            log.exception("could not read or make the server's push key: pushes are off")
            self.config = None
            return
        self.start_loop()

    def _http(self) -> httpx.AsyncClient:
        """The client posts go through, made at the first post: making one reads certifi's
        certificate bundle (25 ms of CPU), which a server that never pushes should not pay at
        each start."""
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=TIMEOUT, follow_redirects=False, trust_env=False
            )
        return self._client

    async def shut(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    async def drain(self) -> int:
        """Start posting the due pushes (up to ``BATCH`` in one look), each beside the others:
        at most ``posts_at_once`` posts at a time, ``posts_per_service`` of them to one push
        service; a push to a service with all its posts out is left in the outbox until one
        ends. Returns how many posts it started: each ends on its own and wakes the loop, so
        a service that hangs holds only its own pushes, never the others'."""
        if self.config is None or self.key is None:
            return 0
        started = 0
        for _ in range(BATCH):
            if self.closing or self.in_hand >= self.config.posts_at_once:
                break
            each = self.config.posts_per_service
            busy = frozenset(s for s, posting in self._posting.items() if posting >= each)
            push = await self.run(self.store.claim, self.process, LEASE, self.key.public, busy)
            if push is None:
                break
            service = service_of(push.target.endpoint)
            self._posting[service] += 1
            self.spawn(self._post(push, service))
            started += 1
        if self.prune_due():
            await self.run(self.store.prune)
        return started

    async def _post(self, push: Claimed, service: str) -> None:
        """Send one push, then free its place (and look at the outbox again: a push to its
        service may be waiting for it)."""
        try:
            await self._send(push)
        except Exception:  # the database, most likely: its claim runs out and it goes again
            log.exception("push %s could not be finished; it goes again after its lease", push.id)
        finally:
            self._posting[service] -= 1
            if not self._posting[service]:
                del self._posting[service]
            self.wake()

    async def _send(self, push: Claimed) -> bool:
        assert self.config is not None and self.key is not None
        if problem := endpoint_problem(push.target.endpoint):
            await self._unusable(push, f"the endpoint cannot be posted to: {problem}")
            return False
        if not allowed(push.target.endpoint, self.config.services):
            await self._failed(push, "the endpoint is not on an allowed push service", None, None)
            return False
        try:
            answer = await post(
                self._http(),
                self.key,
                self.config.contact,
                push.target,
                json.loads(push.payload),
                push.ttl,
                URGENCY.get(push.kind, "normal"),
                topic(push.kind, push.subject),
            )
        except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
            await self._unusable(push, f"{type(exc).__name__}: {exc}")
            return False
        except Exception as exc:
            await self._failed(push, f"{type(exc).__name__}: {exc}", None, None, retry=True)
            return False
        if answer.accepted:
            if not await self.run(self.store.sent, push.id, self.process, answer.status):
                log.warning("push %s was sent after its claim ran out (it may go twice)", push.id)
            self.counters.sent += 1
            return True
        if answer.gone:
            self.counters.gone += 1
            log.info(
                "push service: subscription %s is gone (%d)", push.subscription_id, answer.status
            )
            await self.run(
                self.store.gone, push.id, self.process, push.subscription_id, answer.status
            )
            return False
        await self._failed(
            push,
            f"{answer.status}: {answer.text}",
            answer.status,
            answer.retry_after,
            retry=answer.worth_retrying,
        )
        return False

    async def _unusable(self, push: Claimed, reason: str) -> None:
        """The subscription's endpoint is no URL a push can be posted to (one the subscription's
        check refuses, stored by an older version): it never will be, so the subscription goes
        with the push, as for a service's 404, rather than being retried."""
        self.counters.gone += 1
        log.warning("push %s: subscription %s dropped: %s", push.id, push.subscription_id, reason)
        await self.run(self.store.gone, push.id, self.process, push.subscription_id, None, reason)

    async def _failed(
        self,
        push: Claimed,
        reason: str,
        status: int | None,
        wait: float | None,
        retry: bool = False,
    ) -> None:
        self.counters.failed += 1
        again = await self.run(
            self.store.failed, push.id, self.process, reason, push.attempts, status, retry, wait
        )
        log.warning(
            "push %s (%s) failed (attempt %d of %d): %s; %s",
            push.id,
            push.kind,
            push.attempts,
            BACKOFF.tries,
            words.clean(reason, 200),
            "will retry" if again else "given up",
        )

    # ----- what a push says (``pushtext.py``) ----------------------------------------------
    def turn_payload(self, lang: str, row: Game, account: int) -> str:
        return pushtext.turn(lang, self.title_of, row, account)

    def end_payload(self, lang: str, row: Game, account: int) -> str:
        return pushtext.end(lang, self.title_of, row, account)

    def challenge_payload(
        self, lang: str, sender: str, game: str, rated: bool, challenge_id: str
    ) -> str:
        assert self.config is not None
        ttl = self.config.challenge_ttl
        return pushtext.challenge(lang, self.title_of, sender, game, rated, challenge_id, ttl)

    # ----- what the channel's events ask for -------------------------------------------------
    async def your_turn(self, row: Game, seat: int) -> None:
        """The turn of a correspondence game passed to ``seat``, whose page does not show the
        game (the room checked): push it to the seat's account. Never raises."""
        if not self.enabled:
            return
        try:
            account = words.holder(row.seats, seat)
            if account is None:
                return
            await self._queue(
                TURN, row.id, [account], lambda lang, a: self.turn_payload(lang, row, a)
            )
        except Exception:
            log.exception("could not queue the 'your turn' push of game %s", row.id)

    async def game_over(self, row: Game) -> None:
        """A correspondence game ended: push it to each seated account whose page does not
        show the game. Called once per game; never raises."""
        if not self.enabled:
            return
        try:
            here = self.here(row.id)
            accounts = {
                s.account for s in row.seats if s.account is not None and s.seat not in here
            }
            await self._queue(
                END, row.id, sorted(accounts), lambda lang, a: self.end_payload(lang, row, a)
            )
        except Exception:
            log.exception("could not queue the 'game over' pushes of game %s", row.id)

    async def challenge_sent(self, event: ChallengeSent) -> None:
        """The lobby's ``ChallengeSent``: the challenged player's devices are told."""
        await self.challenge(
            event.to_account, event.sender, event.game, event.rated, event.challenge_id
        )

    async def account_closed(self, event: AccountClosed) -> None:
        """A deleted account's devices hear no more (``AccountClosed``)."""
        await self.forget(event.account_id)

    async def challenge(
        self, to_account: int, sender: str, game: str, rated: bool, challenge_id: str
    ) -> None:
        """``sender`` challenged ``to_account``: push it (the service worker drops it while a
        page of the site is visible, which shows it under its header). Never raises."""
        if not self.enabled:
            return
        try:
            await self._queue(
                CHALLENGE,
                challenge_id,
                [to_account],
                lambda lang, a: self.challenge_payload(lang, sender, game, rated, challenge_id),
            )
        except Exception:
            log.exception("could not queue the challenge push of %s", challenge_id)

    async def _queue(
        self,
        kind: str,
        subject: str,
        accounts: Sequence[int],
        make: Callable[[str, int], str],
    ) -> None:
        if not accounts or self.config is None or self.key is None:
            return
        chosen = await self.languages(list(accounts))
        payloads = {a: make(words.language_of(chosen.get(a)), a) for a in accounts}
        ttl = TTL.get(kind, self.config.challenge_ttl)
        ceiling = self.config.pushes_per_account_hour
        queued, dropped = await self.run(
            self.store.queue, kind, subject, payloads, ttl, ceiling, self.key.public
        )
        self.counters.queued += queued
        if dropped:
            self.counters.dropped += dropped
            log.warning(
                "%d '%s' push(es) of %s dropped: the account had %d notifications within the "
                "hour (BOARDPLAY_WEB_PUSHES_PER_ACCOUNT_HOUR); %d dropped by this process",
                dropped,
                kind,
                subject,
                ceiling,
                self.counters.dropped,
            )
        if queued:
            self.wake()

    # ----- a device's subscription (``api/notify.py``) ----------------------------------------
    async def status(self, account_id: int, device_hash: str | None) -> dict[str, Any]:
        """What the page shows: whether pushes work here, the key to subscribe with, this
        device's subscription (its endpoint, for the page to compare with its own) and how
        many devices the account has."""
        mine = (
            None
            if device_hash is None
            else await self.run(self.store.device, account_id, device_hash)
        )
        current = mine is not None and mine.server_key == self.public_key
        return {
            "available": self.enabled and self.key is not None,
            "key": self.public_key,
            "device": current,
            "endpoint": mine.endpoint if mine is not None and current else None,
            "devices": await self.run(self.store.count, account_id),
        }

    async def subscribe(self, account_id: int, device_hash: str, target: Subscription) -> bool:
        """Push to this device from now on (False: another browser holds that endpoint)."""
        assert self.config is not None and self.key is not None
        kept: bool = await self.run(
            self.store.subscribe,
            account_id,
            device_hash,
            target,
            self.key.public,
            self.config.devices_per_account,
        )
        return kept

    async def forget(
        self, account_id: int, device_hash: str | None = None, keep: str | None = None
    ) -> int:
        """Forget the account's subscription on one device, or on every device but ``keep``
        (signing out everywhere, a new password, a deleted account). Never raises."""
        try:
            removed: int = await self.run(self.store.remove, account_id, device_hash, keep)
        except Exception:
            log.exception("could not forget the push subscriptions of account %s", account_id)
            return 0
        return removed

    async def off(self, endpoint: str, auth: str) -> bool:
        ok: bool = await self.run(self.store.off, endpoint, auth)
        return ok

    async def renew(self, old: Subscription, new: Subscription) -> bool:
        assert self.key is not None
        ok: bool = await self.run(self.store.renew, old, new, self.key.public)
        return ok
