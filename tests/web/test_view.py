"""What each person is sent (beggar.web.view): the log told to them, and the state message as
messages.js describes it."""

from __future__ import annotations

import gc
import re
import weakref
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from starlette.testclient import TestClient

import beggar.web
from beggar.engine import Game, Reason
from beggar.lessons import LESSONS, lesson
from beggar.notation import parse_deal, random_deal
from beggar.records import ALL_GAMES, NEVER_ENDING
from beggar.rules import STANDARD, rules_named
from beggar.web.handler import Connection
from beggar.web.never_ending import checked
from beggar.web.replay import replay, replay_famous
from beggar.web.settings import ServerSettings
from beggar.web.table import DealtAgain, Mode, Pace, Seat, Table
from beggar.web.view import card_faces, notice, personal, shared_json, shared_view
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
    table.set_pace(1, Pace.FAST)
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


@pytest.mark.parametrize("number", [each.number for each in LESSONS])
def test_every_card_of_a_lesson_is_sent_with_its_sentence(number: int) -> None:
    taught = lesson(number)
    table = Table(
        "lessonabcd",
        Mode.LESSON,
        taught.rules,
        [Seat("A", True), Seat("B", True)],
        parse_deal(taught.deal, taught.rules.deck, complete=False),
        lesson=taught,
    )
    assert shared_view(table)["lesson"]["sentence"] == taught.intro
    while not table.game.over:
        table.step()
        sentence = shared_view(table)["lesson"]["sentence"]
        # The lesson's note where it has one, else the sentence said of the card in the log.
        said = next(line for line in reversed(table.log) if line["text"] != taught.outro)
        assert sentence == (taught.note(table.game.cards) or said["text"]), table.game.cards


def test_the_lessons_and_the_tables_call_a_card_that_pays_nothing_as_the_rules_page_does() -> None:
    from beggar.rules import PRESET_LIST

    rules_page = (Path(__file__).parents[2] / "docs" / "rules.md").read_text()
    assert "**Number cards**, 2 to 10" in rules_page  # the rules page owns the word
    said = [text for each in LESSONS for text in (each.title, each.intro, each.outro, *each.notes.values())]
    said += [step.sentence for each in LESSONS for step in each.script()]
    said += [preset.description for preset in PRESET_LIST]
    assert [text for text in said if "ordinary" in text.lower()] == []
    assert "number cards" in lesson(1).intro


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


# -- the state message, as messages.js describes it -------------------------------------------------

MESSAGES = Path(beggar.web.__file__).parent / "messages.js"
_TYPEDEF = re.compile(r"@typedef\s+\{Object\}\s+(\w+)")
_PROPERTY = re.compile(r"@property\s+\{([^}]*)\}\s+\[?(\w+)")


def documented() -> dict[str, dict[str, str]]:
    """Every object typedef of messages.js: its properties and their types."""
    types: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for line in MESSAGES.read_text(encoding="utf-8").splitlines():
        if found := _TYPEDEF.search(line):
            current = types.setdefault(found[1], {})
        elif "@typedef" in line or "*/" in line:
            current = None if "*/" in line and "@typedef" not in line else current
        if (found := _PROPERTY.search(line)) and current is not None:
            current[found[2]] = found[1]
    return types


def _check(
    value: Any, typedef: str, types: dict[str, dict[str, str]], seen: set[tuple[str, str]], at: str
) -> None:
    """Every key of ``value`` is a property of ``typedef``; nested objects by their typedefs."""
    assert isinstance(value, dict), f"{at} is not an object"
    for key, inner in value.items():
        assert key in types[typedef], f"{at}.{key} is sent but messages.js does not describe it ({typedef})"
        seen.add((typedef, key))
        nested = [name for name in re.findall(r"\w+", types[typedef][key]) if name in types]
        if not nested or inner is None:
            continue
        for each in inner if isinstance(inner, list) else [inner]:
            _check(each, nested[0], types, seen, f"{at}.{key}")


class _Browser:
    """Just enough of a WebSocket for a :class:`~beggar.web.handler.Connection` to be built."""

    def __init__(self) -> None:
        self.client = None
        self.scope: dict[str, Any] = {}
        self.path_params: dict[str, Any] = {}
        self.cookies: dict[str, str] = {}


