"""Accounts: who a player is across browsers (sign-up and sign-in with a password or a passkey,
sessions and their CSRF tokens, the device cookie) and the sign-in and sign-up throttles. The
seat tokens an account's browsers hold are the table's (``table/seatkeys.py``); the
``/api/account`` routes are ``api/accounts.py``."""

from __future__ import annotations

from boardplay.web.accounts.passkeys import Passkeys, Site
from boardplay.web.accounts.passkeystore import Passkey
from boardplay.web.accounts.schemas import (
    AdoptRequest,
    DeleteRequest,
    PasskeyAnswer,
    PasswordRequest,
    RegisterRequest,
    SignInRequest,
    SignUpRequest,
)
from boardplay.web.accounts.service import (
    COOKIE,
    CSRF_HEADER,
    DEVICE_COOKIE,
    DEVICE_LIFETIME,
    SESSION_LIFETIME,
    Accounts,
    name_key,
)
from boardplay.web.accounts.store import DELETED_NAME, DEVICE, VISITOR, people, person
from boardplay.web.identity import Account, Session

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "DELETED_NAME",
    "DEVICE",
    "DEVICE_COOKIE",
    "DEVICE_LIFETIME",
    "SESSION_LIFETIME",
    "VISITOR",
    "Account",
    "Accounts",
    "AdoptRequest",
    "DeleteRequest",
    "Passkey",
    "PasskeyAnswer",
    "Passkeys",
    "PasswordRequest",
    "RegisterRequest",
    "Session",
    "SignInRequest",
    "SignUpRequest",
    "Site",
    "name_key",
    "people",
    "person",
]
