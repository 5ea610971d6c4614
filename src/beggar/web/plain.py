"""Errors said plainly: every error a player can cause reaches them as one plain sentence.

The rules and deal parsers write for programmers too; this module turns their messages into a
sentence a player can act on, without Python's own wording.

>>> plain("bad value 'abc' for max-cards (invalid literal for int() with base 10: 'abc')")
"'abc' is not a number: max-cards needs a whole number, for example max-cards=4000."
>>> plain("players=12: a table seats 2 to 8 players")
'players=12: a table seats 2 to 8 players.'
>>> plain("message is not valid JSON")
'Message is not valid JSON.'
"""

from __future__ import annotations

import re

_NOT_A_NUMBER = re.compile(
    r"bad value '(?P<value>[^']*)' for (?P<key>[a-z-]+) \(invalid literal for int\(\).*\)$"
)
_PYTHON_ISMS = re.compile(r"\s*\((?:invalid literal|could not convert|int\(\)|float\(\))[^)]*\)")


def plain(message: str) -> str:
    """One sentence, ending with a full stop and free of Python's error wording.

    It starts with a capital, unless it starts with a setting as the player typed it.
    """
    match = _NOT_A_NUMBER.match(message)
    if match:
        key, value = match["key"], match["value"]
        example = {"max-cards": 4000, "max-tricks": 3000, "players": 3}.get(key, 10)
        return f"'{value}' is not a number: {key} needs a whole number, for example {key}={example}."
    text = _PYTHON_ISMS.sub("", message).strip()
    if not text:
        return "That was not understood."
    first = text.split(maxsplit=1)[0]
    if "=" not in first:  # a setting as typed ("players=12") keeps its case
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
