"""Passkeys (WebAuthn) through the ``webauthn`` package: signing up with one, adding or removing
one later, and signing in with one without typing a name.

Each ceremony is two requests. ``begin`` stores a fresh challenge under a random ceremony id for
five minutes and returns the options the page hands to ``navigator.credentials``; ``finish``
takes the ceremony back (once: a replayed answer finds nothing) and has ``webauthn`` check the
browser's answer against that challenge, this site's origin and relying-party id. Passkeys are
made discoverable (resident), so signing in needs no name: the authenticator says whose key it
is, and the stored public key and signature counter decide whether to believe it.

The relying party is this site's host name, from the operator's configuration only
(``BOARDPLAY_WEB_ORIGIN``), never from a request's ``Host`` header, which the visitor writes.
Without it the server is a local one: the relying party is ``localhost`` on the port the server
listens on (browsers refuse passkeys on a bare IP address, so a local server is reached as
``http://localhost:8000`` for them), and ``boardplay serve`` refuses to listen beyond loopback
without the setting."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

import sqlalchemy as sa
import webauthn
from webauthn.helpers import bytes_to_base64url, options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from boardplay.web.accounts.passkeystore import Ceremony, Passkey
from boardplay.web.accounts.service import Accounts, check_name, name_key
from boardplay.web.errors import ApiError, bad_request, conflict
from boardplay.web.identity import Account
from boardplay.web.text import tidy
from boardplay.web.tokens import hash_token, new_token

CEREMONY_LIFETIME = 300.0
SIGN_UP = "signup"
ADD = "add"
SIGN_IN = "signin"
RP_NAME = "boardplay"
MAX_PASSKEYS = 10
"""Passkeys one account may hold."""
LABEL_LENGTH = 64
T = TypeVar("T")


@dataclass(frozen=True)
class Site:
    """Where the pages are served from: the origin a browser's answer must name, and the
    relying-party id (its host) the passkeys are bound to."""

    origin: str

    @property
    def rp_id(self) -> str:
        return urlsplit(self.origin).hostname or "localhost"


def refused(why: str) -> ApiError:
    return ApiError(400, "passkey_refused", f"the passkey was not accepted: {why}")


def _verify(
    check: Callable[..., T], site: Site, ceremony: Ceremony, credential: dict[str, Any], **more: Any
) -> T:
    """The browser's answer to ``ceremony`` as ``webauthn``'s ``check`` verifies it against the
    ceremony's challenge and this site's origin and relying party (``more``: what else the check
    needs), or ``refused`` naming what failed."""
    try:
        return check(
            credential=json.dumps(credential),
            expected_challenge=webauthn.base64url_to_bytes(ceremony.challenge),
            expected_rp_id=site.rp_id,
            expected_origin=site.origin,
            **more,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise refused(str(exc)[:200]) from None


def _credential_id(credential: dict[str, Any]) -> str:
    raw = credential.get("rawId", credential.get("id"))
    if not isinstance(raw, str) or not raw or len(raw) > 400:
        raise bad_request("field 'credential' has no valid rawId")
    return raw


class Passkeys:
    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store
        self.keys = accounts.keys
        self.run = accounts.run

    async def _begin(self, ceremony: Ceremony) -> str:
        handle = new_token()
        await self.run(self.keys.begin_ceremony, hash_token(handle), ceremony, CEREMONY_LIFETIME)
        return handle

    async def _take(self, handle: str, purpose: str) -> Ceremony:
        found: Ceremony | None = await self.run(self.keys.take_ceremony, hash_token(handle))
        if found is None or found.purpose != purpose:
            raise ApiError(
                400, "ceremony_expired", "this passkey request has expired or was used; start again"
            )
        return found

    # ----- registering ----------------------------------------------------------------------
    async def begin_register(
        self, site: Site, name: str | None, account: Account | None
    ) -> dict[str, Any]:
        """Options for a new passkey: for a new account called ``name`` (signing up) or for
        ``account`` (adding one)."""
        if account is None:
            if name is None:
                raise bad_request("field 'name' is required to sign up")
            name = check_name(name)
            if await self.run(self.store.by_name, name_key(name)) is not None:
                raise conflict("name_taken", f"the name {name!r} is taken; choose another")
            user_handle = new_token()
            exclude: list[PublicKeyCredentialDescriptor] = []
        else:
            name, user_handle = account.name, await self.accounts.user_handle(account.id)
            keys: list[Passkey] = await self.run(self.keys.passkeys, account.id)
            if len(keys) >= MAX_PASSKEYS:
                raise conflict("too_many_passkeys", f"an account holds at most {MAX_PASSKEYS}")
            exclude = [
                PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(k.credential_id))
                for k in keys
            ]
        options = webauthn.generate_registration_options(
            rp_id=site.rp_id,
            rp_name=RP_NAME,
            user_name=name,
            user_id=user_handle.encode("ascii"),
            user_display_name=name,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=exclude,
        )
        ceremony = Ceremony(
            ADD if account else SIGN_UP,
            bytes_to_base64url(options.challenge),
            account.id if account else None,
            name,
            user_handle,
        )
        return {"ceremony": await self._begin(ceremony), "options": options_to_json_dict(options)}

    async def finish_register(
        self,
        site: Site,
        handle: str,
        credential: dict[str, Any],
        label: str | None,
        account: Account | None,
        network: str,
    ) -> Account:
        """Check the browser's new passkey and store it: on a new account (signing up from
        ``network``, within its hour's sign-ups; the name may have been taken meanwhile) or on
        ``account``."""
        ceremony = await self._take(handle, ADD if account else SIGN_UP)
        if account is not None and ceremony.account_id != account.id:
            raise ApiError(400, "ceremony_expired", "this passkey request is another account's")
        verified = _verify(webauthn.verify_registration_response, site, ceremony, credential)
        if account is None:
            assert ceremony.name is not None and ceremony.user_handle is not None
            await self.accounts.take_signup(network)
            account = await self.accounts.create(ceremony.name, None, ceremony.user_handle)
        key = Passkey(
            bytes_to_base64url(verified.credential_id),
            account.id,
            verified.credential_public_key,
            verified.sign_count,
            tidy(label or "")[:LABEL_LENGTH] or "passkey",
            datetime.now(UTC),
        )
        try:
            await self.run(self.keys.add_passkey, key)
        except sa.exc.IntegrityError:
            raise conflict("passkey_known", "this passkey is already registered") from None
        return account

    # ----- signing in -----------------------------------------------------------------------
    async def begin_sign_in(self, site: Site) -> dict[str, Any]:
        options = webauthn.generate_authentication_options(
            rp_id=site.rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        ceremony = Ceremony(SIGN_IN, bytes_to_base64url(options.challenge), None, None, None)
        return {"ceremony": await self._begin(ceremony), "options": options_to_json_dict(options)}

    async def finish_sign_in(self, site: Site, handle: str, credential: dict[str, Any]) -> Account:
        ceremony = await self._take(handle, SIGN_IN)
        key: Passkey | None = await self.run(self.keys.passkey, _credential_id(credential))
        account: Account | None = (
            None if key is None else await self.run(self.store.by_id, key.account_id)
        )
        if key is None or account is None:
            raise refused("this passkey belongs to no account here")
        verified = _verify(
            webauthn.verify_authentication_response,
            site,
            ceremony,
            credential,
            credential_public_key=key.public_key,
            credential_current_sign_count=key.sign_count,
        )
        await self.run(self.keys.used_passkey, key.credential_id, verified.new_sign_count)
        return account
