"""What lets one server process hold many tables: instant tables turn their cards in batches from a
budget that gives way to people's updates, and a view is built once per change for everyone.

The figures themselves come from scripts/loadtest.py and scripts/capacity.py, not from tests.
"""

from __future__ import annotations

import asyncio
import gc

import orjson
import pytest

from beggar.notation import random_deal
from beggar.rules import STANDARD, rules_named
from beggar.web.app import GC_THRESHOLDS, tune_garbage_collector
from beggar.web.lobby import Lobby
from beggar.web.pacing import INSTANT_BATCH, LAG_HIGH, CardBudget
from beggar.web.settings import ServerSettings
from beggar.web.table import Mode, Pace, Seat, Table
from beggar.web.view import card_json, shared_json, shared_view
from helpers import run_async


def _watch(lobby: Lobby, seed: int) -> Table:
    seats = [Seat("A", human=True, automatic=True), Seat("B", human=False)]
    return lobby.open(Mode.WATCH, rules_named("standard"), seats, seed=seed, pace=Pace.INSTANT)


def test_an_instant_table_turns_a_batch_of_cards_per_change() -> None:
    async def run() -> tuple[int, int]:
        lobby = Lobby(ServerSettings(instant_cards=2_000))
        table = _watch(lobby, seed=7)
        changes = 0

        def count(_: Table) -> None:
            nonlocal changes
            changes += 1

        table.listeners.append(count)
        await asyncio.sleep(0.3)
        cards = table.game.cards
        lobby.close_all()
        return cards, changes

    cards, changes = run_async(run())
    assert cards > 2 * changes  # one state carries several cards
    assert changes > 0


def test_the_budget_gives_way_while_the_event_loop_lags_and_comes_back_after() -> None:
    budget = CardBudget(8_000)
    for _ in range(40):
        budget.adjust(LAG_HIGH * 2)
    assert budget.rate == budget.floor == 100  # slowed down, never stopped
    for _ in range(400):
        budget.adjust(0.0)
    assert budget.rate == budget.ceiling == 8_000
    budget.adjust((LAG_HIGH + 0.008) / 2)  # in between: left as it is
    assert budget.rate == 8_000


def test_the_budget_grants_whole_batches_at_most_and_takes_back_what_was_not_turned() -> None:
    async def run() -> list[int]:
        budget = CardBudget(1_000)
        granted = [await budget.take(INSTANT_BATCH) for _ in range(3)]
        budget.give_back(sum(granted))
        granted.append(await budget.take(INSTANT_BATCH))
        budget.stop()
        return granted

    granted = run_async(run())
    assert all(1 <= n <= INSTANT_BATCH for n in granted)
    assert granted[-1] == INSTANT_BATCH  # what was given back is there to take again


def test_the_budget_watches_the_loop_once_instant_tables_play_and_stops_with_the_server() -> None:
    async def run() -> bool:
        budget = CardBudget(1_000)
        idle = budget._watcher is None
        await budget.take()
        watching = budget._watcher is not None
        budget.stop()
        await asyncio.sleep(0)
        return idle and watching and budget._watcher is None

    assert run_async(run())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_encoded_view_is_the_view_and_its_cards_are_the_cards(seed: int) -> None:
    table = Table(
        "t", Mode.WATCH, STANDARD, [Seat("A", human=False), Seat("B", human=False)], random_deal(seed=seed)
    )
    for _ in range(200):
        if table.game.over:
            table.new_game()
        table.step()
        table.changed()
        view = shared_view(table)
        assert orjson.loads(shared_json(table)) == orjson.loads(orjson.dumps(view))
        assert view["pile"] == [card_json(card, STANDARD) for card in table.game.pile]
        assert view["last_card"] is not None
        if table.game.pile:
            assert view["last_card"]["card"] == card_json(table.game.pile[-1], STANDARD)


def test_the_server_process_collects_cycles_less_often() -> None:
    before = gc.get_threshold()
    try:
        tune_garbage_collector()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[0] > before[0]
    finally:
        gc.set_threshold(*before)