def test_the_ending_is_told_to_the_player_as_you() -> None:
    seats = [Seat("Player 1", True), Seat("Robin", False)]
    table = Table("finishedab", Mode.COMPUTER, STANDARD, seats, random_deal(STANDARD, 2))
    while not table.game.over:
        table.step()
    assert shared_view(table)["over"]["sentence"].startswith("Player 1 wins with all 52 cards")
    assert personal(table, 0)["ending"] == "You win with all 52 cards, after 372 cards and 51 tricks."
    assert personal(table, None)["ending"] == shared_view(table)["over"]["sentence"]


def _sent(table: Table, seat: int | None, states: int = 2) -> list[dict[str, Any]]:
    """The states a connection at ``seat`` is sent: its first (with the rules) and the next."""
    connection = Connection(_Browser(), ServerSettings(), deque())  # type: ignore[arg-type]
    connection.sit(table, seat)
    sent = []
    for _ in range(states):
        sent.append(orjson.loads(connection.next_state(table)))
        table.changed()
    return sent


def _situations() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    timed = rules_named("standard:time-limit=30m")
    computer = Table(
        "computerab", Mode.COMPUTER, timed, [Seat("Ann", True), Seat("Robin", False)], random_deal(timed, 3)
    )
    while not computer.game.owed or computer.game.tricks < 2:
        computer.step()
    yield "a computer game mid-trick", _sent(computer, 0)

    seats = [Seat("Ann", True), Seat("Bea", True), Seat("Kit", False)]
    three = rules_named("standard:players=3")
    friends = Table("friendsabc", Mode.FRIENDS, three, seats, random_deal(three, 5), seed=5)
    friends.take_seat(0, "ann-secret")
    friends.take_seat(1, "bea-secret")
    friends.arrive(0)
    friends.arrive(1)
    friends.depart(1)
    friends.ask_new_game(0)
    for _ in range(30):
        friends.step()
    yield "a friend table, to a player", _sent(friends, 0)
    yield "a friend table, to a spectator", _sent(friends, None)

    finished = Table(
        "finishedab",
        Mode.COMPUTER,
        STANDARD,
        [Seat("Ann", True), Seat("Robin", False)],
        random_deal(STANDARD, 1),
    )
    while not finished.game.over:
        finished.step()
    finished.replay = "abcdefghijkl"
    finished.dealt_again = [DealtAgain(474, True, "mnpqrstu")]  # as if it followed a loop
    yield "a finished game", _sent(finished, 0)

    taught = lesson(2)
    lesson_table = Table(
        "lessonabcd",
        Mode.LESSON,
        taught.rules,
        [Seat("A", True), Seat("B", True)],
        parse_deal(taught.deal, taught.rules.deck, complete=False),
        lesson=taught,
    )
    lesson_table.step()
    yield "a lesson", _sent(lesson_table, 0)

    for index in (0, len(ALL_GAMES) - 1):
        famous = ALL_GAMES[index]
        table = Table(
            "famousabcd",
            Mode.FAMOUS,
            STANDARD,
            [Seat("A", True, automatic=True), Seat("B", False)],
            parse_deal(famous.deal, STANDARD.deck),
            famous=famous,
        )
        while not table.game.over and table.game.cards < 20_000:
            table.step()
        yield f"a famous game, played out ({famous.finder})", _sent(table, None)

    found = checked("standard", NEVER_ENDING.deal)
    assert found is not None
    table = Table(
        "foundabcde",
        Mode.FAMOUS,
        found.rules,
        [Seat("A", True, automatic=True), Seat("B", False)],
        parse_deal(found.deal, found.rules.deck, rules=found.rules),
        famous=found,
    )
    yield "a never-ending deal found here", _sent(table, None)


def test_every_key_sent_is_described_in_messages_js_and_every_property_is_sent() -> None:
    types = documented()
    assert {"TableState", "SeatState", "CardJson", "LogLine"} <= set(types)
    seen: set[tuple[str, str]] = set()
    for situation, states in _situations():
        for state in states:
            _check(state, "TableState", types, seen, situation)
    reachable = {"TableState"}
    while True:
        more = {
            name
            for typedef in reachable
            for kind in types[typedef].values()
            for name in re.findall(r"\w+", kind)
            if name in types
        }
        if more <= reachable:
            break
        reachable |= more
    never = sorted(f"{t}.{p}" for t in reachable for p in types[t] if (t, p) not in seen)
    assert not never, f"described in messages.js but never sent: {never}"


