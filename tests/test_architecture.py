"""The rules of ``docs/architecture.md``, held by reading the package's imports (``ast``, nothing run).

Each rule is a function of a source tree that lists what breaks it; the tests run each on the
package (which must break none) and on a tiny synthetic tree with one planted break each (which
each must find), so that a checker that cannot fail would fail here.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib.metadata
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "beggar"

LAYERS = ("game", "kernels", "research", "web", "commands")
"""The layers, lowest first: each imports only from itself and the layers before it."""

LAZY_RANDOM = "kernels.rng"
"""The one module of a higher layer the game may import: the one random generator, which the game
calls for a random deal or lead, inside the function that needs it (so importing the game loads
no compiler)."""

WEB_ORDER = ("table", "view", "pacing", "lobby", "handler", "app")
"""The browser table's modules by concern: each imports only those before it."""

COMPILERS = ("numba", "llvmlite")

ERROR_BASE = "BeggarError"
"""The one base of every exception the package defines (``beggar.errors``)."""
BUILTIN_ERRORS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


@dataclass(frozen=True)
class Import:
    """One import statement's dependency of one module on another."""

    module: str
    """The importing module, dotted (``beggar.web.table``)."""
    target: str
    """The module imported (``from X import name`` imports ``X.name`` if that is a module, else ``X``)."""
    names: tuple[str, ...]
    """The names a ``from`` import takes from ``target`` (empty for ``import X``)."""
    line: int
    lazy: bool
    """Inside a function: run when the function is called, not when the module is imported."""

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.target}" + (
            f" ({', '.join(self.names)})" if self.names else ""
        )


