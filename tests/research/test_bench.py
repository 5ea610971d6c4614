"""``beggar bench`` (its figures are measured, never asserted as speeds)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from beggar.commands.research import bench_command
from beggar.research.bench import compile_seconds


def test_bench_json() -> None:
    result = CliRunner().invoke(
        bench_command, ["-n", "20000", "--engine-games", "20", "--no-compile", "--workers", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("kernel_1_worker", "kernel_all_cores", "engine"):
        assert data[key]["games_per_second"] > 0 and data[key]["cards_per_second"] > 0
    assert data["kernel_all_cores"]["workers"] == 2
    assert data["ratios"]["kernel_1_worker_over_engine"] > 10
    assert data["compile_seconds"] is None


def test_bench_table() -> None:
    result = CliRunner().invoke(bench_command, ["-n", "5000", "--engine-games", "10", "--no-compile"])
    assert result.exit_code == 0, result.output
    assert "kernel, 1 worker" in result.output and "reference engine" in result.output
    assert "cards/s" in result.output


def test_bench_bad_rules() -> None:
    result = CliRunner().invoke(bench_command, ["--rules", "nope", "--no-compile"])
    assert result.exit_code == 2 and "unknown rules" in result.output


@pytest.mark.exhaustive
def test_compile_time_is_measured() -> None:
    assert compile_seconds() > 0