def test_a_replay_and_its_named_frames_are_described_in_messages_js(client: TestClient) -> None:
    """A replay (beggar/web/replay.py) sends what messages.js's Replay and ReplayFrame describe, by
    name: a saved game (mode, seat), a never-ending famous game (title, cycle), and the two deals of
    a sitting whose first deal looped and was dealt again (as the server answers them)."""
    types = documented()
    seen: set[tuple[str, str]] = set()
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", rules="family-table:lead=first-hand", deal=NEVER_ENDING.deal, pace="instant")
        end = me.until("state", lambda s: s["reshuffles"] >= 1 and s["over"] is not None, limit=100_000)
    for replay_id in (end["over"]["dealt_again"][0]["replay"], end["over"]["replay"]):
        _check(client.get(f"/api/replay/{replay_id}").json(), "Replay", types, seen, "a redealt sitting")
    game = Game(random_deal(STANDARD, SHORT_SEED), STANDARD)
    saved = {**replay(game, ["Ann", "Bea"], you=0), "mode": "computer", "you": 0, "finished": True}
    stopped = replay(
        Game(random_deal(STANDARD, SHORT_SEED), STANDARD), ["A", "B"], turned=5, stopped="stopped"
    )
    looping = replay_famous(next(game for game in ALL_GAMES if game.cycle_tricks is not None))
    for at, data in (("a saved game", saved), ("a stopped game", stopped), ("a famous game", looping)):
        _check(data, "Replay", types, seen, at)
    never = sorted(
        f"{t}.{p}" for t in ("Replay", "ReplayFrame", "ReplayOver") for p in types[t] if (t, p) not in seen
    )
    assert not never, f"described in messages.js but never sent: {never}"


def test_the_other_messages_are_described_too(client: TestClient) -> None:
    types = documented()
    with client.websocket_connect("/ws") as ws:
        browser = Socket(ws)
        browser.send({"type": "create", "mode": "computer", "rules": "standard:nonsense=1"})
        refused = browser.until("error")
        browser.send({"type": "join", "table": "abcdefghjk"})
        unknown = browser.until("error")
        browser.send({"type": "ping"})
        pong = browser.until("pong")
        joined = create(browser, mode="computer")
        browser.send({"type": "leave"})
        left = browser.until("left")
    assert "field" in refused and unknown.get("code") == "no-table"
    for message, typedef in [
        (refused, "ErrorMessage"),
        (unknown, "ErrorMessage"),
        (pong, "Pong"),
        (joined, "Joined"),
        (left, "Left"),
    ]:
        assert set(message) <= set(types[typedef]), (message, typedef)
    assert set(joined) == set(types["Joined"])


def test_messages_js_ships_with_the_package() -> None:
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"web/messages.js"' in pyproject
    assert MESSAGES.is_file()


def _texts_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, each in value.items():
            if key != "settings":  # the rules' own spec words, shown as settings
                yield from _texts_in(each)
    elif isinstance(value, list):
        for each in value:
            yield from _texts_in(each)


def test_the_page_is_told_nothing_in_the_developers_words(client: TestClient) -> None:
    options = client.get("/api/options").json()
    texts = list(_texts_in({key: options[key] for key in ("presets", "lessons", "famous", "defaults")}))
    for jargon in (re.compile(r"seat [0-9]"), re.compile(r"docs/|\.md\b"), re.compile(r"\bkernel\b")):
        assert not [text for text in texts if jargon.search(text)], jargon.pattern


def test_a_lesson_table_says_how_many_cards_it_deals() -> None:
    taught = lesson(1)
    table = Table(
        "lessonabcd",
        Mode.LESSON,
        taught.rules,
        [Seat("A", True), Seat("B", True)],
        parse_deal(taught.deal, taught.rules.deck, complete=False),
        lesson=taught,
    )
    assert personal(table, 0)["rules"]["settings"]["deck"] == "7 cards"


def _four_players_played(seed: int) -> Table:
    rules = rules_named("standard:players=4")
    seats = [Seat("Ann", True), Seat("Bea", False), Seat("Cy", False), Seat("Di", False)]
    table = Table("fourabcdef", Mode.COMPUTER, rules, seats, random_deal(rules, seed), seed=seed)
    while not table.game.over:
        table.step()
    return table


