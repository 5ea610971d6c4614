"""Everything compiled: the batch kernels that play millions of games exactly as the engine does.

Only this package imports numba; every function in it is compiled through :mod:`beggar.kernels.jit`,
whose cache is keyed on these sources. :mod:`beggar.kernels.codes` holds the numbers the kernels
and Python agree on; :mod:`beggar.kernels.rng` is the project's one random generator;
:mod:`beggar.kernels.general` plays any table, :mod:`beggar.kernels.bitwise` (with
:mod:`beggar.kernels.lockstep`) two players fast; :mod:`beggar.kernels.cycles`,
:mod:`beggar.kernels.positions`, :mod:`beggar.kernels.neighbours`, :mod:`beggar.kernels.growth`
and :mod:`beggar.kernels.walk` are the compiled loops of the research tools, and
:mod:`beggar.kernels.arrangements` the step of every enumeration in lexicographic order.
Importing this package alone loads no compiler.
"""
