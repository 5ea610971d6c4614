"""Seat names: what a name may hold, and which names could be taken for another seat's."""

from __future__ import annotations

import pytest

from beggar.notation import random_deal
from beggar.rules import rules_named
from beggar.web.handler import _seats
from beggar.web.names import NameError_, clean_name, look_alike, skeleton
from beggar.web.protocol import Create, Join, ProtocolError, parse_message
from beggar.web.settings import NAME_LENGTH, NAME_MARKS
from beggar.web.table import Mode, Seat, Table


@pytest.mark.parametrize(
    "name",
    [
        "\ud800",  # a lone surrogate
        "Ann\u202eBob",  # a bidi override
        "Ann\u2066Bob\u2069",  # a bidi isolate
        "\ufeffAnn",  # a byte-order mark
        "A\u200bnn",  # a zero-width space
        "Ann\x7f",  # DEL
        "Ann\x85",  # a C1 control
        "Ann\u2028Bob",  # a line separator
        "Ann\ufdd0",  # a noncharacter
        "Ann\U000e0041",  # a tag character
        "Ann\ue000",  # private use
        "A" + "\u0301" * (NAME_MARKS + 1),  # a tower of accents
        "Bob wins. Ann",  # reads as a sentence of the log
        "Ann: wins",
        "Ann, Bob",
        "You",
        "you",
        "Yоu",  # a Cyrillic о
        "Player 1",
        "player2",
        "the computer",
        "...",
        "x" * (NAME_LENGTH + 1),
    ],
)
def test_names_that_could_mislead_are_refused_with_a_reason(name: str) -> None:
    with pytest.raises(NameError_) as refused:
        clean_name(name)
    assert str(refused.value).startswith(("a name", '"'))


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("  Ann   Lee ", "Ann Lee"),
        ("Zoe\u0308", "Zoë"),  # NFC: one letter
        ("J. R. Smith", "J. R. Smith"),
        ("J.R.R. Tolkien", "J.R.R. Tolkien"),
        ("<b>Bo</b>", "<b>Bo</b>"),  # markup is kept as text (the page never reads it as HTML)
        ("Nguyễn", "Nguyễn"),
        ("李小龙", "李小龙"),
        ("Ann 🂡", "Ann 🂡"),
        ("Ann-Marie O'Neil", "Ann-Marie O'Neil"),
    ],
)
def test_honest_names_are_kept_as_typed_normalised(typed: str, shown: str) -> None:
    assert clean_name(typed) == shown


def test_look_alikes_share_a_skeleton() -> None:
    assert skeleton("Ann") == skeleton("ANN") == skeleton("Аnn") == skeleton("A\u200bnn") == skeleton("Ánn")
    assert skeleton("Robin") == skeleton("Ｒｏｂｉｎ") == skeleton("R0bin")
    assert skeleton("ROBIN") == skeleton("Robin") and skeleton("AlI") == skeleton("All") == skeleton("A1l")
    assert skeleton("Ann") != skeleton("Anna")
    assert look_alike("Rоbin", ["Ann", "Robin"]) == "Robin"
    assert look_alike("Bea", ["Ann", "Robin"]) is None


def test_the_protocol_refuses_a_lone_surrogate_in_any_field() -> None:
    for frame in (
        '{"type":"rename","name":"\\ud800"}',
        '{"type":"create","mode":"friends","name":"\\udfff"}',
        '{"type":"create","mode":"friends","rules":"standard\\ud800"}',
        '{"type":"join","table":"abcdefghjk","token":"\\ud800"}',
        '{"type":"join","table":"abcdefghjk","name":"\\ud800"}',
    ):
        message = None
        try:
            message = parse_message(frame)
        except ProtocolError as exc:
            assert "unicode" in str(exc).lower()
        # A join keeps its person: the name is dropped and they are told why.
        assert message is None or (
            isinstance(message, Join) and message.name is None and message.refused_name
        )


def test_a_name_at_a_table_cannot_pass_for_another_seats() -> None:
    three = rules_named("standard:players=3")
    seats = [Seat("Ann", human=True), Seat("Player 2", human=True), Seat("Robin", human=False)]
    table = Table("namesabcde", Mode.FRIENDS, three, seats, random_deal(three, 3))
    table.take_seat(0, "ann-secret")
    table.take_seat(1, "bea-secret")
    table.rename(1, "Аnn")  # a Cyrillic А
    assert table.seats[1].name == "Аnn 2"
    table.rename(1, "Rоbin")  # the computer's name, with a Cyrillic о
    assert table.seats[1].name == "Rоbin 2"


def test_no_computer_takes_a_name_like_its_tables_creator() -> None:
    seats = _seats(Mode.FRIENDS, rules_named("standard:players=3"), Create(mode=Mode.FRIENDS, name="RОBIN"))
    assert [seat.name for seat in seats] == ["RОBIN", "Player 2", "Sam"]
