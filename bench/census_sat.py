"""The census's SAT encodings side by side: CPU seconds to decide rows of a period, in one process.

For each period, each run and each encoding variant in turn (the order rotates from run to run,
so that the variants share the machine's noise), the script decides the chosen rows ``(L, k1)``
of the deck with :func:`beggar.research.cycles.periods.period_cycles`: every row built and solved,
every position found replayed by the engine. It measures the CPU seconds of the whole work
(``time.process_time``: building, solving, replaying) and the solver's own (its calls only), and
prints, per period and variant, the median and range over the runs and the ratio of ``today``'s
median to the variant's. From the repository root::

    PYTHONPATH=src .venv/bin/python bench/census_sat.py --periods 36-42 --k1=-4,-1,2 --runs 3

The variants (``--variants``):

- ``today``: the row census as it was: every hand size ``n1`` of the row, the least leader;
- ``leader-focused``: the same, CaDiCaL in its focused mode only (no stable phases);
- ``stack``: the least stack (:mod:`beggar.research.cycles.periods`), only the hand sizes above
  half the deck, the largest first;
- ``stack-focused``: the least stack and the focused mode (the census's encoding before
  ``stack-extremes``);
- ``stack-ascending``: ``stack-focused`` with the hand sizes asked smallest first;
- ``stack-shared``: ``stack-focused`` with the bound that holds for every hand size written once;
- ``stack-free``, ``stack-free-stable``: one question per row, the hand size left to the solver;
- ``stack-cubes``: ``stack-focused`` with each row cut into two cubes of hand sizes, each its
  own model and solver (what splitting one row over two workers costs on one core);
- ``stack-glucose4``, ``stack-maplechrono``: other solvers of python-sat;
- ``stack-cadical300``: ``stack-extremes`` on python-sat's CaDiCaL 3.0, in its default mode;
- ``stack-totalizer``, ``stack-kmtotalizer``, ``stack-seqcounter``: the deck's composition by
  python-sat's cardinality encodings instead of the model's counter;
- ``stack-mod``: ``stack-focused`` with the won cards tied to the tapes by counters modulo
  ``k_p`` (the ``mod`` link) instead of the number of cards won;
- ``stack-extremes``: ``stack-focused`` with the bounds on the stacks written once for every
  hand size, through the greatest loss of each seat (each hand size's bound a unit clause): the
  census's encoding now;
- ``stack-extremes-tapes``: ``stack-extremes`` with the deck's composition written on the
  tapes (each seat's stack is its tape read cyclically: a prefix counter per tape and pay kind,
  and per hand size a weighted sum), without the position's 52 cells;
- ``stack-extremes-both``: ``stack-extremes`` with the tapes' sums of ``stack-extremes-tapes``
  added to the cells' counter (redundant clauses);
- ``stack-period``: every row asked of the period in one model and one solver, each instance
  under a row's and a hand size's selectors, focused mode;
- ``stack-period-stable``, ``stack-period-mod``: the same with CaDiCaL's default mode, or with
  the ``mod`` link.
- ``cp-sat``: the least stack as a constraint model for OR-Tools CP-SAT on one thread
  (``bench/census_cpsat.py``: the seat, debt and kind of each card, the tapes, turn and win
  counters as integers, the tape cells tied to the cards by element constraints, the stacks'
  bounds and the deck's composition as linear constraints), one question per row with the hand
  size a variable, each cycle found forbidden and the row solved again. It needs ``pip install
  ortools``, which the package does not depend on (measured against the census and lost:
  ``docs/cycles.md``, "A constraint model, and a relaxation as a pre-filter");
- ``cp-sat-nolin`` (CP-SAT's ``linearization_level`` 0, its fastest here), ``cp-sat-lin2``
  (level 2), ``cp-sat-perm`` (redundant all-different constraints: each tape cell is turned
  once and won once), ``cp-sat-hand`` and ``cp-sat-nolin-hand`` (a model per instance, the hand
  size fixed), ``cp-sat-nolin-noprobe``, ``cp-sat-nolin-nosym``, ``cp-sat-nolin-fixed`` (no
  probing, no symmetry detection, the fixed search order, each with level 0).

``--k1`` takes offsets from ``L // 2`` (``-4,-1,2``: three rows near the balanced one) or ``all``
(every row: the period's whole decision). With ``all`` the script also checks exactness: every
variant must find the same cycles (canonical forms), and the census's instances decided from the
least stack's cycles (:func:`beggar.research.cycles.complete.decide`) must be ``sat`` exactly
where the least leader's solver found a position.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from beggar.research.cycles.canon import Alphabet
from beggar.research.cycles.kinds import Composition
from beggar.research.cycles.periods import ENCODING, PeriodCycles, period_cycles, stack_hands
from beggar.research.cycles.solve import SAT, Encoding, SolverClock
from beggar.rules import rules_named

VARIANTS = {
    "today": Encoding(least_leader=True),
    "leader-focused": Encoding(least_leader=True, focused=True),
    "stack": Encoding(least_stack=True),
    "stack-focused": Encoding(least_stack=True, focused=True),
    "stack-cubes": Encoding(least_stack=True, focused=True),
    "stack-free": Encoding(least_stack=True, focused=True, free_hands=True),
    "stack-free-stable": Encoding(least_stack=True, free_hands=True),
    "stack-glucose4": Encoding(least_stack=True, solver="glucose4"),
    "stack-totalizer": Encoding(least_stack=True, focused=True, cardinality="totalizer"),
    "stack-kmtotalizer": Encoding(least_stack=True, focused=True, cardinality="kmtotalizer"),
    "stack-seqcounter": Encoding(least_stack=True, focused=True, cardinality="seqcounter"),
    "stack-maplechrono": Encoding(least_stack=True, solver="maplechrono"),
}
CUBES = {"stack-cubes": 2}
VARIANTS["stack-ascending"] = VARIANTS["stack-focused"]
VARIANTS["stack-shared"] = Encoding(least_stack=True, focused=True, shared_bound=True)
VARIANTS["stack-mod"] = Encoding(least_stack=True, focused=True, link="mod")
VARIANTS["stack-period"] = Encoding(least_stack=True, focused=True, whole_period=True)
VARIANTS["stack-period-mod"] = Encoding(least_stack=True, focused=True, whole_period=True, link="mod")
VARIANTS["stack-extremes"] = ENCODING
VARIANTS["stack-extremes-tapes"] = Encoding(
    least_stack=True, focused=True, extremes=True, cardinality="tapes"
)
VARIANTS["stack-extremes-both"] = Encoding(least_stack=True, focused=True, extremes=True, cardinality="both")
VARIANTS["stack-cadical300"] = Encoding(least_stack=True, extremes=True, solver="cadical300")
VARIANTS["stack-period-stable"] = Encoding(least_stack=True, whole_period=True)
ASCENDING = {"stack-ascending"}
CP_SAT: dict[str, dict[str, Any]] = {
    "cp-sat": {},
    "cp-sat-hand": {"per_hand": True},
    "cp-sat-nolin": {"parameters": {"linearization_level": 0}},
    "cp-sat-lin2": {"parameters": {"linearization_level": 2}},
    "cp-sat-nolin-fixed": {"parameters": {"linearization_level": 0, "search_branching": "FIXED_SEARCH"}},
    "cp-sat-perm": {"permutation": True},
    "cp-sat-nolin-hand": {"per_hand": True, "parameters": {"linearization_level": 0}},
    "cp-sat-nolin-perm": {"permutation": True, "parameters": {"linearization_level": 0}},
    "cp-sat-nolin-noprobe": {"parameters": {"linearization_level": 0, "cp_model_probing_level": 0}},
    "cp-sat-nolin-nosym": {"parameters": {"linearization_level": 0, "symmetry_level": 0}},
}
"""The variants solved by OR-Tools CP-SAT (``bench/census_cpsat.py``) instead of CaDiCaL, with the
options of its :func:`period_cycles`."""
for _name in CP_SAT:
    VARIANTS[_name] = Encoding(least_stack=True)


@dataclass
class Run:
    """One variant's work on one period's rows."""

    cpu: float
    solver: float
    cycles: set[str]
    sat: set[tuple[int, int]]


def decide_rows(composition: Composition, period: int, k1s: list[int], variant: str) -> Run:
    """Decide the rows ``k1s`` of ``period`` with ``variant``; CPU seconds, solver seconds, findings."""
    encoding = VARIANTS[variant]
    clock = SolverClock()
    start = time.process_time()
    hands = list(stack_hands(composition.size) if encoding.least_stack else range(1, composition.size))
    if variant in ASCENDING:
        hands.reverse()
    cubes = CUBES.get(variant, 1)
    found = PeriodCycles({}, {}, False, set())
    for part in range(cubes):
        if variant in CP_SAT:
            import census_cpsat  # beside this script; needs ortools, which the package does not

            cube = census_cpsat.period_cycles(composition, period, k1s, hands, clock, **CP_SAT[variant])
        else:
            cube = period_cycles(
                composition, period, encoding=encoding, clock=clock, k1s=k1s, hands=hands[part::cubes]
            )
        for deal, cycle in cube.cycles.items():
            found.cycles.setdefault(deal, cycle)
        found.sat |= cube.sat
    sat = _least_leader_sat(composition, found, period) if encoding.least_stack else found.sat
    return Run(time.process_time() - start, clock.seconds, set(found.cycles), sat)


def _least_leader_sat(composition: Composition, found: PeriodCycles, period: int) -> set[tuple[int, int]]:
    """The census's ``sat`` instances ``(k1, n1)`` of ``period``, decided from the cycles found."""
    from beggar.research.cycles.complete import Played, decide, engine_cycle

    alphabet = Alphabet.of(composition.rules)
    played = [
        engine_cycle(composition, alphabet, deal, cycle.period_tricks, cycle.period_cards)
        for deal, cycle in sorted(found.cycles.items())
    ]
    instances, _ = decide(composition, Played(0, 0, played, 0.0), period)
    return {(i.k1, i.n1) for i in instances if i.period == period and i.status == SAT}


