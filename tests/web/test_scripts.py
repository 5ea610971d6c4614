"""The page's scripts (``src/beggar/web/static/js/`` and ``messages.js``): every module opens with
``// @ts-check``, TypeScript checks the JSDoc types of all of them together (``jsconfig.json``),
no module grows past 500 lines, and the board (the seats, the pile and the mark of who owes) is
drawn by board.js alone, for the live table and the replay alike."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import beggar.web

WEB = Path(beggar.web.__file__).parent
STATIC = WEB / "static"
MODULES = [*sorted((STATIC / "js").glob("*.js")), WEB / "messages.js"]
TSC = Path(__file__).resolve().parents[2] / "node_modules" / ".bin" / "tsc"
"""TypeScript, installed from package.json by ``npm ci`` (scripts/test runs it)."""
BOARD = ("drawSeats", "drawPile", "seatOwes")
"""What board.js alone defines: the seats, the pile and who owes on the card being paid for."""


def definitions(source: str, name: str) -> list[str]:
    """Every place ``source`` defines ``name``: a function, a variable or constant, a class's
    method, an object's property, or an export under that name."""
    n = re.escape(name)
    shapes = [
        rf"\bfunction\s*\*?\s*{n}\b",  # function drawSeats(...), export function ...
        rf"\b(?:const|let|var)\s+{n}\b",  # const drawSeats = ...
        rf"^[ \t]*(?:static\s+|async\s+)*{n}\s*\([^)]*\)\s*\{{",  # a method: drawSeats(box) {
        rf"^[ \t]*{n}\s*:",  # an object's property: drawSeats: (...) => ...
        rf"\bas\s+{n}\b",  # export { draw as drawSeats }
    ]
    return [m.group(0).strip() for shape in shapes for m in re.finditer(shape, source, re.MULTILINE)]


def test_every_module_is_checked_and_none_is_over_500_lines() -> None:
    checked = (STATIC / "jsconfig.json").read_text(encoding="utf-8")
    assert '"checkJs": true' in checked
    for path in MODULES:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "// @ts-check", f"{path.name} does not open with // @ts-check"
        assert len(lines) <= 500, f"{path.name} has {len(lines)} lines"


@pytest.mark.system
def test_typescript_finds_no_error_in_the_scripts_types() -> None:
    if not TSC.exists():
        if os.environ.get("CI"):
            raise RuntimeError("TypeScript is needed for this test: npm ci")
        pytest.skip("TypeScript is not installed (npm ci)")
    result = subprocess.run(
        [str(TSC), "--pretty", "false", "-p", str(STATIC / "jsconfig.json")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_board_is_drawn_by_board_js_alone() -> None:
    # board.js defines each once; every other module that draws a board imports it from there,
    # so the live table and the replay cannot draw seats, piles or owed marks in two ways.
    sources = {path.name: path.read_text(encoding="utf-8") for path in MODULES}
    for name in BOARD:
        assert len(definitions(sources["board.js"], name)) == 1, f"board.js does not define {name} once"
        elsewhere = {
            module: found
            for module, source in sources.items()
            if module != "board.js"
            if (found := definitions(source, name))
        }
        assert not elsewhere, f"{name} is defined outside board.js: {elsewhere}"
    imported = re.compile(r'import\s*\{([^}]*)\}\s*from\s*"\./board\.js"')
    users: dict[str, tuple[str, ...]] = {
        "replay.js": BOARD,
        "table.js": ("drawSeats", "seatOwes"),
    }
    for module, names in users.items():
        imports = {
            word.strip() for match in imported.finditer(sources[module]) for word in match.group(1).split(",")
        }
        assert set(names) <= imports, f"{module} does not import {set(names) - imports} from board.js"
