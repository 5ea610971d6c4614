"""The table as a product, seen from the server: games that survive a reload, friends who go away,
a new game that does not play itself out at once, and notices that name the buttons shown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

import beggar.web.table
from beggar.notation import random_deal
from beggar.rules import rules_named
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


def test_a_game_against_the_computer_is_rejoined_with_its_token_after_a_reload(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="computer", seed=SHORT_SEED, pace="fast")
        for _ in range(2):
            me.until("state", lambda s: s["to_play"] == 0)
            count = me.state["cards"] if me.state else 0
            me.send({"type": "turn"})
            me.until("state", lambda s, count=count: s["cards"] > count)
        cards = me.state["cards"] if me.state else 0
    assert joined["table"] in client.app.state.lobby.tables  # the page was reloaded: the game waits
    assert client.get(f"/t/{joined['table']}").status_code == 200
    with client.websocket_connect(f"/ws/{joined['table']}") as ws:
        back = Socket(ws)
        back.send({"type": "join", "table": joined["table"], "token": joined["token"]})
        assert back.until("joined")["seat"] == 0
        state = back.until("state")
        assert state["mode"] == "computer" and state["cards"] >= cards
        # Leave table, pressed on purpose, ends it.
        back.send({"type": "leave"})
        back.until("left")
    assert joined["table"] not in client.app.state.lobby.tables


def test_a_computer_game_watching_itself_pauses_while_its_player_is_away(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        joined = create(me, mode="computer", pace="slow")
        me.send({"type": "watch", "on": True})
        me.until("state", lambda s: s["seats"][0]["automatic"])
    table = client.app.state.lobby.tables[joined["table"]]
    assert table.paused


def test_a_new_computer_game_closes_the_abandoned_ones_of_the_same_address(client: TestClient) -> None:
    lobby = client.app.state.lobby
    with client.websocket_connect("/ws") as ws:
        first = create(Socket(ws), mode="computer", pace="slow")["table"]
    with client.websocket_connect("/ws") as ws:
        second = create(Socket(ws), mode="computer", pace="slow")["table"]
        assert first not in lobby.tables and second in lobby.tables


def test_a_friend_who_goes_is_named_and_after_a_grace_the_others_may_go_on(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 0.3)
    with client.websocket_connect("/ws") as ws_a:
        with client.websocket_connect("/ws") as ws_b:
            a, b, table = _friends(client, ws_a, ws_b, seed=SHORT_SEED, pace="fast")
            token = b.seen[[m["type"] for m in b.seen].index("joined")]["token"]
        # Bea's line dropped: Ann is told, and nothing waits for Bea's consent.
        state = a.until("state", lambda s: s["seats"][1]["away"] == "lost")
        assert "Bea lost the connection." in logged(a)
        assert (
            "Bea lost the connection; you may go on without them once they have been away 0.3 s."
            in state["notice"]
        )
        a.send({"type": "play-for", "seat": 1})
        assert "wait a moment" in a.error()
        state = a.until("state", lambda s: s["seats"][1]["absent"], limit=5000)
        assert "go on without them" in state["notice"]
        a.send({"type": "play-for", "seat": 1})
        a.until("state", lambda s: s["seats"][1]["stand_in"] and s["seats"][1]["automatic"])
        assert "You let the computer play for Bea." in logged(a)
        a.send({"type": "new-game"})
        a.until("state", lambda s: s["games_played"] == 1)
        # Bea comes back to her seat: she plays her own cards again.
        with client.websocket_connect(f"/ws/{table}") as ws_b:
            b = Socket(ws_b)
            b.send({"type": "join", "table": table, "token": token})
            assert b.until("joined")["seat"] == 1
            a.until("state", lambda s: s["seats"][1]["away"] is None and not s["seats"][1]["automatic"])
            assert "Bea is back." in logged(a)


def test_a_friend_who_leaves_on_purpose_is_said_to_have_left(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, _ = _friends(client, ws_a, ws_b)
        b.send({"type": "leave"})
        b.until("left")
        state = a.until("state", lambda s: s["seats"][1]["away"] == "left")
        # No grace for a friend who chose to go: the offers to go on without her come at once.
        assert state["seats"][1]["absent"]
        assert state["notice"] == "Bea left the table: go on without them."
        assert "Bea left the table." in logged(a)
        # An absent seat's consent is not asked for: a new game starts at once.
        games = state["games_played"]
        a.send({"type": "new-game"})
        a.until("state", lambda s: s["games_played"] == games + 1)


def test_the_computer_may_play_at_once_for_a_friend_who_left_on_purpose(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, _ = _friends(client, ws_a, ws_b, seed=SHORT_SEED)
        b.send({"type": "leave"})
        b.until("left")
        a.until("state", lambda s: s["seats"][1]["away"] == "left")
        a.send({"type": "play-for", "seat": 1})
        a.until("state", lambda s: s["seats"][1]["stand_in"] and s["seats"][1]["automatic"])
        assert "You let the computer play for Bea." in logged(a)


def test_a_spectator_is_told_what_the_players_may_do_not_offered_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(beggar.web.table, "ABSENT_GRACE", 0.3)
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_c:
        with client.websocket_connect("/ws") as ws_b:
            a, _, table = _friends(client, ws_a, ws_b, seed=SHORT_SEED)
            c = Socket(ws_c)
            c.send({"type": "join", "table": table})
            assert c.until("joined")["seat"] is None
        state = c.until("state", lambda s: s["seats"][1]["absent"], limit=5000)
        assert state["notice"] == "Bea has been away for a while; the players may go on without them."
        assert (
            "Bea has been away for a while: go on without them, or wait for them to come back."
            in a.until("state", lambda s: s["seats"][1]["absent"], limit=5000)["notice"]
        )


def _play_to_the_end(me: Socket, seat: int = 0) -> None:
    while me.state is not None and me.state["over"] is None:
        if me.state["to_play"] == seat and not me.state["seats"][seat]["automatic"]:
            me.send({"type": "turn"})
        me.read()


def test_play_again_at_instant_pace_does_not_finish_the_next_game_at_once(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", seed=SHORT_SEED, pace="instant")
        me.send({"type": "watch", "on": True})
        me.until("state", lambda s: s["over"] is not None, limit=20000)
        me.send({"type": "new-game"})
        state = me.until("state", lambda s: s["games_played"] == 1)
        assert not state["seats"][0]["automatic"]
        me.send({"type": "ping"})
        me.until("pong")
        assert me.state is not None and me.state["over"] is None


def test_a_watched_game_started_again_at_instant_pace_starts_paused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="watch", seed=SHORT_SEED, pace="instant")
        me.until("state", lambda s: s["over"] is not None, limit=20000)
        me.send({"type": "new-game"})
        state = me.until("state", lambda s: s["games_played"] == 1)
        assert state["paused"] and state["over"] is None


def test_the_notice_names_play_again_once_the_game_is_over(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b, _ = _friends(client, ws_a, ws_b, seed=SHORT_SEED, pace="instant")
        for each in (a, b):
            each.send({"type": "watch", "on": True})
        a.until("state", lambda s: s["over"] is not None, limit=20000)
        b.until("state", lambda s: s["over"] is not None, limit=20000)
        a.send({"type": "new-game"})
        state = b.until("state", lambda s: bool(s["notice"]))
        assert state["notice"] == "Ann asks for a new game: press Play again or No."
        assert state["new_game_answers"] == ["Play again", "No"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"deal": "K-K"}, "deal"),
        ({"rules": "practice-table:players=12"}, "rules"),
        ({"rules": "standard:time-limit=48h"}, "rules"),
        ({"seed": "abc"}, "seed"),
        ({"mode": "friends", "players": 2, "humans": 3}, "humans"),
        ({"deal": random_deal(rules_named("standard:players=3"), seed=1).format()}, "deal"),  # 3 hands for 2
    ],
)
def test_a_refused_setting_is_named_so_the_page_can_show_it_by_its_field(
    client: TestClient, fields: dict[str, Any], field: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "create", "mode": "computer", **fields})
        assert me.until("error").get("field") == field


def test_a_friend_who_came_without_a_name_gives_one_and_the_others_are_told(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = Socket(ws_a), Socket(ws_b)
        table = create(a, mode="friends", name="Ann")["table"]
        b.send({"type": "join", "table": table})
        assert b.until("joined")["seat"] == 1
        b.until("state", lambda s: s["seats"][1]["name"] == "Player 2")
        b.send({"type": "rename", "name": "Bea"})
        a.until("state", lambda s: s["seats"][1]["name"] == "Bea")
        assert "Player 2 is now called Bea." in logged(a)


def test_every_preset_comes_with_what_the_kernel_measured(client: TestClient) -> None:
    from beggar.research import houserules

    presets = client.get("/api/options").json()["presets"]
    shipped = houserules.shipped()
    for preset in presets:
        # Figures for every number of players the preset seats, keyed as the Players field holds it.
        assert set(preset["measured"]) == {str(n) for n in preset["player_counts"]}, preset["name"]
        for players, measured in preset["measured"].items():
            figures = shipped[preset["name"]][int(players)]
            assert measured["players"] == int(players)
            # Whole cards on the page: a median between two lengths (1,119.5) is rounded.
            cards = (round(figures.median_cards), round(figures.p90_cards))
            assert (measured["median_cards"], measured["p90_cards"]) == cards
            assert measured["leader_wins"] == figures.leader_wins and measured["games"] == figures.games
            assert set(measured["minutes"]) == {"slow", "normal", "fast"}  # no minutes at instant pace
    standard = next(p for p in presets if p["name"] == "standard")["measured"]
    assert standard["2"]["minutes"] == {"slow": 6.5, "normal": 3.2, "fast": 1.0}
    assert standard["4"]["median_cards"] > standard["2"]["median_cards"]
    assert standard["4"]["leader_wins"] < standard["2"]["leader_wins"]
    well = next(p for p in presets if p["name"] == "counter-clockwise")["measured"]
    assert sorted(well, key=int) == ["2", "3", "4", "5", "6", "7", "8"]


def test_a_description_never_states_a_number_of_players_the_table_may_change() -> None:
    from beggar.rules import PRESET_LIST

    numbers = "two|three|four|five|six|seven|eight|[2-8]"
    for preset in PRESET_LIST:
        if len(preset.rules.player_counts()) > 1:
            stated = re.search(rf"\b({numbers}) players\b", preset.description, re.IGNORECASE)
            assert stated is None, (preset.name, preset.description)


def test_a_typed_compact_deal_is_dealt_with_faces_as_a_famous_game_is(client: TestClient) -> None:
    """A deal typed with ``-`` for its number cards gets the famous games' fixed faces
    (:mod:`beggar.web.faces`): no card is drawn blank or told as "a number card"."""
    typed = "AAAAKKKKQQQQJJJJ----------/--------------------------"
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="computer", deal=typed, pace="instant")
        me.send({"type": "watch", "on": True})
        end = me.until("state", lambda s: s["over"] is not None, limit=20_000)
    states = [m for m in me.seen if m["type"] == "state"]
    turned = [card for s in states for card in s["pile"]]
    turned += [s["last_card"]["card"] for s in states if s["last_card"]]
    assert turned and all(card["rank"] and card["suit"] for card in turned)
    assert all(not label.startswith("-") for hand in end["over"]["deal_hands"] for label in hand)
    assert not any("number card" in line for line in logged(me))


def test_a_deal_is_checked_as_a_new_table_would_check_it(client: TestClient) -> None:
    def check(**query: str) -> str:
        answer = client.get("/api/check-deal", params=query)
        assert answer.headers["cache-control"] == "no-store"
        error: str = answer.json()["error"]
        return error

    with client.websocket_connect("/ws") as ws:
        socket = Socket(ws)
        socket.send({"type": "create", "mode": "computer", "deal": "K-KK--ZZ/--Q"})
        refused = socket.error()
    assert check(deal="K-KK--ZZ/--Q").lower() == refused != ""
    assert check(deal="K-K", mode="friends", players="3") != ""
    assert check(deal="Q" + "-" * 25 + "/" + "-" * 11 + "JJJJQQQKKKKAAAA") == ""
    assert check(deal="") == check(deal="K-K", rules="no-such-rules") == ""
    assert check(deal="AKQ/J--") == "The deal has 6 cards; a standard deck has 52."  # no deck said twice
