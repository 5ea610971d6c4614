"""The ceiling of a pre-filter: how much of a period's solver time falls on instances that the
census's row model *without the deck's composition* already refutes.

Dropping the composition leaves the machine, the tapes and the stacks' bounds (the census's
encoding, :data:`beggar.research.cycles.periods.ENCODING`), with the hand size entering only
through where won cards come up again and the bounds: a relaxation that a cheaper solver, or a
table shared by every deck of the same size, might decide before the census's solver. For each
row ``(L, k1)`` the script asks every hand size of the least stack of both models, one solver each
(the hand sizes under assumptions, largest first, as the census asks them), and prints the CPU
seconds of each instance and the relaxation's answer. From the repository root::

    PYTHONPATH=src .venv/bin/python bench/census_relax.py --period 36 --k1 14-23
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from census_sat import span  # beside this script

from beggar.research.cycles import model
from beggar.research.cycles.kinds import Composition
from beggar.research.cycles.periods import ENCODING, stack_hands
from beggar.research.cycles.solve import _solver  # the census's own solver and its options
from beggar.rules import rules_named


def instance_seconds(
    composition: Composition, period: int, k1: int, deck: bool
) -> dict[int, tuple[bool, float]]:
    """Each hand size's answer (True: a position exists) and its solver CPU seconds, in one solver."""
    hands = list(stack_hands(composition.size))
    original = model._Period.deck
    if not deck:  # the row model without its last part, the deck's composition, for this one build
        model._Period.deck = lambda *_args, **_kwargs: None  # type: ignore[method-assign]
    try:
        row = model.build_row(composition, period, k1, hands, **ENCODING.model_options())
    finally:
        model._Period.deck = original  # type: ignore[method-assign]
    solver: Any = _solver(row.cnf.clauses, ENCODING)
    answers = {}
    try:
        for n1 in hands:
            start = time.process_time()
            found = bool(solver.solve(assumptions=row.assumptions(k1, n1)))
            answers[n1] = (found, time.process_time() - start)
    finally:
        solver.delete()
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--period", type=int, default=36)
    parser.add_argument("--k1", default="14-23", help="A row or a range of rows.")
    args = parser.parse_args()
    composition = Composition.of(rules_named(args.rules))
    total = refuted = relaxed = 0.0
    for k1 in span(args.k1):
        full = instance_seconds(composition, args.period, k1, deck=True)
        free = instance_seconds(composition, args.period, k1, deck=False)
        row_refuted = sum(full[n1][1] for n1 in full if not free[n1][0])
        total += sum(s for _, s in full.values())
        refuted += row_refuted
        relaxed += sum(s for _, s in free.values())
        print(
            f"k1 {k1}: census solver {sum(s for _, s in full.values()):.2f} s, relaxation "
            f"{sum(s for _, s in free.values()):.2f} s; refuted by it: "
            f"{sorted(n1 for n1 in free if not free[n1][0]) or 'none'} ({row_refuted:.2f} s of the census's)",
            flush=True,
        )
    print(
        f"all: census solver {total:.2f} s, relaxation {relaxed:.2f} s, on refuted instances {refuted:.2f} s"
    )


if __name__ == "__main__":
    main()
