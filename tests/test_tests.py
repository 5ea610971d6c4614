"""The test suite's own rules, held by reading its files (``ast``, nothing run).

What several test modules share has one owner that the others import: the phone's screen and the
page helper :func:`helpers.opened` in ``tests/helpers.py`` (a free port too, which it takes from
``scripts/proxied.py``), and the ``client`` fixture in ``tests/web/conftest.py``. Every browser page
is made by :func:`helpers.opened`, which fails the test on a script error on the page; a page made
any other way would let one pass unseen. Each rule is run on the suite (which must break none) and
on a tiny planted tree with its breaks (which it must find), so that a check that cannot fail would
fail here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

PAGE_HELPER = "helpers.py"
"""The one module that opens a browser context or page (:func:`helpers.opened`)."""
BROWSER_CALLS = ("new_context", "new_page")

OWNERS = {"PHONE": "helpers.py", "PHONE_SCREEN": "helpers.py", "free_port": "../scripts/proxied.py"}
"""The shared names, each with the one file (relative to ``tests/``) that may define it."""

CLIENT_OWNER = "web/conftest.py"
"""Where the ``client`` fixture is defined; a module that needs another server overrides
``client_settings`` instead."""


def python_files(root: Path) -> dict[str, ast.Module]:
    """Every Python file under ``root``, parsed, by its path relative to ``root``."""
    return {
        path.relative_to(root).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(root.rglob("*.py"))
    }


def browser_bypasses(files: dict[str, ast.Module]) -> list[str]:
    """Calls of ``.new_context(…)`` or ``.new_page(…)`` outside :data:`PAGE_HELPER`."""
    return [
        f"{path}:{node.lineno} calls {node.func.attr}"
        for path, tree in files.items()
        if path != PAGE_HELPER
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in BROWSER_CALLS
    ]


def _defined(node: ast.AST) -> list[str]:
    """The names a statement defines: a function's or class's, or an assignment's targets."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, ast.AnnAssign)
        else []
    )
    return [name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)]


def shared_redefinitions(files: dict[str, ast.Module]) -> list[str]:
    """Definitions of a name of :data:`OWNERS` anywhere but in its owner."""
    return [
        f"{path}:{node.lineno} defines {name}"
        for path, tree in files.items()
        for node in ast.walk(tree)
        for name in _defined(node)
        if name in OWNERS and OWNERS[name] != path
    ]


def _is_fixture(decorator: ast.expr) -> tuple[bool, str | None]:
    """Whether a decorator is ``pytest.fixture`` (called or not), and the ``name=`` it gives."""
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call else decorator
    fixture = (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
        isinstance(target, ast.Name) and target.id == "fixture"
    )
    named = [
        k.value.value
        for k in (call.keywords if call else [])
        if k.arg == "name" and isinstance(k.value, ast.Constant)
    ]
    return fixture, (str(named[0]) if named else None)


def client_fixtures(files: dict[str, ast.Module]) -> list[str]:
    """Fixtures that pytest knows as ``client`` (by their function's name or ``name=``) outside
    :data:`CLIENT_OWNER`."""
    found = []
    for path, tree in files.items():
        for node in ast.walk(tree):
            if path == CLIENT_OWNER or not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for decorator in node.decorator_list:
                fixture, name = _is_fixture(decorator)
                if fixture and (name or node.name) == "client":
                    found.append(f"{path}:{node.lineno} defines the client fixture")
    return found


# -- the suite ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def suite() -> dict[str, ast.Module]:
    return python_files(TESTS)


def test_every_browser_page_is_opened_by_the_helper_that_fails_on_a_script_error(
    suite: dict[str, ast.Module],
) -> None:
    assert browser_bypasses(suite) == []
    assert browser_bypasses({"elsewhere.py": suite[PAGE_HELPER]}) != []  # the helper itself is found


def test_the_phone_and_the_free_port_are_defined_once(suite: dict[str, ast.Module]) -> None:
    assert shared_redefinitions(suite) == []
    assert "PHONE" in _defined_names(suite[OWNERS["PHONE"]])  # the owner does define it


