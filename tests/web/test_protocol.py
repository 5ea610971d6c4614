"""The table's WebSocket protocol: the server is the authority, and bad messages change nothing."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import beggar.web.handler
from beggar.engine import play
from beggar.errors import UserError
from beggar.notation import random_deal
from beggar.rules import MAX_PLAYERS, MIN_PLAYERS
from beggar.web.app import create_app
from beggar.web.archive import DatabaseError
from beggar.web.protocol import MAX_MESSAGE_BYTES, PlayFor, ProtocolError, parse_message
from beggar.web.settings import ServerSettings
from beggar.web.table import NoSuchTable, TableError
from helpers import SHORT_SEED, Socket, create


def test_a_game_against_the_computer_is_played_by_the_server(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="computer", seed=SHORT_SEED, pace="instant")
        assert joined["seat"] == 0 and joined["token"]
        while me.state is not None and me.state["over"] is None:
            if me.state["to_play"] == 0:
                me.send({"type": "turn"})
            me.read()
        expected = play(random_deal(seed=SHORT_SEED))
        assert me.state is not None
        assert (me.state["over"]["cards"], me.state["over"]["tricks"]) == (expected.cards, expected.tricks)
        assert me.state["over"]["winner"] == expected.winner


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("this is not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "fly"}', "unknown message type"),
        ('{"type": "turn", "seat": 1}', "unknown field 'seat'"),
        ('{"type": "pace", "pace": "warp"}', "pace must be one of"),
        ('{"type": "watch", "on": "yes"}', "true or false"),
        ('{"type": "create", "mode": "computer", "rules": "nonsense"}', "unknown rules"),
        ('{"type": "create", "mode": "computer", "rules": "standard:players=9"}', "players=9"),
        ('{"type": "create", "mode": "computer", "deal": "KK/QQ"}', "52"),
        ('{"type": "create", "mode": "computer", "seed": -4}', "deal number must be"),
        ('{"type": "create", "mode": "lesson", "lesson": 9}', "no lesson 9"),
        ('{"type": "create", "mode": "famous", "famous": 99}', "famous must be"),
        ('{"type": "join", "table": "nosuch"}', "closed or never existed"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too large"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(client: TestClient, message: str, error: str) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", seed=SHORT_SEED, pace="slow")
        before = me.state
        me.send(message)
        assert error.lower() in me.error()
        me.send({"type": "ping"})
        me.until("pong")
        assert client.app.state.lobby.tables[before["table"]].game.cards == before["cards"]


def test_out_of_turn_and_spectator_messages_are_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = Socket(ws_a), Socket(ws_b)
        joined = create(a, mode="friends", seed=SHORT_SEED)
        b.send({"type": "join", "table": joined["table"]})
        assert b.until("joined")["seat"] == 1
        b.send({"type": "turn"})
        assert "player 1's turn, not yours" in b.error()
        with client.websocket_connect("/ws") as ws_c:
            c = Socket(ws_c)
            c.send({"type": "join", "table": joined["table"]})
            assert c.until("joined")["seat"] is None
            for message in ({"type": "turn"}, {"type": "pause"}, {"type": "new-game"}):
                c.send(message)
                assert "spectators watch" in c.error()
        table = client.app.state.lobby.tables[joined["table"]]
        assert table.game.cards == 0


def test_a_player_coming_back_with_their_token_gets_their_seat_and_the_whole_state(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as ws_a:
        a = Socket(ws_a)
        joined = create(a, mode="friends", seed=SHORT_SEED)
        with client.websocket_connect("/ws") as ws_b:
            b = Socket(ws_b)
            b.send({"type": "join", "table": joined["table"], "name": "Bea"})
            token = b.until("joined")["token"]
        a.send({"type": "turn"})
        a.until("state", lambda s: s["cards"] == 1)
        with client.websocket_connect("/ws") as ws_b2:
            b2 = Socket(ws_b2)
            b2.send({"type": "join", "table": joined["table"], "token": token})
            again = b2.until("joined")
            state = b2.until("state")
            assert again["seat"] == 1
            assert state["you"] == 1 and state["cards"] == 1
            assert state["seats"][1]["name"] == "Bea"
            b2.send({"type": "turn"})
            b2.until("state", lambda s: s["cards"] == 2)


def test_a_flood_of_messages_is_throttled_and_then_cut_off() -> None:
    app = create_app(ServerSettings(rate=1, burst=5, flood_limit=20, db=":memory:"))
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        for _ in range(5):
            me.send({"type": "ping"})
        for _ in range(5):
            me.until("pong")
        me.send({"type": "ping"})
        assert "too many messages" in me.error()
        with pytest.raises(WebSocketDisconnect):
            for _ in range(40):
                me.send({"type": "ping"})
                me.read()


def test_the_number_of_tables_is_bounded() -> None:
    app = create_app(ServerSettings(max_tables=1, db=":memory:"))
    with (
        TestClient(app) as client,
        client.websocket_connect("/ws") as ws_a,
        client.websocket_connect("/ws") as ws_b,
    ):
        create(Socket(ws_a), mode="friends")
        b = Socket(ws_b)
        b.send({"type": "create", "mode": "friends"})
        assert "as many tables as it can hold" in b.error()


def test_a_full_server_makes_room_by_closing_the_table_nobody_has_been_at_for_longest() -> None:
    app = create_app(ServerSettings(max_tables=2, db=":memory:"))
    with TestClient(app) as client, client.websocket_connect("/ws") as ws_a:
        with client.websocket_connect("/ws") as ws_gone:
            deserted = create(Socket(ws_gone), mode="friends")["table"]
        kept = create(Socket(ws_a), mode="friends")["table"]  # someone is at this one
        with client.websocket_connect("/ws") as ws_b:
            newest = create(Socket(ws_b), mode="friends")["table"]
            assert set(app.state.lobby.tables) == {kept, newest}
            with client.websocket_connect("/ws") as ws_c:  # now everyone is at a table: full
                c = Socket(ws_c)
                c.send({"type": "create", "mode": "friends"})
                assert "as many tables as it can hold" in c.error()
    assert deserted not in app.state.lobby.tables


def test_tables_nobody_touches_are_closed() -> None:
    with (
        TestClient(create_app(ServerSettings(idle_seconds=0.05, db=":memory:"))) as client,
        client.websocket_connect("/ws") as ws,
    ):
        joined = create(Socket(ws), mode="friends")
        lobby = client.app.state.lobby
        time.sleep(0.1)
        assert lobby.close_idle() == 1
        assert joined["table"] not in lobby.tables


def test_a_game_against_the_computer_ends_when_the_player_leaves(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="computer")
        me.send({"type": "leave"})
        me.until("left")
    lobby = client.app.state.lobby
    for _ in range(50):
        if joined["table"] not in lobby.tables:
            break
        time.sleep(0.02)
    assert joined["table"] not in lobby.tables


def _cards_in(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        if set(value) == {"rank", "suit", "label", "pays"}:
            return [value]
        return [card for item in value.values() for card in _cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in _cards_in(item)]
    return []


def test_no_message_to_a_player_reveals_a_face_down_stack(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", seed=SHORT_SEED, pace="instant")
        while me.state is not None and me.state["over"] is None:
            if me.state["to_play"] == 0:
                me.send({"type": "turn"})
            me.read()
    states = [m for m in me.seen if m["type"] == "state"]
    assert len(states) > 10
    for state in states:
        face_up = {json.dumps(card, sort_keys=True) for card in state["pile"]}
        if state["last_card"]:
            face_up.add(json.dumps(state["last_card"]["card"], sort_keys=True))
        for seat in state["seats"]:
            assert "stack" not in seat
        if state["over"] is None:
            for card in _cards_in(state):
                assert json.dumps(card, sort_keys=True) in face_up
    assert all(m["type"] != "state" or "deal" not in json.dumps(m) or m["over"] for m in me.seen)


def test_open_hands_teaching_mode_shows_every_stack(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", rules="standard:open-hands=yes", seed=SHORT_SEED)
        assert me.state is not None
        stacks = [seat["stack"] for seat in me.state["seats"]]
        deal = random_deal(seed=SHORT_SEED)
        assert [[card["label"] for card in stack] for stack in stacks] == [
            [card.label for card in hand] for hand in deal.hands
        ]


def test_a_table_of_four_with_computer_players_runs_to_the_end(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", rules="counter-clockwise", seed=5, pace="instant")
        state = me.until("state", lambda s: s["over"] is not None, limit=100000)
        assert len(state["seats"]) == 4
        assert state["over"]["status"] in ("finished", "loop")


def test_the_practice_limit_says_why_the_game_stopped(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", rules="standard:max-cards=30", seed=SHORT_SEED + 1, pace="instant")
        state = me.until("state", lambda s: s["over"] is not None)
        assert state["over"]["status"] == "stopped"
        assert "Stopped by the card limit after 30 cards" in state["over"]["sentence"]


def test_the_time_limit_ends_a_live_game_and_awards_the_most_cards(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="friends", rules="family-table:time-limit=0.3")
        with client.websocket_connect("/ws") as ws_friend:
            # the clock starts when every person is at the table
            Socket(ws_friend).send({"type": "join", "table": joined["table"]})
            state = me.until("state", lambda s: s["over"] is not None, limit=50)
        assert state["over"]["reason"] == "time-limit"
        assert state["over"]["outcome"] in ("win", "draw")


def test_pause_stops_automatic_turns_until_resumed(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", seed=SHORT_SEED, pace="fast")
        me.send({"type": "pause"})
        paused = me.until("state", lambda s: s["paused"])
        lobby = client.app.state.lobby
        time.sleep(0.8)
        assert lobby.tables[paused["table"]].game.cards == paused["cards"]
        me.send({"type": "resume"})
        me.until("state", lambda s: s["cards"] > paused["cards"])


def test_options_list_presets_lessons_and_famous_games(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert {p["name"] for p in options["presets"]} >= {"standard", "practice-table", "friend-table"}
    assert [lesson["number"] for lesson in options["lessons"]] == [1, 2, 3, 4]
    assert any(game["cycle_tricks"] == 62 for game in options["famous"])
    assert client.get("/").status_code == 200
    assert client.get("/t/abcdef").status_code == 404  # no such table: the page says so
    page = client.get("/").text
    assert '<base href="/">' in page and '<script type="module" src="static/js/main.js">' in page
    for module in ("main", "connection", "table", "cards", "chart", "replay", "home", "dom", "sound"):
        assert client.get(f"/static/js/{module}.js").status_code == 200
    assert client.get("/static/cards/HQ.svg").headers["content-type"].startswith("image/svg")


def test_a_new_table_with_both_a_deal_number_and_a_deal_is_refused_by_the_number(client: TestClient) -> None:
    """One of them would be ignored without a word: the person is asked to clear one."""
    deal = random_deal(seed=SHORT_SEED).format()
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "create", "mode": "computer", "seed": 7, "deal": deal})
        error = me.read()  # the answer: a table, before the fix, else this error
        assert error["type"] == "error" and error["field"] == "seed"
        assert "deal number" in error["message"].lower() and "not both" in error["message"].lower()


class Unforeseen(UserError):
    """An error of a kind the socket has never heard of: a person's mistake all the same."""


