"""What each person is sent (beggar.web.view): the log told to them, and the state message as
messages.js describes it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

import beggar.web
from beggar.lessons import lesson
from beggar.notation import parse_deal
from beggar.records import ALL_GAMES
from beggar.rules import STANDARD, rules_named
from beggar.web.app import create_app
from beggar.web.settings import ServerSettings
from beggar.web.table import Mode, Seat, Table
from beggar.web.view import personal, state_message
from helpers import SHORT_SEED, Socket, create

# -- the log, told to each person ----------------------------------------------------------------


def _texts(table: Table, seat: int | None) -> list[str]:
    return [line["text"] for line in personal(table, seat)["log"]]


def _played(mode: Mode, deal: str, names: tuple[str, str] = ("Ann", "Ann 2")) -> Table:
    seats = [Seat(names[0], human=True), Seat(names[1], human=mode is not Mode.COMPUTER)]
    table = Table("abcdefghjk", mode, STANDARD, seats, parse_deal(deal, STANDARD.deck, complete=False))
    while not table.game.over:
        table.step()
    return table


def test_the_log_says_you_where_it_names_your_seat_and_names_the_others() -> None:
    table = _played(Mode.COMPUTER, "Q-/-J")
    assert _texts(table, None) == [
        "New game: No limits. Ann leads.",
        "Ann turns a queen: Ann 2 owes 2.",
        "Ann 2 turns a number card (1 of 2).",
        "Ann 2 turns a jack: the queen is cancelled, and Ann owes 1.",
        "Ann turns a number card (1 of 1). The jack is paid: Ann 2 takes the 4 cards of the pile "
        "(trick 1). Ann 2 wins with all 4 cards, after 4 cards and 1 trick.",
    ]
    # "Ann" is also the start of "Ann 2": the table knows which seat each name is.
    assert _texts(table, 0) == [
        "New game: No limits. You lead.",
        "You turn a queen: Ann 2 owes 2.",
        "Ann 2 turns a number card (1 of 2).",
        "Ann 2 turns a jack: the queen is cancelled, and you owe 1.",
        "You turn a number card (1 of 1). The jack is paid: Ann 2 takes the 4 cards of the pile "
        "(trick 1). Ann 2 wins with all 4 cards, after 4 cards and 1 trick.",
    ]
    assert _texts(table, 1)[1:] == [
        "Ann turns a queen: you owe 2.",
        "You turn a number card (1 of 2).",
        "You turn a jack: the queen is cancelled, and Ann owes 1.",
        "Ann turns a number card (1 of 1). The jack is paid: you take the 4 cards of the pile "
        "(trick 1). You win with all 4 cards, after 4 cards and 1 trick.",
    ]


@pytest.mark.parametrize("rules", ["standard", "standard:empty-hand=must-turn"])
def test_a_player_who_runs_out_is_told_so_with_every_verb_agreeing(rules: str) -> None:
    chosen = rules_named(rules)
    seats = [Seat("Ann", human=True), Seat("Bea", human=False)]
    table = Table("abcdefghjk", Mode.COMPUTER, chosen, seats, parse_deal("-/Q-", chosen.deck, complete=False))
    while not table.game.over:
        table.step()
    told = " ".join(_texts(table, 0))
    assert "You have no card" in told, told
    assert re.search(r"and (lose|are out)\.", told), told
    assert not re.search(r"\b[Yy]ou (turns|owes|takes|has|loses|is|wins|leads)\b", told), told
    assert "Ann" not in told


def test_the_friends_table_tells_each_friend_what_they_did() -> None:
    seats = [Seat("Ann", human=True), Seat("Bea", human=True)]
    table = Table(
        "abcdefghjk", Mode.FRIENDS, STANDARD, seats, parse_deal("Q-/-J", STANDARD.deck, complete=False)
    )
    table.take_seat(0, "ann-secret")
    table.take_seat(1, "bea-secret")
    table.set_pace(1, table.pace.__class__("fast"))
    table.set_paused(True, 0, hidden=True)
    table.set_paused(False, 1)
    table.rename(0, "Cy")
    table.ask_new_game(1)
    assert _texts(table, 0)[-5:] == [
        "Bea sets the pace to fast.",
        "Paused because you switched to another tab.",
        "Bea resumes the game.",
        "You are now called Cy.",
        "Bea asks for a new game; it starts when you agree.",
    ]
    assert _texts(table, 1)[-5:] == [
        "You set the pace to fast.",
        "Paused because Ann switched to another tab.",
        "You resume the game.",
        "Ann is now called Cy.",
        "You ask for a new game; it starts when Cy agrees.",
    ]
    assert (
        table.paused_why is None and _texts(table, None)[-4] == "Paused because Ann switched to another tab."
    )


@pytest.mark.parametrize("mode", [Mode.WATCH, Mode.LESSON])
def test_watching_and_lessons_name_every_seat(mode: Mode) -> None:
    table = _played(mode, "Q-/-J", ("A", "B"))
    assert _texts(table, 0) == _texts(table, None) and "you" not in " ".join(_texts(table, 0)).lower()


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerSettings(rate=1000, burst=1000, db=":memory:"))) as test_client:
        yield test_client


def test_over_the_socket_the_player_reads_you_and_a_spectator_reads_names(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_player, client.websocket_connect("/ws") as ws_watcher:
        player, watcher = Socket(ws_player), Socket(ws_watcher)
        table = create(player, mode="computer", seed=SHORT_SEED, pace="fast")["table"]
        player.send({"type": "watch", "on": True})  # the player's cards are turned for them
        player.until("state", lambda s: s["tricks"] >= 2, limit=5000)
        watcher.send({"type": "join", "table": table})
        assert watcher.until("joined")["seat"] is None
        watched = watcher.until("state")
        mine = [line["text"] for m in player.seen if m["type"] == "state" for line in m["log"]]
        theirs = [line["text"] for line in watched["log"]]
        assert any(text.startswith("You turn") for text in mine)
        assert not any("Player 1" in text for text in mine)
        assert any(text.startswith("Player 1 turns") for text in theirs)
        assert not any("You" in text for text in theirs)
