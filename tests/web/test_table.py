"""The numbered defects of the browser table, seen from the server; see also
tests/web/test_browser.py for what a person sees in Chromium."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from beggar.engine import Game, play
from beggar.notation import parse_deal, random_deal
from beggar.records import ALL_GAMES, NEVER_ENDING
from beggar.rules import PRESET_LIST, SETTINGS, STANDARD, rules_named
from beggar.web.app import create_app
from beggar.web.faces import dress
from beggar.web.presets import SETTING_WORDS, rules_summary, table_rules_title
from beggar.web.protocol import MAX_MESSAGE_BYTES
from beggar.web.settings import ServerSettings
from beggar.web.table import ABSENT_GRACE, Mode, Seat, Table
from beggar.web.view import notice, shared_view
from helpers import SHORT_SEED, Socket, create


def _friends(client: TestClient, ws_a: Any, ws_b: Any, **fields: Any) -> tuple[Socket, Socket, str]:
    a, b = Socket(ws_a), Socket(ws_b)
    table = create(a, mode="friends", name="Ann", **fields)["table"]
    b.send({"type": "join", "table": table, "name": "Bea"})
    b.until("joined")
    a.until("state", lambda s: not s["waiting_for"])
    return a, b, table


def logged(socket: Socket) -> list[str]:
    """Every log line this browser has been sent (each state carries only the new ones)."""
    return [line["text"] for m in socket.seen if m["type"] == "state" for line in m["log"]]


# 1. The two buttons play the two tables the project reproduces, named in plain words.


def test_the_computer_plays_the_practice_table_and_a_friend_the_friend_table(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer")
        assert me.state is not None and me.state["rules"]["name"] == "practice-table"
        assert me.state["rules"]["title"] == "Practice table"
        assert "New game: Practice table." in me.state["log"][0]["text"]
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="friends")
        assert me.state is not None and me.state["rules"]["name"] == "friend-table"
        assert me.state["rules"]["settings"]["lead"] == "random"
        assert me.state["rules"]["settings"]["max-tricks"] == "3000"


def test_players_never_see_a_seed_document_named(client: TestClient) -> None:
    options = client.get("/api/options").json()
    titles = {p["name"]: p["title"] for p in options["presets"]}
    assert titles["practice-table"] == "Practice table"
    assert titles["friend-table"] == "Friend table"
    assert titles["standard"] == "No limits"
    shown = json.dumps([{k: p[k] for k in ("title", "description")} for p in options["presets"]]).lower()
    assert "seed" not in shown


def test_changed_rules_are_named_by_the_house_rules_they_add() -> None:
    assert table_rules_title(rules_named("practice-table")) == "Practice table"
    # Its own values again, or another number of players (the table says how many), change nothing.
    assert table_rules_title(rules_named("practice-table:max-cards=4000:players=3")) == "Practice table"
    assert (
        table_rules_title(rules_named("practice-table:pay=J2Q4K6A8:max-cards=500"))
        == "Practice table + 2 house rules (Double penalty, stops after 500 cards)"
    )
    assert (
        table_rules_title(rules_named("half-deck:pay=J1Q2")) == "Half deck + 1 house rule (Jacks and queens)"
    )
    assert (
        table_rules_title(rules_named("friend-table:open-hands=yes:lead=first-hand"))
        == "Friend table + 2 house rules (the first hand leads, open hands)"
    )
    assert (
        table_rules_title(rules_named("standard:pay=J1Q1K1A1"))
        == "No limits + 1 house rule (a jack pays 1, a queen 1, a king 1, an ace 1)"
    )


def test_the_rules_line_sums_up_what_the_title_does_not_say() -> None:
    rules = rules_named("practice-table:max-cards=500:open-hands=yes")
    assert table_rules_title(rules) == "Practice table + 2 house rules (stops after 500 cards, open hands)"
    assert rules_summary(rules) == "a standard deck of 52 cards, 2 players"
    assert rules_summary(rules_named("friend-table:players=3")) == (
        "a standard deck of 52 cards, 3 players, random lead, stops after 3,000 tricks"
    )


def test_every_setting_has_plain_words_for_each_of_its_values() -> None:
    for setting in SETTINGS:
        assert setting.key in SETTING_WORDS, setting.key
    for preset in PRESET_LIST:
        for words in SETTING_WORDS.values():
            assert words(preset.rules) and "_" not in words(preset.rules)


# 2. Only a person holding a seat is "you".


@pytest.mark.parametrize("mode", ["watch", "famous"])
def test_watching_never_says_you(client: TestClient, mode: str) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode=mode, famous=0, pace="instant", seed=SHORT_SEED)
        me.until("state", lambda s: s["over"] is not None, limit=100_000)
        prompts = {m["prompt"] for m in me.seen if m["type"] == "state"}
        assert len(prompts) >= 2
        assert not any("you" in text.lower().split() or "you" in text.lower() for text in prompts), prompts


def test_a_spectator_at_a_friend_table_is_never_you(client: TestClient) -> None:
    with (
        client.websocket_connect("/ws") as ws_a,
        client.websocket_connect("/ws") as ws_b,
        client.websocket_connect("/ws") as ws_c,
    ):
        a, _, table = _friends(client, ws_a, ws_b, seed=SHORT_SEED)
        c = Socket(ws_c)
        c.send({"type": "join", "table": table})
        assert c.until("joined")["seat"] is None
        state = c.until("state")
        assert "you" not in state["prompt"].lower()
        assert "Your" not in a.until("state")["prompt"] or True  # the players' prompts are theirs


# 4. A new game needs every seated person.


def test_a_new_game_needs_both_friends_and_the_log_says_who(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, table = _friends(client, ws_a, ws_b, seed=SHORT_SEED)
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        first = lobby.tables[table].game.to_play
        (a if first == 0 else b).send({"type": "turn"})
        a.until("state", lambda s: s["cards"] == 1)
        a.send({"type": "new-game"})
        asked = b.until("state", lambda s: s["new_game_asked"] == [0])
        assert asked["cards"] == 1 and asked["games_played"] == 0
        assert asked["notice"] == "Ann asks for a new game: press Agree to a new game or Keep playing."
        assert "Ann asks for a new game; it starts when you agree." in logged(b)  # told to Bea
        a.until("state", lambda s: s["new_game_asked"] == [0])
        assert "You ask for a new game; it starts when Bea agrees." in logged(a)
        b.send({"type": "new-game"})
        fresh = a.until("state", lambda s: s["games_played"] == 1)
        assert fresh["cards"] == 0 and fresh["new_game_asked"] == []
        assert "Bea agrees: a new game." in logged(a)


def test_pause_and_pace_at_a_friend_table_say_who(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, _ = _friends(client, ws_a, ws_b)
        b.send({"type": "pause"})
        paused = a.until("state", lambda s: s["paused"])
        assert paused["prompt"] == "Paused by Bea."
        a.send({"type": "pace", "pace": "fast"})
        a.until("state", lambda s: s["pace"] == "fast")
        b.send({"type": "resume"})
        a.until("state", lambda s: not s["paused"])
        b.until("state", lambda s: "You resume the game." in [line["text"] for line in s["log"]])
        # Each is told what they did as "you", and what the other did by name.
        assert {"Paused by Bea.", "You set the pace to fast.", "Bea resumes the game."} <= set(logged(a))
        assert {"Paused by you.", "Ann sets the pace to fast.", "You resume the game."} <= set(logged(b))


# 5. A friend table waits for the friend.


def test_a_friend_table_waits_until_every_person_is_seated(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a:
        a = Socket(ws_a)
        joined = create(a, mode="friends", name="Ann", rules="friend-table:players=3", humans=2, pace="fast")
        assert a.state is not None
        assert a.state["waiting_for"] == ["a friend"]  # a seat nobody took is not called by its place
        assert a.state["prompt"] == "Waiting for a friend to join."
        assert a.state["seats"][1]["name"] == "a friend" and not a.state["seats"][1]["named"]
        a.send({"type": "turn"})
        assert "waiting for a friend to join" in a.error()
        table = client.app.state.lobby.tables[joined["table"]]  # type: ignore[attr-defined]
        assert not table.waiting_for_machine()  # the computer seat waits too
        with client.websocket_connect("/ws") as ws_b:
            b = Socket(ws_b)
            b.send({"type": "join", "table": joined["table"]})
            b.until("joined")
            ready = a.until("state", lambda s: s["waiting_for"] == [])
            assert ready["prompt"] != "Waiting for a friend to join."
            assert any(text.startswith("Everyone is here.") for text in logged(a))
            # Who leads is said once: when everyone is here, not before at the new game too.
            b.until("state")
            told = logged(b)
            assert told[0] == "New game: Friend table."  # three players: not a house rule
            assert sum(text.endswith(" leads.") or text.endswith("You lead.") for text in told) == 1


# 6. A closed table is said to be closed.


def test_a_table_that_does_not_exist_is_closed_not_empty(client: TestClient) -> None:
    assert client.get("/t/zzzzzz").status_code == 404
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "join", "table": "zzzzzz"})
        error = me.until("error")
        assert error["code"] == "no-table"
        assert error["message"] == "This table is closed or never existed."


# 9. Every error a player can cause is one plain sentence.


@pytest.mark.parametrize(
    "spec",
    ["standard:max-cards=abc", "standard:max-tricks=1.5", "standard:players=x", "standard:time-limit=soon"],
)
def test_a_bad_rules_entry_is_one_plain_sentence(client: TestClient, spec: str) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "create", "mode": "computer", "rules": spec})
        message = me.until("error")["message"]
        assert "literal" not in message and "int()" not in message and "base 10" not in message
        assert message[0].isupper() or message[0] == "'"
        assert message.endswith(".") and message.count(". ") == 0


# 10. The server says what each card pays.


@pytest.mark.parametrize(
    ("rules", "ace", "jack"), [("court-only", 0, 1), ("jacks-queens", 0, 1), ("standard", 4, 1)]
)
def test_every_face_up_card_says_what_it_pays(client: TestClient, rules: str, ace: int, jack: int) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", rules=f"{rules}:open-hands=yes", seed=3, pace="slow")
        assert me.state is not None
        pays = {card["rank"]: card["pays"] for seat in me.state["seats"] for card in seat["stack"]}
        assert (pays["A"], pays["J"], pays["7"]) == (ace, jack, 0)


# 11. A tab switch pause says why.


def test_a_pause_for_another_tab_says_so(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", pace="slow")
        me.send({"type": "pause", "hidden": True})
        state = me.until("state", lambda s: s["paused"])
        assert state["paused_why"] == "Paused because you switched to another tab."
        assert state["prompt"] == state["paused_why"]


# 12. Family table: a loop means a real redeal, and the clock keeps running.


def test_a_family_table_loop_is_really_dealt_again() -> None:
    table = Table(
        id="family",
        mode=Mode.WATCH,
        rules=rules_named("family-table:lead=first-hand"),
        seats=[Seat("A", human=False), Seat("B", human=False)],
        deal=parse_deal(NEVER_ENDING.deal),
        seed=7,
    )
    assert shared_view(table)["time_left"] is not None  # the 30-minute limit is a clock
    while table.redeals == 0:
        table.step()
        assert table.game.cards <= 474
    texts = [line["text"] for line in table.log]
    # The loop (474 cards with the first hand leading) is told, then a fresh deal is played.
    assert "Loop after 474 cards" in texts[-2]
    assert texts[-2].endswith("The cards are gathered, shuffled and dealt again.")
    assert texts[-1] == "Dealt again: a fresh shuffle, the same seats (deal 2). A leads."
    assert table.game.cards == 0 and not table.game.over
    assert table.deal.format() != NEVER_ENDING.deal and table.names == ["A", "B"]
    assert shared_view(table)["reshuffles"] == 1 and shared_view(table)["time_left"] is not None
    for _ in range(10):
        table.step()  # and play goes on
    assert table.game.cards == 10


def test_a_family_table_redeals_over_the_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", rules="family-table:lead=first-hand", deal=NEVER_ENDING.deal, pace="instant")
        again = me.until("state", lambda s: s["reshuffles"] >= 1, limit=100_000)
        # a fresh deal is being played (at instant pace it may already have ended)
        assert again["games_played"] >= 1
        assert again["over"] is None or again["over"]["status"] != "loop"


# The protocol's size limit is in bytes.


def test_the_message_size_limit_counts_bytes_not_characters(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        name = "é" * (MAX_MESSAGE_BYTES // 2 + 10)  # fewer characters than the limit, more bytes
        assert len(name) < MAX_MESSAGE_BYTES < len(name.encode())
        me.send(json.dumps({"type": "join", "table": "abc", "name": name}, ensure_ascii=False))
        assert "too large" in me.error()


# Famous games get real faces, and play the same game.


@pytest.mark.parametrize("published", [*ALL_GAMES[:3], NEVER_ENDING], ids=lambda g: g.finder)
def test_dressed_famous_deals_are_whole_decks_that_play_the_same_game(published: Any) -> None:
    compact = parse_deal(published.deal)
    dressed = dress(compact)
    full = parse_deal(dressed.format("full"))  # a complete 52-card deck, every card distinct
    assert len(set(full.hands[0] + full.hands[1])) == 52
    assert Game(dressed, STANDARD, first=0).run() == Game(compact, STANDARD, first=0).run()


# Replays: a finished game gets a link that replays it card for card.


def test_a_finished_game_replays_card_for_card_from_its_link(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", seed=SHORT_SEED, pace="instant", rules="standard")
        over = me.until("state", lambda s: s["over"] is not None and s["over"]["replay"])
        sentences = logged(me)[1:]  # after "New game: ..."
    replay = client.get(f"/api/replay/{over['over']['replay']}").json()
    frames = replay["frames"]
    assert len(frames) == over["cards"] + 1
    assert [frame["text"] for frame in frames[1:]] == sentences
    assert frames[-1]["stacks"] == over["over"]["holdings"]
    assert replay["over"]["cards"] == over["over"]["cards"]
    assert client.get("/api/replay/nothere").status_code == 404


def test_a_replay_asked_for_from_a_seat_is_told_to_that_seat_as_the_table_told_it(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", seed=SHORT_SEED, pace="instant", rules="standard")
        me.send({"type": "watch", "on": True})
        over = me.until("state", lambda s: s["over"] is not None and s["over"]["replay"])
        sentences = logged(me)[1:]
    link = f"/api/replay/{over['over']['replay']}"
    mine = client.get(link, params={"you": over["you"]}).json()
    # The page calls the game as its table did (its words are the page's): it needs the table's
    # mode and whose seat it is told from.
    assert mine["names"] == ["You", "Robin"] and (mine["mode"], mine["you"]) == ("computer", over["you"])
    assert [frame["text"] for frame in mine["frames"][1:]] == sentences  # "You take the 11 cards..."
    assert mine["over"]["sentence"] == over["ending"]
    told = " ".join([mine["over"]["sentence"], *(frame["text"] for frame in mine["frames"])])
    assert "Player 1" not in told and "You " in told
    anyone = client.get(link).json()  # the same link for anyone else: every seat by name
    assert anyone["names"] == ["Player 1", "Robin"] and (anyone["mode"], anyone["you"]) == ("computer", None)
    assert anyone["over"]["sentence"].startswith(("Player 1", "Robin"))
    assert any("Player 1 " in frame["text"] for frame in anyone["frames"])
    assert client.get(link, params={"you": "2"}).status_code == 400
    assert client.get(link, params={"you": "me"}).status_code == 400


def test_a_replayed_deal_played_again_says_so_in_its_first_line(client: TestClient) -> None:
    deal = "Q" + "-" * 25 + "/" + "-" * 11 + "JJJJQQQKKKKAAAA"
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", deal=deal, replayed=True, pace="slow")
        assert logged(me)[0].startswith("New game: the deal of the replay, Practice table.")
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", replayed=True, pace="slow")  # a drawn deal is no replay's
        assert logged(me)[0].startswith("New game: Practice table.")


def test_a_famous_game_replays_with_its_published_counts(client: TestClient) -> None:
    replay = client.get("/api/replay/famous-3").json()
    assert replay["over"]["cards"] == ALL_GAMES[3].cards
    assert replay["over"]["tricks"] == ALL_GAMES[3].tricks
    assert all(frame["card"]["suit"] for frame in replay["frames"][1:])


def test_one_person_alone_starts_a_new_game_at_once(client: TestClient) -> None:
    for mode, extra in (("computer", {}), ("lesson", {"lesson": 2}), ("watch", {})):
        with client.websocket_connect("/ws") as ws:
            me = Socket(ws)
            create(me, mode=mode, pace="slow", **extra)
            me.send({"type": "new-game"})
            assert me.until("state", lambda s: s["games_played"] == 1)["new_game_asked"] == []


def test_a_replay_link_that_does_not_exist_is_404(client: TestClient) -> None:
    assert client.get("/r/nothere2").status_code == 404
    assert client.get("/r/famous-0").status_code == 200
    assert client.get("/api/replay/famous-99").status_code == 404


def test_serve_takes_the_replay_database_path(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from beggar.cli import cli

    help_text = CliRunner().invoke(cli, ["serve", "--help"]).output
    assert "--db" in help_text and "replay" in help_text
    archive_path = tmp_path / "games.sqlite3"
    app = create_app(ServerSettings(db=archive_path))
    with TestClient(app) as test_client, test_client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", seed=SHORT_SEED, pace="instant", rules="standard")
        over = me.until("state", lambda s: s["over"] is not None and s["over"]["replay"])
    assert archive_path.exists()
    reopened = create_app(ServerSettings(db=archive_path))  # a restarted server keeps the games
    with TestClient(reopened) as test_client:
        replay = test_client.get(f"/api/replay/{over['over']['replay']}").json()
    assert replay["over"]["cards"] == play(random_deal(seed=SHORT_SEED)).cards


def test_the_view_says_which_pile_card_is_being_paid_for() -> None:
    """The browser never works out the challenge from the cards: the server says where it lies."""
    game_deal = parse_deal("QAT46/6J37K5", complete=False)
    table = Table("t", Mode.WATCH, STANDARD, [Seat("A", human=False), Seat("B", human=False)], game_deal)
    challenges = []
    while not table.game.over:
        table.step()
        table.changed()
        challenges.append(shared_view(table)["challenge"])
    assert challenges == [0, 0, 2, 3, 3, 3, 6, 6, 6, None]


def test_a_table_s_page_says_whether_someone_new_would_sit_down_or_watch(client: TestClient) -> None:
    """The page asks a name only of someone who will sit down: the server, which seats them, says."""
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = Socket(ws_a), Socket(ws_b)
        table = create(a, mode="friends", name="Ann")["table"]
        assert client.head(f"/t/{table}").headers["beggar-seat"] == "free"
        b.send({"type": "join", "table": table, "name": "Bea"})
        b.until("joined")
        assert client.head(f"/t/{table}").headers["beggar-seat"] == "taken"
        assert client.get(f"/t/{table}").headers["beggar-seat"] == "taken"
    with client.websocket_connect("/ws") as ws:
        table = create(Socket(ws), mode="computer")["table"]
        assert client.head(f"/t/{table}").headers["beggar-seat"] == "taken"  # its one person's seat
    assert "beggar-seat" not in client.head("/t/zzzzzzzzzz").headers


def test_a_person_who_names_themselves_as_they_sit_is_announced_once_by_that_name(client: TestClient) -> None:
    with (
        client.websocket_connect("/ws") as ws_a,
        client.websocket_connect("/ws") as ws_b,
        client.websocket_connect("/ws") as ws_c,
    ):
        a, b, c = Socket(ws_a), Socket(ws_b), Socket(ws_c)
        table = create(a, mode="friends", players=3, humans=3)["table"]  # the creator gave no name
        a.send({"type": "rename", "name": "Alice"})  # given at the table, while it waits
        a.until("state", lambda s: s["seats"][0]["name"] == "Alice")
        b.send({"type": "join", "table": table})  # a friend who never gives one
        b.until("joined")
        c.send({"type": "join", "table": table, "name": "Cy"})
        c.until("joined")
        with client.websocket_connect("/ws") as ws_d:
            spectator = Socket(ws_d)
            spectator.send({"type": "join", "table": table})
            assert spectator.until("joined")["seat"] is None
            spectator.until("state")
            told = logged(spectator)
    assert told[1:] == [
        "Alice sits down.",
        "Player 2 sits down.",  # announced, by their place, once everyone is here
        "Cy sits down.",
        told[-1],
    ]
    assert told[-1].startswith("Everyone is here.")
    assert not any("is now called" in line for line in told)


def test_nobody_is_to_play_while_a_friend_table_waits_for_its_people(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = Socket(ws_a), Socket(ws_b)
        table = create(a, mode="friends", name="Ann", players=4, humans=2, seed=SHORT_SEED)["table"]
        assert a.state is not None and a.state["waiting_for"] == ["a friend"]
        assert a.state["to_play"] is None
        b.send({"type": "join", "table": table, "name": "Bea"})
        ready = a.until("state", lambda s: not s["waiting_for"])
        assert ready["to_play"] in range(4)


def test_a_friend_s_ask_for_a_new_game_is_answered_yes_or_no_in_the_words_of_its_buttons(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, _ = _friends(client, ws_a, ws_b, seed=SHORT_SEED)
        a.send({"type": "new-game"})
        asked = b.until("state", lambda s: s["new_game_asked"] == [0])
        yes, no = asked["new_game_answers"]
        assert asked["notice"] == f"Ann asks for a new game: press {yes} or {no}."
        assert a.until("state", lambda s: s["new_game_asked"] == [0])["new_game_answers"] == []
        b.send({"type": "keep-playing"})
        over = a.until("state", lambda s: s["new_game_asked"] == [])
        assert over["cards"] == 0 and over["games_played"] == 0
        assert over["notice"] == "Bea wants to keep playing: no new game."  # the asker is told
        assert "Bea wants to keep playing: no new game." in logged(a)
        refused = b.until("state", lambda s: s["new_game_asked"] == [])
        assert refused["new_game_answers"] == [] and refused["notice"] == ""
        assert "You want to keep playing: no new game." in logged(b)


def test_a_question_put_to_the_person_holds_the_computer_without_a_word(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="computer", pace="instant")
        table = client.app.state.lobby.tables[joined["table"]]  # type: ignore[attr-defined]
        me.send({"type": "hold", "on": True})
        me.send({"type": "watch", "on": True})  # every card is the computer's now
        me.until("state", lambda s: s["seats"][s["you"]]["automatic"])
        time.sleep(0.3)
        assert table.game.cards == 0 and not table.game.over
        assert not table.paused and all("aused" not in text for text in logged(me))
        me.send({"type": "hold", "on": False})
        me.until("state", lambda s: s["cards"] > 0)
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, table_id = _friends(client, ws_a, ws_b, pace="instant")
        table = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
        a.send({"type": "hold", "on": True})  # at a friend table the others play on
        b.send({"type": "watch", "on": True})
        a.send({"type": "watch", "on": True})
        a.until("state", lambda s: s["cards"] > 0)
        assert table.held_until == 0.0


def test_a_watched_game_waits_paused_for_its_watcher_s_token_and_ends_when_they_leave(
    client: TestClient,
) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        joined = create(Socket(ws), mode="watch", pace="slow")
    table_id, token = joined["table"], joined["token"]
    assert joined["seat"] == 0 and token and joined["link"] == f"/t/{table_id}"
    table = lobby.tables[table_id]  # the page went away (a reload): the game waits for it, paused
    assert table.paused and not table.closed
    assert client.head(f"/t/{table_id}").status_code == 200
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "join", "table": table_id, "token": token})
        assert me.until("joined")["seat"] == 0
        assert me.until("state")["mode"] == "watch"
        me.send({"type": "leave"})
        me.until("left")
    assert table_id not in lobby.tables
    assert client.head(f"/t/{table_id}").status_code == 404


@pytest.mark.parametrize(
    ("mode", "kept", "addressed", "solo"),
    [
        ("computer", True, True, True),
        ("watch", True, True, True),
        ("friends", False, True, False),
        ("lesson", False, False, True),
        ("famous", True, True, True),
    ],
)
def test_the_server_tells_the_page_what_kind_of_table_it_is_at(
    client: TestClient, mode: str, kept: bool, addressed: bool, solo: bool
) -> None:
    """The page keeps no list of modes: whether Back keeps a table, whether it has its own address
    and whether a hidden tab pauses it come with the table."""
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode=mode, famous=0, lesson=1, pace="slow", seed=SHORT_SEED)
        state = me.seen[-1]
        assert (joined["mode"], joined["kept"], joined["addressed"]) == (mode, kept, addressed)
        assert (state["type"], state["mode"], state["kept"], state["solo"]) == ("state", mode, kept, solo)
        assert state["addressed"] is addressed
        assert Mode(mode).kept is kept and Mode(mode).addressed is addressed and Mode(mode).solo is solo


# -- the table says what happened, and what is true now ------------------------------------------------


def _friend_table() -> Table:
    """Ann and Ben at a friend table, both at it, playing a deal of 40 cards (and short ones after)."""
    rules = rules_named("friend-table")
    seats = [Seat("Ann", True), Seat("Ben", True)]
    table = Table("friendsab3", Mode.FRIENDS, rules, seats, random_deal(rules, SHORT_SEED), seed=SHORT_SEED)
    for seat, token in enumerate(("ann-token", "ben-token")):
        table.take_seat(seat, token)
        table.arrive(seat)
    return table


def test_play_again_after_a_friend_left_does_not_deal_them_in() -> None:
    table = _friend_table()
    while not table.game.over:
        table.step()
    table.depart(1, left=True)
    # The end asks one question: Play again, which is said to go on without Ben.
    assert notice(table, 0) == "Ben left the table: Play again starts a new game without them."
    assert notice(table, None) == "Ben left the table."
    table.ask_new_game(0)
    assert table.games_played == 1 and not table.game.over
    # Ben is not dealt in to wait on: the computer plays his seat, and nobody is offered anything.
    assert table.seats[1].stand_in and table.seats[1].automatic
    assert table.log[-1]["text"] == "Ben left the table: the computer plays for them until they return."
    # The notice says what is true now: Ben left (he is not merely away), and may still come back.
    assert notice(table, 0) == "Ben left the table: the computer plays for them until they return."
    while table.game.to_play != 1:
        table.step()
    assert table.waiting_for_machine()  # Ben's turn does not wait for Ben
    # Ben comes back: his cards are his again.
    table.arrive(1)
    assert not table.seats[1].stand_in and not table.seats[1].automatic


def test_a_no_to_a_new_game_leaves_with_the_friend_who_said_it() -> None:
    table = _friend_table()
    while not table.game.over:
        table.step()
    table.ask_new_game(0)
    table.keep_playing(1)
    assert notice(table, 0) == "Ben says no to a new game for now."
    table.depart(1, left=True)
    # Not "go on without them" (the game is over), nor Ben's no (Ben has gone).
    assert notice(table, 0) == "Ben left the table: Play again starts a new game without them."


def test_a_no_to_a_new_game_is_told_until_the_next_card_not_the_next_trick() -> None:
    table = _friend_table()
    while table.game.tricks < 2 or table.game.pile:
        table.step()  # just after a trick: the next card cannot take one
    table.ask_new_game(0)
    table.keep_playing(1)
    assert notice(table, None) == "Ben wants to keep playing: no new game."
    tricks = table.game.tricks
    table.step()
    assert table.game.tricks == tricks  # the game moved on by one card, not a trick
    assert notice(table, None) == notice(table, 0) == ""


def test_a_friend_whose_page_went_elsewhere_is_said_to_have_gone_to_another_page(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a:
        with client.websocket_connect("/ws") as ws_b:
            a, b, table = _friends(client, ws_a, ws_b, seed=SHORT_SEED, pace="slow")
            token = b.seen[[m["type"] for m in b.seen].index("joined")]["token"]
            b.send({"type": "away"})  # Back, as the page says it before closing its socket
        state = a.until("state", lambda s: s["seats"][1]["away"] is not None)
        assert state["seats"][1]["away"] == "elsewhere"
        assert "Bea went to another page." in logged(a)
        assert "lost the connection" not in " ".join(logged(a))
        assert state["notice"] == (
            "Bea went to another page; you may go on without them once they have been away 20 s."
        )
        with client.websocket_connect(f"/ws/{table}") as ws_b:
            b = Socket(ws_b)
            b.send({"type": "join", "table": table, "token": token})
            b.until("state", lambda s: s["seats"][1]["away"] is None)
            a.until("state", lambda s: s["seats"][1]["away"] is None)
            assert "Bea came back." in logged(a)
            assert {"You went to another page.", "You came back."} <= set(logged(b))


def test_a_redealt_game_ends_by_saying_so_and_its_replay_links_the_first_deal(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", rules="family-table:lead=first-hand", deal=NEVER_ENDING.deal, pace="instant")
        end = me.until("state", lambda s: s["reshuffles"] >= 1 and s["over"] is not None, limit=100_000)
        first = end["over"]["dealt_again"][0]
        assert (first["cards"], first["looped"]) == (474, True) and first["replay"]
        assert end["over"]["notes"].startswith(
            "The first deal looped after 474 cards and was dealt again."
        ) or (end["over"]["notes"].startswith("Deal 1 looped after 474 cards and was dealt again."))
        replay = client.get(f"/api/replay/{end['over']['replay']}").json()
        assert replay["notes"] == end["over"]["notes"] and replay["dealt_again"] == end["over"]["dealt_again"]
        looped = client.get(f"/api/replay/{first['replay']}").json()
        assert looped["over"]["status"] == "loop" and len(looped["frames"]) == 475


def test_a_new_game_asked_while_a_friend_is_within_their_grace_waits_for_them() -> None:
    """Bea's page reloads; Ann asks for a new game 1.5 s later: Bea still has a say, and the game
    goes on. Only once Bea has been away the whole grace does the new game start without her."""
    seats = [Seat("Ann", human=True), Seat("Bea", human=True)]
    table = Table("graceabcde", Mode.FRIENDS, STANDARD, seats, random_deal(STANDARD, SHORT_SEED))
    for seat, token in enumerate(("ann", "bea")):
        table.take_seat(seat, token)
        table.arrive(seat)
    table.step()
    table.depart(1)  # lost the connection
    table.ask_new_game(0)
    assert table.game.cards == 1 and table.new_game_asked == {0}
    assert "Bea" in table.log[-1]["text"] and "agrees" in table.log[-1]["text"]
    table.seats[1].away_since = time.monotonic() - ABSENT_GRACE
    table._grace_over(1)
    assert table.game.cards == 0 and table.games_played == 1
