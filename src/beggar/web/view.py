"""What each person at a table is sent: the table's shared view, and what is theirs alone.

The shared view (:func:`shared_view`) is the same for everyone at a table and is encoded once per
change (:func:`shared_json`); :func:`personal` adds what only one person gets: who they are, what
they should do now (:func:`prompt`, :func:`notice`) and the game log, told to them ("You owe 2")
where it names their own seat. :func:`state_message` puts the two together. Views never carry the
order of a face-down stack, except in open-hand teaching mode.

Every key of a ``state`` message, and of the other messages the server sends the page, is
described once, as JSDoc types, in ``src/beggar/web/messages.js`` (``TableState``, ``SeatState``,
``CardJson``, ``LogLine``...): the page's scripts are checked against it, and a test checks that
the server sends exactly what it describes.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

import beggar.web.table
from beggar.cards import Card
from beggar.engine import Game, Outcome, Reason, Status
from beggar.lessons import LESSONS
from beggar.narrate import award_phrase, ending, holdings_phrase, why_stopped
from beggar.records import PublishedGame
from beggar.rules import Rules
from beggar.web.mentions import mention, spoken_list
from beggar.web.never_ending import FoundDeal, published_cycle
from beggar.web.presets import rules_entry
from beggar.web.table import PAUSED_HIDDEN, PAUSED_HIDDEN_OTHERS, DealtAgain, Mode, Seat, Table, refusal


@dataclass
class ViewCache:
    """What this module keeps of one table between its changes (:func:`view_cache`).

    The views of an instant table show the same cards over and over, and every person at a table
    shares one view: each is made once and kept here, as long as the table lives.
    """

    version: int = -1
    """The table's version that :attr:`encoded` shows (-1: none yet)."""
    encoded: bytes = b""
    """The shared view as JSON. Only the encoded view is kept: a view's dictionaries, kept until
    the next change, would outlive the garbage collector's young generation at every table, and
    make its every collection slower (see :func:`beggar.web.app.tune_garbage_collector`)."""
    game: Game | None = None
    """The game whose cards :attr:`faces` holds: a new game is a new deal, new card objects."""
    faces: dict[int, tuple[Card, dict[str, Any]]] = field(default_factory=dict)
    """Each card as the browser draws it, by the card object's id (the engine moves the same
    objects through a game; the card itself is kept to be sure)."""


_CACHES: weakref.WeakKeyDictionary[Table, ViewCache] = weakref.WeakKeyDictionary()
"""Each table's :class:`ViewCache`, which goes when the table goes."""


def view_cache(table: Table) -> ViewCache:
    """What this module keeps of ``table`` (a new, empty cache for a table it has not seen)."""
    cache = _CACHES.get(table)
    if cache is None:
        cache = _CACHES[table] = ViewCache()
    return cache


def card_faces(table: Table) -> Callable[[Card], dict[str, Any]]:
    """:func:`card_json` under ``table``'s rules, made once per card of the deal and kept."""
    cache = view_cache(table)
    if cache.game is not table.game:
        cache.faces, cache.game = {}, table.game
    faces, rules = cache.faces, table.rules

    def face(card: Card) -> dict[str, Any]:
        known = faces.get(id(card))
        if known is None or known[0] is not card:
            known = faces[id(card)] = (card, card_json(card, rules))
        return known[1]

    return face


def shared_json(table: Table) -> bytes:
    """:func:`shared_view` as JSON, encoded once per change for everyone at the table."""
    cache = view_cache(table)
    if cache.version != table.version:
        cache.encoded, cache.version = orjson.dumps(shared_view(table)), table.version
    return cache.encoded


