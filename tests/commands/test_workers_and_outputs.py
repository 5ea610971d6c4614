"""What a research command starts and where it writes: ``--workers`` bounded by the cores and the
work, ``--plot`` written exactly where it is asked, and no results kept in memory only."""

from __future__ import annotations

import concurrent.futures as cf
import warnings
from pathlib import Path
from typing import Any

import click
import pytest

from beggar.cli import cli, run
from beggar.commands.options import workers_option
from beggar.research import cluster
from beggar.research.cluster import bounded_workers, default_workers, local_pool

HUGE = "2147483648"  # 2**31: once an OverflowError from the process pool


def test_workers_are_bounded_by_the_cores_and_the_work() -> None:
    cores = default_workers()
    assert bounded_workers(None) == cores
    assert bounded_workers(int(HUGE)) == cores
    assert bounded_workers(1) == 1
    assert bounded_workers(cores + 5, units=1) == 1
    assert bounded_workers(None, units=0) == 1
    pool = local_pool(int(HUGE), units=3)
    try:
        assert pool._max_workers == min(cores, 3)  # type: ignore[attr-defined]
    finally:
        pool.shutdown()


def test_every_workers_option_is_the_one_bounded_option() -> None:
    """Every command's --workers is :func:`workers_option` (so bounded by the cores), whatever the command."""

    @workers_option()
    def one(workers: int) -> None: ...

    [reference] = [p for p in getattr(one, "__click_params__", []) if p.name == "workers"]
    having = []
    for name, command in cli.commands.items():
        for param in command.params:
            if param.name == "workers":
                having.append(name)
                assert isinstance(param, click.Option) and param.callback is reference.callback, name
    assert {"census", "search", "factory", "simulate", "bench", "exhaust"} <= set(having)


def test_census_with_more_workers_than_cores_starts_no_more_than_the_cores_or_the_rows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[int] = []
    real = cluster.local_pool

    def spy(workers: int, *args: Any, **kwargs: Any) -> cf.ProcessPoolExecutor:
        pool = real(workers, *args, **kwargs)
        started.append(pool._max_workers)  # type: ignore[attr-defined]
        return pool

    monkeypatch.setattr(cluster, "local_pool", spy)
    db = tmp_path / "census.db"
    status = run(
        [
            "census",
            "--cards",
            "5,2,1",
            "--max-period",
            "3",
            "--method",
            "solver",
            "--workers",
            HUGE,
            "--db",
            str(db),
            "--json",
        ]
    )
    err = capsys.readouterr().err
    assert status == 0, err
    cores = default_workers()
    assert (
        err
        == f"beggar: --workers {HUGE} is more than the {cores} cores this process may use: using {cores}\n"
    )
    rows = 3  # (2, 1), (3, 1) and (3, 2)
    assert all(size <= min(cores, rows) for size in started)
    assert started or cores == 1  # a pool was started, of at most that many processes


def test_a_plot_is_written_where_it_is_asked_or_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    census = ["census", "--cards", "5,2,1", "--max-period", "3", "--workers", "1"]
    db = tmp_path / "census.db"
    for plot in (tmp_path / "times", Path("/dev/full"), tmp_path / "times.pdf"):
        status = run([*census, "--db", str(db), "--plot", str(plot)])
        err = capsys.readouterr().err
        assert status != 0 and err.startswith("beggar: ") and err.count("\n") == 1, err
        assert "must end in .png or .svg" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # not even the database
    assert not Path("/dev/full.png").exists()

    # Playing every position of so small a deck records no solver time: the plot still draws its
    # zeros (on a linear scale) without a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert run([*census, "--db", str(db), "--plot", str(tmp_path / "times.SVG"), "--json"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("census.db")) == ["times.SVG"]
    assert (tmp_path / "times.SVG").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(
    "command",
    [
        ["census", "--cards", "5,2,1", "--max-period", "3"],
        ["search", "--minutes", "0.01"],
        ["factory", "--rules", "half-deck:pay=J1Q2", "--minutes", "0.01"],
        ["exhaust", "--rules", "half-deck", "--cards", "4,1,1"],
    ],
)
def test_results_kept_only_in_memory_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    status = run([*command, "--db", ":memory:"])
    err = capsys.readouterr().err
    assert status == 2 and err == (
        "beggar: --db :memory: would lose every result when the command ends: give a file\n"
    )
    monkeypatch.setenv("BEGGAR_DB", ":memory:")
    assert run(command) == 2
    assert "$BEGGAR_DB=:memory: would lose every result" in capsys.readouterr().err


FACTORY = ["factory", "--rules", "half-deck:pay=J1Q2", "--minutes", "0.01"]
EXHAUST = ["exhaust", "--rules", "half-deck", "--cards", "4,1,1"]
CENSUS = ["census", "--cards", "5,2,1", "--max-period", "3"]


@pytest.mark.parametrize(
    ("command", "library", "error", "status"),
    [
        (["search", "--minutes", "0.01"], "beggar.research.search.run_search", "SearchError", 2),
        (FACTORY, "beggar.research.cycles.factory.run_factory", "FactoryError", 2),
        (CENSUS, "beggar.research.cycles.census.run_census", "ConstructError", 1),
        (EXHAUST, "beggar.research.exhaust.run_exhaust", "ExhaustError", 1),
        (CENSUS, "beggar.research.cycles.census.run_census", "ClusterError", 1),
    ],
)
def test_every_resumable_command_gives_a_library_error_mid_run_the_same_way(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    library: str,
    error: str,
    status: int,
) -> None:
    """A user's error (``UserError``) exits with 2, any other of the library's with 1, each in its own
    words; a cluster that fails the run says that the run stopped and that the same command resumes."""
    import importlib

    from beggar.research import cluster, exhaust, search
    from beggar.research.cycles import factory, kinds

    classes = {
        "SearchError": search.SearchError,
        "FactoryError": factory.FactoryError,
        "ConstructError": kinds.ConstructError,
        "ExhaustError": exhaust.ExhaustError,
        "ClusterError": cluster.ClusterError,
    }
    module, _, name = library.rpartition(".")

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise classes[error]("what went wrong")

    monkeypatch.setattr(importlib.import_module(module), name, fails)
    assert run([*command, "--db", str(tmp_path / "r.db")]) == status
    err = capsys.readouterr().err
    assert err.startswith("beggar: ") and err.count("\n") == 1 and "what went wrong" in err
    assert ("the same command resumes" in err) == (error == "ClusterError")
