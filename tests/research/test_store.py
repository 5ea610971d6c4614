"""The SQLite store: finds and campaign progress survive, and nothing is stored twice."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from beggar.research.store import SCHEMA, Find, Store, StoreError, campaign_id, export


def find(deal: str, cards: int, tricks: int = 1, status: str = "finished", rules: str = "standard") -> Find:
    return Find(deal, rules, cards, tricks, status, 0, "hill-climb", 7)


def test_a_unit_of_work_is_recorded_with_its_finds_and_the_walker_state(tmp_path: Path) -> None:
    store = Store(tmp_path / "finds.db")
    campaign = store.campaign({"rules": "standard", "seed": 1})
    new = store.save_unit(
        campaign,
        walker=3,
        unit=0,
        state={"deal": "x"},
        scored=1000,
        finds=[find("a/b", 400), find("c/d", 900)],
    )
    assert new == 2
    assert store.walkers(campaign) == {3: (1, {"deal": "x"})}
    assert store.scored(campaign) == 1000
    assert [f.cards for f in store.top()] == [900, 400]


def test_the_same_find_is_stored_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "finds.db")
    campaign = store.campaign({"seed": 1})
    store.save_unit(campaign, walker=0, unit=0, state={}, scored=1, finds=[find("a/b", 400)])
    assert store.save_unit(campaign, walker=0, unit=1, state={}, scored=1, finds=[find("a/b", 400)]) == 0
    assert store.count() == 1


def test_everything_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "finds.db"
    store = Store(path)
    campaign = store.campaign({"seed": 2})
    store.save_unit(campaign, walker=1, unit=4, state={"n": 5}, scored=7, finds=[find("a/b", 10)])
    store.close()
    again = Store(path)
    same = again.campaign({"seed": 2})
    assert same.id == campaign.id
    assert again.walkers(same) == {1: (5, {"n": 5})}
    assert again.count() == 1


def test_campaigns_are_named_by_their_arguments_in_any_order() -> None:
    assert campaign_id({"a": 1, "b": 2}) == campaign_id({"b": 2, "a": 1})
    assert campaign_id({"a": 1}) != campaign_id({"a": 2})


def test_top_ranks_by_cards_or_tricks_and_filters(tmp_path: Path) -> None:
    store = Store(tmp_path / "finds.db")
    store.add([find("a/b", 100, 30), find("c/d", 200, 20), find("e/f", 150, 40, rules="stripped")])
    assert [f.deal for f in store.top(by="tricks")] == ["e/f", "a/b", "c/d"]
    assert [f.deal for f in store.top(rules="standard")] == ["c/d", "a/b"]
    assert [f.deal for f in store.top(limit=1)] == ["c/d"]
    with pytest.raises(StoreError):
        store.top(by="luck")


def test_export_as_csv_and_json(tmp_path: Path) -> None:
    finds = [find("a/b", 100), find("c/d", 200, status="loop")]
    rows = json.loads(export(finds, "json"))
    assert [row["cards"] for row in rows] == [100, 200]
    text = export(finds, "csv").splitlines()
    assert text[0].startswith("deal,rules,cards,tricks,status")
    assert len(text) == 3
    with pytest.raises(StoreError):
        export(finds, "xml")


def test_a_file_that_is_not_a_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        Store(path)
    assert path.read_text().startswith("these are my notes")


def test_a_database_in_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path: Path) -> None:
    """A mistyped --db path must not silently create folders."""
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "deep" / "finds.db")
    assert not (tmp_path / "deep").exists()


def test_a_database_of_an_earlier_version_gains_the_lead_column(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA.replace("    lead INTEGER NOT NULL DEFAULT 0,\n", ""))
        db.execute(
            "INSERT INTO finds (deal, rules, cards, tricks, status, winner, strategy, seed, found_at) "
            "VALUES ('a/b', 'standard', 5, 1, 'finished', 0, 'random', 0, 0)"
        )
    [old] = Store(path).top()
    assert (old.deal, old.lead) == ("a/b", 0)


# -- stores written before rules had one spec ------------------------------------------------------

TYPED = Path(__file__).parent / "data" / "specs-as-typed.sqlite"
"""A store written by the code before :meth:`beggar.rules.Rules.spec`, which keyed records by the
spec as typed: ``beggar search --rules Half-Deck:pay=J1 --target loops --seed 1`` and the same with
``half-deck:pay=J1``, ``beggar search --rules stripped-40:players=3 --seed 2``, ``beggar factory
--rules half-deck:players=2:pay=Q2J1`` (seeds 0 and 1, the second with ``--basin-positions 300
--units 4``), ``beggar census --rules HALF-DECK:pay=J1 --cards 6,2 --max-period 12`` and ``beggar
census --rules standard:pile=oldest-first --cards 5,2,1 --max-period 16``, one unit and walker each."""


def _keys(store: Store) -> dict[str, list[tuple[str, int]]]:
    queries = {
        "finds": "SELECT rules, count(*) FROM finds GROUP BY 1",
        "cycles": "SELECT rules, count(*) FROM cycles GROUP BY 1",
        "basins": "SELECT rules, count(*) FROM basins GROUP BY 1",
        "cycle_deals": "SELECT rules, count(*) FROM cycle_deals GROUP BY 1",
        "census_instances": "SELECT deck, count(*) FROM census_instances GROUP BY 1",
        "census_cycles": "SELECT deck, count(*) FROM census_cycles GROUP BY 1",
        "campaigns": "SELECT json_extract(args, '$.rules'), scored FROM campaigns ORDER BY 1, 2",
    }
    return {name: store.db.execute(query).fetchall() for name, query in queries.items()}


def test_a_store_keyed_by_specs_as_typed_is_keyed_by_the_one_spec_and_its_campaigns_resume(
    tmp_path: Path,
) -> None:
    from beggar.research.cycles.factory import FactoryArgs
    from beggar.research.search import SearchArgs
    from beggar.research.store import never_ending_deals
    from beggar.rules import rules_named

    path = tmp_path / "old.db"
    path.write_bytes(TYPED.read_bytes())
    store = Store(path)
    keys = _keys(store)
    texts = {text for rows in keys.values() for text, _ in rows}
    assert texts == {"half-deck:pay=J1", "half-deck:pay=J1Q2", "stripped:players=3"} | {
        "half-deck:pay=J1[6,2]",
        "standard[5,2,1,0,0]",
    }
    assert all(rules_named(text.partition("[")[0]).spec() == text.partition("[")[0] for text in texts)
    assert [f.cards for f in store.top(rules="stripped:players=3")] == [1387]
    assert len(store.top(rules="half-deck:pay=J1", limit=100)) == 21  # typed two ways: kept once
    assert len(store.cycles(rules="half-deck:pay=J1Q2")) == 87
    assert len(store.basins(rules="half-deck:pay=J1Q2")) == 2
    assert len(never_ending_deals(store, "half-deck:pay=J1Q2")) == 64
    assert len(store.census_instances("half-deck:pay=J1[6,2]")) == 462
    # The same command resumes its campaign: the same arguments name the same campaign, with its walkers.
    rules = rules_named("stripped-40:players=3").spec()
    search = store.campaign(SearchArgs(rules, "random", "cards", seed=2, walkers=1).to_dict())
    factory = store.campaign(FactoryArgs(rules_named("half-deck:pay=J1Q2").spec(), 1, 1, 300).to_dict())
    assert search.scored == 1_000_000 and store.walkers(search)
    assert factory.scored > 0 and store.walkers(factory)
    assert store.db.execute("SELECT count(*) FROM campaigns").fetchone() == (4,)
    store.close()
    again = Store(path)  # a store keyed by specs is left as it is
    assert _keys(again) == keys
    again.close()
