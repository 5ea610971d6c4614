"""Never-ending deals in the famous-games viewer: those the cycle factory stored, and the 2024 deal.

The server reads the factory's store (never writes it), lists its never-ending deals with the
famous games, and replays each one; where its cycle starts and its period come from the
reference engine (beggar.cycle), for the chart.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient

from beggar.cli import run
from beggar.commands.options import db_path
from beggar.cycle import find_cycle
from beggar.engine import Game
from beggar.notation import parse_deal
from beggar.records import ALL_GAMES, NEVER_ENDING, RECORDS
from beggar.research.store import Store
from beggar.rules import rules_named
from beggar.web.faces import dress
from beggar.web.never_ending import FoundShelf, load_found
from helpers import EASY, EASY_DEALS, SHOWN, Socket, app_client, create, factory_row, store_rows

"""Two balanced half-deck deals the factory found (``beggar factory --rules half-deck:pay=J1Q2``):
the first enters its cycle after two tricks, the second is on it from the deal."""


@pytest.fixture
def finds(tmp_path: Path) -> Path:
    path = tmp_path / "beggar.db"
    store_rows(
        path, [factory_row("standard", NEVER_ENDING.deal), *(factory_row(EASY, d) for d in EASY_DEALS)]
    )
    return path


@pytest.fixture
def client_settings(finds: Path) -> dict[str, Any]:
    return {"finds": finds}


def listed(client: TestClient) -> list[dict[str, Any]]:
    """The listing once it holds the three stored deals. The server checks stored rows with the
    engine for a bounded time per read (``CHECK_SECONDS``) and takes the rest up a few seconds
    later: on a busy machine the 440-card cycle alone can take that time, so the first read may
    list fewer."""
    deadline = time.monotonic() + 60
    while len(found := client.get("/api/options").json()["found"]) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    return list(found)


def engine_cycle(rules: str, deal: str) -> dict[str, int]:
    cycle = find_cycle(deal, rules_named(rules), first=0)
    assert cycle is not None
    return {
        "pre_period_tricks": cycle.pre_period_tricks,
        "pre_period_cards": cycle.pre_period_cards,
        "period_tricks": cycle.period_tricks,
        "period_cards": cycle.period_cards,
    }


def test_the_options_list_each_stored_never_ending_deal_with_where_its_cycle_starts_and_its_period(
    client: TestClient,
) -> None:
    found = listed(client)
    assert [(each["rules"], each["deal"]) for each in found] == [
        ("standard", NEVER_ENDING.deal),  # longest cycle first: 440 cards, then 352
        (EASY, SHOWN[0]),  # the same cycle: the longer lead-in first
        (EASY, SHOWN[1]),
    ]
    for each in found:
        assert each["cycle"] == engine_cycle(each["rules"], each["deal"])
        assert each["key"].startswith("found-")
    assert found[0]["cycle"] == {
        "pre_period_tricks": 4,
        "pre_period_cards": 34,
        "period_tricks": 62,
        "period_cards": 440,
    }
    assert found[1]["cycle"]["pre_period_tricks"] == 2 and found[2]["cycle"]["pre_period_tricks"] == 0
    assert (found[1]["cards"], found[1]["rules_title"]) == (26, "Half deck + 1 house rule (Jacks and queens)")


def test_a_stored_deal_replays_to_its_first_repeat_with_its_cycle_for_the_chart(client: TestClient) -> None:
    easy = listed(client)[1]
    replay = client.get(f"/api/replay/{easy['key']}").json()
    cycle = engine_cycle(EASY, EASY_DEALS[0])
    assert replay["cycle"] == cycle
    frames = replay["frames"]
    assert len(frames) - 1 == cycle["pre_period_cards"] + cycle["period_cards"]
    assert max(frame["trick"] for frame in frames) == cycle["pre_period_tricks"] + cycle["period_tricks"]
    assert replay["over"]["status"] == "loop"
    assert replay["over"]["repeat_of"] == {
        "cards": cycle["pre_period_cards"],
        "tricks": cycle["pre_period_tricks"],
    }
    # Real faces of the half deck, every card once, playing the same game as the stored deal.
    rules = rules_named(EASY)
    shown = parse_deal(replay["deal"], rules.deck)
    assert sorted(map(str, (card for hand in shown.hands for card in hand))) == sorted(
        map(str, rules.deck.cards())
    )
    stored = parse_deal(EASY_DEALS[0], rules.deck, rules=rules)
    unlimited = rules.unlimited()
    assert Game(shown, unlimited, first=0).run() == Game(stored, unlimited, first=0).run()
    assert client.get(f"/r/{easy['key']}").status_code == 200


def test_the_2024_deal_carries_the_same_marking_in_the_list_and_its_replay(client: TestClient) -> None:
    index = ALL_GAMES.index(NEVER_ENDING)
    cycle = engine_cycle("standard", NEVER_ENDING.deal)
    famous = client.get("/api/options").json()["famous"]
    assert famous[index]["cycle"] == cycle
    assert all(game["cycle"] is None for game in famous if game["index"] != index)
    assert client.get(f"/api/replay/famous-{index}").json()["cycle"] == cycle
    assert client.get("/api/replay/famous-0").json()["cycle"] is None


def test_no_store_lists_no_deals_and_a_missing_file_is_not_created(tmp_path: Path) -> None:
    with app_client(finds=None) as client:
        assert client.get("/api/options").json()["found"] == []
    missing = tmp_path / "beggar.db"
    with app_client(finds=missing) as client:
        assert client.get("/api/options").json()["found"] == []
        assert client.get("/api/replay/found-000000000000").status_code == 404
    assert not missing.exists()
    not_a_store = tmp_path / "notes.db"
    not_a_store.write_text("not a database")
    assert load_found(not_a_store) == []
    search_only = tmp_path / "search.db"
    Store(search_only).close()  # a store without any factory rows
    assert load_found(search_only) == []


def test_the_store_is_read_and_never_written(finds: Path) -> None:
    with sqlite3.connect(finds) as db:  # as an older version wrote it: opened to write, it would be migrated
        db.execute("ALTER TABLE finds DROP COLUMN lead")
    db.close()
    before = hashlib.sha256(finds.read_bytes()).hexdigest()
    assert len(load_found(finds)) == 3
    assert hashlib.sha256(finds.read_bytes()).hexdigest() == before


def test_malformed_rows_are_skipped_and_the_rest_listed(tmp_path: Path) -> None:
    path = tmp_path / "beggar.db"
    good = factory_row(EASY, EASY_DEALS[0])
    rows = [
        good,
        ("no-such-rules", EASY_DEALS[0], "x", 0, 0),
        (EASY, "this is not a deal", "y", 0, 0),
        (EASY, "KJ----Q----KQ/AAJ---------", "z", 0, 0),  # a card short of the deck
        ("standard", RECORDS[0].deal, "w", 0, 0),  # a deal that ends: not never-ending
    ]
    store_rows(path, rows)
    assert [deal.deal for deal in load_found(path)] == [SHOWN[0]]


def test_the_engine_not_the_stored_figures_says_where_the_cycle_starts(tmp_path: Path) -> None:
    path = tmp_path / "beggar.db"
    rules, deal, cycle, _, _ = factory_row(EASY, EASY_DEALS[0])
    store_rows(path, [(rules, deal, cycle, 99, 999)])
    (found,) = load_found(path)
    assert (found.cycle.pre_period_tricks, found.cycle.pre_period_cards) == (2, 7)


def test_the_list_is_bounded_longest_cycle_first(finds: Path) -> None:
    listed = load_found(finds, limit=2)
    assert [deal.deal for deal in listed] == [NEVER_ENDING.deal, SHOWN[0]]


def test_the_list_is_read_again_once_it_is_old(tmp_path: Path) -> None:
    path = tmp_path / "beggar.db"
    shelf = FoundShelf(path, refresh=0.0)
    assert shelf.deals() == []
    store_rows(path, [factory_row(EASY, EASY_DEALS[1])])  # the factory finds one while the server runs
    assert [deal.deal for deal in shelf.deals()] == [SHOWN[1]]
    kept = FoundShelf(path, refresh=3600.0)
    first = kept.deals()
    assert kept.deals() is first


def test_an_unknown_found_deal_is_a_plain_404(client: TestClient) -> None:
    response = client.get("/api/replay/found-ffffffffffff")
    assert response.status_code == 404 and "no such never-ending deal" in response.json()["error"]
    assert client.get("/r/found-ffffffffffff").status_code == 404


@pytest.mark.parametrize("rules", ["court-only:deck=stripped", EASY, "standard"])
def test_dressed_deals_take_their_faces_from_their_own_deck(rules: str) -> None:
    spec = rules_named(rules)
    deal = {
        "court-only:deck=stripped": "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--",
        EASY: EASY_DEALS[0],
        "standard": NEVER_ENDING.deal,
    }[rules]
    compact = parse_deal(deal, spec.deck, rules=spec)
    dressed = dress(compact, spec)
    cards = sorted(str(card) for hand in dressed.hands for card in hand)
    assert cards == sorted(str(card) for card in spec.deck.cards())  # no eights to tens in the stripped deck
    assert dressed.compact(spec) == compact.compact(spec)
    assert Game(dressed, spec.unlimited(), first=0).run() == Game(compact, spec.unlimited(), first=0).run()


def test_a_stored_deal_is_watched_at_a_famous_table_to_its_first_repeat(client: TestClient) -> None:
    easy = listed(client)[1]  # the listing reads the store
    cycle = engine_cycle(EASY, EASY_DEALS[0])
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        create(me, mode="famous", found=easy["key"], pace="instant")
        state = me.until("state", lambda s: s["over"] is not None, limit=100_000)
        first = next(message for message in me.seen if message["type"] == "state")
    assert first["rules"]["name"] == EASY and first["rules"]["settings"]["deck"] == "half (26 cards)"
    assert state["famous"]["cycle"] == cycle
    assert state["famous"]["title"] == "A never-ending deal found here"
    assert state["over"]["status"] == "loop"
    assert (state["over"]["cards"], state["over"]["tricks"]) == (
        cycle["pre_period_cards"] + cycle["period_cards"],
        cycle["pre_period_tricks"] + cycle["period_tricks"],
    )


def test_watching_a_deal_that_is_not_listed_is_refused_plainly(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.send({"type": "create", "mode": "famous", "found": "found-ffffffffffff"})
        assert "no such never-ending deal" in me.until("error")["message"]


def test_serve_reads_the_store_that_factory_and_search_write_unless_told_another(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, **_: served.append(server.config.app))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BEGGAR_DB", raising=False)
    assert run(["serve", "--port", "0", "--db", ":memory:"]) == 0
    campaigns = str(tmp_path / "campaigns.db")
    monkeypatch.setenv("BEGGAR_DB", campaigns)
    assert run(["serve", "--port", "0", "--db", ":memory:"]) == 0
    assert run(["serve", "--port", "0", "--db", ":memory:", "--finds", "other.db"]) == 0
    assert [app.state.settings.finds for app in served] == ["beggar.db", campaigns, "other.db"]
    assert db_path(None) == campaigns  # the very rule beggar factory and search use
    capsys.readouterr()


def _junk_then_real(path: Path, junk: int) -> None:
    """``junk`` rows, each claiming a cycle of a million cards, stored before one real never-ending
    deal (the junk is text that is no deal: quick to store, and as false as a deal that ends)."""
    rows = [("standard", f"junk {seed}", f"junk-{seed}", 0, 0) for seed in range(junk)]
    store_rows(path, [*rows, factory_row(EASY, EASY_DEALS[0])])
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE cycles SET period_cards = 1000000, period_tricks = 100000 WHERE deal LIKE 'junk-%'"
        )
    db.close()


def test_rows_claiming_false_periods_hide_no_real_deal(tmp_path: Path) -> None:
    path = tmp_path / "beggar.db"
    _junk_then_real(path, 49)  # the old reader played only the 48 largest claims
    assert [deal.deal for deal in load_found(path)] == [SHOWN[0]]


def test_the_shelf_reads_only_new_rows_and_bounds_each_read(tmp_path: Path) -> None:
    path = tmp_path / "beggar.db"
    _junk_then_real(path, 12)
    shelf = FoundShelf(path, refresh=0.0, rows=5, seconds=None)
    assert shelf.deals() == [] and shelf.checked == 5 and shelf.behind  # five rows at most per read
    while shelf.behind:
        shelf.deals()
    assert shelf.checked == 13 and [deal.deal for deal in shelf.deals()] == [SHOWN[0]]
    assert shelf.checked == 13  # nothing new: nothing read again
    store_rows(path, [factory_row(EASY, EASY_DEALS[1])])
    assert [deal.deal for deal in shelf.deals()] == list(SHOWN[:2]) and shelf.checked == 14


def test_the_engine_time_of_one_read_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "beggar.db"
    store_rows(path, [("standard", game.deal, f"long-{i}", 0, 0) for i, game in enumerate(RECORDS[:3])])
    shelf = FoundShelf(path, refresh=0.0, seconds=0.001)  # each record game takes far longer
    shelf.deals()
    assert shelf.checked == 1 and shelf.behind