def test_the_end_says_who_won_and_when_you_went_out_in_what_place() -> None:
    table = next(
        each
        for each in map(_four_players_played, range(1, 60))
        if each.game.record is not None
        and each.game.record.winner not in (None, 0)
        and each.game.record.status.value == "finished"
    )
    record = table.game.record
    assert record is not None and record.winner is not None
    winner = table.seats[record.winner].name
    places = {seat: (cards, index + 1) for index, (seat, cards) in enumerate(table.went_out)}
    assert sorted(places) == sorted(set(range(4)) - {record.winner})
    cards, place = places[0]
    ordinal = {1: "first", 2: "second", 3: "third"}[place]  # the order of going out, not a place
    assert personal(table, 0)["result"] == (
        f"{winner} wins, holding all 52 cards. You went out after {cards:,} cards, the {ordinal} to go out."
    )
    assert personal(table, None)["result"] == f"{winner} wins, holding all 52 cards."
    assert personal(_played(Mode.COMPUTER, "Q-/-J"), 1)["result"] == "You win, holding all 4 cards."


def test_a_loop_or_a_stop_is_said_with_what_it_awards() -> None:
    rules = rules_named("standard:max-cards=10")
    table = Table(
        "stopabcdef", Mode.COMPUTER, rules, [Seat("Ann", True), Seat("Bea", False)], random_deal(rules, 3)
    )
    assert personal(table, 0)["result"] == ""
    while not table.game.over:
        table.step()
    assert personal(table, 0)["result"].startswith("Stopped by the card limit. ")


def _with_a_pile(rules_spec: str, cards: int | None = None) -> Table:
    """A game of ``rules_spec`` played to its end (or ``cards`` cards) with cards on the pile."""
    rules = rules_named(rules_spec)
    for seed in range(100):
        seats = [Seat("Ann", True), Seat("Bea", False)]
        table = Table("chartabcde", Mode.COMPUTER, rules, seats, random_deal(rules, seed))
        while not table.game.over and (cards is None or table.game.cards < cards):
            table.step()
        if table.game.pile:
            return table
    raise AssertionError("no deal leaves cards on the pile")


def test_the_chart_ends_with_the_hands_the_game_ended_with() -> None:
    # The stacks after the last trick leave out the cards still on the pile; the result counts
    # the hands, and so must the chart's last point (its legend).
    table = _with_a_pile("standard:max-cards=60")
    record = table.game.record
    assert record is not None
    assert table.history[-1] == record.holdings
    assert len(table.history) == record.tricks + 2  # the deal, each trick, the end
    assert personal(table, 0)["history"][-1] == record.holdings


def test_a_game_that_ends_on_a_trick_charts_no_extra_point() -> None:
    table = _played(Mode.COMPUTER, "Q-/-J")
    assert table.game.record is not None
    assert len(table.history) == table.game.record.tricks + 1
    assert table.history[-1] == table.game.record.holdings


def test_a_game_stopped_by_the_clock_charts_its_end_hands() -> None:
    table = _with_a_pile("standard:time-limit=60", cards=57)
    table.started -= 61
    table.check_time_limit()
    record = table.game.record
    assert record is not None and record.holdings == table.game.hand_sizes
    assert table.history[-1] == record.holdings


def test_a_stopped_game_rebuilt_from_its_save_charts_its_end_hands() -> None:
    played = _with_a_pile("standard:max-cards=60")
    for stopped, turned in ((Reason.STOPPED, 57), (None, played.game.cards)):
        seats = [Seat("Ann", True), Seat("Bea", False)]
        table = Table("chartabcde", Mode.COMPUTER, played.rules, seats, played.deal)
        for _ in table.resume(played.game.first, turned, stopped):
            pass
        record = table.game.record
        assert record is not None and table.game.pile
        assert table.history[-1] == record.holdings


def test_a_taken_trick_is_told_from_each_seat_until_the_next_card() -> None:
    seats = [Seat("Ann", human=True), Seat("Bea", human=False)]
    deal = parse_deal("J--/--", STANDARD.deck, complete=False)
    table = Table("abcdefghjk", Mode.COMPUTER, STANDARD, seats, deal)
    assert personal(table, 0)["taken"] == ""
    while table.game.tricks == 0:
        table.step()
        if table.game.tricks == 0:
            assert personal(table, 0)["taken"] == ""
    assert personal(table, 0)["taken"] == "Jack paid: you take 2 cards."
    assert personal(table, 1)["taken"] == "Jack paid: Ann takes 2 cards."
    assert personal(table, None)["taken"] == "Jack paid: Ann takes 2 cards."
    table.step()
    assert personal(table, 0)["taken"] == ""


