"""The rules of ``docs/architecture.md``, held by reading the package (``ast``, nothing run).

Each rule is a check of ``tests/architecture.py``, a function of a source tree that lists what
breaks it; the tests here run each on the package (which must break none) and on a tiny synthetic
tree with one planted break each (which each must find), so that a checker that cannot fail would
fail here.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

from architecture import (
    COMPILERS,
    LAYERS,
    SOURCE,
    TOP,
    Import,
    code_copies,
    commands_writing,
    compiled_code_imports,
    compiled_past_jit,
    compiler_imports,
    copied_choices,
    cycle_copies,
    error_classes,
    errors_caught_by_list,
    errors_off_the_base,
    errors_read_by_text,
    import_cycles,
    imports,
    imports_of_tests,
    layer,
    library_choices,
    long_files,
    modules,
    private_attributes,
    private_imports,
    processes_not_bound,
    random_sources,
    second_callers,
    tree_mismatches,
    upward_imports,
    web_order,
    within,
)

# -- the package ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def package() -> list[Import]:
    return imports(SOURCE)


def test_every_layer_is_a_folder_and_every_module_has_a_layer(package: list[Import]) -> None:
    assert {layer(module) for module in modules(SOURCE)} == set(LAYERS)
    assert {within(module).split(".")[0] for module in modules(SOURCE) if layer(module) != "game"} == {
        "kernels",
        "research",
        "web",
        "commands",
        "cli",
        "__main__",
    }


def test_only_the_kernels_import_numba(package: list[Import]) -> None:
    assert [str(one) for one in compiler_imports(package)] == []
    assert any(one.target == "numba" for one in package)  # the check reads the imports that matter


def test_no_layer_imports_a_higher_one(package: list[Import]) -> None:
    assert [str(one) for one in upward_imports(package)] == []


def test_no_module_uses_another_modules_private_names(package: list[Import]) -> None:
    assert [str(one) for one in private_imports(package)] == []
    assert private_attributes(SOURCE) == []


def test_the_browser_tables_modules_import_only_those_before_them(package: list[Import]) -> None:
    assert [str(one) for one in web_order(package)] == []


def test_nothing_imports_in_a_circle(package: list[Import]) -> None:
    assert import_cycles(package) == []


def test_the_tests_folders_mirror_the_packages() -> None:
    tests = SOURCE.parent.parent / "tests"
    holding_tests = {path.parent.relative_to(tests).as_posix() for path in tests.rglob("test_*.py")}
    python_folders = {path.parent.relative_to(SOURCE).as_posix() for path in SOURCE.rglob("*.py")}
    assert holding_tests == python_folders


def test_the_folder_tree_names_every_module_where_it_is() -> None:
    top = SOURCE.parent.parent
    page = (top / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert tree_mismatches(page, top, ("src/beggar/", "bench/", "scripts/")) == []


def test_no_python_file_outside_the_kernels_is_over_900_lines() -> None:
    """Of the package, the tests, the scripts and the benchmarks (the page's scripts are held to 500
    lines by ``tests/web/test_scripts.py``)."""
    assert long_files(TOP) == []


def test_the_commands_and_the_browser_table_import_no_compiled_code(package: list[Import]) -> None:
    assert [str(one) for one in compiled_code_imports(package)] == []


def test_one_runner_one_command_helper_and_one_basin_walk() -> None:
    assert second_callers(SOURCE) == []


def test_every_compiled_function_goes_through_the_one_jit(package: list[Import]) -> None:
    assert [str(one) for one in compiled_past_jit(package)] == []


def test_the_kernels_codes_are_declared_once() -> None:
    assert code_copies(SOURCE) == []


def test_seeded_randomness_comes_from_the_one_generator(package: list[Import]) -> None:
    # A live table's unseeded deal is shuffled by the operating system (random.SystemRandom).
    assert random_sources(package, SOURCE) == ["beggar.notation"]


def test_every_process_the_tools_start_dies_with_its_parent() -> None:
    assert processes_not_bound(SOURCE) == []


def test_a_cycle_is_described_once() -> None:
    assert cycle_copies(SOURCE) == []


def test_the_commands_write_nothing_to_a_store_themselves() -> None:
    assert commands_writing(SOURCE) == []


def test_the_commands_choices_come_from_the_constants_that_own_them() -> None:
    assert copied_choices(SOURCE) == []
    assert "beggar.research.strategies.STRATEGIES" in library_choices(SOURCE).values()  # it reads them


@pytest.mark.system
def test_importing_the_game_and_the_kernels_package_loads_no_compiler() -> None:
    game = sorted(module for module in modules(SOURCE) if layer(module) == "game")
    code = f"import sys, beggar.kernels; {'; '.join(f'import {m}' for m in game)}; print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert [name for name in COMPILERS if f"'{name}'" in loaded] == []
    assert "'beggar.rules'" in loaded  # it did import what it names


@pytest.mark.system
def test_the_command_line_and_the_table_server_start_without_numpy() -> None:
    """numpy loads in the commands that use it, not in every ``beggar`` process: the server and
    the game commands start a third of a processor second sooner without it."""
    code = "import sys, beggar.cli, beggar.web.app; print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "'numpy'" not in loaded
    assert "'beggar.commands.research'" in loaded and "'starlette'" in loaded  # it did import them


def test_every_error_of_the_package_derives_from_the_one_base() -> None:
    assert len(error_classes(SOURCE)) > 20  # the check reads the classes that matter
    assert errors_off_the_base(SOURCE) == []


def test_the_browser_table_catches_several_errors_by_their_base() -> None:
    assert errors_caught_by_list(SOURCE) == []
    assert errors_read_by_text(SOURCE) == []


def test_the_id_alphabet_is_written_once() -> None:
    """Table ids and replay ids are drawn from one alphabet, which ``web/ids.py`` owns."""
    from beggar.web.ids import ID_ALPHABET

    top = SOURCE.parent.parent  # the scripts and tests too: a soak client once drew ids from a copy
    holders = [
        path
        for folder in ("src", "scripts", "tests")
        for path in sorted((top / folder).rglob("*.py"))
        if ID_ALPHABET in path.read_text(encoding="utf-8")
    ]
    assert [str(path.relative_to(top)) for path in holders] == ["src/beggar/web/ids.py"]


def test_the_version_is_written_once() -> None:
    """``pyproject.toml`` gives the version; the package reads it from its installed metadata."""
    import beggar

    written = re.search(r'(?m)^version = "([^"]+)"$', (SOURCE.parent.parent / "pyproject.toml").read_text())
    assert written is not None and beggar.__version__ == written[1] == importlib.metadata.version("beggar")
    quoted = [f'"{written[1]}"', f"'{written[1]}'"]
    assert [
        str(path.relative_to(SOURCE))
        for path in sorted(SOURCE.rglob("*.py"))
        if any(each in path.read_text(encoding="utf-8") for each in quoted)
    ] == []


def test_no_test_module_imports_another() -> None:
    assert [str(one) for one in imports_of_tests(imports(SOURCE.parent.parent / "tests"))] == []


def test_the_product_cites_only_its_own_rules_page() -> None:
    """The rules the product cites are ``docs/rules.md``; the text it was written from is not in
    the repository, and a reader could not follow a citation of it."""
    top = SOURCE.parent.parent
    files = [top / "README.md", *sorted((top / "docs").rglob("*.md"))]
    files += [path for path in sorted(SOURCE.rglob("*")) if path.suffix in (".py", ".js", ".html", ".md")]
    assert [
        str(path.relative_to(top)) for path in files if "RULES.md" in path.read_text(encoding="utf-8")
    ] == []


# -- the checks themselves, on a planted tree ---------------------------------------------------------


PLANTED = {
    "__init__.py": "",
    "cards.py": "import numba\n\n_SECRET = 1\n",
    "rules.py": (
        "def draw():\n    from beggar.kernels.rng import draw\n\n    return draw\n"
        'FIRST = "first"\nLEADS: tuple[str, ...] = (FIRST, "random")\nONE = ("alone",)\n'
    ),
    "notation.py": "from beggar.kernels.rng import deal_order\n",
    "kernels/__init__.py": "",
    "kernels/rng.py": "import numba\nfrom numba import njit\n",
    "kernels/general.py": (
        "from beggar.research import store\nfrom beggar.cards import _SECRET\nCOL_CARDS = 3\n"
    ),
    "research/__init__.py": "",
    "research/store.py": (
        "import beggar.cards as cards\n\nx = cards._SECRET\nimport numpy as np\ny = np.random\n"
        "found = deals_reaching([])\nORDERS = ['cards', 'tricks']\n"
    ),
    "research/cluster.py": "import ctypes\n\ndef die_with_parent():\n    ctypes.CDLL(None).prctl(1)\n",
    "research/cycles/solve.py": (
        "import multiprocessing\n\nchild = multiprocessing.Process()\npool = cf.ProcessPoolExecutor()\n"
    ),
    "web/archive.py": (
        "import random\nimport secrets\n\nctypes.CDLL(None).prctl(1)\n"
        "from beggar.kernels.general import play\n"
    ),
    "research/store_records.py": (
        "class CycleFigures:\n    deal: str\n    cards: int\n    period_tricks: int\n    period_cards: int\n"
        "    symmetric: bool\n    split_low: int\n    split_high: int\n\n\n"
        "class Deal:\n    deal: str\n    period_tricks: int\n    period_cards: int\n"
    ),
    "research/cycles/census.py": (
        "class Met:\n    deal: str\n    period_tricks: int\n    period_cards: int\n    split_low: int\n"
    ),
    "research/cycles/__init__.py": "",
    "research/cycles/canon.py": "from ..store import _helper\nfrom . import _model\n",
    "research/cycles/_model.py": "from beggar.research.cycles import canon\n",
    "web/__init__.py": "",
    "web/table.py": "from beggar.web.view import personal\n",
    "web/view.py": "from beggar.web.table import Table\nimport beggar.commands.serve\n",
    "web/plain.py": "from beggar.research.cycles._model import build\nclient = distributed.Client()\n",
    "commands/__init__.py": "",
    "commands/serve.py": (
        "from beggar.web.app import create_app\n\ndef f():\n    import numba\n\n\n"
        "@click.option('--by', type=click.Choice(('tricks', 'cards')))\n"
        "@click.option('--lead', type=click.Choice(['random', 'first']))\n"
        "@click.option('--to', type=click.Choice(['csv', 'json']))\n"
        "@click.option('--one', type=click.Choice(['alone']))\n"
        "def g(store):\n    store.save_basin(1)\n    with store.transaction():\n        seen.add(1)\n"
    ),
    "commands/games.py": (
        "from beggar.kernels.jit import compiling\nfrom beggar.kernels.rng import deal_order\n"
    ),
    "cli.py": "from beggar.commands import serve\n",
    "test_one.py": "from helpers import free_port\nfrom test_two import DEAL\n",
    "tests/test_three.py": "from beggar.tests import test_one\nimport conftest\n",
    "errors.py": "class BeggarError(Exception):\n    pass\n\n\nclass UserError(BeggarError):\n    pass\n",
    "deals.py": "class DealIndexError(ValueError):\n    pass\n\n\nclass Stray(DealIndexError):\n    pass\n",
    "web/lobby.py": (
        "from beggar.errors import UserError\n\n\nclass TableError(UserError, LookupError):\n    pass\n\n\n"
        "try:\n    pass\nexcept (TableError, KeyError):\n    pass\n"
        "except (UserError, errors.Stray) as exc:\n    pass\n"
        "try:\n    pass\nexcept TableError as exc:\n    if 'full' in str(exc):\n        pass\n"
        "try:\n    pass\nexcept RuntimeError as exc:\n    if 'close' in str(exc):\n        pass\n"
    ),
}


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A tiny package named ``beggar`` with one planted break of each rule (and lawful imports)."""
    root = tmp_path / "beggar"
    for name, text in PLANTED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_numba_check_finds_numba_outside_the_kernels_even_inside_a_function(planted: Path) -> None:
    assert [str(one) for one in compiler_imports(imports(planted))] == [
        "beggar.cards:1 imports numba",
        "beggar.commands.serve:4 imports numba",
    ]


