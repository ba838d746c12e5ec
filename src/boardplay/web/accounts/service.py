"""Accounts: who a player is across browsers. Sign-up and sign-in with a passkey (WebAuthn, the
``webauthn`` package) or a username and password (argon2id through ``pwdlib``); sessions in the
database behind a cookie; the sign-in throttle.

Why each choice (docs/web.md, "Accounts"):

- A session is a random 256-bit id sent as an HttpOnly, SameSite=Lax cookie (Secure over
  HTTPS); the database keeps its SHA-256 only. Every sign-in makes a new one (no fixation), and
  each carries its own CSRF token, which the page sends back as ``X-CSRF-Token`` on every state
  change made with the cookie (``get_session`` in ``api/deps.py``).
- Passwords are hashed with argon2id at OWASP's minimum memory-hard setting (19 MiB, two
  passes, one lane): about 40 ms of one core per sign-in here. The hashing runs in a thread,
  one at a time per process, so a burst of sign-ins queues instead of starving the games.
- An unknown name and a wrong password get the same answer after the same work (a password is
  checked against a dummy hash when the name is unknown), so the answer does not reveal who
  has an account.
- Sign-in attempts are counted in the database per account and per address *before* the
  password is checked, one statement each (``throttles.py``), so a burst sent at once gets no
  more checks than one request after another: past either ceiling, sign-in answers 429 for the
  rest of the window, whichever process is asked. A right password gives its attempt back.
- A browser that signed in to an account before carries a device cookie; there it has an
  allowance of its own instead of the account's, so a stranger's five wrong guesses cannot lock
  the owner out of their own devices (and a passkey always works)."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy.engine import Engine

from boardplay.web.accounts.passkeystore import PasskeyStore
from boardplay.web.accounts.store import DEVICE, VISITOR, AccountStore, by_ids
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError, bad_request, conflict
from boardplay.web.events import AccountClosed, Bus, SignedOutEverywhere
from boardplay.web.identity import NAME_MAX, Account, Session
from boardplay.web.throttles import Ceiling, Throttled, Throttles
from boardplay.web.tokens import hash_token, new_token

NAME_MIN = 3
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "system",
        "boardplay",
        "moderator",
        "support",
        "staff",
        "api",
        "account",
        "anonymous",
        "guest",
        "deleted",
        "null",
        "undefined",
        "ai",
        "bot",
        "me",
        "player",
        "players",
    }
)
"""Names nobody may take: ones that would pass for the site, a role or a placeholder."""
PASSWORD_MIN = 8
PASSWORD_MAX = 200
SESSION_LIFETIME = 30 * 24 * 3600.0
"""Seconds a session lasts (signing in again starts a new one)."""
DEVICE_LIFETIME = 400 * 24 * 3600.0
"""Seconds a device cookie lasts (the most browsers keep one)."""
HASHER = PasswordHash((Argon2Hasher(time_cost=2, memory_cost=19_456, parallelism=1),))
DUMMY_HASH = HASHER.hash(secrets.token_urlsafe(16))
"""Checked against when the name is unknown, so both answers cost the same."""
COOKIE = "boardplay_session"
DEVICE_COOKIE = "boardplay_device"
"""A random id a browser keeps once it has signed in (its hash is in ``account_seen``)."""
CSRF_HEADER = "x-csrf-token"


def name_key(name: str) -> str:
    """What two names must differ in to both exist: case is ignored (``Hana`` is ``hana``)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(raw: str) -> str:
    """The name, trimmed, or a 400 saying what a name may be."""
    name = raw.strip()
    if not NAME_MIN <= len(name) <= NAME_MAX or not NAME_PATTERN.fullmatch(name):
        raise bad_request(
            f"a username is {NAME_MIN}-{NAME_MAX} characters: letters, digits, _ and - "
            f"(got {len(name)} characters)"
        )
    if name_key(name) in RESERVED or name_key(name).startswith("deleted"):
        raise conflict("name_reserved", f"the name {name!r} is reserved; choose another")
    return name


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise bad_request(f"a password is {PASSWORD_MIN}-{PASSWORD_MAX} characters long")


def wrong_credentials() -> ApiError:
    """The one answer for an unknown name and for a wrong password."""
    return ApiError(401, "wrong_credentials", "that username and password do not match")