def test_the_headline_says_who_won_once_from_each_seat() -> None:
    table = _played(Mode.COMPUTER, "Q-/-J")
    record = table.game.record
    assert record is not None and record.winner == 1
    assert personal(table, 0)["headline"] == "You lost: Ann 2 took all 4 cards."
    assert personal(table, 1)["headline"] == "You won: you took all 4 cards."
    assert personal(table, None)["headline"] == "Ann 2 won, with all 4 cards."
    assert shared_view(table)["over"]["why"] == ""  # won outright: nothing more to say
    rules = rules_named("standard:max-cards=10")
    stopped = Table(
        "stopabcdef", Mode.COMPUTER, rules, [Seat("Ann", True), Seat("Bea", False)], random_deal(rules, 3)
    )
    assert personal(stopped, 0)["headline"] == ""
    while not stopped.game.over:
        stopped.step()
    assert shared_view(stopped)["over"]["why"] == "Stopped by the card limit after 10 cards and 1 trick."
    assert personal(stopped, 0)["headline"] == "No one won."


def test_a_win_on_more_cards_gives_the_winner_s_count_first() -> None:
    rules = rules_named("friend-table:max-cards=8")
    for seed in range(200):
        table = Table(
            "morecards0",
            Mode.FRIENDS,
            rules,
            [Seat("Ann", True), Seat("Bea", True)],
            random_deal(rules, seed),
        )
        while not table.game.over:
            table.step()
        record = table.game.record
        if record is not None and record.winner == 1 and record.holdings[0] < record.holdings[1]:
            break
    else:
        raise AssertionError("no stopped game won by the second seat")
    held = f"({record.holdings[1]} to {record.holdings[0]})"  # the winner's count first
    assert personal(table, 1)["headline"] == f"You won, with more cards {held}."
    assert personal(table, 0)["headline"] == f"You lost: Bea has more cards {held}."
    assert personal(table, None)["headline"] == f"Bea won, with more cards {held}."


def test_the_prompt_says_why_the_player_to_play_does_not_turn_from_every_seat() -> None:
    seats = [Seat("Ann", True), Seat("Bea", True)]
    table = Table("friendsabc", Mode.FRIENDS, STANDARD, seats, random_deal(STANDARD, 5), seed=5)
    for index, token in enumerate(("ann-secret", "bea-secret")):
        table.take_seat(index, token)
        table.arrive(index)
    while table.game.to_play != 1 or table.game.owed:
        table.step()
    assert personal(table, 0)["prompt"] == "Bea's turn."
    table.depart(1)
    for seat in (0, None):  # a player and a spectator alike
        assert personal(table, seat)["prompt"] == "Bea's turn — Bea has lost the connection."
    table.arrive(1)
    table.depart(1, left=True)
    assert personal(table, None)["prompt"] == "Bea's turn — Bea has left the table."
    table.arrive(1)
    while table.game.to_play != 1 or not table.game.owed:
        table.step()
    table.depart(1)
    price = personal(table, 0)["prompt"].split(":")[0]
    owes = f"{price}: Bea owes {table.game.owed}"
    assert personal(table, 0)["prompt"] == f"{owes} — Bea has lost the connection."
    table.arrive(1)
    table.depart(1, left=True)
    table.play_for(0, 1)  # the computer turns for Bea: nobody waits for her
    assert personal(table, 0)["prompt"] == f"{owes}."


def test_the_notice_of_a_lost_connection_stays_true_while_it_is_shown() -> None:
    # The notice is sent when the connection drops and again only when the grace is over: its
    # words must not count down from the moment they were sent.
    seats = [Seat("Ann", True), Seat("Bea", True)]
    table = Table("lostabcdef", Mode.FRIENDS, STANDARD, seats, random_deal(STANDARD, 5), seed=5)
    for seat in (0, 1):
        table.take_seat(seat, f"secret-{seat}")
        table.arrive(seat)
    table.depart(1)
    told = {seat: notice(table, seat) for seat in (0, None)}
    assert told == {
        0: "Bea lost the connection; you may go on without them once they have been away 20 s.",
        None: "Bea lost the connection; the players may go on without them once they have been away 20 s.",
    }
    away = table.seats[1].away_since
    assert away is not None
    table.seats[1].away_since = away - 12  # twelve seconds later: the same words, still true
    assert {seat: notice(table, seat) for seat in (0, None)} == told
    table.seats[1].away_since = away - 21  # the grace is over: the offer itself
    assert (
        notice(table, 0)
        == "Bea has been away for a while: go on without them, or wait for them to come back."
    )


