"""Errors raised by boardplay.

All are ``ValueError`` subclasses so callers can catch bad input uniformly; each message is a
sentence meant for a person, naming the bad input and what is allowed."""

from __future__ import annotations


class BoardplayError(ValueError):
    """Base class of every error boardplay raises for bad input."""


class IllegalActionError(BoardplayError):
    """An action that the rules do not allow in this state. The state is left unchanged; the
    message names the rule that forbids it."""


class NotationError(IllegalActionError):
    """Text that names no action in the game's notation (a typo, an unknown word, a cell off
    the board): the parse failed before any rule was asked, and the message says how a move is
    written and lists the legal ones. Text that parses to an action the rules refuse is an
    ``IllegalActionError`` instead (as python-chess tells ``InvalidMoveError`` from
    ``IllegalMoveError``). A subclass of ``IllegalActionError``, so code that refuses both with
    ``except IllegalActionError`` still does; catch ``NotationError`` first to tell them apart."""


class PositionError(BoardplayError):
    """A position JSON that is malformed or describes an impossible position."""


class OptionError(BoardplayError):
    """An unknown game, an unknown option or a value outside the allowed set."""


class RecordError(BoardplayError):
    """A game record that is malformed or contains an action the engine rejects."""
