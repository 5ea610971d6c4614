"""One base for every error: what a person got wrong names the input it is about, faults of the
program are not taken for a person's mistake, and each error keeps the builtin base its callers
knew it by."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from beggar.deals import Arrangements, DealIndexError
from beggar.engine import GameError
from beggar.errors import BeggarError, UserError
from beggar.notation import DealError, parse_deal
from beggar.research.bench import BenchError
from beggar.research.cluster import ClusterError
from beggar.research.cycles.canon import CanonError
from beggar.research.cycles.factory import FactoryError
from beggar.research.cycles.kinds import ConstructError
from beggar.research.exhaust import ExhaustError
from beggar.research.search import SearchError
from beggar.research.store import StoreError, StoreWriteError
from beggar.rules import RulesError, rules_named
from beggar.schema import NewerSchema
from beggar.web.archive import ArchiveError, DamagedGame, DatabaseError
from beggar.web.durable import RestoreError
from beggar.web.lobby import check_live_rules
from beggar.web.names import NameError_, clean_name
from beggar.web.protocol import ProtocolError, parse_message
from beggar.web.table import NoSuchTable, TableError


@pytest.mark.parametrize(
    ("refused", "field"),
    [
        (lambda: parse_deal("K-K/-Z"), "deal"),
        (lambda: rules_named("standard:players=12"), "rules"),
        (lambda: rules_named("no-such-rules"), "rules"),
        (lambda: clean_name("Bob wins. Ann"), "name"),
        (lambda: parse_message('{"type": "create", "mode": "computer", "players": 12}'), "players"),
        (lambda: parse_message('{"type": "create", "mode": "computer", "seed": -1}'), "seed"),
        (lambda: check_live_rules(rules_named("standard:max-tricks=10000000")), "rules"),
        (lambda: Arrangements.of_counts({0: 2, 1: 2}).unrank(6), "index"),
        (lambda: Arrangements.of_counts({0: 2, 1: 2}).rank([1, 1, 1, 0]), "deal"),
    ],
)
def test_input_refused_names_the_field_it_is_about(refused: Callable[[], object], field: str) -> None:
    """Where the error is raised it says which input is wrong, so that the page shows it by that
    setting without reading the text."""
    with pytest.raises(UserError) as caught:
        refused()
    assert caught.value.field == field and str(caught.value)


USER_ERRORS = [
    DealError,
    RulesError,
    GameError,
    DealIndexError,
    ProtocolError,
    NameError_,
    TableError,
    NoSuchTable,
    SearchError,
    FactoryError,
]
"""Errors a person causes by what they ask for: their text is written for that person."""
FAULTS = [
    StoreError,
    StoreWriteError,
    ArchiveError,
    DamagedGame,
    DatabaseError,
    NewerSchema,
    RestoreError,
    ClusterError,
    BenchError,
    ExhaustError,
    CanonError,
    ConstructError,
]
"""Errors of the program, its files or its machines (or of a tool's own answers): the browser
table does not show their text to whoever happened to be playing."""


@pytest.mark.parametrize("error", USER_ERRORS + FAULTS, ids=lambda error: error.__name__)
def test_every_error_is_a_beggar_error_and_only_a_persons_mistake_is_a_user_error(
    error: type[Exception],
) -> None:
    assert issubclass(error, BeggarError)
    assert issubclass(error, UserError) == (error in USER_ERRORS)


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (DealError, ValueError),
        (RulesError, ValueError),
        (GameError, ValueError),
        (DealIndexError, ValueError),
        (ProtocolError, ValueError),
        (NameError_, ValueError),
        (RestoreError, ValueError),
        (SearchError, ValueError),
        (FactoryError, ValueError),
        (ExhaustError, ValueError),
        (CanonError, ValueError),
        (ConstructError, ValueError),
        (ArchiveError, LookupError),
        (DatabaseError, RuntimeError),
        (ClusterError, RuntimeError),
        (BenchError, RuntimeError),
    ],
    ids=lambda each: each.__name__,
)
def test_every_error_keeps_the_builtin_base_its_callers_catch(
    error: type[Exception], builtin: type[Exception]
) -> None:
    """``except ValueError`` around a parse, ``except RuntimeError`` around a campaign that stopped:
    callers that knew these errors by a builtin base still catch them."""
    assert issubclass(error, builtin)


def test_an_error_keeps_its_field_across_processes() -> None:
    """A worker's error reaches the process that started it pickled: its field comes with it."""
    again = pickle.loads(
        pickle.dumps(ProtocolError("number of players must be from 2 to 8", field="players"))
    )
    assert (str(again), again.field) == ("number of players must be from 2 to 8", "players")
    deal = pickle.loads(pickle.dumps(DealError("no such card", position=3)))
    assert (str(deal), deal.field, deal.position) == ("no such card", "deal", 3)