def module_name(path: Path, root: Path) -> str:
    """``root/web/table.py`` → ``beggar.web.table`` (``root`` is the package folder)."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package in ``root``, by dotted name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


@functools.cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _nodes(tree: ast.AST) -> Iterator[tuple[ast.AST, bool]]:
    """Every node of ``tree``, and whether it lies inside a function."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, lazy = stack.pop()
        yield node, lazy
        inner = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def imports(root: Path) -> list[Import]:
    """Every import of every module of the package in ``root`` (relative imports resolved)."""
    known = modules(root)
    found = []
    for module, path in known.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node, lazy in _nodes(_parsed(path)):
            if isinstance(node, ast.Import):
                found += [Import(module, alias.name, (), node.lineno, lazy) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in node.names:
                    whole = f"{base}.{alias.name}"
                    if whole in known:
                        found.append(Import(module, whole, (), node.lineno, lazy))
                    else:
                        found.append(Import(module, base, (alias.name,), node.lineno, lazy))
    return sorted(found, key=lambda one: (one.module, one.line))


def layer(module: str) -> str | None:
    """The layer of a module of the package (None for a module outside it).

    >>> layer("beggar.rules"), layer("beggar.kernels.rng"), layer("beggar.cli"), layer("numpy")
    ('game', 'kernels', 'commands', None)
    """
    top, _, rest = module.partition(".")
    if top != "beggar":
        return None
    first = rest.split(".")[0]
    if first in ("kernels", "research", "web", "commands"):
        return first
    if first in ("cli", "__main__"):
        return "commands"  # the ``beggar`` command puts the commands together
    return "game"


def _within(module: str) -> str:
    """A module's name inside the package: ``beggar.kernels.rng`` → ``kernels.rng``."""
    return module.partition(".")[2]


def compiler_imports(found: list[Import]) -> list[Import]:
    """Imports of numba (or its llvmlite) outside ``kernels/``."""
    return [one for one in found if one.target.split(".")[0] in COMPILERS and layer(one.module) != "kernels"]


def upward_imports(found: list[Import]) -> list[Import]:
    """Imports of a higher layer than the importer's (the one random generator excepted, lazily)."""
    broken = []
    for one in found:
        mine, theirs = layer(one.module), layer(one.target)
        if mine is None or theirs is None or LAYERS.index(theirs) <= LAYERS.index(mine):
            continue
        if mine == "game" and one.lazy and _within(one.target) == LAZY_RANDOM:
            continue
        broken.append(one)
    return broken


def private_imports(found: list[Import]) -> list[Import]:
    """Imports of another module's underscore names (``from beggar.x import _y``), or of a
    module whose own name starts with one, from outside its package."""
    broken = []
    for one in found:
        if layer(one.target) is None or one.target == one.module:
            continue
        names = [name for name in one.names if name.startswith("_") and not name.endswith("__")]
        hidden = [part for part in one.target.split(".") if part.startswith("_") and part != "__init__"]
        if names or (hidden and not one.module.startswith(one.target.rpartition(".")[0] + ".")):
            broken.append(one)
    return broken


def private_attributes(root: Path) -> list[str]:
    """Uses of another module's underscore names through a name imported from it
    (``import beggar.x as x; x._y``, ``from beggar.x import Thing; Thing._y``)."""
    broken = []
    for module, path in modules(root).items():
        tree = _parsed(path)
        imported: set[str] = set()
        for node, _ in _nodes(tree):
            if (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("beggar")) or (
                isinstance(node, ast.ImportFrom) and node.level
            ):
                imported |= {alias.asname or alias.name for alias in node.names}
            elif isinstance(node, ast.Import):
                imported |= {
                    alias.asname or alias.name.split(".")[0]
                    for alias in node.names
                    if alias.name.startswith("beggar")
                }
        for node, _ in _nodes(tree):
            if not isinstance(node, ast.Attribute):
                continue
            if not node.attr.startswith("_") or node.attr.endswith("__"):
                continue
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in imported:
                broken.append(f"{module}:{node.lineno} uses {ast.unparse(node)}")
    return broken


def web_order(found: list[Import]) -> list[Import]:
    """Imports, among the browser table's modules by concern, of one after the importer."""
    order = {f"beggar.web.{name}": index for index, name in enumerate(WEB_ORDER)}
    return [
        one
        for one in found
        if one.module in order and one.target in order and order[one.target] > order[one.module]
    ]


def import_cycles(found: list[Import]) -> list[list[str]]:
    """Circles of modules that import each other when imported (imports inside functions aside)."""
    graph: dict[str, set[str]] = {}
    for one in found:
        if not one.lazy and layer(one.target) is not None and one.target != one.module:
            graph.setdefault(one.module, set()).add(one.target)
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return cycles


def _base_name(node: ast.expr) -> str:
    """The name a class's base or an ``except`` clause gives a class (``x.Error`` → ``Error``)."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


@functools.cache
def error_classes(root: Path) -> dict[str, list[str]]:
    """Every exception class the package in ``root`` defines, by name, with its bases' names: a
    class is one if a base is a builtin exception or another of the package's exception classes."""
    classes = {
        node.name: [_base_name(base) for base in node.bases]
        for path in modules(root).values()
        for node in _parsed(path).body  # exceptions are declared at the top of their module
        if isinstance(node, ast.ClassDef)
    }
    errors: dict[str, list[str]] = {}
    while True:
        more = {
            name: bases
            for name, bases in classes.items()
            if name not in errors and any(base in BUILTIN_ERRORS or base in errors for base in bases)
        }
        if not more:
            return errors
        errors.update(more)


def errors_off_the_base(root: Path) -> list[str]:
    """The package's exception classes that do not derive from :data:`ERROR_BASE`."""
    errors = error_classes(root)
    family = {ERROR_BASE}
    while grown := {name for name, bases in errors.items() if name not in family and family & set(bases)}:
        family |= grown
    return sorted(set(errors) - family)


def errors_caught_by_list(root: Path) -> list[str]:
    """``except`` clauses of the browser table (``web/``) that name several of the package's error
    classes: a handler of several catches their base, so that an error added later is not left out
    of its list (the socket once answered five classes by name, and a sixth "went wrong")."""
    errors = error_classes(root)
    broken = []
    for module, path in modules(root).items():
        if layer(module) != "web":
            continue
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.ExceptHandler) and isinstance(node.type, ast.Tuple):
                named = [_base_name(each) for each in node.type.elts if _base_name(each) in errors]
                if len(named) > 1:
                    broken.append(f"{module}:{node.lineno} catches {', '.join(named)}")
    return broken


