"""The research store's tables: the schema as first written, and each step that brings an older
store up to the current version (run by :func:`beggar.schema.migrate` when a
:class:`~beggar.research.store.Store` opens a file).

>>> sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION + 1))  # one step for each version
True
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from beggar.research.store_records import campaign_id
from beggar.rules import RulesError, rules_named
from beggar.schema import Step, statements

SCHEMA_VERSION = 4
"""The store's schema version (``PRAGMA user_version``); a store of a later version is refused.

To change the schema, add a step to :data:`MIGRATIONS` and raise this number; :data:`SCHEMA` stays
version 1 as it was written, since every new store goes through every step."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id TEXT PRIMARY KEY,
    args TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    scored INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS walkers (
    campaign TEXT NOT NULL REFERENCES campaigns(id),
    walker INTEGER NOT NULL,
    unit INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (campaign, walker)
);
CREATE TABLE IF NOT EXISTS finds (
    id INTEGER PRIMARY KEY,
    deal TEXT NOT NULL,
    rules TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    status TEXT NOT NULL,
    winner INTEGER,
    strategy TEXT NOT NULL,
    seed INTEGER NOT NULL,
    campaign TEXT,
    found_at REAL NOT NULL,
    lead INTEGER NOT NULL DEFAULT 0,
    UNIQUE (deal, rules)
);
CREATE INDEX IF NOT EXISTS finds_by_cards ON finds (rules, cards DESC);
CREATE INDEX IF NOT EXISTS finds_by_tricks ON finds (rules, tricks DESC);
CREATE TABLE IF NOT EXISTS cycles (
    id INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    symmetric INTEGER NOT NULL,
    split_low INTEGER NOT NULL,
    split_high INTEGER NOT NULL,
    composition TEXT NOT NULL,
    full INTEGER NOT NULL,
    met INTEGER NOT NULL,
    move TEXT NOT NULL,
    campaign TEXT,
    found_at REAL NOT NULL,
    UNIQUE (rules, deal)
);
CREATE INDEX IF NOT EXISTS cycles_by_size ON cycles (rules, full, cards DESC);
CREATE TABLE IF NOT EXISTS basins (
    rules TEXT NOT NULL,
    cycle TEXT NOT NULL,
    budget INTEGER NOT NULL,
    explored INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    exhausted INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    closest_split TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (rules, cycle)
);
CREATE TABLE IF NOT EXISTS cycle_deals (
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    cycle TEXT NOT NULL,
    pre_period_tricks INTEGER NOT NULL,
    pre_period_cards INTEGER NOT NULL,
    PRIMARY KEY (rules, deal)
);
CREATE TABLE IF NOT EXISTS census_instances (
    deck TEXT NOT NULL,
    period INTEGER NOT NULL,
    k1 INTEGER NOT NULL,
    n1 INTEGER NOT NULL,
    status TEXT NOT NULL,
    seconds REAL NOT NULL,
    time_limit REAL,
    positions INTEGER NOT NULL,
    PRIMARY KEY (deck, period, k1, n1)
);
CREATE TABLE IF NOT EXISTS census_cycles (
    deck TEXT NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    symmetric INTEGER NOT NULL,
    split_low INTEGER NOT NULL,
    split_high INTEGER NOT NULL,
    k1 INTEGER NOT NULL,
    n1 INTEGER NOT NULL,
    PRIMARY KEY (deck, deal)
);
CREATE TABLE IF NOT EXISTS factory_moves (
    campaign TEXT NOT NULL,
    move TEXT NOT NULL,
    tries INTEGER NOT NULL,
    kept INTEGER NOT NULL,
    added INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (campaign, move)
);
"""


def _to_version_1(db: sqlite3.Connection) -> None:
    """Version 1: every table of :data:`SCHEMA`. A store written before versions were kept
    (version 0) holds some of them already, and perhaps ``finds`` without its ``lead`` column."""
    for statement in statements(SCHEMA):
        db.execute(statement)
    columns = {row[1] for row in db.execute("PRAGMA table_info(finds)")}
    if "lead" not in columns:
        db.execute("ALTER TABLE finds ADD COLUMN lead INTEGER NOT NULL DEFAULT 0")


def _to_version_2(db: sqlite3.Connection) -> None:
    """Version 2: every record keyed by the one spec of its rules (see :func:`respell_rules`)."""
    respell_rules(db)


_TO_VERSION_3 = """
CREATE TABLE IF NOT EXISTS census_plays (
    deck TEXT NOT NULL PRIMARY KEY,
    max_period INTEGER NOT NULL,
    positions INTEGER NOT NULL,
    played INTEGER NOT NULL,
    cycles INTEGER NOT NULL,
    seconds REAL NOT NULL
);
"""
"""Version 3: the census of a deck decided by playing every position
(:class:`~beggar.research.store_records.CensusPlay`)."""

_TO_VERSION_4 = """
CREATE TABLE IF NOT EXISTS exhaust_units (
    deck TEXT NOT NULL,
    start INTEGER NOT NULL,
    stop INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (deck, start)
);
CREATE TABLE IF NOT EXISTS exhaust_lengths (
    deck TEXT NOT NULL,
    measure TEXT NOT NULL,
    length INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (deck, measure, length)
);
CREATE TABLE IF NOT EXISTS exhaust_wins (
    deck TEXT NOT NULL,
    seat INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (deck, seat)
);
CREATE TABLE IF NOT EXISTS exhaust_cycles (
    deck TEXT NOT NULL,
    cycle TEXT NOT NULL,
    period_cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    PRIMARY KEY (deck, cycle)
);
CREATE TABLE IF NOT EXISTS exhaust_never_ending (
    deck TEXT NOT NULL,
    idx INTEGER NOT NULL,
    deal TEXT NOT NULL,
    cycle TEXT NOT NULL,
    period_cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    lead_in_cards INTEGER NOT NULL,
    lead_in_tricks INTEGER NOT NULL,
    PRIMARY KEY (deck, idx)
);
CREATE TABLE IF NOT EXISTS exhaust_longest (
    deck TEXT NOT NULL,
    measure TEXT NOT NULL,
    idx INTEGER NOT NULL,
    deal TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (deck, measure, idx)
);
DROP TABLE IF EXISTS exhaust_schema;
"""
"""Version 4: every balanced deal of a deck played (:mod:`beggar.research.exhaust`): the units of
indices done, the exact counts of game lengths and wins, the cycles and never-ending deals, and the
longest games. A store of version 3 may hold these tables already, as the exhaust created them
then, beside a version table of their own (``exhaust_schema``, only ever at 1): they are kept with
every row, and that table goes, the store's one version saying it all."""

