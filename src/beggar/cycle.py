"""Cycle analysis: where a never-ending game enters its cycle, how long the cycle is, and what is on it.

A game loops when a trick-end position (every stack in order, and who leads) repeats. The tricks
and cards before the first occurrence of that position are the *pre-period*; from there to the
repeat is the *period*, which the game then plays for ever.

>>> cycle = find_cycle("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA")
>>> cycle.pre_period_tricks, cycle.period_tricks, cycle.pre_period_cards, cycle.period_cards
(4, 62, 34, 440)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from beggar.engine import Game, PileTaken, Position, Status
from beggar.notation import Deal
from beggar.rules import STANDARD, Rules


@dataclass(frozen=True)
class Cycle:
    """The cycle a looping deal falls into."""

    pre_period_tricks: int
    pre_period_cards: int
    period_tricks: int
    period_cards: int
    positions: tuple[Position, ...]
    """The trick-end positions on the cycle, in order, starting where the cycle is entered."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "pre_period_tricks": self.pre_period_tricks,
            "pre_period_cards": self.pre_period_cards,
            "period_tricks": self.period_tricks,
            "period_cards": self.period_cards,
            "positions": [position.to_dict() for position in self.positions],
        }


def find_cycle(
    deal: Deal | str, rules: Rules = STANDARD, *, first: int | None = None, complete: bool = True
) -> Cycle | None:
    """The cycle ``deal`` enters, or None if the game ends.

    Card and trick limits are ignored (a limit would hide the cycle); repeats are looked for at
    trick ends, as the record-keepers do. ``complete=False`` allows a short prepared position.
    """
    rules = rules.unlimited()
    game = Game(deal, rules, first=first, complete=complete)
    record = game.run()
    if record.status is not Status.LOOP or record.repeat_of is None:
        return None
    start_cards, start_tricks = record.repeat_of
    replay = Game(deal, rules, first=first, complete=complete)
    positions = [replay.position()] if start_tricks == 0 else []
    while replay.tricks < record.tricks - 1:
        events = replay.step()
        if any(isinstance(event, PileTaken) for event in events) and replay.tricks >= start_tricks:
            positions.append(replay.position())
    return Cycle(
        pre_period_tricks=start_tricks,
        pre_period_cards=start_cards,
        period_tricks=record.tricks - start_tricks,
        period_cards=record.cards - start_cards,
        positions=tuple(positions),
    )