def test_the_layer_check_finds_every_import_of_a_higher_layer(planted: Path) -> None:
    assert sorted(str(one) for one in upward_imports(imports(planted))) == [
        "beggar.kernels.general:1 imports beggar.research.store",
        "beggar.notation:1 imports beggar.kernels.rng (deal_order)",  # at import time: not allowed
        "beggar.web.view:2 imports beggar.commands.serve",
    ]  # beggar.rules draws lazily from kernels.rng: the one exception


def test_the_private_check_finds_underscore_names_imported_or_used(planted: Path) -> None:
    assert sorted(str(one) for one in private_imports(imports(planted))) == [
        "beggar.kernels.general:2 imports beggar.cards (_SECRET)",
        "beggar.research.cycles.canon:1 imports beggar.research.store (_helper)",
        "beggar.web.plain:1 imports beggar.research.cycles._model (build)",
    ]  # canon's own package's _model is its own business
    assert private_attributes(planted) == ["beggar.research.store:3 uses cards._SECRET"]


def test_the_web_order_check_finds_an_import_of_a_later_concern(planted: Path) -> None:
    assert [str(one) for one in web_order(imports(planted))] == [
        "beggar.web.table:1 imports beggar.web.view (personal)"
    ]


def test_the_test_module_check_finds_a_test_module_imported(planted: Path) -> None:
    assert [str(one) for one in imports_of_tests(imports(planted))] == [
        "beggar.test_one:2 imports test_two (DEAL)",
        "beggar.tests.test_three:1 imports beggar.tests (test_one)",
        "beggar.tests.test_three:2 imports conftest",
    ]


