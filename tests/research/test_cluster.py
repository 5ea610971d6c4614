"""The one runner of units: a finite list runs every key once, stops submitting when time is up,
and a failing unit stops the run with its error."""

from __future__ import annotations

import concurrent.futures as cf
from typing import Any

import click
import pytest

from beggar.research.cluster import Schedule, UnitList, run_units
from beggar.research.strategies import STRATEGIES, TARGETS


def _square(key: int) -> tuple[int, int]:
    return key, key * key


def _fails(key: int) -> int:
    raise RuntimeError(f"unit {key} failed")


def test_a_finite_list_records_every_unit_once() -> None:
    recorded: list[tuple[int, int]] = []
    rounds: list[int] = []
    run_units(
        UnitList(range(9), _square, recorded.append),
        Schedule(workers=2),
        on_round=lambda: rounds.append(len(recorded)),
    )
    assert sorted(recorded) == [(k, k * k) for k in range(9)]
    assert rounds and rounds[-1] == 9


def test_no_unit_starts_once_the_time_is_up() -> None:
    recorded: list[tuple[int, int]] = []
    run_units(UnitList(range(5), _square, recorded.append), Schedule(seconds=0.0, workers=1))
    assert recorded == []


def test_a_failing_unit_stops_the_run_with_its_error() -> None:
    recorded: list[int] = []
    with pytest.raises(RuntimeError, match=r"unit \d failed"):  # whichever fails first
        run_units(UnitList(range(3), _fails, recorded.append), Schedule(workers=1))
    assert recorded == []


def test_the_search_offers_exactly_the_strategies_and_targets_it_runs() -> None:
    from beggar.commands.research import search_command

    choices = {p.name: p.type.choices for p in search_command.params if isinstance(p.type, click.Choice)}
    assert choices == {"strategy": STRATEGIES, "target": TARGETS}


class _Finished(cf.Executor):
    """An executor whose every unit is done when submitted: all come back in one round."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_results_of_one_round_are_recorded_in_the_order_their_units_were_submitted() -> None:
    """So that one worker's units are kept in order, and a run stopped by a record that fails (a
    full disk) keeps every unit before the one refused and none after it."""
    recorded: list[int] = []
    run_units(UnitList(range(200), abs, recorded.append), Schedule(executor=_Finished()))
    assert recorded == list(range(200))