@pytest.mark.parametrize(
    ("raised", "told"),
    [
        (
            Unforeseen("the moon is not a table", field="pace"),
            {"message": "The moon is not a table.", "field": "pace"},
        ),
        (Unforeseen("the moon is not a table", field="lesson"), {"message": "The moon is not a table."}),
        # Said like the live-table limit, but about no setting: the field comes from the error, not its words.
        (
            TableError("that can be at most 3 at a live table"),
            {"message": "That can be at most 3 at a live table."},
        ),
        (NoSuchTable("this table is closed"), {"message": "This table is closed.", "code": "no-table"}),
        (
            DatabaseError("/srv/beggar/games.db is not SQLite"),
            {"message": "Something went wrong with that: try again."},
        ),
    ],
)
def test_each_refused_request_is_told_its_error_and_the_setting_it_names(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, raised: Exception, told: dict[str, Any]
) -> None:
    """Any person's mistake (a :class:`UserError`, of whatever class) reaches them as its sentence,
    with the setting it names if the page has one; a fault of the server's is not shown."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise raised

    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        monkeypatch.setattr(beggar.web.handler, "handle", refuse)
        me.send({"type": "turn"})
        assert {key: value for key, value in me.until("error").items() if key != "type"} == told


def test_a_person_at_a_table_is_told_an_error_without_a_setting(client: TestClient) -> None:
    """The settings' fields are for a new table: at a table an error is only said."""
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", seed=SHORT_SEED)
        me.send({"type": "pace", "pace": "sideways"})
        assert me.until("error") == {
            "type": "error",
            "message": "Pace must be one of slow, normal, fast, instant.",
        }
        me.send({"type": "create", "mode": "computer", "deal": "K-K"})
        assert "field" not in me.until("error")


def test_the_number_of_players_a_message_may_ask_for_is_the_rules_own() -> None:
    """Players, people and seats are bounded by what the rules allow, not by a second copy."""
    for players in range(MIN_PLAYERS - 1, MAX_PLAYERS + 2):
        for field in ("players", "humans"):
            text = json.dumps({"type": "create", "mode": "friends", field: players})
            low = MIN_PLAYERS if field == "players" else 1
            if low <= players <= MAX_PLAYERS:
                assert getattr(parse_message(text), field) == players
            else:
                with pytest.raises(ProtocolError, match=f"from {low} to {MAX_PLAYERS}$"):
                    parse_message(text)
    assert parse_message(json.dumps({"type": "play-for", "seat": MAX_PLAYERS - 1})) == PlayFor(
        MAX_PLAYERS - 1
    )
    with pytest.raises(ProtocolError, match=f"from 0 to {MAX_PLAYERS - 1}$"):
        parse_message(json.dumps({"type": "play-for", "seat": MAX_PLAYERS}))
