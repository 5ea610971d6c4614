"""The compiled harvest and growth moves: every cycle they report is one the reference engine plays."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from beggar.cycle import find_cycle
from beggar.kernels import growth
from beggar.kernels.cycles import cycle_rows
from beggar.research.cycles.canon import Alphabet, canonical_form, form_from_row
from beggar.rules import rules_named

RULES = rules_named("court-only:deck=stripped")


def _harvest(alphabet: Alphabet, tries: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    deck = np.array([v for v, count in alphabet.deck.items() for _ in range(count)], np.uint8)
    rows = np.zeros((256, 17), np.uint8)
    meta = np.zeros((256, growth.META), np.int64)
    _, found, done = growth.harvest(deck, 6, 16, alphabet.cfg, 10_000, np.uint64(seed), tries, rows, meta)
    assert done == tries or found == rows.shape[0]
    return [(rows[i], meta[i]) for i in range(found)]


def test_harvested_small_cycles_are_canonical_and_loop_under_the_engine() -> None:
    alphabet = Alphabet.of(RULES)
    found = _harvest(alphabet, 20_000, 3)
    assert len(found) > 10  # about 3 in 1,000 small positions loop
    for row, meta in found:
        form = form_from_row(alphabet, row[: meta[0] + 1], *[int(x) for x in meta[3:8]])
        cycle = find_cycle(form.deal, RULES, first=0, complete=False)
        assert cycle is not None
        assert (cycle.pre_period_tricks, cycle.period_tricks, cycle.period_cards) == (
            0,
            form.period_tricks,
            form.period_cards,
        )
        assert canonical_form(form.deal, RULES).deal == form.deal


@pytest.mark.parametrize("kind", range(len(growth.MOVES)))
def test_every_child_of_every_move_loops_and_holds_what_the_move_added(kind: int) -> None:
    alphabet = Alphabet.of(RULES)
    harvested = sorted(_harvest(alphabet, 20_000, 6), key=lambda item: -int(item[1][0]))
    kept = 0
    for parent_row, parent_meta in harvested[:4]:
        kept += _children_check(alphabet, parent_row, parent_meta, kind)
    if growth.MOVES[kind] in ("one", "pair", "run", "swap", "shift", "one+repair"):
        assert kept > 0, "this move keeps some loops on small cycles"


def _children_check(alphabet: Alphabet, parent_row: np.ndarray, parent_meta: np.ndarray, kind: int) -> int:
    n = int(parent_meta[0])
    parent = form_from_row(alphabet, parent_row[: n + 1], *[int(x) for x in parent_meta[3:8]])
    values, lead = alphabet.parse(parent.deal)
    rows = cycle_rows(values, n, lead, alphabet.cfg, parent.period_tricks)
    kinds = np.array(list(alphabet.deck), np.uint8)
    have = Counter(values.tolist())
    missing = np.array([alphabet.deck[int(v)] - have[int(v)] for v in kinds], np.int64)
    weights = np.ones(kinds.size)
    out = np.zeros((64, n + growth.MAX_ADDED + 1), np.uint8)
    meta = np.zeros((64, growth.META), np.int64)
    _, count, done = growth.attempts(
        rows, n, missing, weights, kinds, kind, 2_000, alphabet.cfg, 20_000, np.uint64(kind + 1), out, meta
    )
    assert done > 0
    for i in range(count):
        size, added = int(meta[i, 0]), int(meta[i, 1])
        assert size == n + added
        assert (added == 0) == (kind in growth.FIXED)
        child = form_from_row(alphabet, out[i, : size + 1], *[int(x) for x in meta[i, 3:8]])
        cycle = find_cycle(child.deal, RULES, first=0, complete=False)
        assert cycle is not None and cycle.period_cards == child.period_cards
        counts = Counter(alphabet.parse(child.deal)[0].tolist())
        assert all(counts[v] <= alphabet.deck[v] for v in counts)  # never more than the deck holds
    return count


def test_each_move_is_branched_on_by_its_name_not_its_number() -> None:
    names = ("ONE", "PAIR", "BLOCK", "TWIN", "RUN", "SWAP", "SHIFT", "EXCHANGE", "ONE_REPAIR", "RECOLOR")
    assert [growth.MOVES[getattr(growth, name)] for name in names] == [
        name.lower().replace("_", "+") for name in names
    ]
    assert sorted(growth.GROWING + growth.FIXED) == list(range(len(growth.MOVES)))
    tree = ast.parse(Path(growth.__file__).read_text())
    numbered = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and node.left.id == "kind"
        and any(isinstance(c, ast.Constant) and isinstance(c.value, int) for c in node.comparators)
    ]
    assert numbered == [], f"growth.py compares kind with a number at lines {numbered}"
