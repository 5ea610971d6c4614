"""The names people give their seats: what a name may hold, and when two names look alike.

A name is shown to everyone at a table, inside the log's sentences ("Ann turns a queen."), so it
must read as a name and nothing else. :func:`clean_name` takes what a browser sent and returns the
name as it will be shown, or refuses it with :class:`NameError_` and a sentence saying why:

* it is normalised (NFC) and its runs of spaces become one space;
* controls (C0, DEL, C1), format characters (zero-width spaces and joiners, the byte-order mark,
  every bidi embedding, override and isolate, tag characters), line and paragraph separators,
  surrogates, private-use characters, noncharacters and unassigned code points are refused;
* more than :data:`~beggar.web.settings.NAME_MARKS` combining marks on one letter are refused;
* a name must hold a letter or a digit, and at most :data:`~beggar.web.settings.NAME_LENGTH`
  characters;
* a name may not read as a clause of the log: ``, ; : ! ?`` and line breaks are refused, and a
  full stop only ends an initial ("J. R. Smith", not "Bob wins. Ann");
* the words the table uses for people are reserved: "you" (and "your"...), "the computer",
  "everyone", "a friend"...; :func:`look_alike` then refuses, at a table, the name of another
  seat (a person's, a computer's such as "Robin", or a place such as "Player 1").

Markup is kept as typed: the page shows every name as text, never as HTML.

Names are compared by :func:`skeleton`, which folds case, compatibility forms (full-width and
mathematical letters), accents, the zero-width characters and the common Cyrillic and Greek
look-alikes of Latin letters, so "Аnn" (a Cyrillic А) or "A\u200bnn" is "Ann".

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> clean_name("Bob wins. Ann")
Traceback (most recent call last):
...
beggar.web.names.NameError_: a name cannot hold a full stop except after an initial ("J. Smith")
>>> skeleton("Аnn") == skeleton("ANN")
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from beggar.errors import UserError
from beggar.web.settings import NAME_LENGTH, NAME_MARKS


class NameError_(UserError, ValueError):
    """A name the table will not take; the text says why, to the person who typed it (its field:
    ``"name"``)."""

    field = "name"


REFUSED_CATEGORIES = {
    "Cc": "control characters",
    "Cf": "invisible formatting characters (zero-width, bidi or tag characters)",
    "Cs": "broken characters (lone surrogates)",
    "Co": "private-use characters",
    "Cn": "unassigned characters or noncharacters",
    "Zl": "line breaks",
    "Zp": "line breaks",
}
"""Unicode categories no name may hold, and what each is called when one is refused."""

CLAUSE_MARKS = ",;:!?"
"""Punctuation that would let a name read as a clause of the log ("Ann: wins")."""

RESERVED = (
    "you",
    "your",
    "yours",
    "yourself",
    "me",
    "everyone",
    "everybody",
    "nobody",
    "the computer",
    "computer",
    "a friend",
    "friend",
    "spectator",
    "spectators",
)
"""Words the table uses for people (its log, its offers): no seat may go by one of them."""

_PLACE = re.compile(r"player\s*[0-9o]+")
"""A place's name (:func:`beggar.web.table.place_name`) as :func:`_folded` reads it: "Player 1",
"player2", "Рlayer 1" with a Cyrillic Р..."""

_INITIAL = re.compile(r"(?<![^\s.])\w\.")
"""An initial: a letter alone (after a space, a full stop or nothing) and its full stop."""

LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j", "к": "k",
        "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
        "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "һ": "h", "ү": "y", "ӏ": "l", "ь": "b",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ζ": "z",
        # a digit that passes for a letter
        "0": "o",
    }
)  # fmt: skip
"""Letters of other scripts that look like Latin ones, folded to them by :func:`skeleton` (after
case folding: the capitals fold first)."""

STROKES = str.maketrans({"l": "i", "1": "i", "|": "i", "ı": "i", "ǀ": "i"})
"""Upright strokes that pass for one another: "I" (folded to "i"), "l", "1", "|". "Ali" and "All"
then share a skeleton too: a false likeness costs a name only a number."""


def clean_name(text: str) -> str:
    """The name ``text`` as the table would show it; :class:`NameError_` says why it cannot be one.

    >>> clean_name("Zoë")
    'Zoë'
    >>> clean_name("you")
    Traceback (most recent call last):
    ...
    beggar.web.names.NameError_: "you" is a word the table uses for people: choose another name
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NameError_("a name cannot hold broken characters (lone surrogates)") from None
    for ch in text:  # before spaces are joined: a line break or a tab is refused, not joined
        category = unicodedata.category(ch)
        if category in REFUSED_CATEGORIES and ch != " ":
            raise NameError_(f"a name cannot hold {REFUSED_CATEGORIES[category]}")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise NameError_("a name needs at least one letter or digit")
    if len(name) > NAME_LENGTH:
        raise NameError_(f"a name is at most {NAME_LENGTH} characters")
    marks = 0
    for ch in unicodedata.normalize("NFD", name):  # the marks on each letter, its own accent too
        category = unicodedata.category(ch)
        if ch in CLAUSE_MARKS:
            raise NameError_(
                f"a name cannot hold {' '.join(CLAUSE_MARKS)}: it would read as part of a sentence"
            )
        marks = marks + 1 if category[0] == "M" else 0
        if marks > NAME_MARKS:
            raise NameError_(f"a name cannot stack more than {NAME_MARKS} accents on one letter")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise NameError_("a name needs at least one letter or digit")
    if name.count(".") > len(_INITIAL.findall(name)):
        raise NameError_('a name cannot hold a full stop except after an initial ("J. Smith")')
    if skeleton(name) in _RESERVED_SKELETONS or _PLACE.fullmatch(_folded(name)):
        raise NameError_(f'"{name}" is a word the table uses for people: choose another name')
    return name


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names: two names with one skeleton could be taken
    for each other.

    >>> skeleton("Ｒｏｂｉｎ") == skeleton("robin") == skeleton("R\u043ebin")
    True
    """
    return _folded(name).translate(STROKES)


def _folded(name: str) -> str:
    """``name`` without case, compatibility forms, accents and invisible characters, and with the
    look-alikes of Latin letters made Latin (:data:`LOOKALIKES`)."""
    folded = unicodedata.normalize("NFKD", name)
    bare = "".join(
        ch for ch in folded if unicodedata.category(ch)[0] != "M" and unicodedata.category(ch) != "Cf"
    )
    return " ".join(bare.casefold().translate(LOOKALIKES).split())


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be taken for, or None."""
    shape = skeleton(name)
    return next((other for other in others if skeleton(other) == shape), None)


_RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED)


__all__ = ["CLAUSE_MARKS", "RESERVED", "NameError_", "clean_name", "look_alike", "skeleton"]
