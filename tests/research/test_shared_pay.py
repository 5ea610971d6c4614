"""Decks where two ranks pay the same (``jack-pays-2``: J2 Q2 K3 A4): one kind per pay value.

The jack and the queen are one kind of card, paying 2; a deck's deals, its index, its cycles and
its census are those of its pay values, and every position the model writes is a deal of the real
deck (the first cards paying 2 in reading order written J, as many as the deck holds, then Q).
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from beggar.cli import run
from beggar.cycle import find_cycle
from beggar.deals import deal_index
from beggar.notation import parse_deal
from beggar.research.cycles import complete
from beggar.research.cycles.canon import Alphabet, canonical_form
from beggar.research.cycles.census import run_census
from beggar.research.cycles.kinds import Composition, ConstructError
from beggar.research.exhaust import ExhaustDeck, play_unit
from beggar.research.store import Store
from beggar.rules import rules_named
from helpers import brute_force, every_deal_by_the_engine

JP2 = "jack-pays-2:deck=half"
RULES = rules_named(JP2)
SMALL = "10,3"
"""Ten number cards and three cards paying 2 (written J, J, Q): 286 deals, 15 never end, on three
cycles that hold a queen as well as jacks."""


def test_ranks_that_pay_the_same_are_one_kind_of_the_deck() -> None:
    whole = Composition.of(RULES)
    assert whole.values == (0, 2, 3, 4) and whole.counts == (18, 4, 2, 2)
    assert whole.describe() == "-18 JQ4 K2 A2"
    assert ExhaustDeck(whole).total == 656_155_500  # 26! / (18! 4! 2! 2!)
    small = Composition.parse("6,3,1,1", RULES)
    assert small.counts == (6, 3, 1, 1) and small.describe() == "-6 JQ3 K1 A1"


def test_a_kind_of_several_ranks_is_written_first_rank_first_and_read_as_either() -> None:
    alphabet = Alphabet.of(RULES)
    assert alphabet.compact([2, 2, 0, 2, 3, 2, 4], 3) == "JJ-/QKQA"
    values, lead = alphabet.parse("QQ-/JKJA")
    assert values.tolist() == [2, 2, 0, 2, 3, 2, 4] and lead == 3
    with pytest.raises(ValueError, match="5 cards written 'JQ', but the deck holds 4"):
        alphabet.parse("JJQQJ/---")


def test_the_index_round_trips_on_every_deal_of_a_small_deck_and_writes_real_deals() -> None:
    deck = ExhaustDeck.of(RULES, "3,4,1,1")
    every = sorted(set(itertools.permutations([0, 0, 0, 2, 2, 2, 2, 3, 4])))
    assert deck.total == len(every) == 2520
    for index, pays in enumerate(every):
        text = deck.deal(index)
        dealt = parse_deal(text, RULES.deck, complete=False)  # a deal of the real cards
        assert [RULES.pay_value(card) for hand in dealt.hands for card in hand] == list(pays)
        assert Counter(text)["J"] == min(2, pays.count(2))
        assert deck.index_of(text) == index
        assert deck.index_of(text.translate(str.maketrans("JQ", "QJ"))) == index


def test_deals_of_the_whole_deck_are_whole_deals_of_the_real_deck() -> None:
    """Each is the index ``beggar play`` and ``beggar cycle`` print for the deal."""
    deck = ExhaustDeck.of(RULES)
    for index in (0, 1, 111_129_284, 123_456_789, deck.total - 1):
        text = deck.deal(index)
        parse_deal(text, RULES.deck)  # every card of the half deck, once
        assert deck.index_of(text) == deal_index(text, RULES) == index
    assert deck.deal(0) == "-------------/-----JJQQKKAA"


def test_deal_by_index_and_index_of_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["deal", "--rules", JP2, "--index", "656155499"]) == 0
    assert capsys.readouterr()[0] == "AAKKJJQQ-----/-------------\n"
    for written in ("AAKKJJQQ-----/-------------", "AAKKQJQJ-----/-------------"):
        assert run(["deal", "--rules", JP2, "--index-of", written]) == 0
        assert capsys.readouterr()[0] == "656155499\n"
    assert run(["deal", "--rules", JP2, "--cards", SMALL, "--index", "20"]) == 0
    deal = capsys.readouterr()[0].strip()
    assert deal == "------J/----JQ"
    assert run(["deal", "--rules", JP2, "--cards", SMALL, f"--index-of={deal}"]) == 0
    assert capsys.readouterr()[0] == "20\n"


def test_exhaust_agrees_with_the_engine_on_every_deal_of_a_small_deck() -> None:
    deck = ExhaustDeck.of(RULES, SMALL)
    assert deck.total == 286
    cards, tricks, wins, never, _ = every_deal_by_the_engine(JP2, SMALL)
    result = play_unit(deck.units(0, deck.total, 10**6)[0])
    assert result.deals == deck.total
    assert result.cards == dict(cards) and result.tricks == dict(tricks)
    assert result.wins == wins
    assert [n.index for n in result.never_ending] == never and len(never) == 15
    assert {n.cycle for n in result.never_ending} == {"---J--/J---Q--", "--JJ--/----Q--", "-----J--/J-Q--"}
    for found in result.never_ending:
        cycle = find_cycle(found.deal, deck.rules, first=0, complete=False)
        assert cycle is not None
        assert (found.period_cards, found.lead_in_cards) == (cycle.period_cards, cycle.pre_period_cards)
        assert found.cycle == canonical_form(found.deal, RULES).deal


def test_exhaust_plays_a_small_deck_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "jp2.db")
    assert run(["exhaust", "--rules", JP2, "--cards", SMALL, "--workers", "1", "--db", db]) == 0
    assert capsys.readouterr()[0].startswith("jack-pays-2:deck=half (-10 JQ3 K0 A0): 286 of 286 deals played")


def test_every_cycle_of_a_small_deck_is_the_one_brute_force_finds() -> None:
    deck = Composition.parse("7,2", RULES)
    _, on_cycles = brute_force(deck, 1)
    expected = {canonical_form(deal, RULES).deal for deal in on_cycles}
    assert expected == {"---J--/J--"}
    assert {cycle.deal for cycle in complete.play_every_position(deck).cycles} == expected


def test_the_census_by_play_and_by_the_solver_agree() -> None:
    deck = Composition.parse(SMALL, RULES)
    found = []
    for method in (complete.PLAY, complete.SOLVER):
        store = Store(":memory:")
        run_census(deck, store, 10, method=method)
        instances = {(i.period, i.k1, i.n1, i.status) for i in store.census_instances(deck.key())}
        cycles = {(c.deal, c.period_cards) for c in store.census_cycles(deck.key()) if c.period_cards <= 10}
        found.append((instances, cycles))
    assert found[0] == found[1]
    assert found[0][1] == {("---J--/J---Q--", 8)}


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("4,2,1,1,1", "these rules have 3 kinds of pay card (ranks that pay the same are one kind): JQ K A"),
        ("10,5", "5 cards 'JQ' (pay 2), but the half 26-card deck holds 4"),
    ],
)
def test_a_deck_the_rules_do_not_hold_is_refused_in_one_line(
    cards: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ConstructError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Composition.parse(cards, RULES)
    assert run(["deal", "--rules", JP2, "--cards", cards, "--index", "0"]) == 2
    err = capsys.readouterr()[1]
    assert message in err and err.count("\n") == 1, err
