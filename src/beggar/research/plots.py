"""Plots of simulated game lengths: a histogram (log scale) and a survival curve, variants overlaid.

Both are drawn from the exact histograms of :class:`beggar.research.simulate.Summary`, with matplotlib's
Agg backend (no display needed). The file type follows the name: ``.png`` or ``.svg``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # matplotlib is loaded when a plot is drawn, not to check a file's name
    from matplotlib.axes import Axes

    from beggar.research.simulate import Summary

MAX_BINS = 120

PLOT_SUFFIXES = (".png", ".svg")
"""The files a plot is written as; the name says which (and is used exactly as given)."""


def plot_format(path: Path | str) -> str:
    """The format matplotlib writes ``path`` in, from its suffix; ValueError for any other name.

    Given to ``savefig`` so that the file is ``path`` itself: without it, matplotlib would add
    ``.png`` to a name without a suffix and write somewhere else.

    >>> plot_format("lengths.SVG")
    'svg'
    """
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise ValueError(f"{Path(path).name}: the plot file must end in .png or .svg")
    return suffix[1:]


def _extent(summaries: Sequence[Summary]) -> int:
    """Cards shown on the x axis: past the longest game of every variant."""
    return max(s.cards.max for s in summaries) + 1


def _bin_width(extent: int) -> int:
    """A round bin width giving at most :data:`MAX_BINS` bins."""
    raw = max(1, math.ceil(extent / MAX_BINS))
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if nice >= raw:
            return nice
    return raw


def _title(summaries: Sequence[Summary]) -> str:
    """``standard, jack-pays-2 (1,000,000 games each, seed 0)``."""
    names = ", ".join(s.rules_name for s in summaries)
    counts = {s.games for s in summaries}
    if len(counts) == 1:
        each = " each" if len(summaries) > 1 else ""
        games = f"{counts.pop():,} games{each}"
    else:
        games = "games: " + ", ".join(f"{s.games:,}" for s in summaries)
    return f"{names} ({games}, seed {summaries[0].seed})"


def draw_histogram(ax: Axes, summaries: Sequence[Summary]) -> None:
    """Share of games by length in cards, one step line per variant, log-scaled counts."""
    extent = _extent(summaries)
    width = _bin_width(extent)
    bins = math.ceil(extent / width)
    edges = np.arange(bins + 1) * width
    for summary in summaries:
        counts = summary.card_histogram.dense(bins * width).reshape(bins, width).sum(axis=1)
        share = counts / max(summary.games, 1)
        shown = np.where(share > 0, share, np.nan)
        ax.stairs(
            shown, edges, label=f"{summary.rules_name} (median {summary.cards.median:,.0f})", linewidth=1.4
        )
    ax.set_yscale("log")
    ax.set_xlim(0, bins * width)
    ax.set_xlabel("cards turned in the game")
    ax.set_ylabel(f"share of games per {width}-card bin (log scale)")
    ax.set_title("How long games last")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend()


def draw_survival(ax: Axes, summaries: Sequence[Summary]) -> None:
    """Share of games still running after n cards, one line per variant, log-scaled shares."""
    extent = _extent(summaries)
    for summary in summaries:
        alive = summary.card_histogram.share_above(extent)
        shown = np.where(alive > 0, alive, np.nan)
        ax.plot(np.arange(extent), shown, label=f"{summary.rules_name} (90% end by {summary.cards.p90:,.0f})")
    ax.set_yscale("log")
    ax.set_xlim(0, extent)
    ax.set_xlabel("cards turned (n)")
    ax.set_ylabel("share of games still running after n cards (log scale)")
    ax.set_title("Survival: games not yet over")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend()


def plot_summaries(summaries: Sequence[Summary], path: Path | str) -> Path:
    """Draw the histogram and the survival curve side by side into ``path`` (.png or .svg)."""
    if not summaries:
        raise ValueError("nothing to plot: no summaries")
    target = Path(path)
    form = plot_format(target)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5), layout="constrained")
    try:
        draw_histogram(left, summaries)
        draw_survival(right, summaries)
        figure.suptitle(f"Beggar-My-Neighbour game lengths: {_title(summaries)}")
        figure.savefig(target, format=form, dpi=120)
    finally:
        plt.close(figure)
    return target


__all__ = ["PLOT_SUFFIXES", "draw_histogram", "draw_survival", "plot_format", "plot_summaries"]
