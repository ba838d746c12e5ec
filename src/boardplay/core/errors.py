"""Errors raised by boardplay.

All are ``ValueError`` subclasses so callers can catch bad input uniformly; each message is a
sentence meant for a person, naming the bad input and what is allowed."""

from __future__ import annotations


class BoardplayError(ValueError):
    """Base class of every error boardplay raises for bad input."""


class IllegalActionError(BoardplayError):
    """An action that the rules do not allow in this state. The state is left unchanged."""


class PositionError(BoardplayError):
    """A position JSON that is malformed or describes an impossible position."""


class OptionError(BoardplayError):
    """An unknown game, an unknown option or a value outside the allowed set."""


class RecordError(BoardplayError):
    """A game record that is malformed or contains an action the engine rejects."""