def errors_read_by_text(root: Path) -> list[str]:
    """``except`` clauses of the browser table that catch one of the package's errors and then
    compare its text (``"full" in str(exc)``): an error is told apart by its class and its
    ``field``, never by its words, which may change (the socket once sorted one error by its text)."""
    errors = error_classes(root)
    broken = []
    for module, path in modules(root).items():
        if layer(module) != "web":
            continue
        for node in ast.walk(_parsed(path)):
            if not (isinstance(node, ast.ExceptHandler) and node.name and node.type is not None):
                continue
            caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            if not any(_base_name(each) in errors for each in caught):
                continue
            for inner in (each for part in node.body for each in ast.walk(part)):
                text = ast.unparse(inner) if isinstance(inner, ast.Compare) else ""
                if f"str({node.name})" in text or f"{node.name}.args" in text:
                    broken.append(f"{module}:{inner.lineno} reads the text of {node.name}")
    return broken


def imports_of_tests(found: list[Import]) -> list[Import]:
    """Imports, among test files, of a test module (``test_*``) or of ``conftest``: what the test
    files share goes through ``tests/helpers.py`` and ``tests/conftest.py``'s fixtures."""
    return [
        one
        for one in found
        if any(
            part.startswith("test_") or part == "conftest" for part in (*one.target.split("."), *one.names)
        )
    ]


def declared_fields(root: Path) -> dict[str, list[str]]:
    """Every class of the package in ``root`` (``module.Class``) and the fields it declares itself
    (its annotated names, not those it inherits)."""
    found = {}
    for module, path in modules(root).items():
        for node, _ in _nodes(_parsed(path)):
            if isinstance(node, ast.ClassDef):
                found[f"{module}.{node.name}"] = [
                    each.target.id
                    for each in node.body
                    if isinstance(each, ast.AnnAssign) and isinstance(each.target, ast.Name)
                ]
    return found


CYCLE_FIGURES = "beggar.research.store_records.CycleFigures"
"""The one description of a cycle (its canonical position and figures)."""


def cycle_copies(root: Path) -> list[str]:
    """Classes that declare four or more of a cycle's figures again instead of extending
    :data:`CYCLE_FIGURES` (a deal with its period, or a game with its cards, declares two or three)."""
    declared = declared_fields(root)
    figures = set(declared[CYCLE_FIGURES])
    return sorted(
        name for name, names in declared.items() if name != CYCLE_FIGURES and len(figures & set(names)) >= 4
    )


def tree_sections(page: str) -> dict[str, str]:
    """The folder tree of ``docs/architecture.md`` (its ``text`` block), as the text said of each
    folder (``src/beggar/kernels/``), its continued lines included."""
    block = page.split("```text", 1)[1].split("```", 1)[0]
    sections: dict[str, str] = {}
    folders: list[tuple[int, str]] = []
    current = ""
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip())
        if line.strip() and indent < TREE_TEXT_COLUMN:  # an entry: a file or a folder
            while folders and folders[-1][0] >= indent:
                folders.pop()
            first = line.split()[0]
            if first.endswith("/"):
                folders.append((indent, (folders[-1][1] if folders else "") + first))
            current = folders[-1][1] if folders else ""
        sections[current] = sections.get(current, "") + line + "\n"
    return sections


TREE_TEXT_COLUMN = 18
"""Where the tree's descriptions start: a line indented this far continues the one above."""


def tree_mismatches(page: str, top: Path, folders: tuple[str, ...]) -> list[str]:
    """Python files of ``folders`` (below ``top``) that the tree does not name under their folder,
    and names it gives that are not there."""
    sections = tree_sections(page)
    wrong = []
    for folder in folders:
        for path in sorted((top / folder).rglob("*.py")):
            place = f"{path.parent.relative_to(top).as_posix()}/"
            if path.name != "__init__.py" and path.name not in _py_names(sections.get(place, "")):
                wrong.append(f"{path.relative_to(top).as_posix()} is not in the tree")
    for place, text in sections.items():
        if place.startswith(folders):
            wrong += [
                f"{place}{name} is not there"
                for name in _py_names(text)
                if not (top / place / name).is_file()
            ]
    return sorted(wrong)


