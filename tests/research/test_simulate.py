"""Simulation: exact streaming statistics, determinism, the command, and the published facts."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from beggar.commands.research import simulate_command
from beggar.engine import play
from beggar.kernels import general
from beggar.notation import parse_deal
from beggar.research.simulate import Histogram, Rate, Summary, deal_strings, simulate
from beggar.rules import STANDARD, rules_named


@pytest.fixture(scope="module")
def million() -> Summary:
    return simulate(STANDARD, 1_000_000, seed=20_240_501, workers=2)


# -- exact statistics --------------------------------------------------------------------------------


def test_histogram_quantiles_are_numpys() -> None:
    rng = np.random.default_rng(4)
    values = rng.geometric(0.01, size=5_001).astype(np.int64)
    histogram = Histogram(size=150)  # many values land in the overflow list
    for part in np.array_split(values, 7):
        histogram.add(part)
    assert histogram.overflow
    assert histogram.count == values.size and histogram.total == values.sum()
    for q in (0.0, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0):
        assert histogram.quantile(q) == pytest.approx(np.quantile(values, q), abs=1e-9)
    assert histogram.maximum == values.max()
    assert histogram.mean == pytest.approx(values.mean())
    survival = histogram.share_above(400)
    assert survival[37] == pytest.approx((values > 37).mean())


def test_histograms_merge() -> None:
    a, b = Histogram(size=10), Histogram(size=10)
    a.add(np.array([1, 2, 30], dtype=np.int64))
    b.add(np.array([2, 50], dtype=np.int64))
    a.merge(b)
    assert (a.count, a.total, a.maximum, a.quantile(0.5)) == (5, 85, 50, 2.0)


def test_wilson_interval() -> None:
    low, high = Rate(40, 100).ci95
    assert low == pytest.approx(0.3094, abs=1e-4) and high == pytest.approx(0.4980, abs=1e-4)
    assert Rate(0, 10).ci95[0] == 0.0


@pytest.mark.system
def test_summary_does_not_depend_on_workers_or_chunks() -> None:
    rules = rules_named("half-deck:pay=J1:players=3")
    one = simulate(rules, 2_000, seed=3, workers=1, chunk=2_000)
    many = simulate(
        rules, 2_000, seed=3, workers=2, chunk=777
    )  # three chunks, the last short, over two workers
    assert one.to_dict() | {"seconds": 0, "games_per_second": 0} == many.to_dict() | {
        "seconds": 0,
        "games_per_second": 0,
    }
    assert one.loops > 0
    assert (one.card_histogram.counts == many.card_histogram.counts).all()


def test_summary_counts_match_the_games() -> None:
    rules = rules_named("standard:max-tricks=12:on-end=most-cards")
    summary = simulate(rules, 3_000, seed=9)
    batch = general.play_random(rules, 9, 0, 3_000)
    assert summary.stopped == int((batch.status == general.STATUS_STOPPED).sum())
    assert summary.draws == int((batch.outcome == general.OUTCOME_DRAW).sum()) > 0
    assert summary.first_player_wins.count == int((batch.winner == batch.first).sum())
    assert summary.cards.p90 == np.quantile(batch.cards, 0.9)
    assert summary.tricks.median == np.median(batch.tricks)


def test_deal_strings() -> None:
    deals, _ = general.random_deals(STANDARD, 5, 10, 3)
    assert deal_strings(STANDARD, 5, 10, 3) == [deal.compact() for deal in deals]
    rules = rules_named("standard:pay=T1J1Q2K3A4:players=3")
    deals, _ = general.random_deals(rules, 5, 0, 2)
    assert deal_strings(rules, 5, 0, 2) == [deal.ranks() for deal in deals]


# -- the published facts (docs/rules.md) --------------------------------------------------------------


def _density(histogram: Histogram, at: float, half_width: int = 10) -> float:
    """Probability per card near ``at``, from the histogram itself."""
    centre = round(at)
    counts = histogram.dense(centre + half_width)[centre - half_width : centre + half_width]
    return float(counts.sum()) / (2 * half_width) / histogram.count


def _sd(histogram: Histogram) -> float:
    values = np.arange(histogram.size)
    return math.sqrt(float((histogram.counts * (values - histogram.mean) ** 2).sum()) / histogram.count)


def test_known_facts(million: Summary) -> None:
    """Median about 192, p90 about 520, mean about 255 cards and 35 tricks, first player slightly
    under half. Each bound is the rounding of the published figure plus four standard errors of
    this run's estimate (for a quantile: sqrt(q(1-q)/n) / density)."""
    n = million.games
    cards, tricks = million.card_histogram, million.trick_histogram
    assert not cards.overflow and not tricks.overflow
    se_mean = _sd(cards) / math.sqrt(n)
    assert abs(million.cards.mean - 255) <= 0.5 + 4 * se_mean
    se_tricks = _sd(tricks) / math.sqrt(n)
    assert abs(million.tricks.mean - 35) <= 0.5 + 4 * se_tricks
    se_median = math.sqrt(0.25 / n) / _density(cards, 192)
    assert abs(million.cards.median - 192) <= 1 + 4 * se_median
    se_p90 = math.sqrt(0.09 / n) / _density(cards, 520)
    assert abs(million.cards.p90 - 520) <= 10 + 4 * se_p90  # "about 520" (one source: "about 530")
    rate = million.first_player_wins
    assert rate.ci95[1] < 0.5
    assert rate.rate > 0.48 - 4 * math.sqrt(0.25 / n)
    assert million.loops == million.stopped == million.draws == 0


