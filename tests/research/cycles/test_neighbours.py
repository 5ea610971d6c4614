"""How isolated a cycle is: every change of one card at every position of it, played out."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from beggar.cli import run
from beggar.cycle import find_cycle
from beggar.research.cycles import neighbours
from beggar.research.cycles.canon import CanonError, canonical_form
from beggar.research.cycles.neighbours import CHANGES, Neighbourhood, neighbourhood
from beggar.rules import STANDARD, Rules, rules_named

ITALIAN = rules_named("court-only:deck=stripped")
ITALIAN_CYCLE = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


@pytest.mark.slow
def test_the_published_italian_cycle_is_isolated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No change of one card at any of its positions leads into another cycle, or back into it;
    ``beggar cycle --neighbours`` says so.

    The cycle is symmetric: its 36 trick-end positions are 18 leader-first positions, each met
    from either seat. The counts were checked against a separate C program written for the purpose.
    """
    hood = neighbourhood(ITALIAN_CYCLE, ITALIAN)
    asked: list[tuple[object, ...]] = []

    def computed(position: str, rules: Rules, *, first: int = 0) -> Neighbourhood:
        asked.append((position, rules, first))  # the command asks for this very neighbourhood,
        return hood  # which this test has just computed (seconds of play)

    monkeypatch.setattr(neighbours, "neighbourhood", computed)
    status = run(["cycle", "--partial", "--neighbours", "--rules", "court-only:deck=stripped", ITALIAN_CYCLE])
    out = capsys.readouterr().out
    assert status == 0, out
    assert [(str(position), rules) for position, rules, _ in asked] == [(ITALIAN_CYCLE, ITALIAN)]
    assert "isolated: no change of one card runs into another cycle" in out
    assert "6,912" in out and "18 positions" in out
    assert hood.isolated and hood.complete and hood.others == ()
    tried = {t.change: t.tried for t in hood.tallies}
    # 18 positions; 384 pairs of different values a position; 40 cards each moved to 40 other
    # places (the seam counted twice), less the moves that give the same stacks back; 40 cards x 3
    # other values; 40 deletions; 4 values x 42 places (41 gaps, the seam counted twice).
    assert hood.positions == 18
    assert tried == {"swap": 6_912, "shift": 27_300, "recolor": 2_160, "delete": 720, "insert": 3_024}
    assert all(t.ends == t.tried for t in hood.tallies)


@pytest.mark.slow
def test_the_2024_standard_cycle_meets_other_cycles_only_by_changing_the_deck() -> None:
    hood = neighbourhood(CASELLA, STANDARD)
    by = {t.change: t for t in hood.tallies}
    assert hood.positions == 62
    assert (by["swap"].tried, by["swap"].same, by["swap"].other) == (41_664, 62, 0)
    assert (by["shift"].other, by["recolor"].other, by["delete"].other, by["insert"].other) == (
        0,
        310,
        62,
        124,
    )
    assert (by["recolor"].cycles, by["delete"].cycles, by["insert"].cycles) == (5, 1, 2)
    assert not hood.isolated and hood.complete
    assert all(not form.full for form in hood.others)
    # The one cycle a deletion reaches has 51 cards: the reference engine agrees it loops, with the
    # period named.
    (smaller,) = [form for form in hood.others if form.cards == 51]
    cycle = find_cycle(smaller.deal, STANDARD, complete=False)
    assert cycle is not None
    assert (cycle.period_tricks, cycle.period_cards) == (smaller.period_tricks, smaller.period_cards)


def _leader_first(position_text: str, leader: int) -> str:
    hands = position_text.split("/")
    return f"{hands[leader]}/{hands[1 - leader]}"


