"""The commands of the ``beggar`` command line, one module per group.

:mod:`~beggar.commands.options` holds what the commands share (the ``--rules`` option, the
database option, output files); :mod:`~beggar.commands.games` plays and explains deals,
:mod:`~beggar.commands.research` simulates, benchmarks and searches, and
:mod:`~beggar.commands.serve` runs the browser table. :mod:`beggar.cli` puts them together.
The computation itself lives in the modules named after it (``simulate``, ``search``, ...).
"""
