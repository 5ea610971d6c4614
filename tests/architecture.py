"""The rules of ``docs/architecture.md`` as checks: each a function of a source tree (its imports
and its syntax, read with ``ast``, nothing run) that lists what breaks it.

``tests/test_architecture.py`` runs each on the package (which must break none) and on a tiny
synthetic tree with one planted break each (which each must find), so that a checker that cannot
fail would fail there.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
"""The repository."""
SOURCE = TOP / "src" / "beggar"

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


def within(module: str) -> str:
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
        if mine == "game" and one.lazy and within(one.target) == LAZY_RANDOM:
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
    for module, node in web_handlers(root):
        if isinstance(node.type, ast.Tuple):
            named = [_base_name(each) for each in node.type.elts if _base_name(each) in errors]
            if len(named) > 1:
                broken.append(f"{module}:{node.lineno} catches {', '.join(named)}")
    return broken


def web_handlers(root: Path) -> Iterator[tuple[str, ast.ExceptHandler]]:
    """Every ``except`` clause of the browser table (``web/``), with its module."""
    for module, path in modules(root).items():
        if layer(module) == "web":
            for node in ast.walk(_parsed(path)):
                if isinstance(node, ast.ExceptHandler):
                    yield module, node


def errors_read_by_text(root: Path) -> list[str]:
    """``except`` clauses of the browser table that catch one of the package's errors and then
    compare its text (``"full" in str(exc)``): an error is told apart by its class and its
    ``field``, never by its words, which may change (the socket once sorted one error by its text)."""
    errors = error_classes(root)
    broken = []
    for module, node in web_handlers(root):
        if not node.name or node.type is None:
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


MOST_LINES = 900
"""The most lines a Python file may have: a longer one holds more than one concept, and is split
by concept. The page's scripts have their own limit (``tests/web/test_scripts.py``)."""
SIZED = ("src", "tests", "scripts", "bench")
"""The folders whose Python files are held to :data:`MOST_LINES`."""
UNSIZED = "src/beggar/kernels/"
"""Exempt: the compiled kernels, written for speed rather than for reading, and held to the
reference engine by the differential tests (``general.py``, the batch kernel, is longer)."""


def long_files(top: Path, most: int = MOST_LINES) -> list[str]:
    """The Python files of :data:`SIZED` under ``top`` (but :data:`UNSIZED`) longer than ``most``
    lines, each with its length."""
    found = []
    for folder in SIZED:
        for path in sorted((top / folder).rglob("*.py")):
            name = path.relative_to(top).as_posix()
            if name.startswith(UNSIZED):
                continue
            length = len(path.read_text(encoding="utf-8").splitlines())
            if length > most:
                found.append(f"{name} has {length} lines")
    return found