def test_the_cycle_check_finds_a_class_that_declares_a_cycles_figures_again(planted: Path) -> None:
    assert cycle_copies(planted) == ["beggar.research.cycles.census.Met"]  # a deal with its period is not one


def test_the_store_check_finds_a_command_writing_to_a_store(planted: Path) -> None:
    assert commands_writing(planted) == [
        "beggar.commands.serve:12 calls save_basin",
        "beggar.commands.serve:13 calls transaction",
    ]


def test_the_choice_check_finds_a_commands_choices_written_out_again(planted: Path) -> None:
    assert copied_choices(planted) == [
        "beggar.commands.serve:7 copies beggar.research.store.ORDERS",
        "beggar.commands.serve:8 copies beggar.rules.LEADS",
    ]  # csv and json are the command's own; a single value is no list of choices


def test_the_size_check_finds_a_long_file_in_every_folder_it_holds_but_the_kernels(tmp_path: Path) -> None:
    lengths = {
        "src/beggar/rules.py": 901,
        "src/beggar/kernels/general.py": 1200,  # the kernels are exempt
        "tests/test_rules.py": 900,  # at the limit: allowed
        "tests/web/test_table.py": 950,
        "scripts/soak.py": 1000,
        "bench/compare.py": 2000,
        "docs/example.py": 2000,  # not a folder of code
    }
    for name, length in lengths.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n" * length)
    assert long_files(tmp_path) == [
        "src/beggar/rules.py has 901 lines",
        "tests/web/test_table.py has 950 lines",
        "scripts/soak.py has 1000 lines",
        "bench/compare.py has 2000 lines",
    ]