def shared_view(table: Table) -> dict[str, Any]:
    """Everything a person at the table may see; the same for everyone (see :func:`personal`)."""
    game = table.game
    record = game.record
    face = card_faces(table)
    names = [seat.name for seat in table.seats]
    reveal = table.rules.open_hands
    waiting = table.waiting_for()
    seats = []
    for index, seat in enumerate(table.seats):
        entry: dict[str, Any] = {
            "name": table.shown_name(index),
            "named": seat.named(index),
            "human": seat.human,
            "taken": seat.taken,
            "connected": seat.connections > 0,
            "automatic": seat.automatic,
            "away": _away(seat),
            "absent": table.absent(index),
            "stand_in": seat.stand_in,
            "cards": len(game.stacks[index]),
            "out": game.out[index],
        }
        if reveal:
            entry["stack"] = [face(card) for card in game.stacks[index]]
        seats.append(entry)
    last_card, last_take = table.last_card, table.last_take
    view: dict[str, Any] = {
        "type": "state",
        "table": table.id,
        "mode": str(table.mode),
        "kept": table.mode.kept,
        "addressed": table.mode.addressed,
        "solo": table.mode.solo,
        "version": table.version,
        "at": table.changed_at,
        "seats": seats,
        "pile": [face(card) for card in game.pile],
        # Nobody is to play while the table waits for its people (the lead is said when they are here).
        "to_play": None if record or waiting else game.to_play,
        "owed": game.owed,
        "challenge": game.challenge,
        "creditor": game.creditor,
        "cards": game.cards,
        "tricks": game.tricks,
        "games_played": table.games_played,
        "paused": table.paused,
        "pace": str(table.pace),
        "last_card": None
        if last_card is None
        else {
            "seat": last_card.player,
            "card": face(last_card.card),
            "number": last_card.number,
            "value": last_card.value,
        },
        "last_take": None
        if last_take is None
        else {"seat": last_take.player, "count": len(last_take.cards), "trick": last_take.trick},
        "time_left": None,
        "over": None,
        "closed": table.closed,
        "waiting_for": waiting,
        "paused_why": table.paused_why,
        "new_game_asked": sorted(table.new_game_asked),
        "reshuffles": table.redeals,
    }
    if table.rules.time_limit is not None and record is None:
        played = 0.0 if waiting else table.playing_seconds()  # the clock waits too
        view["time_left"] = max(0.0, round(table.rules.time_limit - played, 1))
    if table.lesson is not None:
        view["lesson"] = {
            "number": table.lesson.number,
            "title": table.lesson.title,
            "outro": table.lesson.outro,
            "sentence": table.lesson.told(game.cards, names),
            "next": table.lesson.number + 1 if table.lesson.number < len(LESSONS) else None,
        }
    if table.famous is not None:
        view["famous"] = famous_json(table.famous)
    if record is not None:
        view["over"] = {
            **record.to_dict(),
            "sentence": ending(record, names),
            "why": why_stopped(record),
            "deal": table.deal.format(),
            "deal_hands": [[card.label for card in hand] for hand in table.deal.hands],
            "replay": table.replay,
            "dealt_again": [deal.to_json() for deal in table.dealt_again],
            "notes": end_notes(table),
        }
    return view


def _away(seat: Seat) -> str | None:
    """Why a seat's person is not at the table, in one word for the page (None: they are here)."""
    if seat.away_since is None:
        return None
    return "left" if seat.left else "elsewhere" if seat.elsewhere else "lost"


def dealt_again_words(deals: Sequence[DealtAgain]) -> str:
    """What the end of a game says of the deals of its sitting that were dealt again ("" if none).

    >>> dealt_again_words([DealtAgain(474, True)])
    'The first deal looped after 474 cards and was dealt again.'
    >>> dealt_again_words([DealtAgain(474, True), DealtAgain(1210, False)])
    'Deal 1 looped after 474 cards and was dealt again. Deal 2 was stopped after 1,210 cards and dealt again.'
    """
    if not deals:
        return ""
    said = []
    for number, deal in enumerate(deals, 1):
        which = "The first deal" if len(deals) == 1 else f"Deal {number}"
        how = "looped after {:,} cards and was" if deal.looped else "was stopped after {:,} cards and"
        said.append(f"{which} {how.format(deal.cards)} dealt again.")
    return " ".join(said)


def end_notes(table: Table) -> str:
    """What the end of a game says besides who won: how the deals of its sitting before it ended
    (a loop dealt again), and that the table's creator chose its deal (now that it may be seen).

    >>> from beggar.notation import parse_deal
    >>> from beggar.rules import STANDARD
    >>> table = Table("abcdefghjk", Mode.WATCH, STANDARD, [Seat("A", False), Seat("B", False)],
    ...               parse_deal("QJ/-A", complete=False))
    >>> table.dealt_again = [DealtAgain(474, True)]
    >>> end_notes(table)
    'The first deal looped after 474 cards and was dealt again.'
    """
    notes = [dealt_again_words(table.dealt_again)]
    picked = table.chosen_deal()
    if picked is not None:
        # A deal number is said as it was chosen; the cards themselves are shown with the end.
        said = f" ({picked})" if table.seed is not None else ""
        notes.append(f"The table's creator chose this deal{said}.")
    return " ".join(note for note in notes if note)