def span(text: str) -> list[int]:
    """The numbers of ``text``, one number or a range such as ``36-42`` (the census benches' syntax)."""
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--cards", default=None, help="A smaller deck, as for beggar census.")
    parser.add_argument("--periods", default="36-42", help="A period or a range, e.g. 36-42.")
    parser.add_argument("--k1", default="-4,-1,2", help="Offsets from L // 2, or 'all'.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", default="today,stack-focused,stack-extremes")
    args = parser.parse_args()
    rules = rules_named(args.rules)
    composition = Composition.of(rules) if args.cards is None else Composition.parse(args.cards, rules)
    variants = args.variants.split(",")
    for variant in variants:
        if variant not in VARIANTS:
            sys.exit(f"census_sat.py: no variant {variant!r}; choose from {', '.join(VARIANTS)}")
    whole = args.k1 == "all"
    print(f"deck {composition.describe()}, rows {args.k1}, {args.runs} runs, CPU seconds (process_time)")
    print("| period | rows | variant | CPU s median | range | solver s median | range | today / variant |")
    print("|---|---|---|---|---|---|---|---|")
    failures = 0
    for period in span(args.periods):
        k1s = (
            list(range(1, period))
            if whole
            else [
                period // 2 + int(offset)
                for offset in args.k1.split(",")
                if 0 < period // 2 + int(offset) < period
            ]
        )
        runs: dict[str, list[Run]] = {variant: [] for variant in variants}
        for run in range(args.runs):
            order = variants[run % len(variants) :] + variants[: run % len(variants)]
            for variant in order:
                done = decide_rows(composition, period, k1s, variant)
                runs[variant].append(done)
                print(
                    f"  period {period}, run {run + 1}, {variant}: CPU {done.cpu:.2f} s, "
                    f"solver {done.solver:.2f} s",
                    file=sys.stderr,
                    flush=True,
                )
        medians = {v: statistics.median(r.cpu for r in rs) for v, rs in runs.items()}
        for variant, done in runs.items():
            cpu = [r.cpu for r in done]
            solver = [r.solver for r in done]
            ratio = medians["today"] / medians[variant] if "today" in medians else float("nan")
            print(
                f"| {period} | {len(k1s)} | {variant} | {statistics.median(cpu):.2f} | "
                f"{min(cpu):.2f} to {max(cpu):.2f} | {statistics.median(solver):.2f} | "
                f"{min(solver):.2f} to {max(solver):.2f} | {ratio:.2f} |",
                flush=True,
            )
        if whole:
            first = runs[variants[0]][0]
            for variant, done in runs.items():
                if any(r.cycles != first.cycles or r.sat != first.sat for r in done):
                    failures += 1
                    print(f"period {period}: {variant} disagrees with {variants[0]}", flush=True)
            print(
                f"period {period}: cycles {sorted(first.cycles) or 'none'}, "
                f"sat instances (k1, n1) {sorted(first.sat) or 'none'}",
                flush=True,
            )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
