"""A game told card by card for the replay viewer: every frame the browser may scrub to.

The reference engine replays the stored game; the browser only draws frames. Frame ``i`` is the
table just after card ``i`` (frame 0: before the first card):

a :class:`Frame`, whose named fields ``messages.js`` describes for the page (``ReplayFrame``).

A game's own player may ask for it told from their seat (``you``), as their table told it: that
seat is "you" in every sentence, and "You" by name where its person gave none.
"""

from __future__ import annotations

from typing import Any, TypedDict

from beggar.engine import Game, GameError, PileTaken, Reason
from beggar.narrate import Narrator, ending
from beggar.notation import parse_deal
from beggar.records import PublishedGame
from beggar.rules import STANDARD, Rules
from beggar.web.faces import dress
from beggar.web.mentions import mention, name_mentions
from beggar.web.never_ending import FoundDeal, cycle_json, published_cycle
from beggar.web.presets import rules_entry, table_rules_title
from beggar.web.table import place_name
from beggar.web.view import card_json, told_to


class Frame(TypedDict):
    """The table just after one card (see ``ReplayFrame`` in messages.js)."""

    seat: int | None
    """Who turned the card (None before the first)."""
    card: dict[str, Any] | None
    """The card turned (``{"rank", "suit", "label", "pays"}``)."""
    owed: int
    """What the next player then owes."""
    to_play: int | None
    """Who turns next."""
    pile: int
    """How many cards the pile holds: always the last ``pile`` cards turned."""
    stacks: list[int]
    """Every stack's size."""
    trick: int
    """The trick's number if this card won a pile, else 0."""
    text: str
    """The narrator's sentence."""
    challenge: int | None
    """Where on the pile the card being paid for lies (None: none)."""


def replay(
    game: Game,
    names: list[str],
    *,
    turned: int | None = None,
    stopped: str | None = None,
    you: int | None = None,
) -> dict[str, Any]:
    """Play ``game`` from its start to its end (or ``turned`` cards and ``stopped``) as frames,
    told to the person at seat ``you`` (None: to everyone, by name)."""
    if you is not None and names[you] == place_name(you):
        names = [*names[:you], "You", *names[you + 1 :]]  # as the table called a person without a name

    def told(text: str) -> str:
        line, named = name_mentions(text, names)
        return str(told_to({"seq": 0, "text": line, "note": "", "named": named}, you)["text"])

    mentions = [mention(seat) for seat in range(len(names))]
    narrator = Narrator(game.rules, mentions)
    start = Frame(
        seat=None,
        card=None,
        owed=0,
        to_play=game.to_play,
        pile=0,
        stacks=list(game.hand_sizes),
        trick=0,
        text="",
        challenge=None,
    )
    frames: list[Frame] = [start]
    while not game.over and (turned is None or game.cards < turned):
        events = game.step()
        text = told(narrator.tell(events))
        card = events[0].card  # type: ignore[union-attr]  # a step always starts with CardTurned
        seat = events[0].player  # type: ignore[union-attr]
        taken = next((e.trick for e in events if isinstance(e, PileTaken)), 0)
        frames.append(
            Frame(
                seat=seat,
                card=card_json(card, game.rules),
                owed=game.owed,
                to_play=game.to_play,
                pile=len(game.pile),
                stacks=list(game.hand_sizes),
                trick=taken,
                text=text,
                challenge=game.challenge,
            )
        )
    if stopped is not None and not game.over:
        events = game.stop(Reason(stopped))
        frames[-1]["text"] = (frames[-1]["text"] + " " + told(narrator.tell(events))).strip()
    record = game.record
    return {
        "names": names,
        "rules": rules_entry(game.rules),
        "deal": game.deal.format(),
        "frames": frames,
        "over": None if record is None else {**record.to_dict(), "sentence": told(ending(record, mentions))},
    }


def replay_saved(data: dict[str, Any], names: list[str], you: int | None = None) -> dict[str, Any]:
    """Replay a game stored with :meth:`Game.to_dict`, told to the person at seat ``you``."""
    try:
        rules = Rules.from_dict(data["rules"])
        deal = parse_deal(str(data["deal"]), rules.deck, complete=False)
        game = Game(deal, rules, first=int(data["first"]), complete=False)
        turned = int(data["turned"])
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"bad saved game: {exc}") from None
    return replay(game, names, turned=turned, stopped=data.get("stopped"), you=you)


def replay_famous(published: PublishedGame) -> dict[str, Any]:
    """A famous game with real faces (see :mod:`beggar.web.faces`), first hand leading.

    A never-ending one says where its cycle starts and its period (``cycle``), for the chart.
    """
    deal = dress(parse_deal(published.deal, STANDARD.deck))
    names = ["A", "B"]
    result = replay(Game(deal, STANDARD, first=0), names)
    result["title"] = published.title
    result["cycle"] = published_cycle(published) if published.cycle_tricks is not None else None
    return result


def replay_found(found: FoundDeal) -> dict[str, Any]:
    """A never-ending deal the cycle factory found, with real faces, played to its first repeat."""
    deal = dress(parse_deal(found.deal, found.rules.deck, rules=found.rules), found.rules)
    names = ["A", "B"]
    result = replay(Game(deal, found.rules, first=0), names)
    result["title"] = f"a never-ending deal found here — {table_rules_title(found.rules)}"
    result["cycle"] = cycle_json(found.cycle)
    return result
