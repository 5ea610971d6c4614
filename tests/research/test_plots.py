"""Plots of simulated game lengths."""

from __future__ import annotations

from pathlib import Path

import pytest

from beggar.research.plots import plot_summaries
from beggar.research.simulate import Summary, simulate


@pytest.fixture(scope="module")
def summaries() -> list[Summary]:
    return [simulate("standard", 4_000, seed=2), simulate("double-penalty", 4_000, seed=2)]


def test_png(tmp_path: Path, summaries: list[Summary]) -> None:
    target = plot_summaries(summaries, tmp_path / "lengths.png")
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000


def test_svg_says_the_rules_and_the_games(tmp_path: Path, summaries: list[Summary]) -> None:
    text = plot_summaries(summaries, tmp_path / "lengths.svg").read_text()
    # Matplotlib writes text as glyph paths, with the original string in a comment.
    assert "standard, double-penalty (4,000 games each, seed 2)" in text
    assert "survival" in text.lower() and "log scale" in text


def test_one_variant_title(tmp_path: Path, summaries: list[Summary]) -> None:
    text = plot_summaries(summaries[:1], tmp_path / "one.svg").read_text()
    assert "standard (4,000 games, seed 2)" in text


def test_bad_file_type(tmp_path: Path, summaries: list[Summary]) -> None:
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        plot_summaries(summaries, tmp_path / "lengths.pdf")
    with pytest.raises(ValueError, match="nothing to plot"):
        plot_summaries([], tmp_path / "lengths.png")
