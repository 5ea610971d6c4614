"""The server's random names: table ids, replay ids, and the secret tokens that hold seats.

Ids are drawn from one alphabet of letters and digits that cannot be misread (no ``i``, ``l``,
``o``, ``0`` or ``1``), so that a link read aloud or copied by hand still works. A seat's token is
a secret only its person's browser keeps; the server keeps its hash alone.

>>> is_table_id(new_table_id()), len(new_id(REPLAY_ID_LENGTH))
(True, 8)
>>> is_table_id("table-0001")
False
"""

from __future__ import annotations

import hashlib
import secrets

ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""The characters of every id: 31 letters and digits that cannot be misread."""
TABLE_ID_LENGTH = 10
"""Ten characters: about 2^49.5 table ids, so guessing one among a thousand live tables takes about
10^12 tries (and failed joins are throttled), while a link stays short enough to read aloud."""
REPLAY_ID_LENGTH = 8
"""A finished game's replay id (``/r/<id>``): its link is shared, not secret, so shorter."""


def new_id(length: int) -> str:
    """A fresh random id of ``length`` characters of :data:`ID_ALPHABET`."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(length))


def new_table_id() -> str:
    """A fresh random table id (:data:`TABLE_ID_LENGTH` characters that cannot be misread)."""
    return new_id(TABLE_ID_LENGTH)


def is_table_id(text: str) -> bool:
    """Is ``text`` shaped like a table id (whether or not such a table is open)?"""
    return len(text) == TABLE_ID_LENGTH and all(ch in ID_ALPHABET for ch in text)


def new_token() -> str:
    """A fresh secret for a seat: 144 random bits, as URL-safe text."""
    return secrets.token_urlsafe(18)


def token_hash(token: str) -> str:
    """What the server keeps of a seat's secret. Tokens are 144 random bits, so a plain SHA-256
    suffices: nobody can search for a token whose hash matches."""
    return hashlib.sha256(token.encode()).hexdigest()


__all__ = [
    "ID_ALPHABET",
    "REPLAY_ID_LENGTH",
    "TABLE_ID_LENGTH",
    "is_table_id",
    "new_id",
    "new_table_id",
    "new_token",
    "token_hash",
]
