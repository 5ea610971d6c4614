"""The WebSocket protocol: every message a browser may send, checked before anything acts on it.

Messages are JSON objects with a ``type``. A message that is not valid JSON, too large, of an
unknown type, or with a bad field raises :class:`ProtocolError`, whose text is sent back; nothing
changes. Text in a message is valid Unicode or the message is refused (JSON may spell a lone
surrogate, ``"\\ud800"``, which no state sent back could then carry), and a seat's name obeys
:mod:`beggar.web.names`.

>>> parse_message('{"type": "turn"}')
Turn()
>>> parse_message('{"type": "pace", "pace": "sideways"}')
Traceback (most recent call last):
...
beggar.web.protocol.ProtocolError: pace must be one of slow, normal, fast, instant
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from beggar.errors import UserError
from beggar.rules import MAX_PLAYERS, MIN_PLAYERS
from beggar.web.names import NameError_, clean_name
from beggar.web.settings import NAME_LENGTH
from beggar.web.table import Mode, Pace

MAX_MESSAGE_BYTES = 4096
MAX_DEPTH = 200
"""Brackets and braces a message may hold (no message nests any, and no field's text needs so
many): more is refused unread, as nested too deeply."""
MAX_NAME = NAME_LENGTH
MAX_SPEC = 200
MAX_DEAL = 600


class ProtocolError(UserError, ValueError):
    """A message the server will not act on; ``field``: the message's field at fault, if one is."""


FIELD_NAMES = {"seed": "deal number", "players": "number of players", "humans": "number of people"}
"""What a person calls the fields of a new table that the home page names otherwise ("Deal
number"), so that an error about one speaks of it by that name; any other by its key."""


@dataclass(frozen=True)
class Create:
    mode: Mode
    rules: str | None = None
    """None: the table's own rules (the practice table against the computer, the friend table)."""
    players: int | None = None
    humans: int = 1
    name: str | None = None
    seed: int | None = None
    deal: str | None = None
    pace: Pace = Pace.NORMAL
    lesson: int | None = None
    famous: int | None = None
    found: str | None = None
    """A never-ending deal found here, by its key (``found-…``), for a famous-games table."""
    replayed: bool = False
    """The deal is a replay's ("Play this deal"): the new game says so."""


@dataclass(frozen=True)
class Join:
    table: str
    token: str | None = None
    name: str | None = None
    refused_name: str | None = None
    """Why the name sent could not be taken (:mod:`beggar.web.names`): the person still sits down,
    by their place, and is told why (a name remembered from before need not keep them out)."""
    reloaded: bool = False
    """The page joining is the one that just went away, reloaded: its return is said as a reload."""


@dataclass(frozen=True)
class Turn:
    pass


@dataclass(frozen=True)
class SetPace:
    pace: Pace


@dataclass(frozen=True)
class SetPaused:
    paused: bool
    hidden: bool = False
    """The person switched to another tab (the table says so)."""


@dataclass(frozen=True)
class Hold:
    """A question is put to the person (a new game? leave?): the computer waits for the answer."""

    on: bool


@dataclass(frozen=True)
class SetAutomatic:
    """ "Watch both players": the sender's cards are turned for them."""

    on: bool


@dataclass(frozen=True)
class NewGame:
    pass


@dataclass(frozen=True)
class KeepPlaying:
    """No to a new game another person asked for."""


@dataclass(frozen=True)
class PlayFor:
    """Let the computer play for another player who has been away a while."""

    seat: int


@dataclass(frozen=True)
class Rename:
    """A person at a friend table gives the name their seat is known by."""

    name: str


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Away:
    """The person's page goes elsewhere (Back, a link, a closed or reloaded tab): not a lost
    connection, and not Leave either (they may come back to their seat)."""


@dataclass(frozen=True)
class Ping:
    pass


Message = (
    Create
    | Join
    | Turn
    | SetPace
    | SetPaused
    | Hold
    | SetAutomatic
    | NewGame
    | KeepPlaying
    | PlayFor
    | Rename
    | Leave
    | Away
    | Ping
)


