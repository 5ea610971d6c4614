"""Backward play: the positions one trick before a position, and the deals that reach a cycle.

At the end of a trick the pile went under its winner's stack, so the last *k* cards of the
leader's stack are the pile of the trick before, for some *k*. For each *k* and each possible
leader of that trick, the engine itself (:func:`beggar.engine.trick_from`) says who turned each of
those cards and whether the trick really ends there, won by that player; putting each player's
cards back on top of their stack gives a position one trick earlier. Every position returned is
checked by playing the trick forward with the engine.

This is how Casella and co-authors (arXiv 2403.13855) found starting deals that reach the
never-ending cycle of 62 tricks: walk backward from the positions on the cycle until both stacks
hold 26 cards.

The first known never-ending deal enters its cycle after 4 tricks; four tricks back from the
position where it does, the walk meets that deal among 6 deals:

>>> from beggar.cycle import find_cycle
>>> cycle = find_cycle("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA")
>>> result = deals_reaching([cycle.positions[0]], max_tricks=4)
>>> len(result.deals), "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA" in result.deals
(6, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from beggar.cards import Card
from beggar.engine import Game, GameError, PileTaken, Position, trick_from
from beggar.notation import Deal
from beggar.rules import STANDARD, PileOrder, Rules


def predecessors(position: Position, rules: Rules = STANDARD) -> list[Position]:
    """Every trick-end position from which one trick, played by the engine, gives ``position``.

    Two-player games only: with more players, who is out is part of a position.
    """
    if rules.players != 2 or position.stacks.players != 2:
        raise ValueError("backward play is defined for two-player games")
    hands = position.stacks.hands
    winner = position.leader
    stack = hands[winner]
    found: list[Position] = []
    for size in range(2, len(stack) + 1):
        pile = stack[len(stack) - size :]
        played = pile if rules.pile_order is PileOrder.OLDEST_FIRST else pile[::-1]
        if rules.pay_value(played[-1]) or not any(rules.pay_value(card) for card in played):
            continue  # a pile is won on a card that pays nothing and completes a payment
        for leader in range(2):
            trick = trick_from(played, leader, rules)
            if trick is None or trick.winner != winner:
                continue
            turned: list[list[Card]] = [[], []]
            for card, who in zip(played, trick.turns, strict=True):
                turned[who].append(card)
            rest = [hand if seat != winner else stack[: len(stack) - size] for seat, hand in enumerate(hands)]
            before = Position(Deal(tuple(tuple(turned[s]) + tuple(rest[s]) for s in range(2))), leader)
            if leads_to(before, position, rules):
                found.append(before)
    return found


def leads_to(before: Position, after: Position, rules: Rules = STANDARD) -> bool:
    """True if one trick played forward from ``before`` by the engine gives exactly ``after``."""
    if not all(before.stacks.hands):
        return False
    try:
        game = Game(before.stacks, rules.unlimited(), first=before.leader, complete=False)
    except GameError:
        return False
    while not game.over:
        if any(isinstance(event, PileTaken) for event in game.step()):
            return not game.over and _key(game.position()) == _key(after)
    return False


def _key(position: Position) -> tuple[str, int]:
    return position.stacks.compact(), position.leader


@dataclass
class BackwardSearch:
    """What a backward search from a set of positions found, depth by depth."""

    deals: dict[str, int] = field(default_factory=dict)
    """Starting deals (26 cards each, compact, first hand leads) and how many tricks they take to arrive."""
    positions_by_depth: list[int] = field(default_factory=list)
    """New positions found one, two, ... tricks back."""
    complete: bool = True
    """False if the search stopped at ``max_positions`` before reaching ``max_tricks``."""
    explored: int = 0
    """Positions met, the targets included."""
    exhausted: bool = False
    """True if the walk ended by itself: no position has an unseen predecessor."""
    closest: tuple[int, int] = (0, 0)
    """The most even split met (larger stack, smaller stack), the targets included."""


def deals_reaching(
    targets: Iterable[Position],
    rules: Rules = STANDARD,
    *,
    max_tricks: int = 20,
    max_positions: int = 200_000,
) -> BackwardSearch:
    """Walk backward up to ``max_tricks`` tricks from ``targets`` and collect the starting deals met.

    A position with both stacks of equal size (26 and 26 in the standard deck) is a deal: its
    leader's stack is written first, since the first hand leads. Positions among the targets are
    not walked through again.
    """
    frontier = list(targets)
    seen = {_key(position) for position in frontier}
    result = BackwardSearch()
    for position in frontier:
        _note_split(result, position)
    half = rules.deck.size // 2
    for depth in range(1, max_tricks + 1):
        new: list[Position] = []
        for position in frontier:
            if len(seen) > max_positions:
                break  # the budget is spent: stop within the depth rather than overshoot it
            for before in predecessors(position, rules):
                key = _key(before)
                if key in seen:
                    continue
                seen.add(key)
                new.append(before)
                _note_split(result, before)
                hands = before.stacks.hands
                if len(hands[0]) == len(hands[1]) == half:
                    order = (hands[before.leader], hands[1 - before.leader])
                    result.deals.setdefault(Deal(order).compact(), depth)
        result.positions_by_depth.append(len(new))
        frontier = new
        if len(seen) > max_positions:
            result.complete = depth == max_tricks
            break
        if not frontier:
            result.exhausted = True
            break
    result.explored = len(seen)
    return result


def _note_split(result: BackwardSearch, position: Position) -> None:
    sizes = sorted((len(hand) for hand in position.stacks.hands), reverse=True)
    split = (sizes[0], sizes[1])
    if result.closest == (0, 0) or split[0] - split[1] < result.closest[0] - result.closest[1]:
        result.closest = split
