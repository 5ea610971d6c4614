"""How the table's log names a seat: the marks its lines are written with, and the names they become.

The table and the narrator write a seat into a line as a mark (:func:`mention`), never as its
name; :meth:`beggar.web.table.Table.say` turns the marks into the names the seats go by then and
notes where each stands (:func:`name_mentions`), so that :mod:`beggar.web.view` can tell a line to
the person at that seat as "you", and a replay can tell its lines the same way.

>>> name_mentions(f"{mention(0)} owes 2 to {mention(1)}.", ["Ann", "Bea"])
('Ann owes 2 to Bea.', [[0, 3, 0], [14, 17, 1]])
>>> name_mentions(f"{mention(1, 'Bea')} is now called Bee.", ["Ann", "Bee"])[0]
'Bea is now called Bee.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_MENTION = re.compile("\x1e([0-9]+)(?:\x1d([^\x1e\x1f]*))?\x1f")


def mention(seat: int, shown: str | None = None) -> str:
    """A seat named in a log line: :meth:`beggar.web.table.Table.say` writes in the seat's name as
    it is then (or ``shown``) and notes where, so that :mod:`beggar.web.view` can tell the line to
    the person at that seat as "you". The narrator names seats this way too, so it stays the same
    for everyone. (The marks are control characters, which no name can hold.)"""
    return f"\x1e{seat}\x1f" if shown is None else f"\x1e{seat}\x1d{shown}\x1f"


def name_mentions(text: str, names: Sequence[str]) -> tuple[str, list[list[int]]]:
    """``text`` with each :func:`mention` replaced by the seat's name in ``names`` (or the name it
    carries), and where each name stands: ``[start, end, seat]``."""
    parts: list[str] = []
    named: list[list[int]] = []
    length = at = 0
    for found in _MENTION.finditer(text):
        seat = int(found[1])
        name = names[seat] if found[2] is None else found[2]
        before = text[at : found.start()]
        parts += [before, name]
        length += len(before)
        named.append([length, length + len(name), seat])
        length += len(name)
        at = found.end()
    parts.append(text[at:])
    return "".join(parts), named


def spoken_list(names: list[str]) -> str:
    """``"Ann"``, ``"Ann and Bea"``, ``"Ann, Bea and Cy"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["mention", "name_mentions", "spoken_list"]