def test_the_scripts_take_the_free_port_from_proxied_too() -> None:
    """The scripts run by hand (load, soak, restart, screenshots) find a free port as the tests do."""
    scripts = {f"../scripts/{path}": tree for path, tree in python_files(TESTS.parent / "scripts").items()}
    assert [each for each in shared_redefinitions(scripts) if each.endswith("free_port")] == []
    assert "free_port" in _defined_names(scripts[OWNERS["free_port"]])  # the owner is among them


def test_one_client_fixture(suite: dict[str, ast.Module]) -> None:
    assert client_fixtures(suite) == []
    assert client_fixtures({"elsewhere.py": suite[CLIENT_OWNER]}) != []


def _defined_names(tree: ast.Module) -> set[str]:
    return {name for node in ast.walk(tree) for name in _defined(node)}


# -- the checks themselves, on a planted tree ---------------------------------------------------------

PLANTED = {
    "helpers.py": (
        "PHONE = {'viewport': {}}\ndef opened(browser):\n    return browser.new_context().new_page()\n"
    ),
    "web/conftest.py": "import pytest\n\n@pytest.fixture\ndef client():\n    yield 1\n",
    "web/test_a.py": (
        "import pytest\n"
        "PHONE = {'width': 390}\n"
        "def free_port():\n"
        "    return 1\n"
        "@pytest.fixture\n"
        "def client():\n"
        "    yield 2\n"
        "def test_x(browser):\n"
        "    page = browser.new_page()\n"
    ),
    "test_b.py": (
        "from pytest import fixture\n"
        "from helpers import PHONE, opened\n"
        "PHONE_SCREEN: dict = {}\n"
        "@fixture(scope='module', name='client')\n"
        "def other():\n"
        "    yield 3\n"
        "@fixture\n"
        "def client_settings():\n"
        "    return {}\n"
        "def test_y(browser):\n"
        "    with opened(browser, **PHONE) as page:\n"
        "        browser.contexts[0].new_page()\n"
    ),
}


@pytest.fixture
def planted(tmp_path: Path) -> dict[str, ast.Module]:
    for name, text in PLANTED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return python_files(tmp_path)


def test_the_page_check_finds_a_context_or_page_made_outside_the_helper(
    planted: dict[str, ast.Module],
) -> None:
    assert browser_bypasses(planted) == ["test_b.py:12 calls new_page", "web/test_a.py:9 calls new_page"]


def test_the_shared_names_check_finds_each_one_defined_again(planted: dict[str, ast.Module]) -> None:
    assert shared_redefinitions(planted) == [
        "test_b.py:3 defines PHONE_SCREEN",
        "web/test_a.py:2 defines PHONE",
        "web/test_a.py:3 defines free_port",
    ]


def test_the_client_check_finds_a_client_fixture_by_its_name_or_its_function_s(
    planted: dict[str, ast.Module],
) -> None:
    assert client_fixtures(planted) == [
        "test_b.py:5 defines the client fixture",
        "web/test_a.py:6 defines the client fixture",
    ]


def test_every_collected_test_carries_the_markers_of_what_it_uses(request: pytest.FixtureRequest) -> None:
    """The tiers follow from what a test uses (``tests/conftest.py``): Chromium makes it a
    ``browser`` test and a Dask cluster a ``system`` test, in whatever module it stands, and an
    ``exhaustive`` test is ``slow`` too, so that the quick tier never starts a browser."""
    items = request.session.items
    assert request.node in items  # the check reads this run's collected tests
    wrong = []
    for item in items:
        uses = set(getattr(item, "fixturenames", ()))
        needs = {"browser"} if {"browser", "page"} & uses else set()
        needs |= {"system"} if "dask_scheduler" in uses else set()
        needs |= {"slow"} if item.get_closest_marker("exhaustive") else set()
        missing = sorted(name for name in needs if not item.get_closest_marker(name))
        wrong += [f"{item.nodeid} is not marked {name}" for name in missing]
    assert wrong == []
