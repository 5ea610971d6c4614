"""The one base of every error ``beggar`` raises, and the error a person can put right.

Every exception the package defines is a :class:`BeggarError`; an error caused by what someone
asked for (a deal that cannot be read, rules that contradict each other, a message the table
refuses) is a :class:`UserError`, whose text is written for that person and whose
:attr:`~UserError.field` names the input it is about. A caller that shows errors to people (the
browser table's socket, the command line) catches :class:`UserError` once and reads ``field``,
rather than naming each class or reading the text; any other :class:`BeggarError` is a fault of
the program or its files (a damaged database, an unreachable cluster), told as such.

Errors keep the builtin base callers knew them by (a :class:`~beggar.rules.RulesError` is still a
:class:`ValueError`), through a second base.

>>> from beggar.notation import parse_deal
>>> try:
...     parse_deal("K-K/-Z")
... except UserError as error:
...     print(error.field, isinstance(error, ValueError))
deal True
>>> UserError("that seat is taken").field is None
True
>>> UserError("must be from 2 to 8", field="players").field
'players'
"""

from __future__ import annotations


class BeggarError(Exception):
    """Every error the package raises: ``except BeggarError`` catches each one of them."""


class UserError(BeggarError):
    """What someone asked for cannot be done as asked; the message says why, to them.

    ``field`` names the input at fault (``"deal"``, ``"rules"``, ``"name"``, ``"players"``...),
    given where the error is raised; a class whose every error is about one input names it as its
    own default (a :class:`~beggar.notation.DealError` is about the deal). None: no one input (a
    move out of turn, a table that is full).
    """

    field: str | None = None

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        if field is not None:
            self.field = field


__all__ = ["BeggarError", "UserError"]
