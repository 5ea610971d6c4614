"""The four lessons: short prepared positions played step by step, with a sentence for each card.

The positions are played by the reference engine like any game; a lesson adds a teaching note to
some cards, and every other card is told by the narrator's sentence (:meth:`Lesson.told`), so each
card has its sentence. The browser table shows them, and ``beggar lesson N`` prints them.

>>> [step.note for step in LESSONS[2].script()][0]
'The queen is a pay card: B must now turn two cards.'
>>> LESSONS[2].told(2)
'B turns the six of spades (1 of 2).'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from beggar.engine import Game
from beggar.narrate import Narrator
from beggar.notation import parse_deal
from beggar.rules import STANDARD, Rules

LESSON_RULES = STANDARD.replace(open_hands=True)
"""The standard game, hands face up: nothing in a lesson is secret."""


@dataclass(frozen=True)
class LessonStep:
    """One card of a lesson: what happened, and what to notice."""

    number: int
    sentence: str
    note: str


@dataclass(frozen=True)
class Lesson:
    """A prepared position and the notes that go with its cards."""

    number: int
    title: str
    intro: str
    deal: str
    notes: dict[int, str] = field(default_factory=dict)
    outro: str = ""
    rules: Rules = LESSON_RULES

    def game(self) -> Game:
        """A fresh game of the lesson's position (hands face up: nothing here is secret)."""
        return Game(
            parse_deal(self.deal, self.rules.deck, complete=False), self.rules, first=0, complete=False
        )

    def note(self, card_number: int) -> str:
        return self.notes.get(card_number, "")

    def told(self, card_number: int, names: Sequence[str] | None = None) -> str:
        """The sentence for card ``card_number`` of the lesson: its note, or where it has none what
        happened, as the narrator says it (seats called ``names``); before the first card (0), the
        lesson's introduction."""
        if card_number <= 0:
            return self.intro
        note = self.note(card_number)
        if note:
            return note
        steps = self.script(names)
        return steps[card_number - 1].sentence if card_number <= len(steps) else ""

    def script(self, names: Sequence[str] | None = None) -> list[LessonStep]:
        """The whole lesson, card by card (seats called ``names``; A and B by default)."""
        game = self.game()
        narrator = Narrator(self.rules, names)
        steps = []
        while not game.over:
            sentence = narrator.tell(game.step())
            steps.append(LessonStep(game.cards, sentence, self.note(game.cards)))
        return steps


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        1,
        "Number cards",
        "Each player has a face-down stack and turns its top card onto the pile. Two to ten are "
        "number cards: after one, the other player turns.",
        "7H 4S 9C / 2D 10S 5H 3C",
        {
            1: "A seven is a number card, so the turn passes to B.",
            2: "B's two is a number card too: back to A. Nobody chooses anything; the top card is "
            "always turned.",
            5: "Suits never matter, and neither does which number a number card shows.",
            6: "A must turn a card now, but A's stack is empty.",
        },
        "A player who must turn a card and has none loses, and the other player takes the pile. "
        "Number cards never win a pile by themselves: that is what pay cards are for.",
    ),
    Lesson(
        2,
        "Pay cards",
        "Jacks, queens, kings and aces are pay cards. The other player must pay for one by turning "
        "cards: one for a jack, two for a queen, three for a king, four for an ace.",
        "5S KH 8D / 9C 4D 6H 2S 7C",
        {
            3: "A king: B must pay three cards, one after another.",
            4: "First of the three.",
            6: "Three number cards: the king is paid in full. A takes the whole pile and puts it "
            "face down under A's stack, oldest card first.",
            7: "The winner of a pile leads the next card.",
        },
        "If every card of a payment is a number card, the player who laid the pay card takes the "
        "pile and leads.",
    ),
    Lesson(
        3,
        "Paying with a pay card",
        "What if the payer turns a pay card while paying? The old payment stops at once (it is not "
        "finished, and debts are not added) and the other player now owes the new card's full price.",
        "QS AH 10D 4C 6H / 6S JD 3H 7C KS 5D",
        {
            1: "The queen is a pay card: B must now turn two cards.",
            3: "B turns a jack while paying: the queen's payment stops, and A owes one card for the jack.",
            4: "A pays with an ace: the jack is cancelled and B owes four.",
            7: "A king in the middle of paying for the ace: now A owes three. "
            "Only the latest pay card counts.",
            10: "Three number cards pay for the king, so B, who laid it, takes all ten cards.",
        },
        "Only the latest pay card counts: whoever laid it takes the pile when it is paid in full.",
    ),
    Lesson(
        4,
        "Collecting the pile, winning, and the last-card rescue",
        "A won pile goes under the winner's stack in the order it was played, and the game goes on "
        "until one player holds every card. A last card that is a pay card can still rescue its owner.",
        "3H JC / 8S 5D 2C 9H",
        {
            3: "That jack was A's last card. A's stack is empty, but A is not out: B must pay first.",
            4: "B pays the jack with a number card, so A takes the pile and is back in the game.",
            5: "The pile went under A's stack oldest card first, so the three of hearts comes back first.",
            9: "A's jack again, and this time B has no card left to pay with.",
        },
        "A player loses only when they must turn a card and have none; the other player takes the "
        "pile and, holding every card, wins.",
    ),
)


def lesson(number: int) -> Lesson:
    """The lesson with this number (1 to 4)."""
    for candidate in LESSONS:
        if candidate.number == number:
            return candidate
    raise ValueError(f"no lesson {number}: the lessons are numbered 1 to {len(LESSONS)}")
