"""The SAT model of a cycle against brute force, solving and enumerating it, and ``beggar construct``."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from beggar.cli import run
from beggar.cycle import find_cycle
from beggar.research.cycles import census, construct, model
from beggar.research.cycles.canon import canonical_form
from beggar.research.cycles.census import Row, solve_row
from beggar.research.cycles.kinds import Composition, ConstructError, Instance, leader_first
from beggar.research.cycles.model import pad
from beggar.research.cycles.solve import SAT, UNKNOWN, UNSAT, Answer, row_solutions, solutions, solve
from beggar.research.store import CycleFigures
from beggar.rules import STANDARD, rules_named
from helpers import brute_force


def model_answers(
    composition: Composition, max_period: int, k1s: range | None = None
) -> set[tuple[int, int, int]]:
    """The ``sat`` instances up to ``max_period`` (or of ``k1s`` at ``max_period`` only), one model each."""
    sat: set[tuple[int, int, int]] = set()
    for period in range(2, max_period + 1) if k1s is None else (max_period,):
        for k1 in range(1, period) if k1s is None else k1s:
            for n1 in range(1, composition.size):
                answer = solve(composition, Instance(period, k1, n1))
                assert answer.status in (SAT, UNSAT)
                if answer.status == SAT:
                    sat.add((period, k1, n1))
    return sat


def _row_answers(
    composition: Composition, period: int, k1s: range, time_limit: float | None = None
) -> set[tuple[int, int, int]]:
    """The ``sat`` instances of these rows, from the row model; every hand size is answered."""
    sat: set[tuple[int, int, int]] = set()
    for k1 in k1s:
        answered = []
        hands = range(1, composition.size)
        for answer in row_solutions(composition, period, k1, hands, time_limit=time_limit):
            assert answer.status in (SAT, UNSAT)
            if answer.status == SAT:
                sat.add((period, k1, answer.instance.n1))
            else:
                answered.append(answer.instance.n1)
        assert answered == list(hands)
    return sat


@pytest.mark.slow
def test_the_model_agrees_with_brute_force_on_a_small_deck() -> None:
    """The row model (one model a row, its hand sizes under assumptions) decides every instance up
    to 16 cards as brute force does. A model of one instance at a time, and the row model in a
    child process under a time limit, answer alike on the rows around the deck's two cycles
    (the rest of their work is the same model)."""
    deck = Composition.parse("5,2,1", STANDARD)
    expected, _ = brute_force(deck, 16)
    assert expected == {(16, 8, 4), (16, 8, 6)}
    assert set().union(*(_row_answers(deck, period, range(1, period)) for period in range(2, 17))) == expected
    assert model_answers(deck, 16, range(6, 11)) == expected
    assert _row_answers(deck, 16, range(7, 10), time_limit=60.0) == expected


@pytest.mark.exhaustive
def test_the_model_agrees_with_brute_force_on_ten_cards() -> None:
    deck = Composition.parse("6,2,1,1", STANDARD)
    expected, _ = brute_force(deck, 30)
    assert expected == {(30, 14, 8), (30, 16, 4), (30, 16, 6)}
    assert model_answers(deck, 30) == expected


def test_enumeration_gives_every_position_of_an_instance_once() -> None:
    deck = Composition.parse("5,2,1", STANDARD)
    _, on_cycles = brute_force(deck, 16)
    instance = Instance(16, 8, 4)
    answers = list(solutions(deck, instance))
    assert answers[-1].status == UNSAT
    found = {answer.deal for answer in answers[:-1]}
    assert {deal for deal in on_cycles if len(deal.split("/")[0]) == 4} >= found
    assert len(found) == len(answers) - 1 >= 1


def test_a_solver_answer_the_engine_refutes_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = Composition.parse("6,2,1,1", STANDARD)
    monkeypatch.setattr(model.RowModel, "decode", lambda self, assignment: (4, [0] * 9 + [1]))
    with pytest.raises(ConstructError, match="the model and the engine disagree"):
        solve(deck, Instance(30, 16, 4))


def test_a_time_limit_gives_unknown() -> None:
    deck = Composition.of(STANDARD)
    answer = solve(deck, Instance(60, 30, 20), time_limit=0.01)
    assert answer.status == "unknown"
    assert answer.seconds < 5


def test_positions_then_the_time_limit_leave_an_instance_unknown_for_construct_as_for_the_census(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rule for both: an enumeration cut off by its time limit after finding positions is
    ``unknown`` (the instance may hold cycles not found yet), and its positions are still given."""
    deck = Composition.parse("6,2,1,1", STANDARD)
    instance = Instance(30, 16, 4)
    found = solve(deck, instance)
    cut_off = [found, Answer(instance, UNKNOWN, 1.0)]
    monkeypatch.setattr(construct, "solutions", lambda *args, **kwargs: iter(cut_off))
    args = ["construct", "--cards", "6,2,1,1", "--period", "30", "--k1", "16", "--n1", "4", "--all"]
    assert run([*args, "--time-limit", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [answer["status"] for answer in data["instances"]] == [UNKNOWN]
    assert [cycle["deal"] for cycle in data["cycles"]] == [found.deal]
    monkeypatch.setattr(census, "row_solutions", lambda *args, **kwargs: iter(cut_off))
    row = solve_row(STANDARD.name, deck.counts, Row(30, 16, (4,)), 1.0)
    assert [answer.status for answer in row.instances] == [UNKNOWN]
    assert len(row.cycles) == 1


def test_leader_first_reads_the_leader_stack_first() -> None:
    deck = Composition.parse("6,2,1,1", STANDARD)
    cycle = find_cycle("--J-/Q-K-J-", STANDARD, first=0, complete=False)
    assert cycle is not None
    position = cycle.positions[1]
    kinds = leader_first(deck, position)
    assert deck.compact(kinds, len(position.stacks.hands[position.leader])) in {
        p.stacks.compact() if p.leader == 0 else "/".join(p.stacks.compact().split("/")[::-1])
        for p in cycle.positions
    }


def test_construct_prints_a_cycle_the_engine_plays(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(["construct", "--cards", "6,2,1,1", "--period", "30", "--k1", "16", "--n1", "4", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["instances"] == [
        {"period": 30, "k1": 16, "n1": 4, "status": "sat", "seconds": data["instances"][0]["seconds"]}
    ]
    (cycle,) = data["cycles"]
    assert cycle["lead"] == 0 and cycle["period_cards"] == 30 and cycle["period_tricks"] == 6
    # a cycle is printed as the census prints it: every figure, from the one record
    figures = CycleFigures(**{f.name: cycle[f.name] for f in fields(CycleFigures)})
    assert figures.to_dict().items() <= cycle.items()
    assert cycle["cycle"] == canonical_form(cycle["deal"], STANDARD).deal
    played = find_cycle(cycle["deal"], STANDARD, first=0, complete=False)
    assert played is not None and played.period_cards == 30 and played.pre_period_cards == 0


def test_construct_reports_a_proof(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["construct", "--cards", "6,2,1,1", "--period", "30", "--k1", "16", "--n1", "5"]) == 0
    assert "proved: no cycle" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("6,x", "bad --cards '6,x': write whole numbers"),
        ("6,2,1,1,1,1", "give at most 5 numbers"),
        ("6,5", "5 cards 'J' (pay 1), but the"),
        ("6", "no pay card never loops"),
    ],
)
def test_a_bad_deck_is_one_plain_line(cards: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["construct", "--cards", cards, "--period", "10"]) != 0
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_padding_a_cycle_with_its_tapes_keeps_its_period() -> None:
    deck = Composition.parse("5,2,1", STANDARD)
    answer = solve(deck, Instance(16, 8, 4))
    assert answer.kinds is not None
    for times in [(1, 0), (0, 1)]:
        bigger, padded, n1 = pad(deck, answer.kinds, 4, 16, times)
        assert bigger.size == deck.size + 8 * times[0] + 8 * times[1]
        cycle = find_cycle(bigger.compact(padded, n1), STANDARD, first=0, complete=False)
        assert cycle is not None and cycle.period_cards == 16 and cycle.pre_period_cards == 0


@pytest.mark.exhaustive
def test_construct_finds_the_106_card_cycle_and_its_balanced_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["construct", "--rules", "half-deck:pay=J1Q2", "--period", "106", "--k1", "53", "--n1", "11"]
    assert run([*args, "--balanced", "--basin-positions", "300", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(c["deal"], c["period_tricks"]) for c in data["cycles"]] == [("---J----Q--/-----J----KKQAA", 16)]
    assert data["deals"]
    rules = rules_named("half-deck:pay=J1Q2")
    for deal in data["deals"]:
        cycle = find_cycle(deal["deal"], rules, first=0)
        assert cycle is not None and cycle.period_cards == deal["period_cards"] == 106


@pytest.mark.slow
def test_construct_walks_back_from_a_whole_deck_cycle_to_its_balanced_deals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--balanced``: each cycle found is walked back once, and every deal reaching it is printed
    with its period. The solver's answer is the published Italian deal and its cycle (40 cards,
    188 a period: the SAT model would take minutes to find it), given as the solver gives one."""
    rules = rules_named("court-only:deck=stripped")
    position = "--Q------QJ----JK---/---Q---J-Q-KJ--K-K--"
    cycle = find_cycle(position, rules, first=0, complete=False)
    assert cycle is not None
    instance = Instance(cycle.period_cards, 94, 20)
    found = Answer(instance, SAT, 0.1, None, position, cycle)
    monkeypatch.setattr(construct, "solutions", lambda *args, **kwargs: iter([found, found]))
    args = ["construct", "--rules", "court-only:deck=stripped", "--period", str(cycle.period_cards)]
    args += ["--k1", "94", "--n1", "20", "--all", "--balanced", "--basin-positions", "100"]
    assert run([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [answer["status"] for answer in data["instances"]] == [SAT]
    assert [each["cycle"] for each in data["cycles"]] == [canonical_form(position, rules).deal] * 2
    deals = [deal["deal"] for deal in data["deals"]]
    assert deals and len(set(deals)) == len(deals)  # the same cycle found twice: walked once
    # each as the census gives it: the deal, its cycle (the canonical position) and the cycle's period
    assert {(deal["cycle"], deal["period_cards"]) for deal in data["deals"]} == {
        (data["cycles"][0]["cycle"], cycle.period_cards)
    }
    assert {tuple(deal) for deal in data["deals"]} == {("deal", "cycle", "period_cards")}
    for deal in deals:
        assert canonical_form(deal, rules).deal == data["cycles"][0]["cycle"]