def _children(row: str, symbols: str) -> dict[str, list[str]]:
    """Every change of one card of a leader-first position, written as positions (the reference)."""
    lead, other = row.split("/")
    cards = lead + other
    n, k = len(cards), len(lead)

    def at(text: str, split: int) -> str:
        return f"{text[:split]}/{text[split:]}"

    def inserted(text: str, split: int, card: str) -> list[str]:
        out = []
        for place in range(len(text) + 1):
            new = text[:place] + card + text[place:]
            out.append(at(new, split + (place < split)))
            if place == split:  # the seam: under the leader's stack as well as on top of the other
                out.append(at(new, split + 1))
        return out

    children: dict[str, list[str]] = {change: [] for change in CHANGES}
    for i in range(n):
        for j in range(i + 1, n):
            if cards[i] != cards[j]:
                swapped = list(cards)
                swapped[i], swapped[j] = cards[j], cards[i]
                children["swap"].append(at("".join(swapped), k))
    for i in range(n):
        rest, rest_split = cards[:i] + cards[i + 1 :], k - (i < k)
        moved = [c for c in inserted(rest, rest_split, cards[i]) if c != row]
        children["shift"].extend(moved)
        children["delete"].append(at(rest, rest_split))
        for symbol in symbols:
            if symbol != cards[i]:
                children["recolor"].append(at(cards[:i] + symbol + cards[i + 1 :], k))
    for symbol in symbols:
        children["insert"].extend(inserted(cards, k, symbol))
    return {
        change: [c for c in found if all(c.split("/"))]  # a child with an empty stack is not played
        for change, found in children.items()
    }


@pytest.mark.parametrize("position", ["--J-/K-J-", "-JJ-/--J-", "--J-/J-"])
def test_the_compiled_tally_is_the_reference_engines(position: str) -> None:
    """Each child is played by the engine (Game, through find_cycle) and sorted by where it goes."""
    rules: Rules = STANDARD
    hood = neighbourhood(position, rules)
    home = find_cycle(hood.cycle.deal, rules, complete=False)
    assert home is not None
    home_positions = {_leader_first(p.stacks.compact(), p.leader) for p in home.positions}
    expected: dict[str, Counter[str]] = {change: Counter() for change in CHANGES}
    for row in sorted(home_positions):
        for change, children in _children(row, "-JQKA").items():
            for child in children:
                expected[change]["tried"] += 1
                cycle = find_cycle(child, rules, complete=False)
                if cycle is None:
                    expected[change]["ends"] += 1
                    continue
                met = {_leader_first(p.stacks.compact(), p.leader) for p in cycle.positions}
                expected[change]["same" if met == home_positions else "other"] += 1
    for tally in hood.tallies:
        want = expected[tally.change]
        assert (tally.tried, tally.ends, tally.same, tally.other) == (
            want["tried"],
            want["ends"],
            want["same"],
            want["other"],
        ), tally.change


def test_each_other_cycle_named_is_met_from_its_own_position() -> None:
    hood = neighbourhood("--J-/K-J-", STANDARD)
    assert hood.others, "this small cycle has neighbours on other cycles"
    for form in hood.others:
        assert canonical_form(form.deal, STANDARD).deal == form.deal


def test_a_game_that_ends_or_rules_the_factory_cannot_write_are_refused() -> None:
    with pytest.raises(CanonError, match="does not loop"):
        neighbourhood("Q-/-K--", STANDARD)
    with pytest.raises(CanonError, match="two-player"):
        neighbourhood("--J-/K-J-", STANDARD.replace(players=3))


def test_the_cycle_command_prints_the_neighbourhood(capsys: pytest.CaptureFixture[str]) -> None:
    """The command prints a cycle's neighbourhood as JSON (an isolated one as text: the Italian
    cycle's test), and says when a deal does not loop."""
    status = run(["cycle", "--partial", "--neighbours", "--json", "--J-/K-J-"])
    data = json.loads(capsys.readouterr().out)["neighbours"]
    assert status == 0
    assert data["isolated"] is False and [c["change"] for c in data["changes"]] == list(CHANGES)
    assert data["others"] and all("deal" in o and "period_tricks" in o for o in data["others"])
    status = run(["cycle", "--partial", "--neighbours", "Q-/-K--"])
    assert status == 0 and capsys.readouterr().out.startswith("no cycle")