def throttled(exc: Throttled) -> ApiError:
    """The answer to a sign-in past its ceiling (it says what still works)."""
    return exc.error(
        "signin_throttled",
        "too many failed sign-ins for this account or from this address lately; try again "
        f"in {max(1, round(exc.retry_after / 60))} min, or sign in with a passkey, which is "
        "never held up.",
    )


class Accounts:
    """The account operations the routes call; ``run`` runs a store call off the event loop."""

    def __init__(
        self,
        engine: Engine,
        throttles: Throttles,
        limits: Limits,
        run: StorageThreads,
        bus: Bus,
    ) -> None:
        self.store = AccountStore(engine)
        self.bus = bus
        self.keys = PasskeyStore(engine)
        """The account's passkeys and the ceremonies under way (``passkeystore.py``)."""
        self.throttles = throttles
        self.limits = limits
        self.run = run
        self.hashing = asyncio.Semaphore(1)

    async def _hash(self, password: str) -> str:
        async with self.hashing:
            return await asyncio.to_thread(HASHER.hash, password)

    async def _verify(self, password: str, digest: str) -> bool:
        async with self.hashing:
            return await asyncio.to_thread(HASHER.verify, password, digest)

    # ----- accounts and sessions ----------------------------------------------------------
    async def sign_up(self, name: str, password: str | None, network: str) -> Account:
        """A new account (with a password, or none yet: a passkey comes next); 429 past
        ``Limits.signups_per_network`` from the visitor's ``network`` in the hour."""
        name = check_name(name)
        if password is not None:
            check_password(password)
        await self.take_signup(network)
        digest = None if password is None else await self._hash(password)
        return await self.create(name, digest)

    async def take_signup(self, network: str) -> None:
        """Count a sign-up from ``network`` (an address, or an IPv6 /64), or 429."""
        ceiling = Ceiling(f"signup:{network}", self.limits.signups_per_network, 3600.0)
        try:
            await self.run(self.throttles.take, [ceiling])
        except Throttled as exc:
            raise exc.error(
                "too_many_signups",
                f"{self.limits.signups_per_network} accounts were made from this address in "
                "the last hour; the server allows no more for now "
                "(BOARDPLAY_WEB_SIGNUPS_PER_NETWORK)",
            ) from None

    async def create(self, name: str, digest: str | None, handle: str | None = None) -> Account:
        try:
            account: Account = await self.run(
                self.store.create, name, name_key(name), digest, handle or new_token()
            )
        except sa.exc.IntegrityError:
            raise conflict("name_taken", f"the name {name!r} is taken; choose another") from None
        return account

    async def sign_in(self, name: str, password: str, address: str, device: str | None) -> Account:
        """The account whose password this is, or 401 (same answer for an unknown name) or 429
        (too many attempts lately for this account or this address). The attempt is counted
        before the password is checked; a device the account signed in from before (its
        ``device`` cookie) counts against an allowance of its own."""
        key = name_key(name.strip())[:64]
        account: Account | None = await self.run(self.store.by_name, key)
        limits = self.limits
        window = limits.signin_window
        known = (
            account is not None
            and device is not None
            and await self.run(self.store.knows, account.id, DEVICE, hash_token(device))
        )
        if known:
            assert account is not None and device is not None
            mine = f"signin-d:{account.id}:{hash_token(device)}"
            ceilings = [Ceiling(mine, limits.signin_per_account, window)]
        else:
            ceilings = [
                Ceiling(f"signin-a:{key}", limits.signin_per_account, window),
                Ceiling(f"signin-v:{address}", limits.signin_per_address, window),
            ]
        try:
            await self.run(self.throttles.take, ceilings)
        except Throttled as exc:
            raise throttled(exc) from None
        digest = None if account is None else await self.password_hash(account.id)
        good = await self._verify(password[:PASSWORD_MAX], digest or DUMMY_HASH)
        if account is None or digest is None or not good:
            raise wrong_credentials()
        await self.run(self.throttles.give_back, [c.key for c in ceilings])
        return account

    async def seen(self, account: Account, visitor: str, device: str) -> None:
        """Remember the address (as its visitor hash) and the device the account signed in
        from."""
        marks = [(VISITOR, visitor), (DEVICE, hash_token(device))]
        await self.run(self.store.seen, account.id, marks)

    async def open_session(self, account: Account) -> tuple[str, Session]:
        """A new session for ``account``: its cookie value and the session."""
        cookie = new_token()
        csrf = new_token()
        await self.run(
            self.store.open_session, hash_token(cookie), account.id, csrf, SESSION_LIFETIME
        )
        return cookie, Session(account, csrf, time.time() + SESSION_LIFETIME)

    async def session(self, cookie: str | None) -> Session | None:
        if not cookie or len(cookie) > 100:
            return None
        found: Session | None = await self.run(self.store.session, hash_token(cookie))
        return found

    async def close_session(self, cookie: str | None) -> None:
        """The session of this cookie ends (signing out, or a new one signing in)."""
        if cookie and len(cookie) <= 100:
            await self.run(self.store.close_session, hash_token(cookie))

    async def change_password(
        self, account: Account, old: str | None, new: str, keep: str | None
    ) -> None:
        """Set a new password (the old one must be given if there is one), ending every other
        session (``keep``: this browser's stays), then every other way in the old password
        opened (``SignedOutEverywhere``: the seat tokens, the API tokens)."""
        check_password(new)
        digest = await self.password_hash(account.id)
        if digest is not None and not (
            old is not None and await self._verify(old[:PASSWORD_MAX], digest)
        ):
            raise ApiError(403, "wrong_password", "the current password is not right")
        digest = await self._hash(new)
        await self.run(self.store.set_password_everywhere, account.id, digest, keep)
        await self.bus.publish(SignedOutEverywhere(account.id))

    async def password_hash(self, account_id: int) -> str | None:
        """The account's password's hash (None: it signs in with passkeys only)."""
        found = await self.run(self.store.credentials, account_id)
        return None if found is None else found.password_hash

    async def user_handle(self, account_id: int) -> str:
        """The handle the account's passkeys name it by."""
        found = await self.run(self.store.credentials, account_id)
        if found is None:
            raise ApiError(404, "not_found", "this account is gone")
        return str(found.user_handle)

    async def sign_out_everywhere(self, account: Account) -> None:
        """End every session of the account, then every other credential of it
        (``SignedOutEverywhere``): a lost or shared device can no longer act for it anywhere."""
        await self.run(self.store.close_sessions, account.id)
        await self.bus.publish(SignedOutEverywhere(account.id))

    async def delete(self, account: Account) -> None:
        """Close the account for good (``AccountStore.delete``), then tell every domain
        (``AccountClosed``: its seats, tournament entries, seeks, challenges, tokens and
        notices go)."""
        await self.run(self.store.delete, account.id)
        await self.bus.publish(AccountClosed(account.id))

    # ----- what other domains read -------------------------------------------------------
    async def by_id(self, account_id: int) -> Account | None:
        """The account (None if there is none, or it was deleted)."""
        found: Account | None = await self.run(self.store.by_id, account_id)
        return found

    async def by_ids(self, account_ids: Sequence[int]) -> dict[int, Account]:
        """The accounts of these ids that still exist, read now (a deleted one is left out)."""
        return await by_ids(self.run, account_ids)

    async def by_name(self, name: str) -> Account | None:
        """The account named ``name`` (case ignored), if any."""
        found: Account | None = await self.run(self.store.by_name, name_key(name.strip())[:64])
        return found

    async def set_bot(self, account_id: int, bot: bool) -> bool:
        """Mark the account a bot (``bots/`` decides when; False if it is gone)."""
        done: bool = await self.run(self.store.set_bot, account_id, bot)
        return done

    async def languages(self, account_ids: Sequence[int]) -> dict[int, str | None]:
        """The languages the accounts chose on the page (None: never chose one)."""
        found: dict[int, str | None] = await self.run(self.store.languages, list(account_ids))
        return found

    async def set_language(self, account_id: int, language: str) -> None:
        """The language the account's mails and pushes are written in (the page's choice)."""
        await self.run(self.store.set_language, account_id, language)

    async def note_visitor(self, account_id: int, visitor: str) -> None:
        """Remember that the account is acting from ``visitor`` (an address's hash) now, as a
        sign-in does: what tells two accounts of one person apart from two people."""
        await self.run(self.store.seen, account_id, [(VISITOR, visitor)])

    async def sharing(self, account_id: int, others: Sequence[int]) -> set[int]:
        """Those of ``others`` that share an address or a device with ``account_id``."""
        found: set[int] = await self.run(self.store.sharing_marks, account_id, list(others))
        return found