def _py_names(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w.])(\w+\.py)\b", text))


CODE_PREFIXES = ("STATUS_", "REASON_", "OUTCOME_", "AWARD_", "REPEAT_", "COL_", "CFG_")
"""The names of the numbers the kernels and Python agree on (status, reason, outcome codes, the
columns of a result row, the slots of a configuration vector)."""


def code_copies(root: Path) -> list[str]:
    """Module-level names of kernel codes bound anywhere but ``kernels/codes.py``."""
    found = []
    for module, path in modules(root).items():
        if module.endswith("kernels.codes"):
            continue
        for node in _parsed(path).body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found += [
                    f"{module}:{node.lineno} binds {name.id}"
                    for target in targets
                    for name in ast.walk(target)
                    if isinstance(name, ast.Name) and name.id.startswith(CODE_PREFIXES)
                ]
    return found


def random_sources(found: list[Import], root: Path) -> list[str]:
    """Modules that draw randomness other than from ``kernels/rng.py``: an import of ``random`` or
    ``numpy.random``, or a use of ``np.random``. (``secrets`` names tables and tokens; it deals nothing.)"""
    sources = {one.module for one in found if one.target in ("random", "numpy.random")}
    for module, path in modules(root).items():
        for node, _ in _nodes(_parsed(path)):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "random"
                and isinstance(node.value, ast.Name)
                and node.value.id in ("np", "numpy")
            ):
                sources.add(module)
    return sorted(module for module in sources if not module.endswith("kernels.rng"))


def processes_not_bound(root: Path) -> list[str]:
    """Modules that start a process in the background (a process pool, a ``multiprocessing``
    process) without :func:`beggar.research.cluster.die_with_parent`, and modules other than the
    cluster that call ``prctl`` themselves."""
    wrong = []
    for module, path in modules(root).items():
        names = {
            node.attr if isinstance(node, ast.Attribute) else node.id
            for node, _ in _nodes(_parsed(path))
            if isinstance(node, ast.Attribute | ast.Name)
        }
        starts = names & {"ProcessPoolExecutor", "Process"}
        if starts and "die_with_parent" not in names:
            wrong.append(f"{module} starts {', '.join(sorted(starts))} without die_with_parent")
        if "prctl" in names and not module.endswith("research.cluster"):
            wrong.append(f"{module} calls prctl itself")
    return wrong


COMMANDS_MAY_IMPORT_FROM_KERNELS = ("beggar.kernels.jit",)
"""The one kernel module a command may import: the notice that the kernels compile, once."""


def compiled_code_imports(found: list[Import]) -> list[Import]:
    """Imports of compiled code by the commands (a command parses, asks the library and prints)
    or by the browser table (which holds no game logic: the reference engine turns every card)."""
    return [
        one
        for one in found
        if layer(one.target) == "kernels"
        and (
            layer(one.module) == "web"
            or (layer(one.module) == "commands" and one.target not in COMMANDS_MAY_IMPORT_FROM_KERNELS)
        )
    ]


ONE_CALLER = {
    "ProcessPoolExecutor": "beggar.research.cluster",
    "Client": "beggar.research.cluster",
    "connect_cluster": "beggar.commands.campaign",
    "deals_reaching": "beggar.research.cycles.basins",
}
"""Calls that one module makes for its layer: the process pool and the Dask client (the one
runner of units), the cluster a command connects to (the one command helper, ``run_resumable``),
and the backward walk from a cycle to its balanced deals (the one basin walk, with one budget)."""
ANY_LAYER = ("ProcessPoolExecutor", "Client")
"""Of those, the calls no module of any layer makes but their owner: the process pool and the Dask
client are started by the one runner alone."""