def test_a_new_game_refused_is_told_to_those_who_asked_until_the_game_moves_on() -> None:
    seats = [Seat("Ann", True), Seat("Bea", True), Seat("Cy", True)]
    table = Table("refusedabc", Mode.FRIENDS, STANDARD, seats, random_deal(STANDARD, 5), seed=5)
    for seat in (0, 1, 2):
        table.take_seat(seat, f"secret-{seat}")
        table.arrive(seat)
    table.ask_new_game(0)
    assert notice(table, 0) == "Waiting for Bea and Cy to agree to a new game."
    table.keep_playing(1)
    # The asker is told, and so is Cy, who was asked too; Bea knows what she pressed.
    told = "Bea wants to keep playing: no new game."
    assert {seat: notice(table, seat) for seat in (0, 2, None)} == {0: told, 2: told, None: told}
    assert notice(table, 1) == ""
    assert f"{told}" in _texts(table, 0)  # the log says it in the same words
    tricks = table.game.tricks
    while table.game.tricks == tricks:  # until the next trick is won: the game has moved on
        table.step()
    assert notice(table, 0) == ""
    # Once the game is over the answer is No, and the words say so.
    while not table.game.over:
        table.step()
    table.ask_new_game(2)
    table.keep_playing(0)
    assert notice(table, 2) == "Ann says no to a new game for now."
    table.ask_new_game(2)  # asked again: the ask is what is told now
    assert notice(table, 2) == "Waiting for Ann and Bea to agree to a new game."


def test_the_prompt_says_what_is_left_to_pay_once_part_is_paid() -> None:
    seats = [Seat("Ann", True), Seat("Bea", False)]
    table = Table("partlypaid", Mode.COMPUTER, STANDARD, seats, random_deal(STANDARD, 5), seed=5)
    while not (table.game.owed == 3 and table.game.pile[-1].noun == "king"):  # a king just turned
        table.step()
    debtor = table.game.to_play
    owes = "you owe" if debtor == 0 else "Bea owes"
    assert personal(table, 0)["prompt"] == f"King: {owes} 3."
    table.step()  # one paid, in a number card (a pay card would change the price)
    assert table.game.owed == 2 and table.game.to_play == debtor
    assert personal(table, 0)["prompt"] == f"King: {owes} 2 more."


@pytest.mark.parametrize("mode", [Mode.COMPUTER, Mode.WATCH])
def test_someone_watching_by_the_link_is_not_told_that_they_switched_tabs(mode: Mode) -> None:
    seats = [Seat("Ann", True), Seat("Robin", False)]
    table = Table("hiddenabcd", mode, STANDARD, seats, random_deal(STANDARD, 5), seed=5)
    table.set_paused(True, 0, hidden=True)
    assert (
        personal(table, 0)["prompt"] == _texts(table, 0)[-1] == "Paused because you switched to another tab."
    )
    said = "Paused: the player switched to another tab."
    assert personal(table, None)["prompt"] == _texts(table, None)[-1] == said


def test_the_prompt_does_not_ask_you_to_turn_while_the_computer_turns_your_cards() -> None:
    seats = [Seat("Ann", True), Seat("Robin", False)]
    table = Table("watchingab", Mode.COMPUTER, STANDARD, seats, random_deal(STANDARD, 5), seed=5)
    while table.game.to_play != 0 or table.game.owed:
        table.step()
    assert personal(table, 0)["prompt"] == "Your turn: turn your top card."
    table.set_automatic(0, True)
    assert personal(table, 0)["prompt"] == "Your turn: the computer turns it."


def test_each_card_is_drawn_once_a_game_and_what_the_view_keeps_goes_with_the_table() -> None:
    """The view keeps each table's encoded view and card faces beside the table, not in it, and
    keeps no table alive: a closed table's cache goes with it."""
    table = _played(Mode.WATCH, "Q-/-J")
    card = next(card for stack in table.game.stacks for card in stack)
    assert card_faces(table)(card) is card_faces(table)(card)
    assert shared_json(table) is shared_json(table)  # encoded once per change
    before = card_faces(table)(card)
    table.new_game()
    assert card_faces(table)(card) is not before  # a new game draws its cards afresh
    gone = weakref.ref(table)
    del table
    gc.collect()
    assert gone() is None
