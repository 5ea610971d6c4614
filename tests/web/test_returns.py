"""How a friend's return to a friend table is told: from another page ("came back"), after a
lost connection ("is back"), or by a page reloaded ("reloaded the page"), whatever the page had
time to say as it went."""

from __future__ import annotations

import pytest

from beggar.notation import random_deal
from beggar.rules import STANDARD
from beggar.web.table import Mode, Seat, Table, name_mentions
from helpers import SHORT_SEED


@pytest.mark.parametrize(
    ("elsewhere", "reloaded", "told"),
    [
        (True, False, "Bea came back."),
        (False, False, "Bea is back."),
        (True, True, "Bea reloaded the page."),
        (False, True, "Bea reloaded the page."),  # the page went before it could say so
    ],
)
def test_a_friend_s_return_says_how_they_went(elsewhere: bool, reloaded: bool, told: str) -> None:
    seats = [Seat("Ann", human=True), Seat("Bea", human=True)]
    table = Table("returnsabc", Mode.FRIENDS, STANDARD, seats, random_deal(STANDARD, SHORT_SEED))
    for seat, token in enumerate(("ann", "bea")):
        table.take_seat(seat, token)
        table.arrive(seat)
    table.depart(1, elsewhere=elsewhere)
    table.arrive(1, reloaded=reloaded)
    assert name_mentions(table.log[-1]["text"], table.names)[0] == told
