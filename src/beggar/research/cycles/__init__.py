"""Never-ending games: canonical forms of cycles, their neighbourhoods, and the cycle factory.

A cycle is the ring of trick-end positions a looping game runs through for ever;
:mod:`~beggar.research.cycles.canon` names each one once, :mod:`~beggar.research.cycles.neighbours`
plays every single-card change of one, and :mod:`~beggar.research.cycles.factory` grows them.
"""