def second_callers(root: Path) -> list[str]:
    """Calls of :data:`ONE_CALLER`'s names by another module of the caller's layer (of any layer,
    for :data:`ANY_LAYER`)."""
    wrong = []
    for module, path in modules(root).items():
        for node, _ in _nodes(_parsed(path)):
            if not isinstance(node, ast.Call):
                continue
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            owner = ONE_CALLER.get(called)
            if (
                owner is not None
                and owner != module
                and (called in ANY_LAYER or layer(owner) == layer(module))
            ):
                wrong.append(f"{module}:{node.lineno} calls {called}")
    return wrong


COMPILE_ENTRIES = ("jit", "njit", "vectorize", "guvectorize", "cfunc", "generated_jit", "stencil")
"""numba's ways to compile a function, which only ``kernels/jit.py`` may use."""


def compiled_past_jit(found: list[Import]) -> list[Import]:
    """Imports of numba's compiler (``import numba``, ``from numba import njit``) by any module but
    ``beggar.kernels.jit``, the one way code is compiled (numba's types and intrinsics are free)."""
    return [
        one
        for one in found
        if one.target.split(".")[0] == "numba"
        and not one.module.endswith("kernels.jit")
        and (not one.names or set(one.names) & set(COMPILE_ENTRIES))
    ]


STORE_WRITES = ("save", "transaction")
"""How the methods that write a store are named (``save_basin``, ``save_census_row``, ``transaction``)."""


def commands_writing(root: Path) -> list[str]:
    """Calls, by the commands, of a method that writes a store (:data:`STORE_WRITES`): a command
    parses its options, asks the library, which records its own work, and prints."""
    return sorted(
        f"{module}:{node.lineno} calls {node.func.attr}"
        for module, path in modules(root).items()
        if layer(module) == "commands"
        for node, _ in _nodes(_parsed(path))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr.startswith(STORE_WRITES)
    )


def _texts(node: ast.expr | None, named: dict[str, str]) -> frozenset[str] | None:
    """The strings of a literal list or tuple, written out or named (``(AUTO, PLAY)``, strings bound
    above); None for anything else."""
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else [ast.Name("")]
    texts = [named.get(x.id) if isinstance(x, ast.Name) else getattr(x, "value", None) for x in items]
    return frozenset(texts) if all(isinstance(text, str) for text in texts) else None


def library_choices(root: Path) -> dict[frozenset[str], str]:
    """Every list or tuple of two or more strings bound at the top of a module outside the
    commands (``beggar.research.strategies.BANDS``), by its values."""
    found: dict[frozenset[str], str] = {}
    for module, path in modules(root).items():
        named: dict[str, str] = {}
        for node in _parsed(path).body if layer(module) != "commands" else []:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
                value = node.value.value if isinstance(node.value, ast.Constant) else None
                if isinstance(target, ast.Name) and isinstance(value, str):
                    named[target.id] = value
                elif isinstance(target, ast.Name) and len(texts := _texts(node.value, named) or ()) > 1:
                    found.setdefault(frozenset(texts), f"{module}.{target.id}")
    return found


def copied_choices(root: Path) -> list[str]:
    """``click.Choice`` calls of the commands that write out the values of a library constant
    (:func:`library_choices`) instead of naming it: the library owns what can be chosen."""
    owned = library_choices(root)
    return sorted(
        f"{module}:{node.lineno} copies {owned[texts]}"
        for module, path in modules(root).items()
        if layer(module) == "commands"
        for node, _ in _nodes(_parsed(path))
        if isinstance(node, ast.Call) and _base_name(node.func) == "Choice" and node.args
        if (texts := _texts(node.args[0], {})) in owned
    )


# -- the package ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def package() -> list[Import]:
    return imports(SOURCE)


def test_every_layer_is_a_folder_and_every_module_has_a_layer(package: list[Import]) -> None:
    assert {layer(module) for module in modules(SOURCE)} == set(LAYERS)
    assert {_within(module).split(".")[0] for module in modules(SOURCE) if layer(module) != "game"} == {
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

    holders = [
        path for path in sorted(SOURCE.rglob("*.py")) if ID_ALPHABET in path.read_text(encoding="utf-8")
    ]
    assert [str(path.relative_to(SOURCE)) for path in holders] == ["web/ids.py"]


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