MIGRATIONS: dict[int, Step] = {1: _to_version_1, 2: _to_version_2, 3: _TO_VERSION_3, 4: _TO_VERSION_4}
"""Step ``n`` brings a store of version ``n - 1`` to version ``n`` (see :mod:`beggar.schema`)."""


# -- rules specs written as people typed them -------------------------------------------------------

_KEYED_BY_RULES = ("finds", "cycles", "basins", "cycle_deals")
_KEYED_BY_DECK = ("census_instances", "census_cycles")
_NAMING_CAMPAIGNS = ("walkers", "finds", "cycles", "factory_moves")


def _one_spec(text: str) -> str:
    """The one spec of the rules ``text`` names (:meth:`beggar.rules.Rules.spec`); ``text`` itself
    if it names no rules (left as it was rather than lost)."""
    try:
        return rules_named(text).spec()
    except RulesError:
        return text


def _one_deck(text: str) -> str:
    """A census deck's name (``spec`` or ``spec[counts]``) with its rules written as their spec."""
    spec, bracket, counts = text.partition("[")
    return _one_spec(spec) + bracket + counts


def respell_rules(db: sqlite3.Connection) -> None:
    """Key every record by the one spec of its rules.

    Stores written before rules had one spec (:meth:`beggar.rules.Rules.spec`) keyed records by the
    spec as it was typed (``Half-Deck:pay=J1``, ``stripped-40:players=3``): this rewrites each such
    key, and each campaign named by one, so that the same rules find the same records and resume
    the same campaigns. Where a record already exists under the one spec (the same rules typed two
    ways), the one already there is kept; a campaign's walkers likewise. A store whose keys are all
    specs already is read and left untouched. It runs as the step to version 2, inside the
    migration's one transaction.
    """
    renamed: dict[str, dict[str, str]] = {}
    for table in _KEYED_BY_RULES:
        texts = [row[0] for row in db.execute(f"SELECT DISTINCT rules FROM {table}")]
        renamed[table] = {text: _one_spec(text) for text in texts if _one_spec(text) != text}
    for table in _KEYED_BY_DECK:
        texts = [row[0] for row in db.execute(f"SELECT DISTINCT deck FROM {table}")]
        renamed[table] = {text: _one_deck(text) for text in texts if _one_deck(text) != text}
    campaigns: dict[str, dict[str, Any]] = {}
    for key, text in db.execute("SELECT id, args FROM campaigns").fetchall():
        args = json.loads(text)
        if isinstance(args.get("rules"), str) and _one_spec(args["rules"]) != args["rules"]:
            campaigns[key] = {**args, "rules": _one_spec(args["rules"])}
    if not campaigns and not any(renamed.values()):
        return
    for table, column in [(t, "rules") for t in _KEYED_BY_RULES] + [(t, "deck") for t in _KEYED_BY_DECK]:
        for old, new in renamed[table].items():
            db.execute(f"UPDATE OR IGNORE {table} SET {column} = ? WHERE {column} = ?", (new, old))
            db.execute(f"DELETE FROM {table} WHERE {column} = ?", (old,))
    for old, args in campaigns.items():
        new = campaign_id(args)
        if db.execute("SELECT 1 FROM campaigns WHERE id = ?", (new,)).fetchone() is None:
            db.execute(
                "UPDATE campaigns SET id = ?, args = ? WHERE id = ?",
                (new, json.dumps(args, sort_keys=True), old),
            )
        else:  # the same campaign run under two spellings: the one already under the spec goes on
            db.execute("DELETE FROM campaigns WHERE id = ?", (old,))
        for table in _NAMING_CAMPAIGNS:
            db.execute(f"UPDATE OR IGNORE {table} SET campaign = ? WHERE campaign = ?", (new, old))
            db.execute(f"DELETE FROM {table} WHERE campaign = ?", (old,))