def personal(
    table: Table,
    seat: int | None,
    *,
    log_after: int = 0,
    history_from: int = 0,
    first: bool = True,
) -> dict[str, Any]:
    """What only this person gets with the shared view: who they are and what they should do now.

    Only log lines after ``log_after`` and chart points from ``history_from`` are included: the
    browser already has the others. ``history_start`` says where the points sent begin. The
    rules, which never change at a table, come with a connection's ``first`` state only.
    """
    mine: dict[str, Any] = {
        "you": seat,
        "prompt": prompt(table, seat),
        "notice": notice(table, seat),
        "result": result(table, seat),
        "headline": headline(table, seat),
        "ending": ending_told(table, seat),
        "taken": taken(table, seat),
        "new_game_answers": new_game_answers(table, seat),
    }
    log = table.log
    skip = max(0, log_after - log[0]["seq"] + 1) if log else 0
    lines = log[skip:]
    if seat is None:  # someone watching by the link: words said to the table's person are not theirs
        lines = [
            {**line, "text": line["others"], "named": []} if "others" in line else line for line in lines
        ]
    you = addressed(table, seat)
    mine["log"] = [told_to(line, you) for line in lines]
    if first:
        mine["rules"] = rules_entry(table.rules)
        if table.chosen_deal():
            # That it was chosen, not what it is: the deal is shown once the game is over.
            mine["rules"]["title"] = f"{mine['rules']['title']}, on a deal its creator chose"
        if table.lesson is not None:
            # A lesson deals a few cards of the deck: its size is what the table holds.
            mine["rules"]["settings"]["deck"] = f"{sum(len(hand) for hand in table.deal.hands)} cards"
            mine["rules"]["summary"] = ""  # a prepared position: the full game's summary is not its own
    history = table.history if table.famous is not None or table.game.over else []
    start = history_from if 0 < history_from <= len(history) else 0
    mine["history_start"] = start
    mine["history"] = history[start:]
    return mine


def state_message(table: Table, mine: dict[str, Any]) -> str:
    """One ``state`` message: the table's shared view (encoded once per change) and ``mine``."""
    return (orjson.dumps(mine)[:-1] + b"," + shared_json(table)[1:]).decode()


SECOND_PERSON = {
    "turns": "turn",
    "owes": "owe",
    "takes": "take",
    "has": "have",
    "loses": "lose",
    "is": "are",
    "wins": "win",
    "sits": "sit",
    "asks": "ask",
    "agrees": "agree",
    "sets": "set",
    "resumes": "resume",
    "lets": "let",
    "leads": "lead",
    "wants": "want",
    "says": "say",
}
"""The verbs the log puts after a seat's name, as said to the person at that seat."""
_WORD_AFTER = re.compile(r" ([a-z]+)\b")
_AND_WORD = re.compile(r" and ([a-z]+)\b")
_CLAUSE_END = re.compile(r"[.:;(]")