PLANTED_TREE = """
```text
beggar/
  cards.py        rules.py, notation.py and test_one.py
  kernels/        rng.py
  research/       store.py, store_records.py, cluster.py, canon.py, search.py
    cycles/       _model.py, census.py, solve.py
  web/            table.py, view.py, archive.py,
                  plain.py, lobby.py
  commands/       serve.py, games.py
  tests/          test_three.py
  cli.py          the command
  errors.py       the errors
  deals.py        a deal's index
```
"""


def test_the_tree_check_finds_a_module_left_out_in_the_wrong_folder_or_not_there(planted: Path) -> None:
    assert tree_mismatches(PLANTED_TREE, planted.parent, ("beggar/",)) == [
        "beggar/kernels/general.py is not in the tree",
        "beggar/research/canon.py is not there",  # it is in cycles/
        "beggar/research/cycles/canon.py is not in the tree",
        "beggar/research/search.py is not there",
    ]


def test_the_compiled_code_check_finds_a_command_or_the_table_playing_through_a_kernel(planted: Path) -> None:
    assert [str(one) for one in compiled_code_imports(imports(planted))] == [
        "beggar.commands.games:2 imports beggar.kernels.rng (deal_order)",
        "beggar.web.archive:5 imports beggar.kernels.general (play)",
    ]


