"""Research on many games: simulation, benchmarks, searches for record and never-ending deals.

:mod:`~beggar.research.simulate` summarises random deals, :mod:`~beggar.research.houserules`
measures what each preset does to a game, :mod:`~beggar.research.bench` measures
speed, :mod:`~beggar.research.search` hunts long and looping deals, :mod:`~beggar.research.store`
keeps every find in SQLite, and :mod:`~beggar.research.cluster` runs walkers on a process pool or
a Dask cluster. The cycle tools live in :mod:`beggar.research.cycles`.
"""