def told_to(line: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A log line as sent to the person at ``seat`` (None: to everyone, by name).

    Where the line names their seat it says "you", and its verbs agree: ``"Ann owes 2."`` is
    ``"You owe 2."`` for Ann, ``"Bea turns a queen: Ann owes 2."`` is ``"Bea turns a queen: you
    owe 2."``, ``"Ann has no cards left and loses."`` is ``"You have no cards left and lose."``.
    The table notes where each line names a seat (:func:`beggar.web.mentions.mention`); only the
    verb right after the name, and one joined to it by "and" in the same clause, change.
    """
    text = line["text"]
    named = line.get("named") or ()
    if seat is None or all(each != seat for _, _, each in named):
        return {"seq": line["seq"], "text": text, "note": line["note"]}
    names_at = {start for start, _, _ in named}
    edits: list[tuple[int, int, str]] = []
    for start, end, each in named:
        if each != seat:
            continue
        before = text[:start].rstrip()
        edits.append((start, end, "You" if not before or before[-1] in ".!?" else "you"))
        verb = _WORD_AFTER.match(text, end)
        if verb is None or verb.start(1) in names_at or verb[1] not in SECOND_PERSON:
            continue  # "for Ann.", "Ann and Bea agree": no verb of Ann's alone
        edits.append((verb.start(1), verb.end(1), SECOND_PERSON[verb[1]]))
        stop = _CLAUSE_END.search(text, verb.end())
        for more in _AND_WORD.finditer(text, verb.end(), len(text) if stop is None else stop.start()):
            if more.start(1) not in names_at and more[1] in SECOND_PERSON:
                edits.append((more.start(1), more.end(1), SECOND_PERSON[more[1]]))
    parts, at = [], 0
    for start, end, new in sorted(edits):
        parts += [text[at:start], new]
        at = end
    parts.append(text[at:])
    return {"seq": line["seq"], "text": "".join(parts), "note": line["note"]}


def addressed(table: Table, seat: int | None) -> int | None:
    """The seat this person plays as "you": only a person holding a seat in a game they play.

    Spectators, famous games, lessons and "watch both players" see every seat by its name.
    """
    return seat if table.mode in (Mode.COMPUTER, Mode.FRIENDS) else None


def prompt(table: Table, seat: int | None) -> str:
    """What is happening, said plainly from this person's seat: ``"Queen: you owe 2"``."""
    game = table.game
    names = table.names
    watching = seat is None
    seat = addressed(table, seat)
    if game.record is not None:
        record = game.record
        if record.status is Status.FINISHED or record.winner is not None:
            winner = record.winner
            if winner is not None:
                return "You win!" if winner == seat else f"{names[winner]} wins."
        return "A draw." if record.outcome is Outcome.DRAW else "Game over: no winner."
    waiting = table.waiting_for()
    if waiting:
        return f"Waiting for {spoken_list(waiting)} to join."
    if table.paused:
        if watching and table.paused_why == PAUSED_HIDDEN:
            return PAUSED_HIDDEN_OTHERS
        return table.paused_why or "Paused."
    who = game.to_play
    you = who == seat
    subject = "you" if you else names[who]
    if game.owed and game.creditor is not None:
        price = next(card for card in reversed(game.pile) if table.rules.pay_value(card))
        verb = "owe" if you else "owes"
        # Part paid already: what is left is "more", or "owes 2" reads as the price itself.
        more = " more" if game.owed < table.rules.pay_value(price) else ""
        return f"{price.noun.capitalize()}: {subject} {verb} {game.owed}{more}{_absence(table, who)}."
    if you and table.seats[who].automatic:
        return "Your turn: the computer turns it."  # "Watch" is on: Turn is greyed
    if you:
        return "Your turn: turn your top card."
    return f"{names[who]}'s turn{_absence(table, who)}."


def _absence(table: Table, who: int) -> str:
    """Why the player to play does not turn, when their person is away and nobody plays for them:
    ``" — Bea has lost the connection"``; "" otherwise (the prompt's full stop follows)."""
    each = table.seats[who]
    if each.away_since is None or each.stand_in:
        return ""
    has = "" if each.elsewhere else "has "
    return f" — {table.names[who]} {has}{each.away_words()}"


def taken(table: Table, seat: int | None) -> str:
    """Who took the last trick, from this person's seat, while the pile it left stays empty:
    ``"Queen paid: you take 6 cards."``; "" once the next card is turned."""
    take = table.last_take
    if take is None or table.game.pile or take.trick != table.game.tricks:
        return ""
    you = addressed(table, seat) == take.player
    subject = "you" if you else table.names[take.player]
    count = f"{len(take.cards)} card{'s' if len(take.cards) != 1 else ''}"
    text = f"{subject} {'take' if you else 'takes'} {count}."
    price = next((card.noun for card in reversed(take.cards) if table.rules.pay_value(card)), None)
    if take.paid and price is not None:
        return f"{price.capitalize()} paid: {text}"
    return text[0].upper() + text[1:]


STOPPED_BY = {
    Reason.CARD_LIMIT: "Stopped by the card limit.",
    Reason.TRICK_LIMIT: "Stopped by the trick limit.",
    Reason.TIME_LIMIT: "Stopped by the time limit.",
}


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
"""The order in words, for the players who go out (a table seats at most eight)."""


def ordinal(place: int) -> str:
    """``first``, ``second``, ``third``... in words, as a sentence says an order ("the second to go
    out"): a bare "(2nd)" read as the second place.

    >>> ordinal(2)
    'second'
    """
    return ORDINALS[place - 1] if 0 < place <= len(ORDINALS) else f"{place}th"


def result(table: Table, seat: int | None) -> str:
    """How the game ended, in a sentence or two from this person's seat ("" while it is played):
    who won, or why it stopped and what that awards; and with three players or more, when this
    person went out, and how many went out before: ``"Bea wins, holding all 52 cards. You went out
    after 212 cards, the first to go out."``."""
    record = table.game.record
    if record is None:
        return ""
    names = [mention(index) for index in range(len(table.seats))]
    if record.status is Status.FINISHED and record.winner is not None:
        text = f"{names[record.winner]} wins, holding all {sum(record.holdings)} cards."
    elif record.status is Status.LOOP:
        text = f"A loop: the position came back, so the game could never end. {award_phrase(record, names)}"
    else:
        stopped = STOPPED_BY.get(record.reason, "The game was stopped.")
        text = f"{stopped} {award_phrase(record, names)}"
    you = addressed(table, seat)
    players = len(table.seats)
    if you is not None and players > 2:
        for index, (out, cards) in enumerate(table.went_out):
            if out == you:
                text += f" {names[out]} went out after {cards:,} cards, the {ordinal(index + 1)} to go out."
    line, named = table.name_seats(text)
    told: str = told_to({"seq": 0, "text": line, "note": "", "named": named}, you)["text"]
    return told


def headline(table: Table, seat: int | None) -> str:
    """Who won, said once from this person's seat, as the end dialog's headline: ``"You lost:
    Robin took all 52 cards."``, ``"You won, with more cards (30 to 22)."``, ``"Bea won, with
    all 52 cards."`` (to a spectator); with three players or more, when this person went out.
    "" while the game is played."""
    record = table.game.record
    if record is None:
        return ""
    you = addressed(table, seat)
    names = table.names
    winner = record.winner if record.outcome is Outcome.WIN else None
    held = holdings_phrase(record)
    if winner is None and record.outcome is Outcome.DRAW:
        text = award_phrase(record, names)  # "A draw: the most cards are held equally (26 to 26)."
    elif winner is None:
        text = "No one won."
    elif record.status is Status.FINISHED:
        total = sum(record.holdings)
        if you is None:
            text = f"{names[winner]} won, with all {total} cards."
        elif winner == you:
            text = f"You won: you took all {total} cards."
        else:
            text = f"You lost: {names[winner]} took all {total} cards."
    elif you is None:
        text = f"{names[winner]} won, with more cards ({held})."
    elif winner == you:
        text = f"You won, with more cards ({held})."
    else:
        text = f"You lost: {names[winner]} has more cards ({held})."
    players = len(table.seats)
    if you is not None and players > 2:
        for index, (out, cards) in enumerate(table.went_out):
            if out == you:
                text += f" You went out after {cards:,} cards, the {ordinal(index + 1)} to go out."
    return text


def ending_told(table: Table, seat: int | None) -> str:
    """The game's ending (``over.sentence``) told to this person: ``"You win with all 52 cards,
    after 40 cards and 9 tricks."`` where it names their own seat; "" while the game is played."""
    record = table.game.record
    if record is None:
        return ""
    line, named = table.name_seats(ending(record, [mention(index) for index in range(len(table.seats))]))
    told: str = told_to({"seq": 0, "text": line, "note": "", "named": named}, addressed(table, seat))["text"]
    return told


def notice(table: Table, seat: int | None) -> str:
    """What this person should know of the others: who is away, and a new game someone asked for.

    The button named is the one this person sees: "Play again" once the game is over, else "New
    game". Only a seated person is offered to go on without someone who is away; a spectator is
    told that the players may.
    """
    if table.mode is not Mode.FRIENDS:
        return ""
    player = seat is not None and table.seats[seat].human
    over = table.game.over
    parts = []
    for index, each in enumerate(table.seats):
        if index == seat or each.away_since is None:
            continue
        gone = f"{each.name} left the table" if each.left else f"{each.name} has been away for a while"
        if each.stand_in:
            # Why they are not here, as the log said it: a friend who left is not "away".
            parts.append(f"{each.name} {each.away_words()}: the computer plays for them until they return.")
        elif over:
            # Nothing to go on with: the one question left is a new game, and it does not wait
            # for them (Table.new_game), which is what Play again is said to do.
            then = ": Play again starts a new game without them" if player else ""
            parts.append(f"{each.name} {each.away_words()}{then}.")
        elif not table.absent(index):
            # Said once, when the connection drops, and not again until the grace is over: so a
            # rule that stays true, not a time left that would be wrong a second later.
            grace = f"{beggar.web.table.ABSENT_GRACE:g} s"
            who = "you" if player else "the players"
            may = f"{who} may go on without them once they have been away {grace}"
            parts.append(f"{each.name} {each.away_words()}; {may}.")
        elif player and each.left:
            parts.append(f"{gone}: go on without them.")  # they said they go: nobody to wait for
        elif player:
            parts.append(f"{gone}: go on without them, or wait for them to come back.")
        else:
            parts.append(f"{gone}; the players may go on without them.")
    asked = table.new_game_asked
    if asked:
        askers = spoken_list([table.seats[i].name for i in sorted(asked)])
        if seat is not None and seat not in asked:
            verb = "asks" if len(asked) == 1 else "ask"
            yes, no = new_game_answers(table, seat)
            parts.append(f"{askers} {verb} for a new game: press {yes} or {no}.")
        else:
            missing = [table.seats[i].name for i in table.present_people() if i not in asked]
            if missing:
                parts.append(f"Waiting for {spoken_list(missing)} to agree to a new game.")
    refused = table.new_game_refused
    if refused is not None and refused != seat:
        parts.append(refusal(table.seats[refused].name, over=table.game.over))
    return " ".join(parts)


AGREE = ("Agree to a new game", "Keep playing")
"""The two answers to a friend's ask for a new game while a game is played: the page's buttons
and the notice that names them say these words."""
AGREE_AT_END = ("Play again", "No")
"""The same two answers once the game is over."""


def new_game_answers(table: Table, seat: int | None) -> list[str]:
    """The words of the two buttons that answer another person's ask for a new game (agree, keep
    playing) for the person at ``seat``; [] when nobody asks them."""
    asked = table.new_game_asked
    if seat is None or not asked or seat in asked or not table.seats[seat].human:
        return []
    return list(AGREE_AT_END if table.game.over else AGREE)


def invitation(table: Table) -> dict[str, str]:
    """What a person who opened a friend table's link is told before they sit down: whose table it
    is and who sits where, the seat they would take being "you": ``{"title": "Ann's table",
    "invite": "Ann invites you to a game of Beggar-My-Neighbour: Ann, you and Robin (computer)."}``.
    """
    free = table.free_seat()
    hosts = [seat.name for i, seat in enumerate(table.seats) if seat.human and seat.taken and seat.named(i)]
    host = hosts[0] if hosts else None
    seats = [
        "you" if index == free else table.shown_name(index) + ("" if seat.human else " (computer)")
        for index, seat in enumerate(table.seats)
    ]
    who = host or "A friend"
    return {
        "title": f"{host}'s table" if host else "A friend's table",
        "invite": f"{who} invites you to a game of Beggar-My-Neighbour: {spoken_list(seats)}.",
    }


def card_json(card: Card, rules: Rules) -> dict[str, Any]:
    """A face-up card as the browser draws it; ``pays`` is what it asks for under these rules."""
    return {
        "rank": "" if card.rank is None else card.rank.label,
        "suit": "" if card.suit is None else card.suit.value,
        "label": card.label,
        "pays": rules.pay_value(card),
    }


def famous_json(game: PublishedGame | FoundDeal) -> dict[str, Any]:
    """A famous game for the browser; a never-ending one with where its cycle starts and its period."""
    if isinstance(game, FoundDeal):
        return {"title": "A never-ending deal found here", **game.to_json()}
    return {
        "title": game.title,
        "finder": game.finder,
        "year": game.year,
        "deal": game.deal,
        "cards": game.cards,
        "tricks": game.tricks,
        "cycle_tricks": game.cycle_tricks,
        "cycle": published_cycle(game) if game.cycle_tricks is not None else None,
        "note": game.note,
    }


__all__ = [
    "ViewCache",
    "addressed",
    "card_faces",
    "card_json",
    "dealt_again_words",
    "end_notes",
    "famous_json",
    "headline",
    "invitation",
    "notice",
    "ordinal",
    "personal",
    "prompt",
    "result",
    "shared_json",
    "shared_view",
    "state_message",
    "taken",
    "told_to",
]
