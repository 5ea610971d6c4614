"""What keeping live tables costs the server (run by hand; not a test).

Times, on the event loop's side, one table's snapshot (the row written at a trick end), a batch of
the keeper for N tables each with a new trick, and a restore (replaying a game through the engine),
and, in the writer's thread, one batch's transaction. Prints the median and the spread of
``--runs`` runs.

    .venv/bin/python scripts/durable_bench.py --tables 500 --runs 7
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import orjson

from beggar.notation import random_deal
from beggar.rules import STANDARD
from beggar.web.archive import Archive
from beggar.web.durable import BATCH_MAX, Keeper, restore, snapshot
from beggar.web.lobby import Lobby
from beggar.web.table import Mode, Seat, Table


def _table(index: int, cards: int) -> Table:
    seats = [Seat("Ann", human=True), Seat("Bea", human=True)]
    table = Table(f"bench{index:05d}", Mode.FRIENDS, STANDARD, seats, random_deal(STANDARD, index))
    table.take_seat(0, f"a{index}")
    table.take_seat(1, f"b{index}")
    while table.game.cards < cards and not table.game.over:
        table.step()
    return table


def _spread(values: list[float], unit: str, scale: float) -> str:
    values = sorted(v * scale for v in values)
    return f"median {statistics.median(values):.1f} {unit} (min {values[0]:.1f}, max {values[-1]:.1f})"


async def main(tables: int, runs: int) -> None:
    lobby_tables = [_table(i, 120) for i in range(tables)]
    snap, batch, write, size = [], [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        archive = Archive(Path(folder) / "bench.sqlite3")
        keeper = Keeper(archive, Lobby())
        for table in lobby_tables:
            keeper.watch(table)
        for _ in range(runs):
            started = time.perf_counter()
            for table in lobby_tables:
                size = len(orjson.dumps(snapshot(table)))
            snap.append((time.perf_counter() - started) / tables)
            for table in lobby_tables:  # every table ends a trick
                if table.game.over:
                    table.new_game()
                while True:
                    before = table.game.tricks
                    table.step()
                    if table.game.over or table.game.tricks != before:
                        break
                table.changed()
            started = time.perf_counter()
            rows, gone = keeper.collect()
            batch.append(time.perf_counter() - started)
            started = time.perf_counter()
            archive.put_live(rows, gone)
            write.append(time.perf_counter() - started)
            while keeper._dirty:
                archive.put_live(*keeper.collect())
    print(f"tables: {tables}, rows of about {size:,} bytes, {runs} runs")
    print(f"snapshot of one table (on the loop):     {_spread(snap, 'us', 1e6)}")
    print(f"one batch of {BATCH_MAX} tables (on the loop):   {_spread(batch, 'ms', 1e3)}")
    print(f"its transaction (writer thread):         {_spread(write, 'ms', 1e3)}")
    replays = []
    for run in range(runs):
        table = _table(run, 10**6)
        state = orjson.loads(orjson.dumps(snapshot(table)))
        started = time.perf_counter()
        _, replay = restore(state)
        for _ in replay:
            pass
        replays.append(table.game.cards / (time.perf_counter() - started))
    print(f"restore (replay through the engine):     {_spread(replays, 'cards/s', 1)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.runs))
