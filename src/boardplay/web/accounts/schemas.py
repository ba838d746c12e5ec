"""Request bodies of the account routes (``api/accounts.py``), strict and bounded as in
``models.py``. A WebAuthn credential is the browser's ``PublicKeyCredential.toJSON()``: its
outline is checked by ``webauthn`` itself, within the body and depth ceilings every request
meets first."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from boardplay.web.models import Body, Secret

Name = Annotated[str, Field(max_length=64)]
Password = Annotated[str, Field(max_length=1000)]
GameId = Annotated[str, Field(max_length=32)]


class SignUpRequest(Body):
    name: Name = Field(description="3-20 letters, digits, _ or -; unique ignoring case")
    password: Password = Field(description="8-200 characters")


class SignInRequest(Body):
    name: Name
    password: Password


class PasswordRequest(Body):
    old: Password | None = Field(None, description="the current password, if the account has one")
    new: Password = Field(description="8-200 characters")


class DeleteRequest(Body):
    confirm: Name = Field(description="the account's name, typed again")


class RegisterRequest(Body):
    name: Name | None = Field(
        None, description="signing up: the new account's name (signed in: omit, adds a passkey)"
    )


class PasskeyAnswer(Body):
    ceremony: Secret = Field(description="the id the begin request answered")
    credential: dict[Annotated[str, Field(max_length=64)], Any] = Field(
        description="the browser's PublicKeyCredential.toJSON()"
    )
    label: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="a name for the new passkey (registering only)"
    )


class HeldSeat(Body):
    game: GameId
    token: Secret


class AdoptRequest(Body):
    seats: Annotated[list[HeldSeat], Field(max_length=200)] = Field(
        description="the games this browser holds a seat token for, to make them the account's"
    )