def test_the_one_caller_check_finds_a_second_pool_client_and_basin_walk(planted: Path) -> None:
    assert second_callers(planted) == [
        "beggar.research.cycles.solve:4 calls ProcessPoolExecutor",
        "beggar.research.store:6 calls deals_reaching",
        "beggar.web.plain:2 calls Client",  # not the research layer's, yet a second Dask client
    ]


def test_the_jit_check_finds_numbas_compiler_used_directly(planted: Path) -> None:
    assert [str(one) for one in compiled_past_jit(imports(planted))] == [
        "beggar.cards:1 imports numba",
        "beggar.commands.serve:4 imports numba",
        "beggar.kernels.rng:1 imports numba",
        "beggar.kernels.rng:2 imports numba (njit)",
    ]


def test_the_code_check_finds_a_code_bound_outside_codes(planted: Path) -> None:
    assert code_copies(planted) == ["beggar.kernels.general:3 binds COL_CARDS"]


def test_the_randomness_check_finds_random_and_numpy_random(planted: Path) -> None:
    assert random_sources(imports(planted), planted) == ["beggar.research.store", "beggar.web.archive"]


def test_the_process_check_finds_a_child_not_bound_and_prctl_outside_the_cluster(planted: Path) -> None:
    assert processes_not_bound(planted) == [
        "beggar.research.cycles.solve starts Process, ProcessPoolExecutor without die_with_parent",
        "beggar.web.archive calls prctl itself",
    ]


def test_the_circle_check_finds_modules_that_import_each_other(planted: Path) -> None:
    circles = import_cycles(imports(planted))
    assert [sorted(set(circle)) for circle in circles] == [
        ["beggar.research.cycles._model", "beggar.research.cycles.canon"],
        ["beggar.web.table", "beggar.web.view"],
    ]


def test_the_error_checks_find_a_class_off_the_base_and_errors_caught_by_list(planted: Path) -> None:
    assert sorted(error_classes(planted)) == [
        "BeggarError",
        "DealIndexError",
        "Stray",
        "TableError",
        "UserError",
    ]
    assert errors_off_the_base(planted) == ["DealIndexError", "Stray"]
    assert errors_caught_by_list(planted) == ["beggar.web.lobby:12 catches UserError, Stray"]
    # a project error sorted by its words is found; a library's (the socket's RuntimeError) is not
    assert errors_read_by_text(planted) == ["beggar.web.lobby:17 reads the text of exc"]