# -- the command -------------------------------------------------------------------------------------


def test_command_table() -> None:
    result = CliRunner().invoke(
        simulate_command, ["-n", "3000", "--rules", "standard,jack-pays-2", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "standard" in result.output and "jack-pays-2" in result.output
    assert "first player wins" in result.output and "cards median" in result.output


def test_command_json() -> None:
    result = CliRunner().invoke(simulate_command, ["-n", "2000", "--json", "--workers", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"games", "cards", "tricks", "first_player_wins", "loops", "seconds", "games_per_second"} <= set(
        data
    )
    for key in ("mean", "median", "p90", "p99", "max"):
        assert key in data["cards"] and key in data["tricks"]
    assert {"rate", "ci95"} <= set(data["first_player_wins"])
    assert data["games"] == 2000
    several = json.loads(
        CliRunner().invoke(simulate_command, ["-n", "100", "--json", "--rules", "standard, stripped"]).output
    )
    assert [s["rules"] for s in several] == ["standard", "stripped"]


def test_command_csv_rows_replay(tmp_path: Path) -> None:
    target = tmp_path / "games.csv"
    spec = "friend-table:players=3"
    result = CliRunner().invoke(
        simulate_command, ["-n", "300", "--rules", spec, "--seed", "8", "--csv", str(target)]
    )
    assert result.exit_code == 0, result.output
    with target.open(newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == 300 and [int(r["game"]) for r in rows] == list(range(300))
    rules = rules_named(spec)
    for row in rows[:40]:
        record = play(parse_deal(row["deal"], rules.deck), rules, first=int(row["first"]))
        assert (record.cards, record.tricks, str(record.status)) == (
            int(row["cards"]),
            int(row["tricks"]),
            row["status"],
        )
        assert row["winner"] == ("" if record.winner is None else str(record.winner))


def test_command_plot(tmp_path: Path) -> None:
    target = tmp_path / "lengths.svg"
    result = CliRunner().invoke(
        simulate_command, ["-n", "500", "--rules", "standard,half-deck", "--plot", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert target.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(
    ("args", "message"),
    (
        (["--rules", "nonsense"], "unknown rules"),
        (["--rules", "standard:players=11"], "players=11"),
        (["--rules", " , "], "at least one"),
        (["-n", "0"], "Invalid value for '-n' / '--games': the value must be 1 or more"),
        (["--workers", "0"], "Invalid value for '--workers': the value must be 1 or more"),
        (["--plot", "out.pdf"], ".png or .svg"),
    ),
)
def test_command_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(simulate_command, ["-n", "10", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_csv_path_that_cannot_be_written(tmp_path: Path) -> None:
    result = CliRunner().invoke(simulate_command, ["-n", "10", "--csv", str(tmp_path / "no" / "such.csv")])
    assert result.exit_code == 1
    assert "cannot write" in result.output


@pytest.mark.parametrize(
    "name", ["standard", "friend-table", "stripped", "practice-table", "lose-when-empty"]
)
def test_the_fast_path_plays_the_same_games_as_the_general_kernel(name: str) -> None:
    """simulate, search and bench use the bit kernel where it covers the rules: same seed, same games."""
    from beggar.research.simulate import run_batches

    rules = rules_named(name)
    fast = [batch.table for _, batch in run_batches(rules, 20_000, 5, chunk=7_000, fast=True)]
    general = [batch.table for _, batch in run_batches(rules, 20_000, 5, chunk=7_000, fast=False)]
    assert all((a == b).all() for a, b in zip(fast, general, strict=True))
