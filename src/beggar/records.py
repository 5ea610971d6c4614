"""The published record games and the first never-ending deal, with their published counts.

The list is the record table kept by Richard P. Mann (as carried by public test suites that
hard-code it). Each record is the deal as published (compact notation, first hand leads) and the numbers the
finders reported, counted the record-keepers' way (see docs/rules.md). ``beggar records`` replays
them; the tests check every count.

>>> RECORDS[0].finder, RECORDS[0].cards
('Paulhus', 4791)
"""

from __future__ import annotations

from dataclasses import dataclass

from beggar.engine import GameRecord, play


@dataclass(frozen=True)
class PublishedGame:
    """A deal from the literature and what was published about it."""

    deal: str
    finder: str
    year: int
    cards: int | None
    """Published cards turned (None for a game published as never-ending)."""
    tricks: int | None
    winner: int | None
    """0-based hand that wins, where the game ends (checked by replay, not published)."""
    cycle_tricks: int | None = None
    """For a never-ending deal: the published length of its cycle, in tricks."""
    note: str = ""

    @property
    def title(self) -> str:
        """What the site calls the game, in its list, at its table and in its replay ("Paulhus 1999")."""
        return f"{self.finder} {self.year}"

    def replay(self) -> GameRecord:
        return play(self.deal)


RECORDS: tuple[PublishedGame, ...] = (
    PublishedGame("------------KAQ----J------/-JQQK---K----JK--QA-A-JA--", "Paulhus", 1999, 4791, 670, 0),
    PublishedGame("---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q", "Kleber", 1999, 5790, 805, 0),
    PublishedGame("A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-", "Collins", 2006, 6913, 960, 0),
    PublishedGame(
        "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--", "Mann and Wu", 2007, 7157, 1007, 1
    ),
    PublishedGame("----Q------A--K--A-A--QJK-/-Q--J--J---QK---K----JA---", "Nessler", 2012, 7207, 1015, 1),
    PublishedGame("--A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-", "Anderson", 2013, 7225, 1016, 0),
    PublishedGame("-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK", "Rucklidge", 2014, 7959, 1122, 1),
    PublishedGame("----K---A--Q-A--JJA------J/-----KK---------A-JK-Q-Q-Q", "Nessler", 2021, 7972, 1106, 0),
    PublishedGame("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---", "Nessler", 2022, 8344, 1164, 1),
)

NEVER_ENDING = PublishedGame(
    "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
    "Casella et al.",
    2024,
    None,
    None,
    None,
    cycle_tricks=62,
    note="the first known non-terminating deal (arXiv 2403.13855): it enters a cycle of 62 tricks",
)

ALL_GAMES: tuple[PublishedGame, ...] = (*RECORDS, NEVER_ENDING)