def parse_message(text: str | bytes) -> Message:
    """Check one incoming message and return it as a typed value."""
    try:
        raw = text.encode() if isinstance(text, str) else text
    except UnicodeEncodeError:
        raise ProtocolError("message is not valid Unicode text") from None
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large: at most {MAX_MESSAGE_BYTES} bytes")
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        raise ProtocolError("message is nested too deeply")  # no message has more than a few
    try:
        # orjson reads exactly what it can write back: a lone surrogate is refused here, once for
        # every field, rather than accepted and then breaking every state that shows it.
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ProtocolError(_why_not_json(raw)) from None
    if not isinstance(data, dict):
        raise ProtocolError("message must be a JSON object with a 'type'")
    kind = data.get("type")
    fields = _Fields(data)
    message: Message
    if kind == "create":
        create = Create(
            mode=fields.choice("mode", Mode),
            rules=fields.text("rules", MAX_SPEC) or None,
            players=fields.integer("players", MIN_PLAYERS, MAX_PLAYERS),
            humans=fields.integer("humans", 1, MAX_PLAYERS) or 1,
            name=fields.name("name"),
            seed=fields.integer("seed", 0, 2**53),
            deal=fields.text("deal", MAX_DEAL),
            pace=fields.choice("pace", Pace, default=Pace.NORMAL),
            lesson=fields.integer("lesson", 1, 99),
            famous=fields.integer("famous", 0, 999),
            found=fields.text("found", 32) or None,
            replayed=fields.boolean("replayed", default=False),
        )
        if create.seed is not None and create.deal:
            # Either one chooses the cards: playing one would ignore the other without a word.
            number = FIELD_NAMES["seed"]
            raise ProtocolError(f"Give a {number} or a deal, not both: clear one of them", field="seed")
        message = create
    elif kind == "join":
        table = fields.text("table", 16)
        if not table:
            raise ProtocolError("join needs the table's id")
        token = fields.text("token", 64)
        try:
            name, refused = fields.name("name"), None
        except ProtocolError as exc:
            name, refused = None, str(exc)
        reloaded = fields.boolean("reloaded", default=False)
        message = Join(table=table, token=token, name=name, refused_name=refused, reloaded=reloaded)
    elif kind == "turn":
        message = Turn()
    elif kind == "pace":
        message = SetPace(fields.choice("pace", Pace))
    elif kind == "pause":
        message = SetPaused(True, hidden=fields.boolean("hidden", default=False))
    elif kind == "resume":
        message = SetPaused(False)
    elif kind == "hold":
        message = Hold(fields.boolean("on"))
    elif kind == "watch":
        message = SetAutomatic(fields.boolean("on"))
    elif kind == "new-game":
        message = NewGame()
    elif kind == "keep-playing":
        message = KeepPlaying()
    elif kind == "play-for":
        seat = fields.integer("seat", 0, MAX_PLAYERS - 1)
        if seat is None:
            raise ProtocolError("play-for needs the seat of the player who is away")
        message = PlayFor(seat)
    elif kind == "rename":
        name = fields.name("name")
        if not name:
            raise ProtocolError("rename needs a name")
        message = Rename(name)
    elif kind == "leave":
        message = Leave()
    elif kind == "away":
        message = Away()
    elif kind == "ping":
        message = Ping()
    else:
        raise ProtocolError(
            "unknown message type: use create, join, turn, pace, pause, resume, hold, watch, "
            "new-game, keep-playing, play-for, rename, leave, away or ping"
        )
    fields.finish(kind)
    return message


def _why_not_json(raw: bytes) -> str:
    """Why ``raw`` was refused: not JSON, or JSON with text that is not valid Unicode."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return "message is not valid JSON"
    if _broken_text(data):
        return "message holds text that is not valid Unicode (a lone surrogate)"
    return "message is not valid JSON: numbers must fit in 64 bits, and NaN is not a number"


def _broken_text(data: Any) -> bool:
    """Does ``data`` (parsed JSON) hold a string that is not valid Unicode?"""
    if isinstance(data, str):
        return any("\ud800" <= ch <= "\udfff" for ch in data)
    if isinstance(data, dict):
        return any(_broken_text(key) or _broken_text(value) for key, value in data.items())
    if isinstance(data, list):
        return any(_broken_text(each) for each in data)
    return False


class _Fields:
    """Reads fields of a message, remembering which were used so that unknown ones are refused."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.used = {"type"}

    @staticmethod
    def _wrong(key: str, what: str) -> ProtocolError:
        """An error about field ``key``, which it calls by its name (:data:`FIELD_NAMES`)."""
        return ProtocolError(f"{FIELD_NAMES.get(key, key)} {what}", field=key)

    def _get(self, key: str) -> Any:
        self.used.add(key)
        return self.data.get(key)

    def text(self, key: str, limit: int, default: str | None = None) -> str | None:
        value = self._get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self._wrong(key, "must be text")
        value = value.strip()
        if len(value) > limit:
            raise self._wrong(key, f"is too long: at most {limit} characters")
        if any(ord(ch) < 32 for ch in value):
            raise self._wrong(key, "contains control characters")
        return value

    def name(self, key: str) -> str | None:
        """A seat's name, as :func:`beggar.web.names.clean_name` shows it."""
        value = self._get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._wrong(key, "must be text")
        if not value.strip():
            return None
        try:
            return clean_name(value)
        except NameError_ as exc:
            raise ProtocolError(str(exc)[0].upper() + str(exc)[1:], field=key) from None

    def integer(self, key: str, low: int, high: int) -> int | None:
        value = self._get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(key, "must be a whole number")
        if not low <= value <= high:
            raise self._wrong(key, f"must be from {low} to {high}")
        return value

    def boolean(self, key: str, default: bool | None = None) -> bool:
        value = self._get(key)
        if value is None and default is not None:
            return default
        if not isinstance(value, bool):
            raise self._wrong(key, "must be true or false")
        return value

    def choice(self, key: str, kind: Any, default: Any = None) -> Any:
        value = self._get(key)
        if value is None and default is not None:
            return default
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(str(member) for member in kind)
            raise self._wrong(key, f"must be one of {choices}") from None

    def finish(self, kind: str) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            raise ProtocolError(f"unknown field {extra[0]!r} in a {kind} message")
